//! `/vacation`: a member pauses the deadlines of all their correspondence
//! games for up to a yearly allowance of days (`Caps::vacation_days`).
//!
//! While a member is away, every game in which they are to move keeps the
//! seconds that were left (`paused_left`) instead of a deadline, and a game
//! that becomes their turn starts paused with the full time per move. Going
//! back (by hand, or by the scheduler when the allowance runs out) gives each
//! game its deadline back as now + the seconds it had left, so deadlines and
//! reminders shift exactly, whatever happens to the processes meanwhile: the
//! state is only in the database. Opponents are told in each game's place.

use serde::{Deserialize, Serialize};

use super::message::{Msg, Refusal};
use super::scheduler::{to_json, to_move_of};
use super::{App, AppResult, Caller, Reply, DAY};
use crate::store::{Reader, StoreResult, Tx, VacationRow};

/// A vacation's start or end, as the opponents are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Away {
    /// The player went on vacation; it ends at the latest at `until`.
    #[serde(rename = "on")]
    On {
        /// Latest end of the vacation.
        #[serde(rename = "until")]
        until: i64,
    },
    /// The player is back.
    #[serde(rename = "off")]
    Off,
}

/// The UTC calendar year of `t`.
#[must_use]
pub fn year_of(t: i64) -> i64 {
    crate::i18n::civil(t).0
}

/// Seconds of vacation used in the year of `now` by `v` (an ongoing
/// vacation counts up to `now`, for the year it began in).
#[must_use]
pub fn used_at(v: &VacationRow, now: i64) -> i64 {
    let year = year_of(now);
    match v.since {
        Some(s) if year_of(s) == year => used_before(v, s) + (now - s).max(0),
        // Began last year: it counts there, this year is new.
        Some(_) => 0,
        None if v.year == year => v.used,
        None => 0,
    }
}

impl App {
    /// The yearly allowance in seconds.
    fn allowance(&self) -> i64 {
        self.caps.vacation_days.saturating_mul(DAY)
    }

    /// `/vacation on|off`, or without a choice the caller's account.
    pub fn vacation(&self, caller: &Caller, on: Option<bool>) -> AppResult {
        let now = self.now();
        let allowance = self.allowance();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            tx.upsert_player(caller.id, &caller.name, now)?;
            tx.lock_player(caller.id)?;
            let v = tx.vacation(caller.id)?.unwrap_or_default();
            let msg = match on {
                None => Msg::VacationStatus {
                    since: v.since,
                    until: v.since.map(|s| s + (allowance - used_before(&v, s)).max(0)),
                    used: used_at(&v, now),
                    allowance,
                    year: year_of(now),
                },
                Some(true) => {
                    if v.since.is_some() {
                        return Err(Refusal::AlreadyOnVacation.into());
                    }
                    let year = year_of(now);
                    let used = if v.year == year { v.used } else { 0 };
                    let left = allowance - used;
                    if left <= 0 {
                        return Err(Refusal::NoVacationLeft { year }.into());
                    }
                    if !tx.start_vacation(caller.id, now, year, used)? {
                        return Err(Refusal::Conflict.into());
                    }
                    let mut paused = 0;
                    let mut games = 0;
                    for g in tx.active_games_of(caller.id)? {
                        if !is_correspondence(&g) {
                            continue;
                        }
                        games += 1;
                        if to_move_of(&g) == caller.id && tx.pause_deadline(g.id, now)? {
                            paused += 1;
                        }
                        tell(tx, g.id, caller.id, Away::On { until: now + left }, now)?;
                    }
                    Msg::VacationStarted {
                        games,
                        paused,
                        until: now + left,
                        left,
                    }
                }
                Some(false) => {
                    let Some(since) = v.since else {
                        return Err(Refusal::NotOnVacation.into());
                    };
                    let resumed = Self::come_back(tx, caller.id, since, allowance, now)?;
                    let v = tx.vacation(caller.id)?.unwrap_or_default();
                    Msg::VacationEnded {
                        resumed,
                        used: used_at(&v, now),
                        allowance,
                    }
                }
            };
            Ok(Reply::private(msg, caller.lang))
        })
    }

    /// Ends `user`'s vacation that began at `since`: the used time grows by
    /// its length (at most the allowance that was left), each paused game
    /// gets its deadline back and the opponents are told. Returns how many
    /// games were resumed; 0 and nothing done when it had ended already.
    ///
    /// The vacation ends at `now` or when the allowance ran out, whichever
    /// is earlier: a scheduler that runs late (the bot was down) resumes the
    /// deadlines from the moment the allowance ended, not from its own time.
    fn come_back(tx: &Tx<'_>, user: i64, since: i64, allowance: i64, now: i64) -> AppResult<usize> {
        let v = tx.vacation(user)?.unwrap_or_default();
        let left = (allowance - used_before(&v, since)).max(0);
        let end = now.min(since + left).max(since);
        if !tx.end_vacation(user, since, end - since)? {
            return Ok(0);
        }
        let mut resumed = 0;
        for g in tx.active_games_of(user)? {
            if !is_correspondence(&g) {
                continue;
            }
            // Only the games in which they are to move were paused for
            // them: a game paused for an opponent who is away stays paused.
            if to_move_of(&g) == user && tx.resume_deadline(g.id, end)? {
                resumed += 1;
            }
            tell(tx, g.id, user, Away::Off, now)?;
        }
        Ok(resumed)
    }

    /// For the scheduler: ends the vacations whose allowance ran out by
    /// `now`. Returns (user, the vacation's start) of each.
    pub(super) fn due_vacations(
        r: &Reader<'_>,
        allowance: i64,
        now: i64,
    ) -> StoreResult<Vec<(i64, i64)>> {
        Ok(r.on_vacation()?
            .into_iter()
            .filter_map(|(user, v)| {
                let since = v.since?;
                (since + (allowance - used_before(&v, since)).max(0) <= now)
                    .then_some((user, since))
            })
            .collect())
    }

    /// One due vacation's end, in its own transaction (see [`App::tick`]).
    pub(super) fn end_due_vacation(
        &self,
        tx: &Tx<'_>,
        user: i64,
        since: i64,
        now: i64,
    ) -> AppResult<usize> {
        let allowance = self.allowance();
        match tx.vacation(user)? {
            Some(v)
                if v.since == Some(since)
                    && since + (allowance - used_before(&v, since)).max(0) <= now =>
            {
                Self::come_back(tx, user, since, allowance, now)?;
                Ok(1)
            }
            _ => Ok(0),
        }
    }

    /// After a write that gave `to_move` a new deadline in game `game_id`:
    /// if they are on vacation, the deadline is paused at once (the full
    /// time per move is kept).
    /// Returns whether it was paused.
    pub(super) fn pause_if_away(
        tx: &Tx<'_>,
        game_id: i64,
        to_move: i64,
        now: i64,
    ) -> AppResult<bool> {
        if to_move < 0 {
            return Ok(false);
        }
        // Serialised with a vacation starting in another process: whichever
        // comes second sees the other's change.
        tx.lock_player(to_move)?;
        if tx.vacation(to_move)?.is_some_and(|v| v.since.is_some()) {
            return Ok(tx.pause_deadline(game_id, now)?);
        }
        Ok(false)
    }

    /// A new game whose first mover is away: paused at once, and the
    /// opponent is told in the game's place.
    /// Returns whether it was paused.
    pub(super) fn start_paused_if_away(
        &self,
        tx: &Tx<'_>,
        game_id: i64,
        to_move: i64,
        now: i64,
    ) -> AppResult<bool> {
        if !Self::pause_if_away(tx, game_id, to_move, now)? {
            return Ok(false);
        }
        if let Some(v) = tx.vacation(to_move)? {
            if let Some(since) = v.since {
                let until = since + (self.allowance() - used_before(&v, since)).max(0);
                tell(tx, game_id, to_move, Away::On { until }, now)?;
            }
        }
        Ok(true)
    }
}

/// Seconds of the allowance used before a vacation that began at `since`
/// (the used time counts for the year it began in).
fn used_before(v: &VacationRow, since: i64) -> i64 {
    if v.year == year_of(since) {
        v.used
    } else {
        0
    }
}

/// A game between members (games against the computer have no deadline).
fn is_correspondence(g: &crate::store::GameRow) -> bool {
    g.sente >= 0 && g.gote >= 0
}

/// Queues the notice that `player` went away or came back, for game `game_id`.
fn tell(tx: &Tx<'_>, game_id: i64, player: i64, away: Away, now: i64) -> AppResult<()> {
    let n = super::Notice::Vacation {
        game_id,
        player,
        away,
    };
    tx.push_outbox(&to_json(&n)?, now)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const Y2026: i64 = 1_767_225_600; // 2026-01-01 00:00 UTC

    #[test]
    fn the_year_changes_at_midnight_utc() {
        assert_eq!(year_of(Y2026 - 1), 2025);
        assert_eq!(year_of(Y2026), 2026);
    }

    #[test]
    fn used_time_counts_for_the_year_it_began_in() {
        let v = VacationRow {
            since: None,
            year: 2025,
            used: 5 * DAY,
        };
        // Last year's days do not count this year.
        assert_eq!(used_at(&v, Y2026 + DAY), 0);
        assert_eq!(used_at(&v, Y2026 - DAY), 5 * DAY);
        let away = VacationRow {
            since: Some(Y2026 + DAY),
            year: 2026,
            used: 2 * DAY,
        };
        assert_eq!(used_at(&away, Y2026 + 3 * DAY), 4 * DAY);
        assert_eq!(used_before(&away, Y2026 + DAY), 2 * DAY);
    }
}
