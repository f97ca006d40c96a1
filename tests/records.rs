//! Real game records (tests/data/kif, see its README): import, export,
//! re-import, and agreement between the KIF and CSA versions of each game.

use std::collections::BTreeMap;
use std::path::PathBuf;

use komadai::notation::{
    kif, read_record, write_record, GameRecord, RecordError, RecordFormat, Termination,
};
use komadai::shogi::{EnteringKingRule, Game};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif")
}

fn records() -> BTreeMap<String, Vec<(String, GameRecord)>> {
    let mut games: BTreeMap<String, Vec<(String, GameRecord)>> = BTreeMap::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(format) = RecordFormat::from_extension(&name) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let record = read_record(&bytes, Some(format)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let stem = name.split('.').next().unwrap().to_string();
        games.entry(stem).or_default().push((name, record));
    }
    games
}

fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    a.start == b.start && a.moves == b.moves && a.termination == b.termination
}

#[test]
fn at_least_twenty_real_games_in_kif_and_csa() {
    let games = records();
    assert!(games.len() >= 20, "{} games", games.len());
    let mut sjis = 0;
    for (stem, versions) in &games {
        assert!(
            versions.iter().any(|(n, _)| n.ends_with(".csa")),
            "{stem}: no CSA"
        );
        assert!(
            versions.iter().any(|(n, _)| n.contains(".kif")),
            "{stem}: no KIF"
        );
        sjis += versions.iter().filter(|(n, _)| n.ends_with(".kif")).count();
        let (first_name, first) = &versions[0];
        for (name, r) in &versions[1..] {
            assert!(same_game(first, r), "{first_name} and {name} differ");
        }
        assert!(
            first.moves.len() > 40,
            "{stem}: {} moves",
            first.moves.len()
        );
        assert_eq!(first.termination, Some(Termination::Resign), "{stem}");
        assert!(first.sente.is_some() && first.gote.is_some(), "{stem}");
        // The rules core accepts the whole game.
        Game::replay(
            first.start.clone(),
            EnteringKingRule::default(),
            &first.moves,
        )
        .unwrap_or_else(|(i, e)| panic!("{stem}: move {}: {e}", i + 1));
    }
    assert!(sjis >= 10, "{sjis} Shift-JIS files");
    // Handicap games among them (香落ち, 右香落ち, 角落ち).
    let handicap = games
        .values()
        .filter(|v| !v[0].1.is_standard_start())
        .count();
    assert!(handicap >= 5, "{handicap} handicap games");
}

#[test]
fn export_and_reimport_are_move_identical() {
    for (stem, versions) in records() {
        for (name, r) in versions {
            for format in [RecordFormat::Kif, RecordFormat::Csa, RecordFormat::Usi] {
                let text = write_record(&r, format).unwrap();
                let back = read_record(text.as_bytes(), Some(format))
                    .unwrap_or_else(|e| panic!("{stem} ({name}) as {format:?}: {e}\n{text}"));
                assert_eq!(back.start, r.start, "{name} {format:?}");
                assert_eq!(back.moves, r.moves, "{name} {format:?}");
                if format != RecordFormat::Usi {
                    assert_eq!(back, r, "{name} {format:?}");
                }
            }
            // KI2 (no origins: the disambiguators must carry the game).
            let ki2 = kif::write_ki2(&r).unwrap();
            let back = read_record(ki2.as_bytes(), Some(RecordFormat::Kif))
                .unwrap_or_else(|e| panic!("{name} as KI2: {e}\n{ki2}"));
            assert_eq!(
                (&back.start, &back.moves),
                (&r.start, &r.moves),
                "{name} KI2"
            );
            // Shift-JIS KIF too.
            let sjis = kif::to_shift_jis(&write_record(&r, RecordFormat::Kif).unwrap());
            assert_eq!(
                read_record(&sjis, Some(RecordFormat::Kif)).unwrap(),
                r,
                "{name} sjis"
            );
        }
    }
}

#[test]
fn detected_format_matches_extension() {
    for (_, versions) in records() {
        for (name, r) in versions {
            let bytes = std::fs::read(data_dir().join(&name)).unwrap();
            assert_eq!(read_record(&bytes, None).unwrap(), r, "{name}");
        }
    }
}

#[test]
fn a_corrupted_record_names_its_first_bad_line() {
    let path = data_dir().join("17091010_27479.kifu");
    let text = std::fs::read_to_string(path).unwrap();
    // Replace move 10 with an illegal one (a pawn jumping two squares).
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("  10 ") {
                "  10 ５五歩(57)".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let line_no = lines.iter().position(|l| l.starts_with("  10 ")).unwrap() + 1;
    match read_record(lines.join("\n").as_bytes(), Some(RecordFormat::Kif)) {
        Err(RecordError::BadMove {
            line, number: 10, ..
        }) => assert_eq!(line, line_no),
        other => panic!("{other:?}"),
    }
    let csa = std::fs::read_to_string(data_dir().join("17091010_27479.csa")).unwrap();
    let broken = csa.replacen("+7776FU", "+7775FU", 1);
    assert!(matches!(
        read_record(broken.as_bytes(), Some(RecordFormat::Csa)),
        Err(RecordError::BadMove { number: 1, .. })
    ));
    // Oversized input is refused before parsing.
    let huge = vec![b' '; komadai::notation::MAX_RECORD_BYTES + 1];
    assert!(matches!(
        read_record(&huge, None),
        Err(RecordError::TooLarge(_))
    ));
}

#[test]
fn random_record_text_never_panics() {
    // Seeded random lines built from the pieces of real records.
    let parts: &[&str] = &[
        "手合割：",
        "平手",
        "二枚落ち",
        "先手：",
        "後手の持駒：",
        "なし",
        "飛",
        "角二",
        "歩十八",
        "　",
        "|",
        "v",
        "・",
        "玉",
        "+---------------------------+",
        "一",
        "九",
        "後手番",
        "手数----指手--",
        "   1 ",
        "  2 ",
        "７六歩(77)",
        "同　",
        "歩",
        "成",
        "不成",
        "打",
        "(",
        ")",
        "( 0:01/00:00:01)",
        "投了",
        "まで",
        "変化：3手",
        "*",
        "#",
        "V2.2",
        "N+",
        "PI",
        "P1",
        "P+",
        "00FU",
        "-KY",
        " * ",
        "+",
        "-",
        "7776FU",
        "0055KA",
        "T12",
        "%TORYO",
        ",",
        "'",
        "position",
        "startpos",
        "sfen",
        "moves",
        "7g7f",
        "P*5e",
        "8h2b+",
        "9",
        "あ",
        "\u{FEFF}",
        "\r",
        "\t",
    ];
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..4000 {
        let mut text = String::new();
        for _ in 0..rng.usize(1..12) {
            for _ in 0..rng.usize(1..6) {
                text.push_str(parts[rng.usize(0..parts.len())]);
            }
            text.push('\n');
        }
        for format in [
            None,
            Some(RecordFormat::Kif),
            Some(RecordFormat::Csa),
            Some(RecordFormat::Usi),
        ] {
            let _ = read_record(text.as_bytes(), format);
        }
        // Random bytes (neither UTF-8 nor Shift-JIS, mostly).
        let bytes: Vec<u8> = (0..rng.usize(0..64)).map(|_| rng.u8(..)).collect();
        let _ = read_record(&bytes, None);
    }
}

#[test]
fn every_move_of_the_real_games_round_trips_in_every_style() {
    use komadai::notation::{format_move, parse_move, InputContext, Style};
    let mut n = 0;
    let mut disambiguated = 0;
    for (_, versions) in records() {
        let r = &versions[0].1;
        let mut pos = r.start.clone();
        let mut prev = None;
        for &mv in &r.moves {
            for style in Style::ALL {
                let text = format_move(&pos, mv, style, prev);
                if style == Style::Japanese && text.contains(['右', '左', '直', '上', '引', '寄'])
                {
                    disambiguated += 1;
                }
                let ctx = InputContext {
                    previous: prev,
                    style: Some(style),
                };
                assert_eq!(
                    parse_move(&pos, &text, ctx),
                    Ok(mv),
                    "{text} in {}",
                    pos.to_sfen()
                );
                n += 1;
            }
            pos.play_unchecked(mv);
            prev = Some(mv);
        }
    }
    assert!(n > 8000, "{n}");
    // Real games need the KI2 disambiguators now and then.
    assert!(disambiguated > 20, "{disambiguated}");
}
