//! Hint reasons for hand-made positions, in English and German.

use komadai::engine::{hint, reason_text, HintReason, Limits};
use komadai::shogi::{PieceKind, Position};

/// (what it shows, SFEN, expected move or "" for any, reason, English, German)
const CASES: &[(&str, &str, &str, HintReason, &str, &str)] = &[
    (
        "gold drop mates",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "G*5b",
        HintReason::MateIn(1),
        "Checkmate!",
        "Schachmatt!",
    ),
    (
        "the king is in check from a rook",
        "4k4/9/9/9/9/9/9/9/r3K4 b - 1",
        "",
        HintReason::EscapesCheck,
        "Gets the king out of check.",
        "Bringt den König aus dem Schach.",
    ),
    (
        "a loose rook on the bishop's diagonal",
        "4k4/9/9/5r3/9/9/9/1B7/4K4 b - 1",
        "8h4d",
        HintReason::WinsPiece(PieceKind::Rook),
        "Wins the rook.",
        "Gewinnt den Turm.",
    ),
    (
        "the rook is attacked by a protected pawn",
        "4k4/9/5s3/4p4/4R4/9/9/9/4K4 b - 1",
        "",
        HintReason::SavesPiece(PieceKind::Rook),
        "Saves the attacked rook.",
        "Rettet den Turm, der angegriffen war.",
    ),
    (
        "a free pawn promotes",
        "k8/9/9/4P4/9/9/9/9/4K4 b - 1",
        "5d5c+",
        HintReason::Promotes(PieceKind::Pawn),
        "Promotes the pawn.",
        "Befördert den Bauern.",
    ),
];

#[test]
fn reasons_for_hand_made_positions_in_both_languages() {
    for &(what, sfen, mv, reason, en, de) in CASES {
        let pos = Position::from_sfen(sfen).unwrap();
        let h = hint(&pos, &[], Limits::depth(4)).unwrap_or_else(|| panic!("{what}: no hint"));
        if !mv.is_empty() {
            assert_eq!(h.mv.to_string(), mv, "{what}");
        }
        assert!(pos.is_legal(h.mv), "{what}");
        assert_eq!(h.reason, reason, "{what}: {}", h.mv);
        assert_eq!(reason_text(&h.reason, false), en, "{what}");
        assert_eq!(reason_text(&h.reason, true), de, "{what}");
    }
}

#[test]
fn every_reason_has_both_sentences() {
    use HintReason as R;
    use PieceKind as K;
    let table: &[(HintReason, &str, &str)] = &[
        (R::MateIn(1), "Checkmate!", "Schachmatt!"),
        (
            R::MateIn(3),
            "Forces mate in 3 moves.",
            "Erzwingt Matt in 3 Zügen.",
        ),
        (
            R::EscapesCheck,
            "Gets the king out of check.",
            "Bringt den König aus dem Schach.",
        ),
        (
            R::StopsMate,
            "Stops the opponent's mating threat.",
            "Verhindert die Mattdrohung des Gegners.",
        ),
        (
            R::WinsPiece(K::Silver),
            "Wins the silver.",
            "Gewinnt das Silber.",
        ),
        (
            R::WinsPiece(K::Lance),
            "Wins the lance.",
            "Gewinnt die Lanze.",
        ),
        (
            R::WinsPiece(K::Dragon),
            "Wins the dragon.",
            "Gewinnt den Drachen.",
        ),
        (
            R::Captures(K::Bishop),
            "Takes the bishop in a good exchange.",
            "Schlägt den Läufer in einem guten Tausch.",
        ),
        (
            R::SavesPiece(K::Gold),
            "Saves the attacked gold.",
            "Rettet das Gold, das angegriffen war.",
        ),
        (
            R::SavesPiece(K::Horse),
            "Saves the attacked horse.",
            "Rettet das Pferd, das angegriffen war.",
        ),
        (
            R::ThreatensMate,
            "Threatens mate next move.",
            "Droht im nächsten Zug Matt.",
        ),
        (
            R::Promotes(K::Silver),
            "Promotes the silver.",
            "Befördert das Silber.",
        ),
        (
            R::GivesCheck,
            "Gives check and keeps the initiative.",
            "Gibt Schach und behält die Initiative.",
        ),
        (
            R::Drop(K::Knight),
            "Drops the knight where it is most useful.",
            "Setzt den Springer dort ein, wo er am meisten nützt.",
        ),
        (
            R::Drop(K::Gold),
            "Drops the gold where it is most useful.",
            "Setzt das Gold dort ein, wo es am meisten nützt.",
        ),
        (
            R::HoldsOut(2),
            "The position is lost (mate in 2); this resists longest.",
            "Die Stellung ist verloren (Matt in 2); dieser Zug hält am längsten.",
        ),
        (
            R::Improves,
            "Improves the position.",
            "Verbessert die Stellung.",
        ),
    ];
    for (r, en, de) in table {
        assert_eq!(reason_text(r, false), *en);
        assert_eq!(reason_text(r, true), *de);
    }
}
