//! Move commentary: what a move did, when it matters, for the line under
//! each move announcement. Cheap on purpose (it runs for every move): no
//! search, only the position before and after, a one-ply look for a mate
//! threat, and the attack maps.

use super::danger::hanging;
use super::eval::{material, BOARD_VALUE};
use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// One remark about a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comment {
    /// The mover would mate next move if the opponent did nothing.
    ThreatensMate,
    /// After a capture: the material balance, in pawns, from Sente's side
    /// (board and hands; positive: Sente is ahead).
    Material(i32),
    /// The move attacks an opponent's piece that nothing defends (the
    /// opponent's piece, its square).
    AttacksLoose(PieceKind, Square),
    /// The move leaves one of the mover's own pieces attacked and
    /// undefended that was not before (the piece, its square).
    LeavesHanging(PieceKind, Square),
    /// The mover's king has just entered the opponent's camp (towards an
    /// entering-king win).
    KingEntersCamp,
}

/// At most this many remarks under one move.
pub const MAX_COMMENTS: usize = 2;

/// The remarks on `mv`, played at `before` (which must be legal there), the
/// most important first, at most [`MAX_COMMENTS`]. Empty for a move that
/// ends the game by mate (the announcement says so).
#[must_use]
pub fn comment(before: &Position, mv: Move) -> Vec<Comment> {
    let after = before.after(mv);
    if after.is_checkmate() {
        return Vec::new();
    }
    let us = before.side_to_move();
    let them = !us;
    let mut out = Vec::new();
    if !after.in_check() && threatens_mate_in_one(&after) {
        out.push(Comment::ThreatensMate);
    }
    if before.is_capture(mv) {
        let pawn = BOARD_VALUE[PieceKind::Pawn.index()].max(1);
        let diff = material(&after, Color::Sente) - material(&after, Color::Gote);
        // Rounded to whole pawns, halves away from zero.
        let pawns = (diff + diff.signum() * pawn / 2) / pawn;
        out.push(Comment::Material(pawns));
    }
    if let Some((kind, sq)) = newly_hanging(before, &after, them) {
        out.push(Comment::AttacksLoose(kind, sq));
    }
    if let Some((kind, sq)) = newly_hanging(before, &after, us) {
        out.push(Comment::LeavesHanging(kind, sq));
    }
    if let (Move::Normal { from, to, .. }, Some(k)) = (mv, after.king_square(us)) {
        let camp = after.promotion_zone(us);
        if k == to && camp.has(to) && !camp.has(from) {
            out.push(Comment::KingEntersCamp);
        }
    }
    out.truncate(MAX_COMMENTS);
    out
}

/// The most valuable piece of `side` that hangs after the move and did not
/// before.
fn newly_hanging(before: &Position, after: &Position, side: Color) -> Option<(PieceKind, Square)> {
    let earlier = hanging(before, side);
    hanging(after, side)
        .into_iter()
        .filter(|sq| !earlier.contains(sq))
        .filter_map(|sq| after.piece_at(sq).map(|p| (p.kind, sq)))
        .max_by_key(|&(kind, _)| BOARD_VALUE[kind.index()])
}

/// Whether the side that just moved would have a mate in one if it could
/// move again (the opponent passing).
fn threatens_mate_in_one(after: &Position) -> bool {
    let Some(again) = after.null_move() else {
        return false;
    };
    again
        .legal_moves()
        .iter()
        .any(|&m| again.gives_check(m) && again.after(m).is_checkmate())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(sfen: &str, usi: &str) -> Vec<Comment> {
        let pos = Position::from_sfen(sfen).expect("sfen");
        let mv = Move::from_usi(usi).expect("usi");
        assert!(pos.is_legal(mv), "{usi} in {sfen}");
        comment(&pos, mv)
    }

    #[test]
    fn a_quiet_opening_move_says_nothing() {
        assert!(play(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "7g7f"
        )
        .is_empty());
    }

    #[test]
    fn a_capture_gives_the_material_balance() {
        // Sente's bishop takes a loose rook: Sente is ahead by about a rook
        // and its value in hand.
        let c = play("4k4/9/9/5r3/9/9/9/1B7/4K4 b - 1", "8h4d");
        match c.first() {
            Some(Comment::Material(n)) => assert!(*n >= 10, "{c:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_gold_drop_threatening_mate_is_named() {
        // With a gold on 5c, dropping the second gold on 5b would mate the
        // king on 5a (5c defends it and covers every flight square).
        let c = play("4k4/9/9/9/9/9/9/9/4K4 b 2G 1", "G*5c");
        assert_eq!(c.first(), Some(&Comment::ThreatensMate), "{c:?}");
    }

    #[test]
    fn hanging_pieces_made_and_attacked() {
        // Gote's rook on 8f sweeps rank f: the silver stepping up from 6g
        // to 6f is left undefended there; stepping back to 5h it is safe.
        let sfen = "4k4/9/9/9/9/1r7/3S5/9/4K4 b - 1";
        assert_eq!(
            play(sfen, "6g6f"),
            vec![Comment::LeavesHanging(
                PieceKind::Silver,
                Square::from_usi("6f").unwrap()
            )]
        );
        assert!(play(sfen, "6g5h").is_empty());
        // A rook slides next to a loose gold: it attacks it.
        let c = play("4k4/9/2g6/9/9/9/9/9/R3K4 b - 1", "9i9c");
        assert_eq!(
            c.first(),
            Some(&Comment::AttacksLoose(
                PieceKind::Gold,
                Square::from_usi("7c").unwrap()
            )),
            "{c:?}"
        );
    }

    #[test]
    fn the_king_entering_the_camp() {
        let c = play("k8/9/9/4K4/9/9/9/9/9 b - 1", "5d5c");
        assert!(c.contains(&Comment::KingEntersCamp), "{c:?}");
    }
}
