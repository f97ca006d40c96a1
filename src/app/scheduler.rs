//! Deadlines and the outbox: the scheduler step ends overdue games, sends
//! reminders at half time and with 10 % left (each once), expires unanswered
//! challenges, aborts games against the computer nobody plays any more, and
//! forgets answered request ids after [`App::REQUEST_RETENTION`].
//!
//! Every state change and the notice about it are written in one
//! transaction: the notice goes to the `outbox` table, and the front end
//! acknowledges it once delivered. After a restart, undelivered notices are
//! still there and nothing is decided twice. (A crash between delivering and
//! acknowledging repeats that one notice: at-least-once delivery.)
//!
//! One bad row never stops the rest: each challenge, each game and each
//! notice is handled in its own transaction. A game or challenge that fails
//! (it does not load, its stored position disagrees with its moves, a panic
//! in the rules) is logged, counted in the `quarantine` table and skipped
//! from then on, until an operator releases it (`App::quarantine_list`,
//! `App::release_quarantined`, console `:quarantine` / `:release`). A notice
//! that fails to build is retried with backoff; one that does not parse is a
//! dead letter at once (`App::dead_letters`, console `:dead` / `:retry`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

use super::message::{Msg, Refusal, Who};
use super::{App, AppError, AppResult, Reply, Visibility, DAY};
use crate::lang::Lang;
use crate::shogi::{Outcome, WinReason};
use crate::store::{
    DeadlineRow, GameRow, OutboxRow, QuarantineRow, Reader, Store, StoreResult, Tx,
};

/// A notice waiting in the outbox.
///
/// Stored as JSON in the outbox, so the names below are a stored format:
/// every variant and field has an explicit name that does not follow the
/// Rust identifiers, and payloads written by earlier versions (the same
/// names) must keep parsing (tests below hold literal old payloads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    /// A reminder for the player to move.
    #[serde(rename = "Reminder")]
    Reminder {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
        /// Who must move.
        #[serde(rename = "player")]
        player: i64,
        /// The deadline.
        #[serde(rename = "deadline")]
        deadline: i64,
        /// Seconds left when the reminder was decided.
        #[serde(rename = "left")]
        left: i64,
    },
    /// A game ended because a deadline passed.
    #[serde(rename = "Timeout")]
    Timeout {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
    },
    /// A challenge expired unanswered.
    #[serde(rename = "ChallengeExpired")]
    ChallengeExpired {
        /// Challenge.
        #[serde(rename = "challenge_id")]
        challenge_id: i64,
        /// Who had challenged.
        #[serde(rename = "challenger")]
        challenger: i64,
    },
    /// Ply `ply` of game `game_id` was played; announce it in the game's place.
    #[serde(rename = "Played")]
    Played {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
        /// The ply that was played.
        #[serde(rename = "ply")]
        ply: i64,
    },
    /// A game ended by a player's action (resignation, abort, declaration,
    /// counting); announce it in the game's place.
    #[serde(rename = "Ended")]
    Ended {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
    },
    /// A game against the computer was aborted because nobody moved for
    /// [`App::COMPUTER_IDLE`].
    #[serde(rename = "Abandoned")]
    Abandoned {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
    },
    /// Ply `ply` of game `game_id` was played; tell `user`, who follows the
    /// game or one of its players, by direct message.
    #[serde(rename = "Followed")]
    Followed {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
        /// The ply that was played.
        #[serde(rename = "ply")]
        ply: i64,
        /// The follower.
        #[serde(rename = "user")]
        user: i64,
    },
    /// A player of game `game_id` went on vacation or came back; tell the
    /// opponent in the game's place.
    #[serde(rename = "Vacation")]
    Vacation {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
        /// Who went away or came back.
        #[serde(rename = "player")]
        player: i64,
        /// Which.
        #[serde(rename = "away")]
        away: super::vacation::Away,
    },
    /// Round `round` of league `league_id` began: its pairings, in the
    /// league's channel.
    #[serde(rename = "LeagueRound")]
    LeagueRound {
        /// League.
        #[serde(rename = "league_id")]
        league_id: i64,
        /// Round.
        #[serde(rename = "round")]
        round: i64,
    },
    /// A league game began: its first message, in its own thread.
    #[serde(rename = "LeagueGame")]
    LeagueGame {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
    },
    /// A league ended (the final standings) or was cancelled at its start.
    #[serde(rename = "LeagueEnded")]
    LeagueEnded {
        /// League.
        #[serde(rename = "league_id")]
        league_id: i64,
    },
    /// The move at ply `ply` of game `game_id` was in none of `user`'s
    /// premove lines: `count` lines were dropped and nothing was played.
    /// Tell `user` by direct message (the lines were only theirs to see).
    #[serde(rename = "PremovesDropped")]
    PremovesDropped {
        /// Game.
        #[serde(rename = "game_id")]
        game_id: i64,
        /// The opponent's move that left the lines.
        #[serde(rename = "ply")]
        ply: i64,
        /// The lines' owner.
        #[serde(rename = "user")]
        user: i64,
        /// How many lines were dropped.
        #[serde(rename = "count")]
        count: i64,
    },
}

/// A notice ready for delivery, from [`App::due_notices`].
#[derive(Clone, Debug, PartialEq)]
pub struct DueNotice {
    /// Outbox id: pass it to [`App::ack_notice`], [`App::notice_failed`] or
    /// [`App::release_notice`].
    pub id: i64,
    /// The notice.
    pub notice: Notice,
    /// What to post.
    pub reply: Reply,
    /// Where to post it, best first: the game's thread, then its channel
    /// (an expired challenge: its channel). Empty: nowhere public.
    pub places: Vec<i64>,
    /// The user who wants this by direct message (a player of a reminder,
    /// a move or a timeout who turned DMs on).
    pub dm: Option<i64>,
    /// Failed deliveries so far.
    pub attempts: i64,
    /// A league game that should get its own thread and has none yet: its
    /// id and the thread's name. The front end opens the thread in the
    /// first of `places`, posts there and stores it.
    pub thread: Option<(i64, String)>,
}

/// Kinds of quarantined items.
const GAME: &str = "game";
const CHALLENGE: &str = "challenge";
/// A player whose vacation could not end (by user id).
const VACATION: &str = "vacation";
/// A league whose step failed (by league id).
const LEAGUE: &str = "league";

impl App {
    /// Answered request ids (and logged actions) are kept this long: 30
    /// days, far longer than any client retries a request, and long enough
    /// for every cooldown.
    pub const REQUEST_RETENTION: i64 = 30 * DAY;

    /// A game against the computer in which nobody moved for this long (30
    /// days) is aborted by the scheduler, so it stops counting against the
    /// player's cap of such games.
    pub const COMPUTER_IDLE: i64 = 30 * DAY;

    /// A notice handed out by [`App::due_notices`] is not handed out again
    /// for this many seconds unless it is acknowledged, failed or released
    /// first (so two deliverers never post it twice, and a crash mid-delivery
    /// delays it by at most this long).
    pub const NOTICE_LEASE: i64 = 60;

    /// One scheduler step at the app clock's time: decides what is due and
    /// writes the notices to the outbox. Returns how many notices it added.
    /// Items that fail are quarantined and logged; they never stop the step.
    pub fn tick(&self) -> AppResult<usize> {
        let now = self.now();
        let store = self.store()?;
        let (challenges, overdue, idle, deadlines, mut bad_games, bad_challenges) =
            store.read(|r| -> AppResult<_> {
                Ok((
                    r.expired_challenge_ids(now)?,
                    r.overdue_game_ids(now)?,
                    r.idle_computer_game_ids(now.saturating_sub(Self::COMPUTER_IDLE))?,
                    r.deadline_rows()?,
                    r.quarantined_ids(GAME)?,
                    r.quarantined_ids(CHALLENGE)?,
                ))
            })?;
        let mut step = Step::default();
        for id in challenges {
            if !bad_challenges.contains(&id) {
                step.run(store, CHALLENGE, id, now, |tx| {
                    Self::expire_challenge(tx, id, now)
                });
            }
        }
        for id in overdue {
            if !bad_games.contains(&id)
                && !step.run(store, GAME, id, now, |tx| Self::time_out(tx, id, now))
            {
                bad_games.push(id);
            }
        }
        for id in idle {
            if !bad_games.contains(&id)
                && !step.run(store, GAME, id, now, |tx| Self::abandon(tx, id, now))
            {
                bad_games.push(id);
            }
        }
        let (vacations, bad_players) = store.read(|r| -> AppResult<_> {
            Ok((
                Self::due_vacations(r, self.caps.vacation_days.saturating_mul(DAY), now)?,
                r.quarantined_ids(VACATION)?,
            ))
        })?;
        for (user, since) in vacations {
            if !bad_players.contains(&user) {
                step.run(store, VACATION, user, now, |tx| {
                    self.end_due_vacation(tx, user, since, now)
                });
            }
        }
        // Leagues after the timeouts above, so a round whose last game just
        // timed out moves on in the same step.
        let (leagues, bad_leagues) = store
            .read(|r| -> AppResult<_> { Ok((r.leagues_due(now)?, r.quarantined_ids(LEAGUE)?)) })?;
        for id in leagues {
            if !bad_leagues.contains(&id) {
                step.run(store, LEAGUE, id, now, |tx| self.league_step(tx, id, now));
            }
        }
        for d in deadlines {
            if bad_games.contains(&d.game_id) || reminder_bits(&d, now) == 0 {
                continue;
            }
            step.run(store, GAME, d.game_id, now, |tx| {
                Self::remind(tx, d.game_id, now)
            });
        }
        let before = now.saturating_sub(Self::REQUEST_RETENTION);
        let pruned = store.transaction(|tx| -> StoreResult<usize> {
            Ok(tx.prune_requests(before)? + tx.prune_actions(before)?)
        });
        if let Err(e) = pruned {
            tracing::error!(error = %e, "pruning old request ids failed");
        }
        if step.failed > 0 {
            tracing::warn!(
                failed = step.failed,
                added = step.added,
                "scheduler step: some items failed and were quarantined"
            );
        }
        Ok(step.added)
    }

    fn expire_challenge(tx: &Tx<'_>, id: i64, now: i64) -> AppResult<usize> {
        let Some(c) = tx.challenge(id)? else {
            return Ok(0);
        };
        if c.status != "open" || c.data.expires_at > now {
            return Ok(0);
        }
        if !tx.close_challenge(id, "expired", None)? {
            return Ok(0);
        }
        let n = Notice::ChallengeExpired {
            challenge_id: id,
            challenger: c.data.challenger,
        };
        tx.push_outbox(&to_json(&n)?, now)?;
        Ok(1)
    }

    fn time_out(tx: &Tx<'_>, id: i64, now: i64) -> AppResult<usize> {
        let l = Self::load(tx, id)?;
        if l.row.status != "active" || l.row.deadline.is_none_or(|d| d > now) {
            return Ok(0);
        }
        let loser = l.game.position().side_to_move();
        let mut game = l.game.clone();
        let outcome = game
            .timeout(loser)
            .map_err(|e| AppError::Internal(format!("game {id}: timeout: {e}")))?;
        let outcome = Self::league_outcome(tx, id, outcome, loser, WinReason::Timeout)?;
        Self::finish(tx, &l, outcome, now)?;
        tx.push_outbox(&to_json(&Notice::Timeout { game_id: id })?, now)?;
        Ok(1)
    }

    fn abandon(tx: &Tx<'_>, id: i64, now: i64) -> AppResult<usize> {
        let l = Self::load(tx, id)?;
        if l.row.status != "active"
            || !l.against_computer()
            || l.row.updated_at > now.saturating_sub(Self::COMPUTER_IDLE)
        {
            return Ok(0);
        }
        Self::finish(tx, &l, Outcome::Aborted, now)?;
        tx.finish_computer_job(id)?;
        tx.push_outbox(&to_json(&Notice::Abandoned { game_id: id })?, now)?;
        Ok(1)
    }

    fn remind(tx: &Tx<'_>, id: i64, now: i64) -> AppResult<usize> {
        let Some(row) = tx.game(id)? else {
            return Ok(0);
        };
        let Some(deadline) = row.deadline.filter(|_| row.status == "active") else {
            return Ok(0);
        };
        let d = DeadlineRow {
            game_id: id,
            days_per_move: row.days_per_move,
            deadline,
            reminded: row.reminded,
        };
        let bits = reminder_bits(&d, now);
        if bits == 0 {
            return Ok(0);
        }
        let l = Self::load(tx, id)?;
        if !tx.mark_reminded(id, bits)? {
            // Another process sent this reminder meanwhile.
            return Ok(0);
        }
        let n = Notice::Reminder {
            game_id: id,
            player: l.to_move_id(),
            deadline,
            left: deadline - now,
        };
        tx.push_outbox(&to_json(&n)?, now)?;
        Ok(1)
    }

    /// Up to `limit` notices due now, oldest first, each with its reply and
    /// where it goes. Each is handed out with a lease of
    /// [`App::NOTICE_LEASE`]: acknowledge it ([`App::ack_notice`]) once
    /// delivered, or report the failure ([`App::notice_failed`]).
    ///
    /// Inside, a notice that no longer matters is dropped (a reminder after
    /// the player moved, the deadline changed or the game ended; a move
    /// announcement whose move was taken back), one whose payload does not
    /// parse becomes a dead letter, and one whose reply cannot be built
    /// counts as a failed attempt; none of them holds up the others.
    pub fn due_notices(&self, limit: usize) -> AppResult<Vec<DueNotice>> {
        let now = self.now();
        let store = self.store()?;
        let rows = store.read(|r| r.due_outbox(now, limit))?;
        let mut out = Vec::new();
        for row in rows {
            let notice = match serde_json::from_str::<Notice>(&row.payload) {
                Ok(n) => n,
                Err(e) => {
                    let error = format!("unreadable notice: {e}");
                    tracing::error!(notice = row.id, %error, "notice is a dead letter");
                    failed(store, row.id, &error, now, true);
                    continue;
                }
            };
            let built = catch_unwind(AssertUnwindSafe(|| {
                store.transaction(|tx| Self::deliverable(tx, &row, notice.clone(), now))
            }));
            match built {
                Ok(Ok(Some(mut d))) => {
                    // A league game's first message links its page, as a
                    // game started by a member does.
                    if let Notice::LeagueGame { game_id } = d.notice {
                        let msg = std::mem::replace(&mut d.reply.msg, Msg::Help);
                        d.reply.msg =
                            match store.read(|r| self.with_page_link(r, game_id, msg.clone())) {
                                Ok(linked) => linked,
                                Err(_) => msg,
                            };
                    }
                    out.push(d);
                }
                Ok(Ok(None)) => {}
                Ok(Err(e)) => {
                    tracing::error!(notice = row.id, error = %e, "building a notice failed");
                    failed(store, row.id, &e.to_string(), now, false);
                }
                Err(panic) => {
                    let error = panic_text(&*panic);
                    tracing::error!(notice = row.id, %error, "building a notice panicked");
                    failed(store, row.id, &error, now, false);
                }
            }
        }
        Ok(out)
    }

    /// The notice of `row` ready to deliver (leased), or `None` when it no
    /// longer matters (then it is acknowledged here).
    fn deliverable(
        tx: &Tx<'_>,
        row: &OutboxRow,
        notice: Notice,
        now: i64,
    ) -> AppResult<Option<DueNotice>> {
        // Claimed first: a notice another process took meanwhile (or
        // delivered) is skipped, so each is delivered by one process.
        if !tx.claim_outbox(row.id, now, now.saturating_add(Self::NOTICE_LEASE))? {
            return Ok(None);
        }
        let Some(NoticeReply { reply, places, dm }) = Self::notice_reply(tx, &notice)? else {
            tx.ack_outbox(row.id)?;
            return Ok(None);
        };
        tx.lease_outbox(row.id, now.saturating_add(Self::NOTICE_LEASE))?;
        let thread = Self::league_thread(tx, &notice)?;
        Ok(Some(DueNotice {
            id: row.id,
            notice,
            reply,
            places,
            dm,
            attempts: row.attempts,
            thread,
        }))
    }

    /// The reply, places and DM recipient of a notice; `None` when it no
    /// longer matters.
    fn notice_reply(tx: &Reader<'_>, notice: &Notice) -> AppResult<Option<NoticeReply>> {
        let (reply, places, dm) = match *notice {
            Notice::Reminder {
                game_id,
                player,
                deadline,
                left,
            } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                let relevant = row.status == "active"
                    && row.deadline == Some(deadline)
                    && to_move_of(&row) == player;
                if !relevant {
                    return Ok(None);
                }
                let mut r = Reply::public(
                    Msg::Reminder {
                        game_id,
                        player: Self::who(tx, player)?,
                        deadline,
                        left,
                    },
                    lang_of_in(tx, player, row.guild_id)?,
                );
                r.notify = vec![player];
                (r, game_places(&row), dm_to(tx, player)?)
            }
            Notice::Timeout { game_id } => {
                let Some((row, r)) = Self::ending_reply(tx, game_id)? else {
                    return Ok(None);
                };
                // The side to move when the deadline passed lost (or, before
                // ply 10, the game was aborted): the one who was away.
                let away = to_move_of(&row);
                (r, game_places(&row), dm_to(tx, away)?)
            }
            Notice::ChallengeExpired {
                challenge_id,
                challenger,
            } => {
                let who: Who = Self::who(tx, challenger)?;
                let challenge = tx.challenge(challenge_id)?;
                let guild = challenge.as_ref().and_then(|c| c.data.guild_id);
                let mut r = Reply::public(
                    Msg::ChallengeExpired {
                        id: challenge_id,
                        challenger: who,
                    },
                    lang_of_in(tx, challenger, guild)?,
                );
                r.visibility = Visibility::Public;
                r.notify = vec![challenger];
                let places = challenge
                    .and_then(|c| c.data.channel_id)
                    .into_iter()
                    .collect();
                (r, places, None)
            }
            Notice::Played { game_id, ply } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                let Some(reply) = Self::played_reply(tx, game_id, ply)? else {
                    return Ok(None);
                };
                // The player who did not make this ply: it is their turn now.
                let next = if mover_is_sente(&row, ply) {
                    row.gote
                } else {
                    row.sente
                };
                (reply, game_places(&row), dm_to(tx, next)?)
            }
            Notice::Ended { game_id } => {
                let Some((row, r)) = Self::ending_reply(tx, game_id)? else {
                    return Ok(None);
                };
                (r, game_places(&row), None)
            }
            Notice::Abandoned { game_id } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                let Some(ending) = super::play::stored_ending_pub(tx, &row)? else {
                    return Ok(None);
                };
                let human = if row.sente >= 0 { row.sente } else { row.gote };
                let mut r = Reply::public(
                    Msg::GameOver { game_id, ending },
                    lang_of_in(tx, human, row.guild_id)?,
                );
                r.notify = vec![human];
                (r, game_places(&row), dm_to(tx, human)?)
            }
            Notice::Followed { game_id, ply, user } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                // Unfollowed meanwhile: nothing to say.
                if !tx
                    .followers_of(&row, super::MAX_FOLLOWER_DMS)?
                    .contains(&user)
                {
                    return Ok(None);
                }
                let Some(played) = Self::played_reply(tx, game_id, ply)? else {
                    return Ok(None);
                };
                let msg = Msg::FollowedMove {
                    game_id,
                    place: row.thread_id.or(row.channel_id),
                    inner: Box::new(played.msg),
                };
                let mut r = Reply::private(msg, lang_of_in(tx, user, row.guild_id)?);
                r.board = played.board;
                (r, Vec::new(), Some(user))
            }
            Notice::PremovesDropped {
                game_id,
                ply,
                user,
                count,
            } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                let Some(played) = Self::played_reply(tx, game_id, ply)? else {
                    return Ok(None);
                };
                let Msg::MovePlayed { text, .. } = played.msg else {
                    return Ok(None);
                };
                let msg = Msg::PremovesDropped {
                    game_id,
                    place: row.thread_id.or(row.channel_id),
                    played: text,
                    count: usize::try_from(count).unwrap_or(0),
                    your_move: row.status == "active" && to_move_of(&row) == user,
                };
                (
                    Reply::private(msg, lang_of_in(tx, user, row.guild_id)?),
                    Vec::new(),
                    Some(user),
                )
            }
            Notice::Vacation {
                game_id,
                player,
                away,
            } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                if row.status != "active" {
                    return Ok(None);
                }
                let opponent = row.opponent_of(player);
                let who = Self::who(tx, player)?;
                let msg = match away {
                    super::vacation::Away::On { until } => Msg::OpponentAway {
                        game_id,
                        player: who,
                        until,
                    },
                    super::vacation::Away::Off => Msg::OpponentBack {
                        game_id,
                        player: who,
                        deadline: row.deadline.filter(|_| to_move_of(&row) == player),
                    },
                };
                let mut r = Reply::public(msg, lang_of_in(tx, opponent, row.guild_id)?);
                r.notify = vec![opponent];
                (r, game_places(&row), dm_to(tx, opponent)?)
            }
            Notice::LeagueRound { .. } | Notice::LeagueGame { .. } | Notice::LeagueEnded { .. } => {
                match Self::league_notice_reply(tx, notice)? {
                    Some(NoticeReply { reply, places, dm }) => (reply, places, dm),
                    None => return Ok(None),
                }
            }
        };
        Ok(Some(NoticeReply { reply, places, dm }))
    }

    /// "Game over" for a finished game, pinging both players, with a
    /// Rematch button between members; `None` when the game is gone or not
    /// finished.
    fn ending_reply(tx: &Reader<'_>, game_id: i64) -> AppResult<Option<(GameRow, Reply)>> {
        let Some(row) = tx.game(game_id)? else {
            return Ok(None);
        };
        let Some(ending) = super::play::stored_ending_pub(tx, &row)? else {
            return Ok(None);
        };
        let mut r = Reply::public(
            Msg::GameOver { game_id, ending },
            lang_of_in(tx, row.sente, row.guild_id)?,
        );
        r.notify = vec![row.sente, row.gote];
        if super::level_of(row.sente).is_none() && super::level_of(row.gote).is_none() {
            r.buttons.push(super::ButtonAction::Rematch.button(game_id));
        }
        Ok(Some((row, r)))
    }

    /// The undelivered notices due now with their replies, oldest first (a
    /// thin wrapper of [`App::due_notices`] for front ends without places).
    pub fn pending_notices(&self) -> AppResult<Vec<(i64, Notice, Reply)>> {
        Ok(self
            .due_notices(usize::MAX)?
            .into_iter()
            .map(|d| (d.id, d.notice, d.reply))
            .collect())
    }

    /// Marks a notice as delivered (removes it).
    pub fn ack_notice(&self, id: i64) -> AppResult<()> {
        let store = self.store()?;
        store.transaction(|tx| tx.ack_outbox(id))?;
        Ok(())
    }

    /// Delivering a notice failed: it is retried with exponential backoff
    /// (30 s doubling, at most 6 h), or becomes a dead letter after 8
    /// attempts or at once when `permanent` (the place is gone, access is
    /// missing: retrying cannot help).
    pub fn notice_failed(&self, id: i64, error: &str, permanent: bool) -> AppResult<()> {
        let now = self.now();
        let store = self.store()?;
        if store.transaction(|tx| tx.outbox_failed(id, error, now, permanent))? {
            tracing::warn!(notice = id, error, "notice is a dead letter");
        }
        Ok(())
    }

    /// Makes a notice due now (also a dead letter: delivered again).
    pub fn release_notice(&self, id: i64) -> AppResult<()> {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| tx.release_outbox(id, now))?;
        Ok(())
    }

    /// The dead letters, oldest first.
    pub fn dead_letters(&self) -> AppResult<Vec<OutboxRow>> {
        let store = self.store()?;
        Ok(store.read(|r| r.dead_letters())?)
    }

    /// The items the scheduler quarantined, most recent failure first.
    pub fn quarantine_list(&self) -> AppResult<Vec<QuarantineRow>> {
        let store = self.store()?;
        Ok(store.read(|r| r.quarantined())?)
    }

    /// Takes an item out of quarantine so the next step tries it again;
    /// false if it was not quarantined.
    pub fn release_quarantined(&self, kind: &str, ref_id: i64) -> AppResult<bool> {
        let store = self.store()?;
        Ok(store.transaction(|tx| tx.release_quarantine(kind, ref_id))?)
    }
}

/// Counts of one scheduler step.
#[derive(Default)]
struct Step {
    added: usize,
    failed: usize,
}

impl Step {
    /// Runs one item in its own transaction. A failure (an error other than
    /// a concurrent change, or a panic) rolls the item back, is logged and
    /// quarantines it. Returns false if it failed.
    fn run(
        &mut self,
        store: &Store,
        kind: &str,
        id: i64,
        now: i64,
        f: impl FnMut(&Tx<'_>) -> AppResult<usize>,
    ) -> bool {
        let error = match catch_unwind(AssertUnwindSafe(|| store.transaction(f))) {
            Ok(Ok(n)) => {
                self.added += n;
                return true;
            }
            // Changed by someone else meanwhile: the next step looks again.
            Ok(Err(AppError::Refused(Refusal::Conflict))) => return true,
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", panic_text(&*panic)),
        };
        self.failed += 1;
        tracing::error!(kind, id, %error, "scheduler item failed; quarantined");
        if let Err(e) = store.transaction(|tx| tx.quarantine(kind, id, &error, now)) {
            tracing::error!(kind, id, error = %e, "quarantining failed");
        }
        false
    }
}

/// What a notice says, where, and to whom by DM.
pub(super) struct NoticeReply {
    /// The message.
    pub(super) reply: Reply,
    /// Where it is posted (the game's thread or channel first).
    pub(super) places: Vec<i64>,
    /// Whom it is also sent to by direct message.
    pub(super) dm: Option<i64>,
}

/// Records a failed delivery; a failure to record it is only logged (the
/// notice stays due and is tried again).
fn failed(store: &Store, id: i64, error: &str, now: i64, permanent: bool) {
    if let Err(e) = store.transaction(|tx| tx.outbox_failed(id, error, now, permanent)) {
        tracing::error!(notice = id, error = %e, "recording a failed notice failed");
    }
}

/// The message of a caught panic (for logs and dead letters).
pub fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// Reminder bits due for a game (1: half time, 3: 10 % left; 0: none).
fn reminder_bits(d: &DeadlineRow, now: i64) -> i64 {
    let total = d.days_per_move * DAY;
    let left = d.deadline - now;
    if left * 10 <= total && d.reminded & 2 == 0 {
        3
    } else if left * 2 <= total && d.reminded & 1 == 0 {
        1
    } else {
        0
    }
}

/// Whether Sente made ply `ply` (1-based) of the game.
fn mover_is_sente(row: &GameRow, ply: i64) -> bool {
    let start_sente = row.start_sfen.split(' ').nth(1) != Some("w");
    (ply % 2 == 1) == start_sente
}

/// The player to move in the stored game (from its ply count).
pub(super) fn to_move_of(row: &GameRow) -> i64 {
    if mover_is_sente(row, row.ply + 1) {
        row.sente
    } else {
        row.gote
    }
}

/// The game's thread, then its channel.
pub(super) fn game_places(row: &GameRow) -> Vec<i64> {
    let mut v: Vec<i64> = row.thread_id.into_iter().collect();
    if let Some(c) = row.channel_id.filter(|c| Some(*c) != row.thread_id) {
        v.push(c);
    }
    v
}

/// `user` if they are a person who turned DMs on.
fn dm_to(tx: &Reader<'_>, user: i64) -> StoreResult<Option<i64>> {
    if user < 0 {
        return Ok(None);
    }
    Ok(tx
        .player(user)?
        .filter(|p| p.settings.dms)
        .map(|p| p.user_id))
}

/// `user`'s language on `guild`: their setting, else the server's default,
/// else English.
pub(super) fn lang_of_in(tx: &Reader<'_>, user: i64, guild: Option<i64>) -> StoreResult<Lang> {
    if tx.player(user)?.and_then(|p| p.settings.language).is_some() {
        return lang_of(tx, user);
    }
    Ok(
        match super::server::server_of(tx, guild)?.language.as_deref() {
            Some("de") => Lang::De,
            _ => Lang::En,
        },
    )
}

pub(super) fn lang_of(tx: &Reader<'_>, user: i64) -> StoreResult<Lang> {
    Ok(
        match tx
            .player(user)?
            .and_then(|p| p.settings.language)
            .as_deref()
        {
            Some("de") => Lang::De,
            _ => Lang::En,
        },
    )
}

pub(super) fn to_json(n: &Notice) -> crate::store::StoreResult<String> {
    serde_json::to_string(n).map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))
}

/// Where a notice belongs, best first (used by `delivery`).
pub(super) fn notice_places(tx: &Reader<'_>, notice: &Notice) -> StoreResult<Vec<i64>> {
    Ok(match notice {
        Notice::Reminder { game_id, .. }
        | Notice::Timeout { game_id }
        | Notice::Played { game_id, .. }
        | Notice::Ended { game_id }
        | Notice::Abandoned { game_id }
        | Notice::Vacation { game_id, .. }
        | Notice::LeagueGame { game_id } => tx
            .game(*game_id)?
            .map(|g| game_places(&g))
            .unwrap_or_default(),
        Notice::LeagueRound { league_id, .. } | Notice::LeagueEnded { league_id } => tx
            .league(*league_id)?
            .and_then(|l| l.channel_id)
            .into_iter()
            .collect(),
        // A direct message only.
        Notice::Followed { .. } | Notice::PremovesDropped { .. } => Vec::new(),
        Notice::ChallengeExpired { challenge_id, .. } => tx
            .challenge(*challenge_id)?
            .and_then(|c| c.data.channel_id)
            .into_iter()
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_notice() -> Vec<Notice> {
        vec![
            Notice::Reminder {
                game_id: 1,
                player: 2,
                deadline: 3,
                left: 4,
            },
            Notice::Timeout { game_id: 5 },
            Notice::ChallengeExpired {
                challenge_id: 6,
                challenger: 7,
            },
            Notice::Played { game_id: 8, ply: 9 },
            Notice::Abandoned { game_id: 10 },
            Notice::Ended { game_id: 11 },
            Notice::Vacation {
                game_id: 16,
                player: 12,
                away: super::super::vacation::Away::On { until: 13 },
            },
            Notice::Vacation {
                game_id: 14,
                player: 15,
                away: super::super::vacation::Away::Off,
            },
            Notice::Followed {
                game_id: 17,
                ply: 18,
                user: 19,
            },
            Notice::LeagueRound {
                league_id: 20,
                round: 21,
            },
            Notice::LeagueGame { game_id: 22 },
            Notice::LeagueEnded { league_id: 23 },
            Notice::PremovesDropped {
                game_id: 24,
                ply: 25,
                user: 26,
                count: 27,
            },
        ]
    }

    /// The stored JSON of each variant, spelled out: changing a name fails here.
    #[test]
    fn every_notice_round_trips_through_its_stored_json() {
        let stored = [
            r#"{"Reminder":{"game_id":1,"player":2,"deadline":3,"left":4}}"#,
            r#"{"Timeout":{"game_id":5}}"#,
            r#"{"ChallengeExpired":{"challenge_id":6,"challenger":7}}"#,
            r#"{"Played":{"game_id":8,"ply":9}}"#,
            r#"{"Abandoned":{"game_id":10}}"#,
            r#"{"Ended":{"game_id":11}}"#,
            r#"{"Vacation":{"game_id":16,"player":12,"away":{"on":{"until":13}}}}"#,
            r#"{"Vacation":{"game_id":14,"player":15,"away":"off"}}"#,
            r#"{"Followed":{"game_id":17,"ply":18,"user":19}}"#,
            r#"{"LeagueRound":{"league_id":20,"round":21}}"#,
            r#"{"LeagueGame":{"game_id":22}}"#,
            r#"{"LeagueEnded":{"league_id":23}}"#,
            r#"{"PremovesDropped":{"game_id":24,"ply":25,"user":26,"count":27}}"#,
        ];
        let all = every_notice();
        assert_eq!(all.len(), stored.len());
        for (n, json) in all.into_iter().zip(stored) {
            // Exhaustive: a new variant must be added to the list above.
            match n {
                Notice::Reminder { .. }
                | Notice::Timeout { .. }
                | Notice::ChallengeExpired { .. }
                | Notice::Played { .. }
                | Notice::Ended { .. }
                | Notice::Abandoned { .. }
                | Notice::Vacation { .. }
                | Notice::Followed { .. }
                | Notice::LeagueRound { .. }
                | Notice::LeagueGame { .. }
                | Notice::LeagueEnded { .. }
                | Notice::PremovesDropped { .. } => {}
            }
            assert_eq!(to_json(&n).unwrap(), json);
            assert_eq!(serde_json::from_str::<Notice>(json).unwrap(), n);
        }
    }

    /// Payloads as the previous version wrote them (derived names, before
    /// the explicit ones) still parse.
    #[test]
    fn old_payloads_still_parse() {
        let old = [
            (
                r#"{"Reminder":{"game_id":12,"player":345,"deadline":1800086400,"left":43200}}"#,
                Notice::Reminder {
                    game_id: 12,
                    player: 345,
                    deadline: 1_800_086_400,
                    left: 43_200,
                },
            ),
            (
                r#"{"Timeout":{"game_id":7}}"#,
                Notice::Timeout { game_id: 7 },
            ),
            (
                r#"{"ChallengeExpired":{"challenge_id":3,"challenger":-2}}"#,
                Notice::ChallengeExpired {
                    challenge_id: 3,
                    challenger: -2,
                },
            ),
        ];
        for (json, n) in old {
            assert_eq!(serde_json::from_str::<Notice>(json).unwrap(), n);
        }
    }

    #[test]
    fn reminders_at_half_time_and_ten_percent() {
        let d = |deadline, reminded| DeadlineRow {
            game_id: 1,
            days_per_move: 1,
            deadline,
            reminded,
        };
        assert_eq!(reminder_bits(&d(DAY, 0), 0), 0);
        assert_eq!(reminder_bits(&d(DAY / 2, 0), 0), 1);
        assert_eq!(reminder_bits(&d(DAY / 2, 1), 0), 0);
        assert_eq!(reminder_bits(&d(DAY / 10, 1), 0), 3);
        assert_eq!(reminder_bits(&d(DAY / 10, 0), 0), 3);
        assert_eq!(reminder_bits(&d(DAY / 10, 3), 0), 0);
    }
}
