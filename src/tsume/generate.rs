//! The puzzle generator behind `komadai puzzles generate`.
//!
//! Where the positions come from: there is no self-play archive yet, so each
//! candidate is built around a king. Gote's king stands on one of the top
//! three ranks with 1–5 defenders near it; Sente gets 1–4 attacking pieces
//! near that king and 0–3 pieces in hand, and its king far away on the bottom
//! rank. As in composed problems, the defender holds every other piece in hand
//! (so interpositions are always possible). All choices come from a seeded
//! random generator: the same seed gives the same file.
//!
//! Filters (a candidate is kept only if all hold):
//! 1. the setup is legal and nobody is in check;
//! 2. the shortest mate is exactly the asked number of plies (no shorter one),
//!    decided within the node limit (candidates that hit it are dropped);
//! 3. exactly one first move mates within that many plies;
//! 4. the attacker has at least three checks to choose from at the start;
//! 5. the first move does not capture a rook, bishop, dragon or horse;
//! 6. the attacker's material (board and hand, without the king) is at most
//!    [`MAX_ATTACK_MATERIAL`] points (pawn 1, lance/knight 3, silver 5, gold
//!    and promoted minors 6, bishop 8, rook 10, horse 10, dragon 12);
//! 7. the defender does not drop a piece in the main line (no futile
//!    interpositions in the shown solution);
//! 8. no two puzzles share a board, hands and side to move.

use super::puzzles::{puzzle_id, Puzzle};
use super::{checks, composed, MateSolver};
use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// Attacker material above this is "too easy" (filter 6).
pub const MAX_ATTACK_MATERIAL: u32 = 30;
/// Node limit for solving one candidate.
pub const CANDIDATE_NODES: u64 = 60_000;

/// Material points of a piece kind (filter 6).
#[must_use]
pub fn material(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance | PieceKind::Knight => 3,
        PieceKind::Silver => 5,
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => 6,
        PieceKind::Bishop => 8,
        PieceKind::Rook | PieceKind::Horse => 10,
        PieceKind::Dragon => 12,
        PieceKind::King => 0,
    }
}

/// The attacker's material: board pieces (without the king) and hand.
#[must_use]
pub fn attack_material(pos: &Position) -> u32 {
    let us = pos.side_to_move();
    let mut sum = 0;
    for kind in PieceKind::ALL {
        sum += material(kind) * pos.pieces(us, kind).count();
    }
    for (kind, n) in pos.hand(us).iter() {
        sum += material(kind) * u32::from(n);
    }
    sum
}

/// Why a candidate was dropped (counted for the generator's report).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reject {
    /// Filter 1.
    Setup,
    /// Filter 2: no mate within the plies.
    NoMate,
    /// Filter 2: a shorter mate exists.
    Shorter,
    /// Filter 2: node limit.
    NodeLimit,
    /// Filter 3.
    NotUnique,
    /// Filter 4.
    FewChecks,
    /// Filter 5.
    BigCapture,
    /// Filter 6.
    Material,
    /// Filter 7.
    Interposition,
    /// Filter 8.
    Duplicate,
}

/// The one first move that mates in `plies`, or why there is none.
fn unique_first(s: &mut MateSolver, pos: &Position, plies: u32) -> Result<Move, Reject> {
    let firsts = s.mating_moves(pos, plies).ok_or(Reject::NodeLimit)?;
    match firsts[..] {
        [first] => Ok(first),
        _ => Err(Reject::NotUnique),
    }
}

/// The main line of a mate in `plies` that starts with `first`.
fn main_line(
    s: &mut MateSolver,
    pos: &Position,
    plies: u32,
    first: Move,
) -> Result<Vec<Move>, Reject> {
    let line = s.main_line(pos, plies).ok_or(Reject::NodeLimit)?;
    if line.len() != plies as usize || line[0] != first {
        return Err(Reject::NodeLimit);
    }
    Ok(line)
}

/// The puzzle of `pos` with its solution.
fn puzzle(pos: &Position, plies: u32, solution: Vec<Move>) -> Puzzle {
    let sfen = pos.to_sfen();
    Puzzle {
        id: puzzle_id(plies, &sfen),
        plies,
        sfen,
        solution,
    }
}

/// Judges one position as a puzzle of `plies` plies: the puzzle, or why not.
pub fn judge(pos: &Position, plies: u32, nodes: u64) -> Result<Puzzle, Reject> {
    if pos.in_check() {
        return Err(Reject::Setup);
    }
    if attack_material(pos) > MAX_ATTACK_MATERIAL {
        return Err(Reject::Material);
    }
    let first_checks = checks(pos);
    if first_checks.len() < 3 {
        return Err(Reject::FewChecks);
    }
    let mut s = MateSolver::new(nodes);
    match s.shortest(pos, plies) {
        None => return Err(Reject::NodeLimit),
        Some(None) => return Err(Reject::NoMate),
        Some(Some(n)) if n < plies => return Err(Reject::Shorter),
        Some(Some(_)) => {}
    }
    let first = unique_first(&mut s, pos, plies)?;
    if let Move::Normal { to, .. } = first {
        if pos.piece_at(to).is_some_and(|p| {
            matches!(
                p.kind,
                PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
            )
        }) {
            return Err(Reject::BigCapture);
        }
    }
    let line = main_line(&mut s, pos, plies, first)?;
    if line.iter().skip(1).step_by(2).any(|m| m.is_drop()) {
        return Err(Reject::Interposition);
    }
    Ok(puzzle(pos, plies, line))
}

/// One random candidate position (see the module docs), or `None` when the
/// drawn setup is illegal.
#[must_use]
pub fn candidate(rng: &mut fastrand::Rng) -> Option<Position> {
    candidate_with(rng, 3)
}

/// [`candidate`] with up to `most_in_hand` pieces in the attacker's hand
/// (the same draws as [`candidate`] for 3).
fn candidate_with(rng: &mut fastrand::Rng, most_in_hand: usize) -> Option<Position> {
    let mut board: [Option<(Color, PieceKind)>; 81] = [None; 81];
    let at = |f: i32, r: i32| -> Option<usize> {
        if (1..=9).contains(&f) && (1..=9).contains(&r) {
            Square::new(f as u8, r as u8).map(Square::index)
        } else {
            None
        }
    };
    let kf = rng.i32(1..=9);
    let kr = rng.i32(1..=3);
    board[at(kf, kr)?] = Some((Color::Gote, PieceKind::King));
    let sk = at(rng.i32(1..=9), 9)?;
    board[sk] = Some((Color::Sente, PieceKind::King));
    let place = |board: &mut [Option<(Color, PieceKind)>; 81],
                 rng: &mut fastrand::Rng,
                 c: Color,
                 kind: PieceKind,
                 spread: i32,
                 down: i32| {
        for _ in 0..8 {
            let f = kf + rng.i32(-spread..=spread);
            let r = kr + rng.i32(-1..=down);
            if let Some(i) = at(f, r) {
                if board[i].is_none() {
                    board[i] = Some((c, kind));
                    return;
                }
            }
        }
    };
    const DEFENDERS: [PieceKind; 8] = [
        PieceKind::Gold,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
        PieceKind::Pawn,
    ];
    for _ in 0..rng.usize(1..=5) {
        let k = DEFENDERS[rng.usize(..DEFENDERS.len())];
        place(&mut board, rng, Color::Gote, k, 2, 2);
    }
    const ATTACKERS: [PieceKind; 13] = [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
        PieceKind::Pawn,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Dragon,
        PieceKind::Horse,
        PieceKind::ProPawn,
        PieceKind::ProSilver,
    ];
    for _ in 0..rng.usize(1..=4) {
        let k = ATTACKERS[rng.usize(..ATTACKERS.len())];
        let spread = if matches!(
            k,
            PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
        ) {
            4
        } else {
            2
        };
        place(&mut board, rng, Color::Sente, k, spread, 4);
    }
    const HAND: [PieceKind; 9] = [
        PieceKind::Gold,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];
    let mut hand = [0u8; 7];
    for _ in 0..rng.usize(0..=most_in_hand) {
        let k = HAND[rng.usize(..HAND.len())];
        hand[k.index()] += 1;
    }
    // SFEN of the board and Sente's hand; composed() gives Gote the rest.
    let mut sfen = String::new();
    for r in 1..=9 {
        let mut empty = 0;
        for f in (1..=9).rev() {
            match at(f, r).and_then(|i| board[i]) {
                None => empty += 1,
                Some((c, k)) => {
                    if empty > 0 {
                        sfen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    sfen.push_str(&crate::shogi::Piece::new(c, k).sfen());
                }
            }
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
        if r < 9 {
            sfen.push('/');
        }
    }
    let mut hs = String::new();
    for &k in PieceKind::HAND.iter().rev() {
        let n = hand[k.index()];
        if n > 1 {
            hs.push_str(&n.to_string());
        }
        if n > 0 {
            hs.push(k.usi_char());
        }
    }
    if hs.is_empty() {
        hs.push('-');
    }
    composed(&format!("{sfen} b {hs} 1")).ok()
}

/// Generates `count` puzzles of `plies` plies from `seed`, calling `progress`
/// with the number found after each find. Returns the puzzles and the
/// rejection counts. Gives up after `max_candidates` candidates.
pub fn generate(
    plies: u32,
    count: usize,
    seed: u64,
    max_candidates: u64,
    progress: impl FnMut(usize, u64),
) -> (Vec<Puzzle>, Vec<(Reject, u64)>) {
    collect(
        count,
        seed,
        max_candidates,
        candidate,
        |pos| judge(pos, plies, CANDIDATE_NODES),
        progress,
    )
}

/// The generation loop shared by [`generate`] and [`generate_long`]: draws
/// candidates, judges them, keeps new puzzles and counts the rejections.
fn collect(
    count: usize,
    seed: u64,
    max_candidates: u64,
    mut candidate: impl FnMut(&mut fastrand::Rng) -> Option<Position>,
    judge: impl Fn(&Position) -> Result<Puzzle, Reject>,
    mut progress: impl FnMut(usize, u64),
) -> (Vec<Puzzle>, Vec<(Reject, u64)>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut rejects = std::collections::BTreeMap::new();
    let mut tried = 0;
    while out.len() < count && tried < max_candidates {
        tried += 1;
        let Some(pos) = candidate(&mut rng) else {
            *rejects.entry(Reject::Setup).or_insert(0) += 1;
            continue;
        };
        match judge(&pos) {
            Ok(p) => {
                if seen.insert(p.id.clone()) {
                    out.push(p);
                    progress(out.len(), tried);
                } else {
                    *rejects.entry(Reject::Duplicate).or_insert(0) += 1;
                }
            }
            Err(r) => *rejects.entry(r).or_insert(0) += 1,
        }
    }
    (out, rejects.into_iter().collect())
}

/// Node limit of the df-pn screen of a long-mate candidate.
pub const LONG_SCREEN_NODES: u64 = 200_000;
/// Node limit of the exact search on a long-mate candidate.
pub const LONG_EXACT_NODES: u64 = 20_000_000;

/// Judges a position as a long mate (for the benchmark and the solver
/// tests, not for players): df-pn proves mate within
/// [`LONG_SCREEN_NODES`], the exact search finds the shortest mate, of at
/// least `min_plies` and at most `max_plies` plies, and exactly one first
/// move mates that fast. No other puzzle filter applies.
pub fn judge_long(pos: &Position, min_plies: u32, max_plies: u32) -> Result<Puzzle, Reject> {
    if pos.in_check() {
        return Err(Reject::Setup);
    }
    match super::Dfpn::new(LONG_SCREEN_NODES).prove(pos) {
        super::Proof::Mate { .. } => {}
        super::Proof::NoMate => return Err(Reject::NoMate),
        super::Proof::Unknown => return Err(Reject::NodeLimit),
    }
    let mut s = MateSolver::new(LONG_EXACT_NODES);
    let plies = match s.shortest(pos, max_plies) {
        None => return Err(Reject::NodeLimit),
        Some(None) => return Err(Reject::NoMate),
        Some(Some(n)) if n < min_plies => return Err(Reject::Shorter),
        Some(Some(n)) => n,
    };
    let first = unique_first(&mut s, pos, plies)?;
    let line = main_line(&mut s, pos, plies, first)?;
    Ok(puzzle(pos, plies, line))
}

/// Long mates of `min_plies` to `max_plies` plies ([`judge_long`]) from
/// random candidates with up to six pieces in the attacker's hand. Same
/// seed, same positions.
pub fn generate_long(
    min_plies: u32,
    max_plies: u32,
    count: usize,
    seed: u64,
    max_candidates: u64,
    progress: impl FnMut(usize, u64),
) -> (Vec<Puzzle>, Vec<(Reject, u64)>) {
    collect(
        count,
        seed,
        max_candidates,
        |rng| candidate_with(rng, 6),
        |pos| judge_long(pos, min_plies, max_plies),
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_puzzles() {
        let (a, _) = generate(1, 3, 7, 20_000, |_, _| {});
        let (b, _) = generate(1, 3, 7, 20_000, |_, _| {});
        assert_eq!(a.len(), 3);
        assert_eq!(a, b);
        for p in &a {
            let pos = p.position().unwrap();
            assert_eq!(judge(&pos, 1, CANDIDATE_NODES).as_ref(), Ok(p));
        }
    }

    #[test]
    fn filters_refuse_bad_puzzles() {
        // Two first moves mate (1c1b, 1c1b+, 2c1b+).
        let p = Position::from_sfen("7nk/9/7SP/9/9/9/9/9/K8 b - 1").unwrap();
        assert_eq!(judge(&p, 1, 10_000), Err(Reject::NotUnique));
        // Mate in one asked as mate in three.
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b GS 1").unwrap();
        assert_eq!(judge(&p, 3, 10_000), Err(Reject::Shorter));
        // Too much material.
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b 2R2B 1").unwrap();
        assert_eq!(judge(&p, 1, 10_000), Err(Reject::Material));
    }
}
