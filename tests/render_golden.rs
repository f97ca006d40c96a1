//! Golden images of the board renderer.
//!
//! Every case is drawn and compared pixel by pixel (exactly: the renderer is
//! deterministic and uses no platform fonts) with the PNG of the same name in
//! `tests/golden/`. On a mismatch the new picture is written next to the target
//! directory (`target/golden-actual/NAME.png`) for comparison.
//!
//! After an intended change of the look, regenerate all golden images with
//!
//! ```text
//! KOMADAI_BLESS=1 cargo test --test integration render_golden::
//! ```
//!
//! and look at every changed picture before committing it.

use std::path::PathBuf;

use komadai::engine::danger;
use komadai::lang::Lang;
use komadai::render::{
    eval_graph_png, Coordinates, Eval, GameEnd, GameEndKind, Marks, PieceStyle, RenderOptions,
    Renderer, Theme,
};
use komadai::shogi::{Color, Handicap, Move, Position, Square};

/// The benchmark midgame (also in `benches/render.rs`), Sente's bishop just took on 5c.
const MIDGAME: &str =
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";

struct Case {
    name: &'static str,
    pos: Position,
    last: Option<Move>,
    opts: RenderOptions,
    marks: Marks,
}

fn sfen(s: &str) -> Position {
    Position::from_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn usi(s: &str) -> Option<Move> {
    Some(Move::from_usi(s).unwrap())
}

/// The start position followed by `moves`, and the last move.
fn after(moves: &[&str]) -> (Position, Option<Move>) {
    let mut pos = Position::startpos();
    let mut last = None;
    for m in moves {
        let mv = Move::from_usi(m).unwrap();
        pos.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
        last = Some(mv);
    }
    (pos, last)
}

/// The danger overlay of `viewer` (who is to move), from the same analysis
/// the bot uses (`engine::danger`), so that the pictures show real marks.
fn danger_marks(pos: &Position, viewer: Color, selected: Square) -> Marks {
    assert_eq!(
        pos.side_to_move(),
        viewer,
        "the overlay is for the side to move"
    );
    let t = danger::targets(pos, danger::Origin::Board(selected));
    assert!(!t.safe.is_empty() && !t.unsafe_targets.is_empty(), "{t:?}");
    Marks {
        hanging: danger::hanging(pos, viewer),
        selected: Some(selected),
        safe: t.safe,
        unsafe_targets: t.unsafe_targets,
        ..Marks::default()
    }
}

fn sq(usi: &str) -> Square {
    Square::from_usi(usi).unwrap()
}

fn cases() -> Vec<Case> {
    let o = RenderOptions::default();
    let with = |style, theme| RenderOptions { style, theme, ..o };
    let (drop_pos, drop_last) = after(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    let mid = || sfen(MIDGAME);
    let mut v = vec![
        Case {
            name: "start",
            pos: Position::startpos(),
            last: None,
            opts: o,
            marks: Marks::default(),
        },
        Case {
            name: "midgame",
            pos: mid(),
            last: usi("6d5c"),
            opts: o,
            marks: Marks::default(),
        },
        Case {
            name: "midgame_dark",
            pos: mid(),
            last: usi("6d5c"),
            opts: with(PieceStyle::Kanji, Theme::Dark),
            marks: Marks::default(),
        },
        Case {
            name: "midgame_flipped_letters",
            pos: mid(),
            last: usi("6d5c"),
            opts: RenderOptions {
                flip: true,
                coords: Coordinates::Letters,
                ..o
            },
            marks: Marks::default(),
        },
        Case {
            name: "midgame_upright",
            pos: mid(),
            last: usi("6d5c"),
            opts: RenderOptions {
                upright_opponent: true,
                ..o
            },
            marks: Marks::default(),
        },
        Case {
            // Hands of every kind; Gote holds 16 pawns (a two-digit badge).
            name: "hands_every_kind",
            pos: sfen("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L2Prb2g2s2n2l16p 1"),
            last: None,
            opts: o,
            marks: Marks::default(),
        },
        Case {
            // Promoted pieces of both sides; Sente's king is in check from the dragon.
            name: "promoted_check",
            pos: sfen("4k3+b/9/2+R3+P2/6+B2/1+S5+N1/9/+l3+p4/3+r2+s2/4K1+n1L b Gp 80"),
            last: usi("6d6h"),
            opts: o,
            marks: Marks::default(),
        },
        Case {
            name: "drop",
            pos: drop_pos,
            last: drop_last,
            opts: o,
            marks: Marks::default(),
        },
        Case {
            name: "minishogi",
            pos: Position::minishogi_startpos(),
            last: None,
            opts: o,
            marks: Marks::default(),
        },
        Case {
            // A silver drop that checks: the drop and the check are both marked.
            name: "minishogi_check_drop",
            pos: sfen("2k2/5/5/1s3/K1G2 b RBSPrbgp 1"),
            last: usi("S*4d"),
            opts: with(PieceStyle::Kanji, Theme::Dark),
            marks: Marks::default(),
        },
        Case {
            name: "handicap_ten",
            pos: Handicap::TenPieces.start_position(),
            last: None,
            opts: o,
            marks: Marks::default(),
        },
    ];
    for style in [PieceStyle::TwoKanji, PieceStyle::International] {
        for theme in Theme::ALL {
            let name = match (style, theme) {
                (PieceStyle::TwoKanji, Theme::Light) => "midgame_kanji2",
                (PieceStyle::TwoKanji, Theme::Dark) => "midgame_kanji2_dark",
                (_, Theme::Light) => "midgame_international",
                (_, Theme::Dark) => "midgame_international_dark",
            };
            v.push(Case {
                name,
                pos: mid(),
                last: usi("6d5c"),
                opts: with(style, theme),
                marks: Marks::default(),
            });
        }
    }
    let pict = PieceStyle::Pictogram;
    let pict_kanji = PieceStyle::PictogramKanji;
    for (name, style, theme) in [
        ("midgame_pictogram", pict, Theme::Light),
        ("midgame_pictogram_dark", pict, Theme::Dark),
        ("midgame_pictogram_kanji", pict_kanji, Theme::Light),
        ("midgame_pictogram_kanji_dark", pict_kanji, Theme::Dark),
    ] {
        v.push(Case {
            name,
            pos: mid(),
            last: usi("6d5c"),
            opts: with(style, theme),
            marks: Marks::default(),
        });
    }
    let promoted = || sfen("4k3+b/9/2+R3+P2/6+B2/1+S5+N1/9/+l3+p4/3+r2+s2/4K1+n1L b Gp 80");
    let faces = |style, theme, lang| RenderOptions {
        move_dots: true,
        names: true,
        lang,
        ..with(style, theme)
    };
    // The midgame with Sente to move (as if Gote had passed), Sente's view.
    let mid_sente = sfen(&MIDGAME.replace(" w ", " b "));
    let danger_sente = danger_marks(&mid_sente, Color::Sente, sq("7b"));
    let mid_gote = mid();
    let danger_gote = danger_marks(&mid_gote, Color::Gote, sq("2h"));
    let (repeated, repeated_last) = after(&[
        "2h3h", "8b7b", "3h2h", "7b8b", "2h3h", "8b7b", "3h2h", "7b8b",
    ]);
    let mut mini = Position::minishogi_startpos();
    let mut mini_last = None;
    for m in [
        "1e1d", "5a5b", "1d1e", "5b5a", "1e1d", "5a5b", "1d1e", "5b5a",
    ] {
        let mv = Move::from_usi(m).unwrap();
        mini.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
        mini_last = Some(mv);
    }
    // Gote's king on 5a, mated by a gold dropped on 5b and held by the pawn on 5c.
    let mated = sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 3");
    assert!(mated.legal_moves().is_empty(), "the mate position is mate");
    v.extend([
        Case {
            // Every promoted kind with movement dots and German names.
            name: "promoted_pictogram_dots_names_de_dark",
            pos: promoted(),
            last: usi("6d6h"),
            opts: faces(pict, Theme::Dark, Lang::De),
            marks: Marks::default(),
        },
        Case {
            name: "promoted_kanji_dots_names_en",
            pos: promoted(),
            last: usi("6d6h"),
            opts: faces(PieceStyle::Kanji, Theme::Light, Lang::En),
            marks: Marks::default(),
        },
        Case {
            // Gote's view: the pieces point down, marks must follow the flip.
            name: "midgame_pictogram_upright_dots",
            pos: mid(),
            last: usi("6d5c"),
            opts: RenderOptions {
                upright_opponent: true,
                move_dots: true,
                ..with(pict_kanji, Theme::Light)
            },
            marks: Marks::default(),
        },
        Case {
            name: "danger_pictogram",
            pos: mid_sente,
            last: usi("6d5c"),
            opts: with(pict, Theme::Light),
            marks: danger_sente,
        },
        Case {
            name: "danger_flipped_dark",
            pos: mid_gote,
            last: usi("6d5c"),
            opts: RenderOptions {
                flip: true,
                ..with(PieceStyle::Kanji, Theme::Dark)
            },
            marks: danger_gote,
        },
        Case {
            name: "mate",
            pos: mated.clone(),
            last: usi("G*5b"),
            opts: o,
            marks: Marks {
                mate: true,
                ..Marks::default()
            },
        },
        Case {
            name: "mate_de_dark",
            pos: mated,
            last: usi("G*5b"),
            opts: RenderOptions {
                lang: Lang::De,
                ..with(pict_kanji, Theme::Dark)
            },
            marks: Marks {
                mate: true,
                ..Marks::default()
            },
        },
        Case {
            name: "repetition_de",
            pos: repeated,
            last: repeated_last,
            opts: RenderOptions {
                lang: Lang::De,
                ..o
            },
            marks: Marks {
                repetitions: 3,
                ..Marks::default()
            },
        },
        Case {
            name: "minishogi_repetition_dark",
            pos: mini,
            last: mini_last,
            opts: with(pict, Theme::Dark),
            marks: Marks {
                repetitions: 3,
                ..Marks::default()
            },
        },
    ]);
    v
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

fn decode_rgb(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("golden PNG header");
    let mut buf = vec![
        0;
        reader
            .output_buffer_size()
            .expect("PNG size fits in memory")
    ];
    let info = reader.next_frame(&mut buf).expect("golden PNG data");
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    };
    (info.width, info.height, rgb)
}

/// Compares `png` with the golden file `name.png`, or writes it when blessing.
fn check(name: &str, png: &[u8], failures: &mut Vec<String>) {
    let path = golden_dir().join(format!("{name}.png"));
    if std::env::var_os("KOMADAI_BLESS").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, png).unwrap();
        return;
    }
    let Ok(golden) = std::fs::read(&path) else {
        failures.push(format!(
            "{name}: no golden image (bless with KOMADAI_BLESS=1)"
        ));
        return;
    };
    let (gw, gh, g) = decode_rgb(&golden);
    let (aw, ah, a) = decode_rgb(png);
    let differing = if (gw, gh) == (aw, ah) {
        g.chunks_exact(3)
            .zip(a.chunks_exact(3))
            .filter(|(p, q)| p != q)
            .count()
    } else {
        usize::MAX
    };
    if differing != 0 {
        let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("target")
            .join("golden-actual");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(format!("{name}.png")), png).unwrap();
        failures.push(format!(
            "{name}: {} (golden {gw}x{gh}, now {aw}x{ah})",
            if differing == usize::MAX {
                "size differs".to_string()
            } else {
                format!("{differing} pixels differ")
            }
        ));
    }
}

#[test]
fn golden_boards() {
    let r = Renderer::new();
    let mut failures = Vec::new();
    for c in cases() {
        let png = r.board_png_marked(&c.pos, c.last, &c.opts, &c.marks);
        assert!(png.len() < 40 * 1024, "{}: {} bytes", c.name, png.len());
        check(c.name, &png, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "golden images differ:\n{}",
        failures.join("\n")
    );
}

#[test]
fn golden_eval_graph() {
    // A made-up game: Sente slowly better, a blunder at ply 41, Gote mates at ply 57.
    let evals: Vec<Eval> = (0..=57)
        .map(|i: i32| match i {
            0..=40 => Eval::Cp(40 + i * 18 - (i % 7) * 25),
            41..=54 => Eval::Cp(-600 - (i - 41) * 260),
            _ => Eval::Mate {
                winner: Color::Gote,
                plies: (57 - i) as u32,
            },
        })
        .collect();
    let end = GameEnd {
        ply: 57,
        kind: GameEndKind::Checkmate,
        winner: Color::Gote,
    };
    let mut failures = Vec::new();
    check(
        "eval_graph",
        // The blunder at move 41 marked, and an earlier slip at move 12.
        &eval_graph_png(&evals, Some(end), &[12, 41], Theme::Light),
        &mut failures,
    );
    let resign = GameEnd {
        ply: 50,
        kind: GameEndKind::Resignation,
        winner: Color::Sente,
    };
    let flipped: Vec<Eval> = evals[..=50]
        .iter()
        .map(|e| match *e {
            Eval::Cp(c) => Eval::Cp(-c),
            m => m,
        })
        .collect();
    check(
        "eval_graph_resign_dark",
        &eval_graph_png(&flipped, Some(resign), &[41], Theme::Dark),
        &mut failures,
    );
    assert!(
        failures.is_empty(),
        "golden images differ:\n{}",
        failures.join("\n")
    );
}

#[test]
fn rendering_is_deterministic_across_renderers() {
    let pos = sfen(MIDGAME);
    let opts = RenderOptions::default();
    let a = Renderer::new().board_png(&pos, usi("6d5c"), &opts);
    // A renderer that drew other styles and themes first gives the same bytes.
    let r = Renderer::new();
    for c in cases() {
        let _ = r.board_png_marked(&c.pos, c.last, &c.opts, &c.marks);
    }
    assert_eq!(a, r.board_png(&pos, usi("6d5c"), &opts));
}
