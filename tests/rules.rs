//! One named test per rule of SPEC §1. Positions are hand-made; where a
//! number comes from an outside source it is cited.

use komadai::shogi::Color::{Gote, Sente};
use komadai::shogi::{
    declaration_check, DeclarationMissing, DrawReason, EnteringKingRule, Game, GameError, Handicap,
    IllegalMove, Move, Outcome, PieceKind, Position, Square, Variant, WinReason,
    STANDARD_START_SFEN,
};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap()
}

fn legal(sfen: &str, usi: &str) -> bool {
    pos(sfen).is_legal(mv(usi))
}

fn refusal(sfen: &str, usi: &str) -> IllegalMove {
    pos(sfen).check_move(mv(usi)).expect_err(usi)
}

fn game(sfen: &str, rule: EnteringKingRule) -> Game {
    Game::new(pos(sfen), rule)
}

fn play_all(g: &mut Game, moves: &str) -> Option<Outcome> {
    let mut last = None;
    for m in moves.split_whitespace() {
        last = g.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    last
}

// --- Board and setup -------------------------------------------------------

#[test]
fn start_position_sente_moves_first() {
    let p = Position::startpos();
    assert_eq!(p.to_sfen(), STANDARD_START_SFEN);
    assert_eq!(p.side_to_move(), Sente);
    assert_eq!(p.king_square(Sente), Some(Square::SQ_5I));
    assert_eq!(p.king_square(Gote), Some(Square::SQ_5A));
    assert_eq!(p.legal_moves().len(), 30);
}

#[test]
fn dragon_moves_like_rook_plus_one_diagonal_step() {
    let p = pos("k8/9/9/9/4+R4/9/9/9/8K b - 1");
    assert!(p.is_legal(mv("5e4d")));
    assert!(p.is_legal(mv("5e1e")));
    assert!(!p.is_legal(mv("5e3c")));
    // 16 rook squares + 4 diagonal steps.
    let dragon_moves = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(Square::SQ_5E))
        .count();
    assert_eq!(dragon_moves, 16 + 4);
}

#[test]
fn horse_moves_like_bishop_plus_one_orthogonal_step() {
    let p = pos("4k4/9/9/9/4+B4/9/9/9/4K4 b - 1");
    assert!(p.is_legal(mv("5e5d")));
    assert!(p.is_legal(mv("5e1a")));
    assert!(!p.is_legal(mv("5e5c")));
}

#[test]
fn promoted_minor_pieces_move_like_gold() {
    for piece in ["+P", "+L", "+N", "+S"] {
        let sfen = format!("4k4/9/9/9/4{piece}4/9/9/9/4K4 b - 1");
        let p = pos(&sfen);
        let mut to: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Some(Square::SQ_5E))
            .map(|m| m.to().to_string())
            .collect();
        to.sort();
        assert_eq!(to, ["4d", "4e", "5d", "5f", "6d", "6e"], "{piece}");
    }
}

#[test]
fn king_and_gold_never_promote() {
    let p = pos("4k4/9/9/4G4/9/9/9/9/4K4 b - 1");
    assert_eq!(
        p.check_move(mv("5d5c+")),
        Err(IllegalMove::PieceCannotPromote(PieceKind::Gold))
    );
    let p = pos("4k4/9/9/9/9/9/9/9/K8 b - 1");
    assert!(p.legal_moves().iter().all(|m| !m.is_promotion()));
}

// --- Promotion ----------------------------------------------------------------

#[test]
fn promotion_entering_inside_or_leaving_the_zone() {
    let sfen = "4k4/9/9/2S6/9/4S4/9/9/4K4 b - 1";
    assert!(legal(sfen, "7d7c+"), "entering");
    let sfen = "4k4/9/2S6/9/9/9/9/9/4K4 b - 1";
    assert!(legal(sfen, "7c6b+"), "inside");
    assert!(legal(sfen, "7c6d+"), "leaving");
    assert!(legal(sfen, "7c6d"), "leaving without promotion");
    assert_eq!(
        refusal("4k4/9/9/9/9/4S4/9/9/4K4 b - 1", "5f5e+"),
        IllegalMove::NotInPromotionZone
    );
}

#[test]
fn promotion_needs_a_legal_unpromoted_move() {
    // A silver cannot move sideways, promoted or not.
    assert!(matches!(
        refusal("4k4/9/4S4/9/9/9/9/9/4K4 b - 1", "5c4c+"),
        IllegalMove::CannotMoveLikeThat {
            kind: PieceKind::Silver,
            ..
        }
    ));
}

#[test]
fn forced_promotion_pawn_lance_knight() {
    let p = "4k4/P8/9/9/9/9/9/9/4K4 b - 1";
    assert_eq!(
        refusal(p, "9b9a"),
        IllegalMove::MustPromote {
            kind: PieceKind::Pawn,
            to: Square::SQ_9A
        }
    );
    assert!(legal(p, "9b9a+"));
    let l = "4k4/9/L8/9/9/9/9/9/4K4 b - 1";
    assert!(matches!(
        refusal(l, "9c9a"),
        IllegalMove::MustPromote { .. }
    ));
    assert!(legal(l, "9c9b") && legal(l, "9c9b+"), "optional on rank b");
    let n = "4k4/9/9/N8/9/9/9/9/4K4 b - 1";
    assert!(matches!(
        refusal(n, "9d8b"),
        IllegalMove::MustPromote { .. }
    ));
    let n3 = "4k4/9/9/9/N8/9/9/9/4K4 b - 1";
    assert!(
        legal(n3, "9e8c") && legal(n3, "9e8c+"),
        "optional on rank c"
    );
    // Gote's pawn must promote on rank i.
    let g = "4k4/9/9/9/9/9/9/p8/4K4 w - 1";
    assert!(matches!(
        refusal(g, "9h9i"),
        IllegalMove::MustPromote { .. }
    ));
    assert!(legal(g, "9h9i+"));
}

// --- Captures and drops ---------------------------------------------------------

#[test]
fn captured_piece_goes_unpromoted_to_hand() {
    let mut p = pos("4k4/9/9/9/4+p4/4R4/9/9/4K4 b - 1");
    p.play(mv("5f5e")).unwrap();
    assert_eq!(p.hand(Sente).count(PieceKind::Pawn), 1);
    assert_eq!(p.hand(Sente).count(PieceKind::ProPawn), 0);
}

#[test]
fn drops_on_any_empty_square_never_capture_never_promote() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(p.legal_moves().iter().filter(|m| m.is_drop()).count(), 79);
    let p = pos("4k4/9/9/9/4p4/9/9/9/4K4 b G 1");
    assert_eq!(
        p.check_move(mv("G*5e")),
        Err(IllegalMove::DropOnOccupied(Square::SQ_5E))
    );
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    p.play(mv("S*5c")).unwrap();
    assert_eq!(p.piece_at(Square::SQ_5C).unwrap().kind, PieceKind::Silver);
}

#[test]
fn nifu_refused_tokin_does_not_count() {
    assert_eq!(
        refusal("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"),
        IllegalMove::Nifu {
            file: 5,
            pawn: Square::SQ_5G
        }
    );
    assert!(legal("4k4/9/4+P4/9/9/9/9/9/4K4 b P 1", "P*5e"));
}

#[test]
fn dead_piece_drops_refused() {
    let p = "4k4/9/9/9/9/9/9/9/4K4 b NLP 1";
    for (m, kind, to) in [
        ("P*9a", PieceKind::Pawn, Square::SQ_9A),
        ("L*9a", PieceKind::Lance, Square::SQ_9A),
        ("N*9a", PieceKind::Knight, Square::SQ_9A),
        ("N*9b", PieceKind::Knight, Square::SQ_9B),
    ] {
        assert_eq!(refusal(p, m), IllegalMove::DeadDrop { kind, to }, "{m}");
    }
    assert!(legal(p, "P*9b") && legal(p, "L*9b") && legal(p, "N*9c"));
    // Gote's dead ranks are at the bottom.
    let g = "4k4/9/9/9/9/9/9/9/K8 w nlp 1";
    assert!(matches!(refusal(g, "P*1i"), IllegalMove::DeadDrop { .. }));
    assert!(matches!(refusal(g, "N*1h"), IllegalMove::DeadDrop { .. }));
}

#[test]
fn uchifuzume_pawn_drop_mate_refused() {
    // The king can neither take the pawn (the gold defends it) nor flee.
    assert_eq!(
        refusal("8k/9/5B1G1/9/9/9/9/9/4K4 b P 1", "P*1b"),
        IllegalMove::PawnDropMate
    );
    assert!(!pos("8k/9/5B1G1/9/9/9/9/9/4K4 b P 1")
        .legal_moves()
        .contains(&mv("P*1b")));
}

#[test]
fn uchifuzume_with_pinned_capturer_refused() {
    // The silver on 2a could take the pawn but is pinned by the rook on 5a
    // (python-shogi 1.1.1 gets this one wrong; cshogi refuses it).
    assert_eq!(
        refusal("4R2sk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b"),
        IllegalMove::PawnDropMate
    );
}

#[test]
fn pawn_move_mate_is_legal() {
    let mut g = game(
        "8k/9/5B1GP/9/9/9/9/9/4K4 b - 1",
        EnteringKingRule::default(),
    );
    let o = g.play(mv("1c1b")).unwrap();
    assert_eq!(
        o,
        Some(Outcome::Win {
            winner: Sente,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn pawn_drop_check_without_mate_is_legal() {
    let p = pos("8k/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert!(p.is_legal(mv("P*1b")));
    assert!(p.gives_check(mv("P*1b")));
}

#[test]
fn regression_position_has_85_legal_moves() {
    // Lance-and-silver net around the king; pawn drop 1b would be mate.
    assert_eq!(pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1").legal_moves().len(), 85);
}

#[test]
fn no_move_may_leave_the_king_in_check() {
    // Pinned gold.
    assert!(matches!(
        refusal("4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1", "5g4g"),
        IllegalMove::LeavesKingInCheck {
            was_in_check: false,
            ..
        }
    ));
    // King stepping into an attacked square.
    assert_eq!(
        refusal("4k4/9/9/9/5r3/9/9/9/4K4 b - 1", "5i4h"),
        IllegalMove::KingIntoCheck {
            to: Square::SQ_4H,
            attacker: Square::SQ_4E
        }
    );
    // Ignoring a check.
    assert!(matches!(
        refusal("4k4/9/9/9/4r4/9/9/9/4K1G2 b - 1", "3i3h"),
        IllegalMove::LeavesKingInCheck {
            was_in_check: true,
            ..
        }
    ));
    // Double check: only king moves.
    let p = pos("4k4/9/9/9/4r4/9/5n3/9/4K1G2 b - 1");
    assert_eq!(p.checkers().count(), 2);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.from() == Some(Square::SQ_5I)));
}

// --- End of the game --------------------------------------------------------------

#[test]
fn checkmate_wins() {
    let mut g = game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", EnteringKingRule::default());
    assert_eq!(
        g.play(mv("G*5b")).unwrap(),
        Some(Outcome::Win {
            winner: Sente,
            reason: WinReason::Checkmate
        })
    );
    assert!(matches!(g.play(mv("5a4a")), Err(GameError::GameOver(_))));
}

#[test]
fn no_legal_move_loses_no_stalemate_draw() {
    // Gote's king on 9a is not in check, but every square around it is covered.
    let g = game("k8/2G6/1G7/9/9/9/9/9/8K w - 1", EnteringKingRule::default());
    assert!(!g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Sente,
            reason: WinReason::NoLegalMoves
        })
    );
}

#[test]
fn sennichite_fourth_occurrence_draws_and_third_warns() {
    let mut g = Game::new(Position::startpos(), EnteringKingRule::default());
    let cycle = "2h3h 8b7b 3h2h 7b8b";
    assert_eq!(play_all(&mut g, cycle), None);
    assert_eq!(g.repetition_count(), 2);
    assert_eq!(play_all(&mut g, cycle), None);
    assert_eq!(g.repetition_count(), 3, "the status line warns from here");
    assert_eq!(
        play_all(&mut g, cycle),
        Some(Outcome::Draw(DrawReason::Sennichite))
    );
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let mut g = game("5k3/9/9/9/4R4/9/9/9/4K4 b - 1", EnteringKingRule::default());
    let cycle = "5e4e 4a5a 4e5e 5a4a";
    play_all(&mut g, cycle);
    play_all(&mut g, cycle);
    assert_eq!(
        play_all(&mut g, cycle),
        Some(Outcome::Win {
            winner: Gote,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn minishogi_fourth_repetition_loses_for_sente() {
    let mut g = Game::new(Position::minishogi_startpos(), EnteringKingRule::default());
    let cycle = "4e4d 2a2b 4d4e 2b2a";
    play_all(&mut g, cycle);
    play_all(&mut g, cycle);
    assert_eq!(
        play_all(&mut g, cycle),
        Some(Outcome::Win {
            winner: Gote,
            reason: WinReason::Repetition
        })
    );
}

#[test]
fn minishogi_perpetual_check_loses_for_the_checker() {
    let mut g = game("4k/5/5/3r1/K4 w - 1", EnteringKingRule::default());
    assert_eq!(g.position().variant(), Variant::Minishogi);
    let cycle = "2d2e 5e5d 2e2d 5d5e";
    play_all(&mut g, cycle);
    play_all(&mut g, cycle);
    assert_eq!(
        play_all(&mut g, cycle),
        Some(Outcome::Win {
            winner: Sente,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn draw_after_320_plies() {
    // The kings walk cycles of 8 and 7 squares: every position repeats at most
    // three times in 320 plies (the combined period is 56 moves each).
    let sente = [
        "5i6i", "6i6h", "6h6g", "6g5g", "5g4g", "4g4h", "4h4i", "4i5i",
    ];
    let gote = ["5a6a", "6a6b", "6b6c", "6c5c", "5c4b", "4b4a", "4a5a"];
    let mut g = game("4k4/9/9/9/9/9/9/9/4K4 b - 1", EnteringKingRule::default());
    for i in 0..160 {
        let o1 = g.play(mv(sente[i % 8])).unwrap();
        let o2 = g.play(mv(gote[i % 7])).unwrap();
        if i < 159 {
            assert_eq!((o1, o2), (None, None), "move pair {i}");
        } else {
            assert_eq!(o1, None);
            assert_eq!(o2, Some(Outcome::Draw(DrawReason::MaxPlies)));
        }
    }
    assert_eq!(g.ply(), 320);
}

#[test]
fn resignation_and_timeout_win_after_ten_plies() {
    let moves = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d";
    let mut g = Game::new(Position::startpos(), EnteringKingRule::default());
    play_all(&mut g, moves);
    assert_eq!(g.ply(), 10);
    let mut g2 = g.clone();
    assert_eq!(
        g.resign(Sente).unwrap(),
        Outcome::Win {
            winner: Gote,
            reason: WinReason::Resignation
        }
    );
    assert_eq!(
        g2.timeout(Gote).unwrap(),
        Outcome::Win {
            winner: Sente,
            reason: WinReason::Timeout
        }
    );
}

#[test]
fn games_under_ten_plies_are_aborted() {
    let moves = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d";
    let mut g = Game::new(Position::startpos(), EnteringKingRule::default());
    play_all(&mut g, moves);
    assert_eq!(g.ply(), 9);
    assert_eq!(g.clone().resign(Sente).unwrap(), Outcome::Aborted);
    assert_eq!(g.clone().timeout(Sente).unwrap(), Outcome::Aborted);
    assert_eq!(g.clone().abort().unwrap(), Outcome::Aborted);
    g.play(mv("2c2d")).unwrap();
    assert_eq!(g.abort(), Err(GameError::TooLateToAbort));
}

// --- Entering king ---------------------------------------------------------------

/// Sente: king on 5a; R R B B G G G G S S in the camp (26 points) + 2 pawns = 28.
const DECLARE_SENTE: &str = "RRBBK4/GGGGSS3/9/9/9/9/9/9/8k b 2P 1";

#[test]
fn declaration_27_sente_needs_28_points() {
    let mut g = game(DECLARE_SENTE, EnteringKingRule::Declaration27);
    assert!(declaration_check(g.position()).is_empty());
    assert_eq!(
        g.declare().unwrap(),
        Outcome::Win {
            winner: Sente,
            reason: WinReason::Declaration
        }
    );
    let p27 = pos("RRBBK4/GGGGSS3/9/9/9/9/9/9/8k b P 1");
    assert_eq!(
        declaration_check(&p27),
        [DeclarationMissing::TooFewPoints { have: 27, need: 28 }]
    );
}

#[test]
fn declaration_27_gote_needs_27_points() {
    let ok = game(
        "K8/9/9/9/9/9/9/3ssgggg/4kbbrr w p 1",
        EnteringKingRule::Declaration27,
    );
    assert!(declaration_check(ok.position()).is_empty());
    let p26 = pos("K8/9/9/9/9/9/9/3ssgggg/4kbbrr w - 1");
    assert_eq!(
        declaration_check(&p26),
        [DeclarationMissing::TooFewPoints { have: 26, need: 27 }]
    );
}

#[test]
fn declaration_27_needs_ten_pieces_in_camp() {
    let p = pos("RRBBK4/GGGGS4/9/9/9/9/9/9/8k b 3P 1");
    assert_eq!(
        declaration_check(&p),
        [DeclarationMissing::TooFewPiecesInCamp { have: 9, need: 10 }]
    );
}

#[test]
fn declaration_27_not_in_check_and_king_in_camp() {
    let p = pos("RRBBK4/GGGG+pSS2/9/9/9/9/9/9/8k b 2P 1");
    assert_eq!(declaration_check(&p), [DeclarationMissing::InCheck]);
    let p = pos("RRBB5/GGGGSS3/9/4K4/9/9/9/9/8k b 2P 1");
    assert_eq!(declaration_check(&p), [DeclarationMissing::KingNotInCamp]);
    let mut g = game(
        "RRBB5/GGGGSS3/9/4K4/9/9/9/9/8k b 2P 1",
        EnteringKingRule::Declaration27,
    );
    assert!(matches!(g.declare(), Err(GameError::CannotDeclare(_))));
    let mut g = game(DECLARE_SENTE, EnteringKingRule::Try);
    assert_eq!(
        g.declare(),
        Err(GameError::WrongRule(EnteringKingRule::Try))
    );
}

#[test]
fn counting_24_points() {
    // Both kings in the opponent's camp; all 38 other pieces in play.
    let sfen = "K3RB3/9/9/9/9/9/9/9/4rb2k b G2S2N4L3g2s2n18p 1";
    let p = pos(sfen);
    let s = komadai::shogi::count_points(&p, Sente);
    let gt = komadai::shogi::count_points(&p, Gote);
    assert_eq!(s + gt, 54, "all 40 pieces but the kings");
    assert_eq!((s, gt), (5 + 5 + 1 + 2 + 2 + 4, 5 + 5 + 3 + 2 + 2 + 18));
    let mut g = game(sfen, EnteringKingRule::Counting24);
    assert!(g.can_count());
    // Sente 19 < 24 loses; Gote has 35.
    assert_eq!(
        g.count().unwrap(),
        Outcome::Win {
            winner: Gote,
            reason: WinReason::Counting
        }
    );

    let even = "K3RB3/9/9/9/9/9/9/9/4rb2k b 2G2S2N2L9Pgs2n2l9p 1";
    let mut g = game(even, EnteringKingRule::Counting24);
    let p = g.position().clone();
    assert!(komadai::shogi::count_points(&p, Sente) >= 24);
    assert!(komadai::shogi::count_points(&p, Gote) >= 24);
    assert_eq!(g.count().unwrap(), Outcome::Draw(DrawReason::Counting));

    let mut g = game(STANDARD_START_SFEN, EnteringKingRule::Counting24);
    assert_eq!(g.count(), Err(GameError::KingsNotInCamp));
}

#[test]
fn try_rule_king_reaching_opponent_king_start_wins() {
    let mut g = game("9/4K4/9/9/9/9/9/9/k8 b - 1", EnteringKingRule::Try);
    assert_eq!(
        g.play(mv("5b5a")).unwrap(),
        Some(Outcome::Win {
            winner: Sente,
            reason: WinReason::Try
        })
    );
    let mut g = game("8K/9/9/9/9/9/9/4k4/9 w - 1", EnteringKingRule::Try);
    assert_eq!(
        g.play(mv("5h5i")).unwrap(),
        Some(Outcome::Win {
            winner: Gote,
            reason: WinReason::Try
        })
    );
    // Under the declaration rule the same move is just a move.
    let mut g = game(
        "9/4K4/9/9/9/9/9/9/k8 b - 1",
        EnteringKingRule::Declaration27,
    );
    assert_eq!(g.play(mv("5b5a")).unwrap(), None);
}

// --- Handicaps ---------------------------------------------------------------------

#[test]
fn every_handicap_setup_gote_moves_first() {
    let expected = [
        (
            Handicap::Lance,
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::Bishop,
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::Rook,
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::RookLance,
            "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::TwoPieces,
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::FourPieces,
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::SixPieces,
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::EightPieces,
            "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            Handicap::TenPieces,
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
    ];
    assert_eq!(expected.len(), Handicap::ALL.len());
    for (h, sfen) in expected {
        let p = h.start_position();
        assert_eq!(p.to_sfen(), sfen, "{h:?}");
        assert_eq!(p.side_to_move(), Gote);
        assert!(!p.legal_moves().is_empty());
        // Removed pieces never enter play: they are in nobody's hand.
        assert!(p.hand(Sente).is_empty() && p.hand(Gote).is_empty());
    }
}

// --- Minishogi -----------------------------------------------------------------------

#[test]
fn minishogi_start_and_last_rank_promotion_zone() {
    let p = Position::minishogi_startpos();
    assert_eq!(p.to_sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(p.legal_moves().len(), 14);
    assert_eq!(
        p.check_move(mv("5d5c+")),
        Err(IllegalMove::NotInPromotionZone)
    );
    // Moves off the 5×5 board are refused.
    assert_eq!(
        p.check_move(mv("5e6e")),
        Err(IllegalMove::OffBoard(Square::SQ_6E))
    );
    let q = pos("2k2/P4/5/5/4K b - 1");
    assert!(matches!(
        q.check_move(mv("5b5a")),
        Err(IllegalMove::MustPromote { .. })
    ));
    assert!(q.is_legal(mv("5b5a+")));
}

#[test]
fn minishogi_drop_rules_apply() {
    // nifu
    assert!(matches!(
        refusal("2k2/5/5/P4/4K b P 1", "P*5c"),
        IllegalMove::Nifu { .. }
    ));
    // dead pawn on the last rank
    assert!(matches!(
        refusal("2k2/5/5/5/4K b P 1", "P*5a"),
        IllegalMove::DeadDrop { .. }
    ));
    // pawn-drop mate: king on 1a; the gold on 2c covers 2b and defends 1b,
    // the bishop on 4c covers 2a.
    assert_eq!(
        refusal("4k/5/1B1G1/5/K4 b P 1", "P*1b"),
        IllegalMove::PawnDropMate
    );
}

/// `Game::random_line` (traffic for load tests and the multi-process
/// tests): legal, never ending the game, and the same for the same seed.
#[test]
fn random_lines_are_legal_open_and_reproducible() {
    for seed in 0..20 {
        let line = Game::random_line(seed, 80);
        assert_eq!(line.len(), 80);
        assert_eq!(line, Game::random_line(seed, 80), "seed {seed}");
        let mut g = Game::new(Position::startpos(), EnteringKingRule::default());
        for (i, &m) in line.iter().enumerate() {
            assert_eq!(g.play(m), Ok(None), "seed {seed} ply {i}: {m}");
        }
    }
    assert_ne!(Game::random_line(1, 40), Game::random_line(2, 40));
}
