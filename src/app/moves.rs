//! Moves: playing one (with request-id idempotency) and the suggestions of
//! `/move` autocomplete.

use super::message::{Msg, Refusal};
use super::{check_len, App, AppResult, ButtonAction, Caller, Place, Reply, Visibility, DAY};
use crate::notation::{format_move, parse_move, InputContext};
use crate::shogi::{declaration_check, DrawReason, EnteringKingRule, GameError, Move, Outcome};

use super::play::*;

/// A move stored by [`App::store_move`].
pub(super) struct Stored {
    /// Its announcement (with a sennichite replay's start, if any).
    pub(super) msg: Msg,
    /// How the game ended with it.
    pub(super) ending: Option<super::message::Ending>,
    /// Whether a sennichite replay started.
    pub(super) replayed: bool,
    /// The outbox id of its announcement.
    pub(super) announcement: i64,
}

impl App {
    /// `/move`: plays the caller's move in their game. With a `request_id`, a
    /// repeated request is answered without being applied twice. In a game
    /// against the computer, the computer's answer follows in the same reply.
    pub fn play_move(
        &self,
        caller: &Caller,
        game: Option<i64>,
        text: &str,
        place: Place,
        request_id: Option<&str>,
    ) -> AppResult {
        let reply = self.play_one_move(caller, game, text, place, request_id)?;
        let game_id = match &reply.msg {
            Msg::MovePlayed {
                game_id,
                ending: None,
                next: Some(next),
                ..
            } if super::level_of(next.id).is_some() && super::level_of(caller.id).is_none() => {
                *game_id
            }
            _ => return Ok(reply),
        };
        // The computer's answer is stored as a job with the move: it comes
        // inline when the engine is quick, else the worker posts it.
        Ok(self.with_computer_answer(reply, game_id, caller.lang))
    }

    /// Plays one move and stores it with its announcement (and, when the
    /// computer is to answer, its durable job) in one transaction.
    pub(super) fn play_one_move(
        &self,
        caller: &Caller,
        game: Option<i64>,
        text: &str,
        place: Place,
        request_id: Option<&str>,
    ) -> AppResult {
        check_len(text)?;
        if let Some(r) = request_id {
            check_len(r)?;
        }
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            // The request id is claimed first: a duplicate sent to another
            // process at the same moment waits for this transaction and then
            // gets its answer, never a second move; and a duplicate changes
            // nothing, not even the sender's player row.
            if let Some(rid) = request_id {
                if !tx.claim_request(rid, now)? {
                    let done = tx.answered(rid)?.unwrap_or_default();
                    let (g, p) = done.split_once(':').unwrap_or(("0", "0"));
                    let msg = Msg::AlreadyDone {
                        game_id: g.parse().unwrap_or(0),
                        ply: p.parse().unwrap_or(0),
                    };
                    return Ok(Reply::private(msg, caller.lang));
                }
            }
            tx.upsert_player(caller.id, &caller.name, now)?;
            let mut l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            let mover_color = l.game.position().side_to_move();
            if l.user_of(mover_color) != caller.id {
                let to_move = Self::who(tx, l.to_move())?;
                return Err(Refusal::NotYourTurn { to_move }.into());
            }
            let me = Self::player(tx, caller.id)?;
            let style = style_of(&me);
            let before = l.game.position().clone();
            let ctx = InputContext {
                previous: l.game.moves().last().copied(),
                style: Some(style),
            };
            let mv = match parse_move(&before, text, ctx) {
                Ok(m) => m,
                Err(e) => return Err(Refusal::Move(e).into()),
            };
            let first = Self::store_move(tx, &mut l, &caller.who(), mv, now)?;
            if let Some(rid) = request_id {
                tx.answer_request(rid, &format!("{}:{}", l.row.id, l.game.ply()))?;
            }
            // The opponent's conditional premove, if this move is one of
            // their conditions: answered at once, in the same transaction.
            let answered = match first.ending {
                None => self.fire_premove(tx, &mut l, now)?,
                Some(_) => None,
            };
            let mut announcements = vec![first.announcement];
            let (msg, last) = match answered {
                Some((note, second)) => {
                    announcements.push(second.announcement);
                    let msg = Msg::Both(
                        Box::new(first.msg.clone()),
                        Box::new(Msg::Both(Box::new(note), Box::new(second.msg.clone()))),
                    );
                    (msg, second)
                }
                None => (first.msg.clone(), first),
            };
            let ending = last.ending.clone();
            let replayed = last.replayed;
            let mut r = Reply::public(msg, caller.lang);
            r.announcements = announcements;
            let opponent = Self::player(tx, l.row.opponent_of(caller.id))?;
            r.board = Some(Self::board_view(tx, &l, &opponent, Visibility::Public)?);
            r.notify = vec![opponent.user_id];
            if ending.is_some() {
                if !l.against_computer() && !replayed {
                    r.buttons.push(ButtonAction::Rematch.button(l.row.id));
                }
            } else if l.game.rule() == EnteringKingRule::Declaration27
                && declaration_check(l.game.position()).is_empty()
            {
                r.buttons.push(ButtonAction::Declare.button(l.row.id));
            }
            Ok(r)
        })
    }

    /// Plays `mv` for `mover` in `l` and stores it with its announcement:
    /// the deadline of the side to move next (paused if they are away), the
    /// game's end, a sennichite replay, the computer's job. An illegal move
    /// is refused and changes nothing.
    pub(super) fn store_move(
        tx: &crate::store::Tx<'_>,
        l: &mut Loaded,
        mover: &super::message::Who,
        mv: Move,
        now: i64,
    ) -> AppResult<Stored> {
        let before = l.game.position().clone();
        let previous = l.game.moves().last().copied();
        let outcome = match l.game.play(mv) {
            Ok(o) => o,
            Err(GameError::Illegal(e)) => {
                return Err(Refusal::Move(crate::notation::MoveInputError::Illegal(e)).into())
            }
            Err(_) => return Err(Refusal::GameIsOver.into()),
        };
        let ply = l.game.ply() as i64;
        let next = l.to_move();
        // Games against the computer have no deadline.
        let mut deadline =
            (outcome.is_none() && !l.against_computer()).then_some(now + l.row.days_per_move * DAY);
        tx.append_move(
            l.row.id,
            l.row.version,
            ply,
            &mv.to_string(),
            &l.game.position().to_sfen(),
            deadline,
            now,
        )?;
        l.row.version += 1;
        if deadline.is_some() && Self::pause_if_away(tx, l.row.id, next, now)? {
            deadline = None;
        }
        let ending = match outcome {
            Some(o) => Some(Self::finish(tx, l, o, now)?),
            None => None,
        };
        let replay = match outcome {
            Some(Outcome::Draw(DrawReason::Sennichite)) => Self::replay_sennichite(tx, l, now)?,
            _ => None,
        };
        if super::level_of(mover.id).is_some() {
            tx.finish_computer_job(l.row.id)?;
        } else if ending.is_none() && super::level_of(next).is_some() {
            // Claimed for the inline answer that follows, so the worker
            // does not search it too; released if that does not finish.
            tx.enqueue_computer_job(l.row.id, ply, now)?;
            tx.claim_computer_job(l.row.id, now, now + super::computer::INLINE_CLAIM_SECS)?;
        }
        // The announcement in the game's place, delivered by the outbox
        // unless the front end posts this reply and acknowledges it.
        let announcement = queue_played(tx, l.row.id, ply, now)?;
        Self::tell_followers(tx, &l.row, ply, now)?;
        let msg = Msg::MovePlayed {
            game_id: l.row.id,
            mover: mover.clone(),
            text: public_move_text(&before, mv, previous),
            captured: match mv {
                Move::Normal { to, .. } => before.piece_at(to).map(|p| p.kind),
                Move::Drop { .. } => None,
            },
            promoted: mv.is_promotion(),
            check: l.game.position().in_check(),
            repetitions: l.game.repetition_count(),
            comments: crate::engine::comment::comment(&before, mv),
            next: if ending.is_none() {
                Some(Self::who(tx, next)?)
            } else {
                None
            },
            deadline,
            ending: ending.clone(),
        };
        let replayed = replay.is_some();
        let msg = match replay {
            Some(next) => Msg::Both(Box::new(msg), Box::new(next)),
            None => msg,
        };
        Ok(Stored {
            msg,
            ending,
            replayed,
            announcement,
        })
    }

    /// The legal moves of the caller's game written in the caller's notation,
    /// filtered by what was typed (for autocomplete). At most `limit`.
    pub fn move_suggestions(
        &self,
        caller: &Caller,
        game: Option<i64>,
        typed: &str,
        place: Place,
        limit: usize,
    ) -> AppResult<Vec<(String, String)>> {
        let typed: String = typed
            .chars()
            .take(super::MAX_ARG_CHARS)
            .collect::<String>()
            .to_lowercase();
        let store = self.store()?;
        let out = store.read(|tx| -> AppResult<_> {
            // In a puzzle every move must give check: checks are listed first.
            let (pos, prev, style, checks_first) =
                match Self::puzzle_for_move(tx, caller, game, place)? {
                    Some((pos, prev, style)) => (pos, prev, style, true),
                    None => {
                        let l = match Self::pick_game(tx, caller, game, place) {
                            Ok(l) => l,
                            Err(_) => return Ok(Vec::new()),
                        };
                        if l.row.status != "active" || l.to_move() != caller.id {
                            return Ok(Vec::new());
                        }
                        let style = tx
                            .player(caller.id)?
                            .map(|p| style_of(&p))
                            .unwrap_or_default();
                        (
                            l.game.position().clone(),
                            l.game.moves().last().copied(),
                            style,
                            false,
                        )
                    }
                };
            let pos = &pos;
            let mut v: Vec<(bool, String, String)> = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    let check = checks_first && pos.gives_check(m);
                    (!check, format_move(pos, m, style, prev), m.to_string())
                })
                .filter(|(_, shown, usi)| {
                    typed.is_empty()
                        || shown.to_lowercase().contains(&typed)
                        || usi.contains(&typed)
                })
                .collect();
            v.sort();
            v.truncate(limit);
            Ok(v.into_iter().map(|(_, shown, usi)| (shown, usi)).collect())
        })?;
        Ok(out)
    }
}
