//! Game actions: the board, the list of games, resign, abort, declare,
//! count, takebacks and exports.

use super::caps::Kind;
use super::message::{Ending, Msg, Refusal, Who};
use super::{
    App, AppError, AppResult, BoardView, ButtonAction, Caller, Place, Reply, Visibility, DAY,
};
use crate::notation::{write_record, GameRecord, RecordFormat};
use crate::shogi::{EnteringKingRule, Game, Move, Outcome, WinReason};
use crate::store::Reader;

use super::play::*;

impl App {
    /// `/board`: the position of the caller's game (in a game's thread,
    /// that game; otherwise `game:` or the most recent one).
    pub fn board(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        self.show_board(caller, game, place)
    }

    pub(super) fn show_board(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, self.now())?;
            let l = Self::pick_game_any(tx, caller, game, place)?;
            let me = Self::player(tx, caller.id)?;
            let ending = l.game.outcome().map(|o| {
                let winner = o.winner().map(|c| Who {
                    id: l.user_of(c),
                    name: String::new(),
                });
                Ending {
                    outcome: o,
                    winner,
                    ratings: Vec::new(),
                    pot: 0,
                }
            });
            let ending = match ending {
                Some(mut e) => {
                    if let Some(w) = &e.winner {
                        e.winner = Some(Self::who(tx, w.id)?);
                    }
                    Some(e)
                }
                None => stored_ending(tx, &l.row)?,
            };
            let msg = Msg::Board {
                game_id: l.row.id,
                sente: Self::who(tx, l.row.sente)?,
                gote: Self::who(tx, l.row.gote)?,
                to_move: if l.row.status == "active" {
                    Some(Self::who(tx, l.to_move())?)
                } else {
                    None
                },
                ply: l.row.ply,
                deadline: l.row.deadline,
                ending,
            };
            let mut r = Reply::public(msg, caller.lang);
            r.board = Some(Self::board_view(tx, &l, &me, Visibility::Public)?);
            Ok(r)
        })
    }

    /// The announcement of ply `ply` of `game_id` (a
    /// [`super::Notice::Played`]), built from the stored game and worded for
    /// the player who is to answer it. `None` when the game no longer has
    /// that ply (it was taken back).
    pub fn played_reply(tx: &Reader<'_>, game_id: i64, ply: i64) -> AppResult<Option<Reply>> {
        let Some(row) = tx.game(game_id)? else {
            return Ok(None);
        };
        let moves = tx.moves(game_id)?;
        let l = Loaded {
            game: game_from_row(&row, &moves)?,
            row,
        };
        let Some(n) = usize::try_from(ply)
            .ok()
            .filter(|&n| n >= 1 && n <= l.game.ply())
        else {
            return Ok(None);
        };
        let played = &l.game.moves()[..n];
        let replay = |k: usize| {
            Game::replay(l.game.start().clone(), l.game.rule(), &played[..k])
                .map_err(|(i, e)| AppError::Internal(format!("game {game_id} move {}: {e}", i + 1)))
        };
        let before = replay(n - 1)?;
        let after = replay(n)?;
        let mv = played[n - 1];
        let mover_color = before.position().side_to_move();
        let mover = l.user_of(mover_color);
        let reader = Self::player(tx, l.user_of(!mover_color))?;
        let last = n == l.game.ply();
        let ending = if last && l.row.status == "finished" {
            stored_ending(tx, &l.row)?
        } else {
            None
        };
        let prev = before.moves().last().copied();
        let msg = Msg::MovePlayed {
            game_id,
            mover: Self::who(tx, mover)?,
            text: public_move_text(before.position(), mv, prev),
            captured: match mv {
                Move::Normal { to, .. } => before.position().piece_at(to).map(|p| p.kind),
                Move::Drop { .. } => None,
            },
            promoted: mv.is_promotion(),
            check: after.position().in_check(),
            repetitions: after.repetition_count(),
            comments: crate::engine::comment::comment(before.position(), mv),
            next: if ending.is_none() {
                Some(Self::who(tx, reader.user_id)?)
            } else {
                None
            },
            deadline: if last { l.row.deadline } else { None },
            ending,
        };
        // A sennichite replayed at once: the announcement says so.
        let msg = match tx.replayed_by(game_id)?.filter(|_| last) {
            Some(next) => {
                let n = Self::load(tx, next)?;
                let sente = Self::who(tx, n.row.sente)?;
                let gote = Self::who(tx, n.row.gote)?;
                let replay = Msg::SennichiteReplay {
                    game_id,
                    new_game: next,
                    to_move: Self::who(tx, n.to_move())?,
                    sente,
                    gote,
                    deadline: n.row.deadline,
                };
                Msg::Both(Box::new(msg), Box::new(replay))
            }
            None => msg,
        };
        // The reader's language, else the server's default.
        let lang = super::scheduler::lang_of_in(tx, reader.user_id, l.row.guild_id)?;
        let mut r = Reply::public(msg, lang);
        r.board = Some(BoardView {
            game_id,
            sfen: after.position().to_sfen(),
            last_move: Some(mv.to_string()),
            flip: super::play::flipped(&l.row, &reader, Visibility::Public),
            piece_style: reader.settings.piece_style.clone(),
            theme: reader.settings.theme.clone(),
            dots: reader.settings.dots,
            names: reader.settings.names,
            danger: Self::danger_for(tx, &l, &reader, Visibility::Public)?
                .map(|side| danger_marks(after.position(), side)),
            repetitions: u8::try_from(after.repetition_count()).unwrap_or(u8::MAX),
        });
        r.notify = vec![reader.user_id];
        Ok(Some(r))
    }

    /// `/games`: the caller's active games.
    pub fn games(&self, caller: &Caller) -> AppResult {
        let store = self.store()?;
        let lines = store.read(|tx| -> AppResult<_> {
            let mut lines = Vec::new();
            for g in tx.active_games_of(caller.id)? {
                lines.push(Self::game_line(tx, &g, caller.id)?);
            }
            Ok(lines)
        })?;
        Ok(Reply::private(Msg::Games(lines), caller.lang))
    }

    /// `/resign`, `/abort`, `/declare`, and confirming a count: actions that
    /// may end the game.
    pub fn game_action(
        &self,
        caller: &Caller,
        game: Option<i64>,
        action: Action,
        place: Place,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let mut l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            let Some(color) = l.color_of(caller.id) else {
                return Err(Refusal::NotYourGame.into());
            };
            let result = match action {
                Action::Resign => {
                    // Ask first, with buttons only the caller sees.
                    let abort = l.game.clone().resign(color) == Ok(Outcome::Aborted)
                        && tx.league_of_game(l.row.id)?.is_none();
                    let mut r = Reply::private(
                        Msg::ConfirmResign {
                            game_id: l.row.id,
                            abort,
                        },
                        caller.lang,
                    );
                    r.buttons = vec![
                        ButtonAction::ResignYes.button(l.row.id),
                        ButtonAction::ResignNo.button(l.row.id),
                    ];
                    return Ok(r);
                }
                Action::ResignConfirmed => l.game.resign(color),
                Action::Abort => {
                    if tx.league_of_game(l.row.id)?.is_some() {
                        return Err(Refusal::NoAbortInLeague.into());
                    }
                    l.game.abort()
                }
                Action::Declare => {
                    if l.game.position().side_to_move() != color {
                        let to_move = Self::who(tx, l.to_move())?;
                        return Err(Refusal::NotYourTurn { to_move }.into());
                    }
                    l.game.declare()
                }
                Action::Count => {
                    if !l.game.can_count() {
                        return Err(if l.game.rule() == EnteringKingRule::Counting24 {
                            Refusal::KingsNotInCamp
                        } else {
                            Refusal::WrongRule
                        }
                        .into());
                    }
                    match l.row.count_by {
                        Some(by) if by != caller.id => l.game.count(),
                        Some(_) => return Err(Refusal::OfferPending.into()),
                        None => {
                            self.caps.take(tx, caller.id, Kind::Ping, now)?;
                            tx.set_offer(l.row.id, l.row.version, false, Some(caller.id))?;
                            let mut r = Reply::public(
                                Msg::CountOffered {
                                    game_id: l.row.id,
                                    by: caller.who(),
                                },
                                caller.lang,
                            );
                            r.buttons.push(ButtonAction::CountYes.button(l.row.id));
                            r.notify = vec![l.row.opponent_of(caller.id)];
                            return Ok(r);
                        }
                    }
                }
            };
            let outcome = match result {
                Ok(o) => o,
                Err(e) => return Err(refusal_of(e).into()),
            };
            let outcome = if action == Action::ResignConfirmed {
                // League games count: an early resignation is a loss.
                Self::league_outcome(tx, l.row.id, outcome, color, WinReason::Resignation)?
            } else {
                outcome
            };
            let ending = Self::finish(tx, &l, outcome, now)?;
            l.row.status = "finished".into();
            let announcement = queue_notice(tx, &super::Notice::Ended { game_id: l.row.id }, now)?;
            let me = Self::player(tx, caller.id)?;
            let mut r = Reply::public(
                Msg::GameOver {
                    game_id: l.row.id,
                    ending,
                },
                caller.lang,
            );
            r.board = Some(Self::board_view(tx, &l, &me, Visibility::Public)?);
            r.notify = vec![l.row.opponent_of(caller.id)];
            r.announcements = vec![announcement];
            if !l.against_computer() {
                r.buttons.push(ButtonAction::Rematch.button(l.row.id));
            }
            Ok(r)
        })
    }

    /// The player pressed "Keep playing" under the resignation question:
    /// nothing changes; the question is replaced by a note.
    pub(super) fn resign_cancelled(
        &self,
        caller: &Caller,
        game_id: i64,
        place: Place,
    ) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let l = Self::pick_game(tx, caller, Some(game_id), place)?;
            let mut r = Reply::private(Msg::ResignCancelled { game_id: l.row.id }, caller.lang);
            r.replace = true;
            Ok(r)
        })
    }

    /// `/takeback`: asks the opponent to undo the caller's last move (friendly games).
    pub fn takeback(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let offer = self.request_takeback(caller, game, place)?;
        // The computer always agrees.
        let game_id = match &offer.msg {
            Msg::TakebackOffered { game_id, .. } => *game_id,
            _ => return Ok(offer),
        };
        let computer = {
            let store = self.store()?;
            let row = store
                .read(|r| r.game(game_id))?
                .ok_or(Refusal::NoSuchGame)?;
            super::level_of(row.opponent_of(caller.id))
        };
        match computer {
            Some(level) => {
                let comp = Caller::new(super::computer_id(level), "komadai", caller.lang);
                let mut r = self.answer_takeback(&comp, game_id, true, Place::default())?;
                r.lang = caller.lang;
                r.notify = Vec::new();
                Ok(r)
            }
            None => Ok(offer),
        }
    }

    pub(super) fn request_takeback(
        &self,
        caller: &Caller,
        game: Option<i64>,
        place: Place,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            if l.row.rated {
                return Err(Refusal::RatedNoTakeback.into());
            }
            if tx.is_ladder(l.row.id)? {
                return Err(Refusal::NoHelpOnLadder.into());
            }
            if takeback_plies(&l, caller.id) == 0 {
                return Err(Refusal::NothingToTakeBack.into());
            }
            if l.row.takeback_by == Some(caller.id) {
                return Err(Refusal::OfferPending.into());
            }
            if !l.against_computer() {
                self.caps.take(tx, caller.id, Kind::Ping, now)?;
            }
            tx.set_offer(l.row.id, l.row.version, true, Some(caller.id))?;
            let mut r = Reply::public(
                Msg::TakebackOffered {
                    game_id: l.row.id,
                    by: caller.who(),
                },
                caller.lang,
            );
            r.buttons = vec![
                ButtonAction::TakebackYes.button(l.row.id),
                ButtonAction::TakebackNo.button(l.row.id),
            ];
            r.notify = vec![l.row.opponent_of(caller.id)];
            Ok(r)
        })
    }

    /// The opponent answers a takeback request (the button pressed in `place`).
    pub fn answer_takeback(
        &self,
        caller: &Caller,
        game_id: i64,
        yes: bool,
        place: Place,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let mut l = Self::pick_game(tx, caller, Some(game_id), place)?;
            let Some(by) = l.row.takeback_by.filter(|&by| by != caller.id) else {
                return Err(Refusal::NothingToConfirm.into());
            };
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            if !yes {
                tx.set_offer(l.row.id, l.row.version, true, None)?;
                let mut r = Reply::public(Msg::TakebackDeclined { game_id }, caller.lang);
                r.notify = vec![by];
                return Ok(r);
            }
            let plies = takeback_plies(&l, by);
            for _ in 0..plies {
                l.game
                    .undo()
                    .map_err(|_| crate::store::StoreError::Corrupt("undo".into()))?;
                let deadline = (!l.against_computer()).then_some(now + l.row.days_per_move * DAY);
                tx.remove_last_move(
                    l.row.id,
                    l.row.version,
                    &l.game.position().to_sfen(),
                    deadline,
                    now,
                )?;
                l.row.version += 1;
            }
            if !l.against_computer() {
                Self::pause_if_away(tx, l.row.id, l.to_move(), now)?;
            }
            let viewer = Self::player(tx, by)?;
            let mut r = Reply::public(Msg::TakebackDone { game_id, plies }, caller.lang);
            r.board = Some(Self::board_view(tx, &l, &viewer, Visibility::Public)?);
            r.notify = vec![by];
            Ok(r)
        })
    }

    /// `/export`: the game record as KIF, CSA or SFEN + USI moves.
    pub fn export(
        &self,
        caller: &Caller,
        game: Option<i64>,
        format: RecordFormat,
        place: Place,
    ) -> AppResult {
        let store = self.store()?;
        store.read(|tx| -> AppResult<_> {
            let l = Self::pick_game_any(tx, caller, game, place)?;
            let mut rec = GameRecord::from_game(&l.game);
            rec.sente = Some(Self::who(tx, l.row.sente)?.name);
            rec.gote = Some(Self::who(tx, l.row.gote)?.name);
            if rec.termination.is_none() {
                if let (Some(result), Some(reason)) = (&l.row.result, &l.row.reason) {
                    rec.termination =
                        stored_termination(result, reason, l.game.position().side_to_move());
                }
            }
            // KIF and CSA have no way to write a 5×5 game (and no record
            // format can write some custom starts): say so, offer SFEN.
            let text = write_record(&rec, format).map_err(|_| Refusal::FormatUnsupported)?;
            let (name, ext) = match format {
                RecordFormat::Kif => ("KIF", "kifu"),
                RecordFormat::Csa => ("CSA", "csa"),
                RecordFormat::Usi => ("SFEN", "usi"),
            };
            let mut r = Reply::private(
                Msg::Exported {
                    game_id: l.row.id,
                    format: name.into(),
                },
                caller.lang,
            );
            r.attachment = Some((format!("komadai-{}.{ext}", l.row.id), text.into_bytes()));
            Ok(r)
        })
    }

    /// `/export format:gif`: the whole game as an animated GIF, drawn in the
    /// caller's piece style and theme from their side. Drawn after the store
    /// is released (a long game takes a moment).
    pub fn export_gif(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let (l, view) = {
            let store = self.store()?;
            store.read(|tx| -> AppResult<_> {
                let l = Self::pick_game_any(tx, caller, game, place)?;
                let me = Self::player(tx, caller.id)?;
                let view = Self::board_view(tx, &l, &me, Visibility::Caller)?;
                Ok((l, view))
            })?
        };
        let max = crate::render::MAX_GIF_MOVES;
        if l.game.moves().len() > max {
            return Err(Refusal::GifTooLong(max).into());
        }
        let gif = crate::render::game_gif(
            l.game.start(),
            l.game.moves(),
            &view.render_options(caller.lang),
        )
        .map_err(|e| AppError::Internal(format!("gif of game {}: {e}", l.row.id)))?;
        let mut r = Reply::private(
            Msg::Exported {
                game_id: l.row.id,
                format: "GIF".into(),
            },
            caller.lang,
        );
        r.attachment = Some((format!("komadai-{}.gif", l.row.id), gif));
        Ok(r)
    }
}

/// Game actions that may end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Ask to resign: answered with a confirmation (Resign / Keep playing).
    Resign,
    /// Resign for real (the confirmation button; aborts before ply 10).
    ResignConfirmed,
    /// Abort (only before ply 10).
    Abort,
    /// Declare an entering-king win (27 points).
    Declare,
    /// Ask to count, or agree to the opponent's request (24 points).
    Count,
}
