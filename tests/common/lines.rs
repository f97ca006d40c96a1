//! The check every multi-process test ends with: what the database holds
//! against the lines the test played.

use komadai::shogi::{Move, Position};

/// Every game `g` holds exactly `lines[g]` (as `stored(g)` reads it), in
/// order and legal from the start position; no move was acknowledged twice
/// (`acknowledged` holds (game, ply) pairs).
pub fn assert_lines_stored(
    lines: &[Vec<(Move, String)>],
    stored: impl Fn(usize) -> Vec<String>,
    acknowledged: &[(usize, usize)],
) {
    for (g, line) in lines.iter().enumerate() {
        let moves = stored(g);
        let want: Vec<String> = line.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(moves, want, "game {}: every move once, in order", g + 1);
        let mut pos = Position::startpos();
        for m in &moves {
            pos.play(Move::from_usi(m).unwrap()).expect("legal");
        }
    }
    let mut once = acknowledged.to_vec();
    once.sort_unstable();
    once.dedup();
    assert_eq!(once.len(), acknowledged.len(), "no move acknowledged twice");
}
