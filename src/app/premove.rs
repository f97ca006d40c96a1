//! Conditional premoves for correspondence games: a player enters lines
//! "if the opponent plays X, answer Y (then if Z, answer W...)". When the
//! opponent plays X, Y is played at once, in the same transaction as X, and
//! the line's next condition applies. Lines are checked move by move from
//! the game's position when they are entered (any start position: handicaps,
//! minishogi and custom starts alike), are seen only by their owner, and are
//! dropped when the game leaves them: another move than a condition, a
//! takeback, the game's end. Never against the computer (its answers come at
//! once anyway) and never in puzzles (those are not games).

use super::message::{Msg, Refusal};
use super::moves::Stored;
use super::play::{style_of, Loaded};
use super::scheduler::to_json;
use super::{App, AppResult, Caller, Place, Reply};
use crate::notation::{format_move, parse_move, InputContext};
use crate::shogi::Move;
use crate::store::{PremoveRow, Tx};

/// The most moves one line may hold (conditions and answers).
pub const MAX_LINE_MOVES: usize = 20;

/// What `/premove` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PremoveOp<'a> {
    /// Add a line (its moves as the player writes them).
    Add(&'a str),
    /// List the caller's lines.
    List,
    /// Delete one line by number, or all.
    Clear(Option<i64>),
}

impl App {
    /// `/premove`: adds, lists or deletes the caller's premove lines in
    /// their game. Every answer is private.
    pub fn premove(
        &self,
        caller: &Caller,
        game: Option<i64>,
        op: PremoveOp<'_>,
        place: Place,
    ) -> AppResult {
        if let PremoveOp::Add(text) = op {
            if text.chars().count() > 400 {
                return Err(Refusal::BadArgument("line: too long".into()).into());
            }
        }
        let now = self.now();
        let cap = self.caps.premove_lines;
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            let Some(side) = l.color_of(caller.id) else {
                return Err(Refusal::NotYourGame.into());
            };
            if l.against_computer() {
                return Err(Refusal::NoPremoveAgainstComputer.into());
            }
            let me = Self::player(tx, caller.id)?;
            let style = style_of(&me);
            let game_id = l.row.id;
            let msg = match op {
                PremoveOp::List => Msg::PremoveLines {
                    game_id,
                    lines: written_lines(&l, &live_lines(tx, &l, caller.id)?, style),
                },
                PremoveOp::Clear(n) => {
                    let dropped = tx.drop_premoves(game_id, caller.id, n)?;
                    if n.is_some() && dropped == 0 {
                        return Err(Refusal::NoSuchPremoveLine(n.unwrap_or_default()).into());
                    }
                    Msg::PremovesCleared { game_id, dropped }
                }
                PremoveOp::Add(text) => {
                    if l.game.position().side_to_move() == side {
                        return Err(Refusal::PremoveOnYourTurn.into());
                    }
                    let moves = check_line(&l, text, style)?;
                    let existing = live_lines(tx, &l, caller.id)?;
                    if existing.len() as i64 >= cap {
                        return Err(Refusal::TooManyPremoveLines(cap).into());
                    }
                    let usi: Vec<String> = moves.iter().map(ToString::to_string).collect();
                    if let Some(other) = existing.iter().find(|e| conflicts(&e.moves, &usi)) {
                        return Err(Refusal::PremoveConflict(other.line_no).into());
                    }
                    let from_ply = l.game.ply() as i64 + 1;
                    let line_no = tx.add_premove(game_id, caller.id, from_ply, &usi, now)?;
                    let row = PremoveRow {
                        line_no,
                        from_ply,
                        moves: usi,
                    };
                    Msg::PremoveAdded {
                        game_id,
                        line: written_lines(&l, &[row], style).remove(0),
                    }
                }
            };
            Ok(Reply::private(msg, caller.lang))
        })
    }

    /// After a move that left the game going: if the player now to move
    /// has a line whose condition is that move, their answer is played at
    /// once. Lines that do not match are dropped. Returns the note that a
    /// premove answered and the answer's stored move.
    pub(super) fn fire_premove(
        &self,
        tx: &Tx<'_>,
        l: &mut Loaded,
        now: i64,
    ) -> AppResult<Option<(Msg, Stored)>> {
        let owner = l.to_move();
        if owner < 0 || l.against_computer() {
            return Ok(None);
        }
        let lines = tx.premoves(l.row.id, owner)?;
        if lines.is_empty() {
            return Ok(None);
        }
        let ply = l.game.ply() as i64;
        let played = l.game.moves().last().map(ToString::to_string);
        let (matching, gone): (Vec<PremoveRow>, Vec<PremoveRow>) =
            lines.into_iter().partition(|line| {
                line.from_ply == ply
                    && line.moves.len() >= 2
                    && Some(&line.moves[0]) == played.as_ref()
            });
        let dropped = gone.len();
        for line in gone {
            tx.drop_premoves(l.row.id, owner, Some(line.line_no))?;
        }
        // Lines with the same condition have the same answer (a conflicting
        // line is refused when it is entered): the first one's is played.
        let Some(first) = matching.first() else {
            // The game left every line: nothing happens in the game, so the
            // owner is told privately (when one fires, the game says so).
            let n = super::Notice::PremovesDropped {
                game_id: l.row.id,
                ply,
                user: owner,
                count: dropped as i64,
            };
            tx.push_outbox(&to_json(&n)?, now)?;
            return Ok(None);
        };
        let mv = Move::from_usi(&first.moves[1])
            .ok()
            .filter(|m| l.game.position().is_legal(*m));
        let Some(mv) = mv else {
            // Cannot happen for a line checked when it was entered; a stored
            // line that no longer fits is dropped rather than played.
            tx.drop_premoves(l.row.id, owner, None)?;
            return Ok(None);
        };
        let who = Self::who(tx, owner)?;
        let stored = Self::store_move(tx, l, &who, mv, now)?;
        for line in &matching {
            let rest = &line.moves[2..];
            if line.moves[1] == first.moves[1] && rest.len() >= 2 && stored.ending.is_none() {
                tx.advance_premove(l.row.id, owner, line.line_no, ply + 2, rest)?;
            } else {
                tx.drop_premoves(l.row.id, owner, Some(line.line_no))?;
            }
        }
        let note = Msg::PremovePlayed {
            game_id: l.row.id,
            by: who,
        };
        Ok(Some((note, stored)))
    }
}

/// The caller's lines that still fit the game (older ones are left for the
/// next move to drop; they never fire).
fn live_lines(tx: &Tx<'_>, l: &Loaded, user: i64) -> AppResult<Vec<PremoveRow>> {
    let next = l.game.ply() as i64 + 1;
    Ok(tx
        .premoves(l.row.id, user)?
        .into_iter()
        .filter(|p| p.from_ply == next)
        .collect())
}

/// Parses a line written in any notation the move box takes, move by move
/// from the game's position: the opponent's move first, then the answer,
/// and so on; an even number of moves, each legal where it is played.
fn check_line(l: &Loaded, text: &str, style: crate::notation::Style) -> AppResult<Vec<Move>> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < 2 || words.len() % 2 == 1 {
        return Err(Refusal::PremoveNeedsPairs(words.len()).into());
    }
    if words.len() > MAX_LINE_MOVES {
        return Err(Refusal::PremoveTooLong(MAX_LINE_MOVES).into());
    }
    let mut game = l.game.clone();
    let mut moves = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let ctx = InputContext {
            previous: game.moves().last().copied(),
            style: Some(style),
        };
        let mv = parse_move(game.position(), w, ctx).map_err(|e| Refusal::PremoveMove {
            index: i + 1,
            error: Box::new(e),
        })?;
        match game.play(mv) {
            Ok(None) => {}
            // The game would end here: nothing can follow.
            Ok(Some(_)) if i + 1 == words.len() => {}
            Ok(Some(_)) => return Err(Refusal::PremoveAfterEnd(i + 1).into()),
            Err(_) => return Err(Refusal::PremoveAfterEnd(i + 1).into()),
        }
        moves.push(mv);
    }
    Ok(moves)
}

/// Whether two lines answer the same condition differently (so which one
/// fires would be a guess).
fn conflicts(a: &[String], b: &[String]) -> bool {
    for (pa, pb) in a.chunks(2).zip(b.chunks(2)) {
        if pa[0] != pb[0] {
            return false;
        }
        match (pa.get(1), pb.get(1)) {
            (Some(x), Some(y)) if x != y => return true,
            _ => {}
        }
    }
    false
}

/// Each line written in the reader's notation: (number, moves).
fn written_lines(
    l: &Loaded,
    lines: &[PremoveRow],
    style: crate::notation::Style,
) -> Vec<(i64, Vec<String>)> {
    lines
        .iter()
        .map(|line| {
            let mut game = l.game.clone();
            let mut out = Vec::new();
            for usi in &line.moves {
                let Ok(mv) = Move::from_usi(usi) else { break };
                let previous = game.moves().last().copied();
                out.push(format_move(game.position(), mv, style, previous));
                if game.play(mv).is_err() {
                    break;
                }
            }
            (line.line_no, out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::conflicts;

    fn v(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn the_same_condition_with_another_answer_conflicts() {
        assert!(conflicts(&v("8c8d 2f2e"), &v("8c8d 2f2d")));
        assert!(conflicts(
            &v("8c8d 2f2e 8d8e 2e2d"),
            &v("8c8d 2f2e 8d8e 6i7h")
        ));
        // Another condition, or the same answer continued: no conflict.
        assert!(!conflicts(&v("8c8d 2f2e"), &v("3c3d 2f2e")));
        assert!(!conflicts(&v("8c8d 2f2e"), &v("8c8d 2f2e 8d8e 2e2d")));
        assert!(!conflicts(
            &v("8c8d 2f2e 8d8e 2e2d"),
            &v("8c8d 2f2e 3c3d 7g7f")
        ));
    }
}
