//! `/learn`: a short course — each piece, promotion, capture and drop, the
//! three forbidden drops and a first mate — then a minishogi game against
//! the Beginner. Each exercise is a position and the move(s) that solve it;
//! an illegal try is refused by the rules core with the rule it breaks, which
//! is the lesson. The words are in `i18n::learn`.

use super::message::{Msg, Refusal};
use super::{check_len, App, AppResult, BoardView, Caller, ComputerOptions, Place, Reply};
use crate::engine::Level;
use crate::notation::{format_move, parse_move, InputContext, Style};
use crate::shogi::{Move, Position, Variant};
use crate::store::{Reader, Settings, Tx};

/// The exercises of the course, in order (the words: `i18n::lesson_text`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// The pawn.
    Pawn,
    /// The lance.
    Lance,
    /// The knight.
    Knight,
    /// The silver general.
    Silver,
    /// The gold general.
    Gold,
    /// The bishop.
    Bishop,
    /// The rook.
    Rook,
    /// The king.
    King,
    /// Promotion.
    Promotion,
    /// Captured pieces and drops.
    Drop,
    /// Forbidden drop: two pawns in a file (nifu).
    Nifu,
    /// Forbidden drop: a piece that could never move.
    DeadDrop,
    /// Forbidden drop: mate by a pawn drop (uchifuzume).
    PawnDropMate,
    /// A first mate.
    FirstMate,
    /// The final minishogi game against the Beginner.
    MiniGame,
}

/// What solves an exercise.
enum Goal {
    /// One of these moves (USI).
    Moves(&'static [&'static str]),
    /// Any mating move.
    Mate,
    /// Not a move: the course ends with a game.
    Game,
}

/// The course: each lesson, its position (the learner plays Sente) and goal.
const COURSE: [(Lesson, &str, Goal); 15] = [
    (
        Lesson::Pawn,
        "4k4/9/9/9/4g4/4P4/9/9/4K4 b - 1",
        Goal::Moves(&["5f5e"]),
    ),
    (
        Lesson::Lance,
        "4k4/9/s8/9/9/9/9/9/L3K4 b - 1",
        Goal::Moves(&["9i9c", "9i9c+"]),
    ),
    (
        Lesson::Knight,
        "4k4/9/9/9/5r3/9/4N4/9/4K4 b - 1",
        Goal::Moves(&["5g4e"]),
    ),
    (
        Lesson::Silver,
        "4k4/9/9/9/4S4/5p3/9/9/4K4 b - 1",
        Goal::Moves(&["5e4f"]),
    ),
    (
        Lesson::Gold,
        "4k4/9/9/9/3bG4/9/9/9/4K4 b - 1",
        Goal::Moves(&["5e6e"]),
    ),
    (
        Lesson::Bishop,
        "4k4/7r1/9/9/9/9/9/1B7/4K4 b - 1",
        Goal::Moves(&["8h2b", "8h2b+"]),
    ),
    (
        Lesson::Rook,
        "4k4/9/7g1/9/9/9/9/7R1/4K4 b - 1",
        Goal::Moves(&["2h2c", "2h2c+"]),
    ),
    (
        Lesson::King,
        "4k4/9/9/9/9/9/9/5g3/4K4 b - 1",
        Goal::Moves(&["5i4h"]),
    ),
    (
        Lesson::Promotion,
        "4k4/9/9/6P2/9/9/9/9/4K4 b - 1",
        Goal::Moves(&["3d3c+"]),
    ),
    (
        Lesson::Drop,
        "4k4/9/4g4/9/9/9/9/9/4K4 b S 1",
        Goal::Moves(&["S*4d", "S*5d", "S*6d", "S*4b", "S*6b"]),
    ),
    (
        Lesson::Nifu,
        "4k4/9/3g1g3/9/9/9/5P3/9/4K4 b P 1",
        Goal::Moves(&["P*6d"]),
    ),
    (
        Lesson::DeadDrop,
        "k8/4r4/9/9/9/9/9/9/8K b N 1",
        Goal::Moves(&["N*4d", "N*6d"]),
    ),
    (
        Lesson::PawnDropMate,
        "8k/9/6NS1/9/9/9/9/9/4K4 b GP 1",
        Goal::Mate,
    ),
    (
        Lesson::FirstMate,
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        Goal::Mate,
    ),
    (Lesson::MiniGame, "", Goal::Game),
];

/// Number of lessons (the last one is the minishogi game).
pub const LESSONS: usize = COURSE.len();

fn position_of(index: usize) -> AppResult<Position> {
    let (_, sfen, _) = &COURSE[index.min(LESSONS - 1)];
    Position::from_sfen(sfen).map_err(|e| super::AppError::Internal(format!("lesson {index}: {e}")))
}

fn current(tx: &Reader<'_>, user: i64) -> AppResult<usize> {
    let n = tx.lesson_of(user)?;
    Ok(n.and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
        .min(LESSONS - 1))
}

fn set_current(tx: &Tx<'_>, user: i64, index: usize, now: i64) -> AppResult<()> {
    tx.set_lesson(user, i64::try_from(index).unwrap_or(0), now)?;
    Ok(())
}

fn settings_of(tx: &Reader<'_>, user: i64) -> AppResult<Settings> {
    Ok(tx.player(user)?.map(|p| p.settings).unwrap_or_default())
}

fn board(pos: &Position, last: Option<Move>, settings: &Settings) -> BoardView {
    BoardView {
        last_move: last.map(|m| m.to_string()),
        // Lessons are where the danger help is on by default.
        danger: (settings.danger != "off")
            .then(|| super::play::danger_marks(pos, pos.side_to_move())),
        ..BoardView::outside_game(pos.to_sfen(), settings)
    }
}

/// The lesson at `index` with its diagram.
fn lesson_reply(index: usize, settings: &Settings, caller: &Caller) -> AppResult {
    let pos = position_of(index)?;
    let mut reply = Reply::private(
        Msg::Lesson {
            number: index + 1,
            total: LESSONS,
            lesson: COURSE[index].0,
        },
        caller.lang,
    );
    reply.board = Some(board(&pos, None, settings));
    Ok(reply)
}

impl App {
    /// `/learn [lesson] [move]`: without a move, shows the lesson the
    /// caller is at (or lesson `number`, 1-based, to repeat or skip); the
    /// last lesson starts the minishogi game. With a move, answers the
    /// current exercise: right moves lead to the next lesson, legal wrong
    /// ones get a hint to try again, illegal ones the rule they break.
    pub fn learn(&self, caller: &Caller, number: Option<i64>, text: Option<&str>) -> AppResult {
        if let Some(t) = text {
            check_len(t)?;
        }
        let now = self.now();
        let start_game = {
            let store = self.store()?;
            store.transaction(|tx| -> AppResult<Option<Reply>> {
                tx.upsert_player(caller.id, &caller.name, now)?;
                let settings = settings_of(tx, caller.id)?;
                let mut index = current(tx, caller.id)?;
                if let Some(n) = number {
                    index = usize::try_from(n)
                        .ok()
                        .filter(|n| (1..=LESSONS).contains(n))
                        .ok_or(Refusal::NoSuchLesson(LESSONS))?
                        - 1;
                    set_current(tx, caller.id, index, now)?;
                }
                let (lesson, _, goal) = &COURSE[index];
                let Some(text) = text else {
                    return match goal {
                        Goal::Game => Ok(None),
                        _ => lesson_reply(index, &settings, caller).map(Some),
                    };
                };
                if matches!(goal, Goal::Game) {
                    return Err(Refusal::LessonIsAGame.into());
                }
                let pos = position_of(index)?;
                let ctx = InputContext {
                    previous: None,
                    style: None,
                };
                let mv = parse_move(&pos, text, ctx).map_err(Refusal::Move)?;
                let style = Style::from_name(&settings.notation).unwrap_or_default();
                let played = format_move(&pos, mv, style, None);
                let right = match goal {
                    Goal::Moves(list) => list.contains(&mv.to_string().as_str()),
                    Goal::Mate => pos.after(mv).is_checkmate(),
                    Goal::Game => false,
                };
                if !right {
                    let mut reply = Reply::private(
                        Msg::LessonTryAgain {
                            played,
                            lesson: *lesson,
                        },
                        caller.lang,
                    );
                    reply.board = Some(board(&pos, None, &settings));
                    return Ok(Some(reply));
                }
                let next = index + 1;
                set_current(tx, caller.id, next.min(LESSONS - 1), now)?;
                let passed = Msg::LessonPassed { played };
                if matches!(COURSE[next.min(LESSONS - 1)].2, Goal::Game) {
                    let mut reply = Reply::private(
                        Msg::Both(
                            Box::new(passed),
                            Box::new(Msg::Lesson {
                                number: next + 1,
                                total: LESSONS,
                                lesson: Lesson::MiniGame,
                            }),
                        ),
                        caller.lang,
                    );
                    reply.board = Some(board(&pos.after(mv), Some(mv), &settings));
                    return Ok(Some(reply));
                }
                Ok(Some(lesson_reply(next, &settings, caller)?.after(passed)))
            })?
        };
        match start_game {
            Some(reply) => Ok(reply),
            None => {
                // The last lesson: a minishogi game against the Beginner.
                let opts = ComputerOptions {
                    level: Level::Beginner,
                    variant: Variant::Minishogi,
                    handicap: None,
                    color: Some(crate::shogi::Color::Sente),
                };
                Ok(self
                    .play_computer(caller, &opts, Place::default())?
                    .after(Msg::Lesson {
                        number: LESSONS,
                        total: LESSONS,
                        lesson: Lesson::MiniGame,
                    }))
            }
        }
    }

    /// Autocomplete for `/learn move`: the legal moves of the caller's
    /// current exercise in their notation, filtered by what is typed.
    pub fn learn_suggestions(
        &self,
        caller: &Caller,
        typed: &str,
        limit: usize,
    ) -> AppResult<Vec<(String, String)>> {
        let typed = typed
            .chars()
            .take(super::MAX_ARG_CHARS)
            .collect::<String>()
            .to_lowercase();
        let store = self.store()?;
        let (index, style) = store.read(|tx| -> AppResult<_> {
            let settings = settings_of(tx, caller.id)?;
            Ok((
                current(tx, caller.id)?,
                Style::from_name(&settings.notation).unwrap_or_default(),
            ))
        })?;
        if matches!(COURSE[index].2, Goal::Game) {
            return Ok(Vec::new());
        }
        let pos = position_of(index)?;
        let mut v: Vec<(String, String)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (format_move(&pos, m, style, None), m.to_string()))
            .filter(|(shown, usi)| {
                typed.is_empty() || shown.to_lowercase().contains(&typed) || usi.contains(&typed)
            })
            .collect();
        v.sort();
        v.truncate(limit);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exercise_is_a_legal_position_with_legal_solutions() {
        for (i, (lesson, sfen, goal)) in COURSE.iter().enumerate() {
            if matches!(goal, Goal::Game) {
                assert_eq!(i, LESSONS - 1, "the game comes last");
                continue;
            }
            let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{lesson:?}: {e}"));
            assert_eq!(pos.side_to_move(), crate::shogi::Color::Sente, "{lesson:?}");
            let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
            match goal {
                Goal::Moves(list) => {
                    for m in *list {
                        assert!(legal.iter().any(|l| l == m), "{lesson:?}: {m} not legal");
                    }
                    // There is always a wrong legal move to learn from.
                    assert!(legal.len() > list.len(), "{lesson:?}");
                }
                Goal::Mate => {
                    let mates = pos
                        .legal_moves()
                        .iter()
                        .filter(|&&m| pos.after(m).is_checkmate())
                        .count();
                    assert!(mates >= 1, "{lesson:?}: no mate");
                }
                Goal::Game => {}
            }
        }
    }

    #[test]
    fn the_forbidden_drops_are_refused_by_the_rules() {
        use crate::shogi::IllegalMove;
        let refused = |i: usize, usi: &str| -> IllegalMove {
            let pos = position_of(i).expect("lesson");
            let m = Move::from_usi(usi).expect("usi");
            pos.check_move(m).expect_err(usi)
        };
        let index = |l: Lesson| COURSE.iter().position(|c| c.0 == l).expect("lesson");
        assert!(
            matches!(
                refused(index(Lesson::Nifu), "P*4d"),
                IllegalMove::Nifu { .. }
            ),
            "nifu"
        );
        assert!(
            matches!(
                refused(index(Lesson::DeadDrop), "N*4b"),
                IllegalMove::DeadDrop { .. }
            ),
            "dead knight"
        );
        assert!(
            matches!(
                refused(index(Lesson::PawnDropMate), "P*1b"),
                IllegalMove::PawnDropMate
            ),
            "uchifuzume"
        );
    }
}
