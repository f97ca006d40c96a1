//! Caps and rate limits: what one member may do, so that one spammer never
//! hurts everyone. Every limit is a field of [`Caps`] (defaults below,
//! documented in the README, each settable by an environment variable),
//! checked inside the use case's transaction; a refused request says which
//! limit and, for rate limits, when to try again.
//!
//! Rate limits count a member's recent uses of a kind of request in the
//! store's action log (so they hold across restarts and processes): at most
//! `max` uses in `window` seconds.

use super::message::Refusal;
use super::AppResult;
use crate::store::{Reader, Tx};

/// At most `max` uses per `window` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Uses allowed in one window.
    pub max: i64,
    /// The window in seconds.
    pub window: i64,
}

/// The limits. `Caps::default()` is what the bot runs with unless the
/// environment says otherwise ([`Caps::from_env`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Open challenges one member may have at once (`KOMADAI_MAX_OPEN_CHALLENGES`).
    pub open_challenges: i64,
    /// Open challenges from one member to the same member (`KOMADAI_MAX_CHALLENGES_TO_SAME`).
    pub challenges_to_same: i64,
    /// Active games between members one member may have (`KOMADAI_MAX_ACTIVE_GAMES`).
    pub active_games: i64,
    /// Active games against the computer one member may have (`KOMADAI_MAX_COMPUTER_GAMES`).
    pub computer_games: i64,
    /// Requests that ping another member: challenges to a member, rematches,
    /// takeback and counting offers (`KOMADAI_PINGS`, as `MAX/WINDOW_SECS`).
    pub pings: Rate,
    /// `/analyze` (`KOMADAI_ANALYZE_RATE`).
    pub analyze: Rate,
    /// `/hint` (`KOMADAI_HINT_RATE`).
    pub hint: Rate,
    /// `/puzzle` (`KOMADAI_PUZZLE_RATE`).
    pub puzzle: Rate,
    /// Days of vacation a member has each calendar year (`KOMADAI_VACATION_DAYS`).
    pub vacation_days: i64,
    /// Conditional premove lines one member may keep in one game
    /// (`KOMADAI_MAX_PREMOVE_LINES`).
    pub premove_lines: i64,
    /// Games and members one member may follow (`KOMADAI_MAX_FOLLOWS`).
    pub follows: i64,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            open_challenges: 10,
            challenges_to_same: 1,
            active_games: 30,
            computer_games: 5,
            pings: Rate {
                max: 10,
                window: 600,
            },
            analyze: Rate {
                max: 5,
                window: 600,
            },
            hint: Rate {
                max: 30,
                window: 600,
            },
            puzzle: Rate {
                max: 40,
                window: 600,
            },
            vacation_days: 14,
            premove_lines: 10,
            follows: 20,
        }
    }
}

/// A kind of rate-limited request, as the action log names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Something that pings another member.
    Ping,
    /// `/analyze`.
    Analyze,
    /// `/hint`.
    Hint,
    /// `/puzzle`.
    Puzzle,
}

impl Kind {
    /// The stable name in the action log.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Ping => "ping",
            Kind::Analyze => "analyze",
            Kind::Hint => "hint",
            Kind::Puzzle => "puzzle",
        }
    }
}

/// A bad value in the environment.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {value:?} is not {expected}")]
pub struct CapsError {
    name: &'static str,
    value: String,
    expected: &'static str,
}

impl Caps {
    /// The defaults, with each limit the environment sets replaced.
    pub fn from_env() -> Result<Caps, CapsError> {
        Caps::from_lookup(|k| std::env::var(k).ok())
    }

    /// The defaults, with each limit `lookup` returns replaced (numbers for
    /// counts, `MAX/WINDOW_SECS` for rates).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Caps, CapsError> {
        let mut c = Caps::default();
        let count = |name: &'static str, v: &mut i64| -> Result<(), CapsError> {
            if let Some(s) = lookup(name) {
                *v = s.trim().parse().ok().filter(|n| *n >= 0).ok_or(CapsError {
                    name,
                    value: s,
                    expected: "a whole number ≥ 0",
                })?;
            }
            Ok(())
        };
        count("KOMADAI_MAX_OPEN_CHALLENGES", &mut c.open_challenges)?;
        count("KOMADAI_MAX_CHALLENGES_TO_SAME", &mut c.challenges_to_same)?;
        count("KOMADAI_MAX_ACTIVE_GAMES", &mut c.active_games)?;
        count("KOMADAI_MAX_COMPUTER_GAMES", &mut c.computer_games)?;
        count("KOMADAI_VACATION_DAYS", &mut c.vacation_days)?;
        count("KOMADAI_MAX_PREMOVE_LINES", &mut c.premove_lines)?;
        count("KOMADAI_MAX_FOLLOWS", &mut c.follows)?;
        let rate = |name: &'static str, r: &mut Rate| -> Result<(), CapsError> {
            if let Some(s) = lookup(name) {
                let parsed = s.trim().split_once('/').and_then(|(m, w)| {
                    let max = m.trim().parse().ok().filter(|n: &i64| *n >= 0)?;
                    let window = w.trim().parse().ok().filter(|n: &i64| *n > 0)?;
                    Some(Rate { max, window })
                });
                *r = parsed.ok_or(CapsError {
                    name,
                    value: s,
                    expected: "MAX/WINDOW_SECS, e.g. 10/600",
                })?;
            }
            Ok(())
        };
        rate("KOMADAI_PINGS", &mut c.pings)?;
        rate("KOMADAI_ANALYZE_RATE", &mut c.analyze)?;
        rate("KOMADAI_HINT_RATE", &mut c.hint)?;
        rate("KOMADAI_PUZZLE_RATE", &mut c.puzzle)?;
        Ok(c)
    }

    fn rate(&self, kind: Kind) -> Rate {
        match kind {
            Kind::Ping => self.pings,
            Kind::Analyze => self.analyze,
            Kind::Hint => self.hint,
            Kind::Puzzle => self.puzzle,
        }
    }

    /// Refuses when `user` used up `kind` in the current window; otherwise
    /// records this use (in the caller's transaction, so a refused or
    /// failed request records nothing).
    pub(super) fn take(&self, tx: &Tx<'_>, user: i64, kind: Kind, now: i64) -> AppResult<()> {
        self.check(tx, user, kind, now)?;
        tx.record_action(user, kind.name(), now)?;
        Ok(())
    }

    /// Refuses when `user` used up `kind` in the current window, without
    /// recording anything (for requests that record with
    /// [`Caps::record`] only once they succeeded).
    pub(super) fn check(&self, tx: &Reader<'_>, user: i64, kind: Kind, now: i64) -> AppResult<()> {
        let rate = self.rate(kind);
        let since = now - rate.window;
        if tx.actions_since(user, kind.name(), since)? >= rate.max {
            let oldest = tx
                .oldest_action_since(user, kind.name(), since)?
                .unwrap_or(now);
            let wait = (oldest + rate.window - now).max(1);
            return Err(Refusal::RateLimited { seconds: wait }.into());
        }
        Ok(())
    }

    /// Records one use of `kind` by `user`.
    pub(super) fn record(tx: &Tx<'_>, user: i64, kind: Kind, now: i64) -> AppResult<()> {
        tx.record_action(user, kind.name(), now)?;
        Ok(())
    }

    /// Refuses a new challenge by `challenger` (to `challenged`, if any)
    /// past the open-challenge caps.
    pub(super) fn check_challenge(
        &self,
        tx: &Reader<'_>,
        challenger: i64,
        challenged: Option<i64>,
    ) -> AppResult<()> {
        if tx.open_challenges_by(challenger)? >= self.open_challenges {
            return Err(Refusal::TooManyChallenges {
                max: self.open_challenges,
            }
            .into());
        }
        if let Some(to) = challenged {
            if tx.open_challenges_between(challenger, to)? >= self.challenges_to_same {
                return Err(Refusal::AlreadyChallenged.into());
            }
        }
        Ok(())
    }

    /// Refuses a new game between members for `user` past the cap.
    pub(super) fn check_games(&self, tx: &Reader<'_>, user: i64, you: bool) -> AppResult<()> {
        if tx.active_game_count(user)? >= self.active_games {
            return Err(Refusal::TooManyGames {
                max: self.active_games,
                you,
            }
            .into());
        }
        Ok(())
    }

    /// Refuses a new game against the computer for `user` past the cap.
    pub(super) fn check_computer_games(&self, tx: &Reader<'_>, user: i64) -> AppResult<()> {
        if tx.active_computer_games(user)? >= self.computer_games {
            return Err(Refusal::TooManyComputerGames {
                max: self.computer_games,
            }
            .into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_sets_each_limit_and_bad_values_are_named() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_string())
            }
        };
        assert_eq!(Caps::from_lookup(env(&[])).unwrap(), Caps::default());
        let c = Caps::from_lookup(env(&[
            ("KOMADAI_MAX_OPEN_CHALLENGES", "3"),
            ("KOMADAI_HINT_RATE", " 2/60 "),
        ]))
        .unwrap();
        assert_eq!(c.open_challenges, 3);
        assert_eq!(c.hint, Rate { max: 2, window: 60 });
        assert_eq!(c.analyze, Caps::default().analyze);
        let e = Caps::from_lookup(env(&[("KOMADAI_PINGS", "ten")])).unwrap_err();
        assert!(e.to_string().contains("KOMADAI_PINGS"), "{e}");
        assert!(Caps::from_lookup(env(&[("KOMADAI_PINGS", "3/0")])).is_err());
        assert!(Caps::from_lookup(env(&[("KOMADAI_MAX_ACTIVE_GAMES", "-1")])).is_err());
    }
}
