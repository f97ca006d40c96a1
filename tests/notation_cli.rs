//! The `komadai notation` and `komadai kif` commands, run as a user would.

use crate::run::komadai;

#[test]
fn notation_prints_usi_and_rendering() {
    let (ok, out, _) = komadai(&["notation", "--move", "７六歩", "--style", "western"]);
    assert!(ok);
    assert_eq!(out, "7g7f\tP-7f\n");
    let (ok, out, _) = komadai(&["notation", "--move", "P-7f", "--style", "japanese"]);
    assert!(ok);
    assert_eq!(out, "7g7f\t▲７六歩\n");
    let sfen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
    let (ok, out, _) = komadai(&[
        "notation",
        "--sfen",
        sfen,
        "--previous",
        "8h2b+",
        "--move",
        "同銀",
        "--style",
        "japanese",
    ]);
    assert!(ok);
    assert_eq!(out, "3a2b\t△同　銀\n");
}

#[test]
fn notation_all_lists_every_legal_move() {
    let (ok, out, _) = komadai(&["notation", "--all", "--style", "japanese"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 30);
    assert!(out.contains("4i5h\t▲５八金右\n"), "{out}");
    assert!(out.contains("6i5h\t▲５八金左\n"), "{out}");
}

#[test]
fn notation_errors_are_localised() {
    let (ok, _, err) = komadai(&["notation", "--move", "G-5h", "--style", "usi"]);
    assert!(!ok);
    assert!(err.contains("4i5h, 6i5h"), "{err}");
    let (ok, _, err) = komadai(&["notation", "--move", "G-5h", "--lang", "de"]);
    assert!(!ok);
    assert!(err.contains("mehrere Züge"), "{err}");
}

#[test]
fn kif_import_and_export() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kif/");
    let kif = format!("{dir}17091011_27480.kif");
    let csa = format!("{dir}17091011_27480.csa");
    let (ok, from_kif, err) = komadai(&["kif", "import", &kif]);
    assert!(ok, "{err}");
    assert!(
        from_kif.starts_with("position startpos moves 7g7f 3c3d"),
        "{from_kif}"
    );
    let (ok, from_csa, _) = komadai(&["kif", "import", &csa]);
    assert!(ok);
    assert_eq!(from_kif, from_csa);
    let (ok, exported, _) = komadai(&["kif", "export", &kif, "--to", "csa"]);
    assert!(ok);
    assert_eq!(exported, std::fs::read_to_string(&csa).unwrap());
}
