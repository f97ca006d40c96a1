//! `/server`: a Discord server's settings, changed by members with Manage
//! Server and applied everywhere on that server: the channel where games
//! start, whether rated games are allowed, the default days per move,
//! threads on or off, and the default language for members who did not
//! choose one.

use super::args::{not_one_of, LANGUAGES};
use super::challenges::{ChallengeOptions, DAYS_PER_MOVE};
use super::message::{Msg, Refusal};
use super::{App, AppResult, Caller, Place, Reply};
use crate::lang::Lang;
use crate::store::{Reader, ServerRow, StoreResult};

/// What `/server` changes (`None`: unchanged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerChange {
    /// The game channel: `Some(None)` lets games start where they are accepted.
    pub channel: Option<Option<i64>>,
    /// Threads for games.
    pub threads: Option<bool>,
    /// Rated games allowed.
    pub rated: Option<bool>,
    /// Default days per move.
    pub days: Option<i64>,
    /// Default language: `en`, `de`, or `auto` (each member's client).
    pub language: Option<String>,
}

impl ServerChange {
    fn is_empty(&self) -> bool {
        *self == ServerChange::default()
    }
}

/// Where a new game's first messages go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartPlace {
    /// The game's channel (the server's game channel, or where it was accepted).
    pub channel: Option<i64>,
    /// Whether the game gets its own thread there.
    pub thread: bool,
}

/// A server's settings (the defaults when it never changed them).
pub(super) fn server_of(r: &Reader<'_>, guild: Option<i64>) -> StoreResult<ServerRow> {
    Ok(match guild {
        Some(g) => r.server(g)?.unwrap_or_default(),
        None => ServerRow::default(),
    })
}

impl App {
    /// `/server`: shows the server's settings, or changes them (Manage
    /// Server only). Private.
    pub fn server_settings(
        &self,
        caller: &Caller,
        place: Place,
        change: &ServerChange,
    ) -> AppResult {
        let Some(guild) = place.guild else {
            return Err(Refusal::OnlyOnAServer.into());
        };
        if !change.is_empty() && !caller.manages_server {
            return Err(Refusal::NeedsManageServer.into());
        }
        if let Some(d) = change.days {
            if !DAYS_PER_MOVE.contains(&d) {
                return Err(Refusal::BadDays.into());
            }
        }
        let language = match change.language.as_deref() {
            None => None,
            Some("auto") => Some(None),
            Some(l @ ("en" | "de")) => Some(Some(l.to_string())),
            Some(other) => return Err(not_one_of("language", other, LANGUAGES).into()),
        };
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let mut s = server_of(tx, Some(guild))?;
            if !change.is_empty() {
                if let Some(c) = change.channel {
                    s.game_channel = c;
                }
                if let Some(t) = change.threads {
                    s.threads = t;
                }
                if let Some(r) = change.rated {
                    s.rated = r;
                }
                if let Some(d) = change.days {
                    s.default_days = Some(d);
                }
                if let Some(l) = language.clone() {
                    s.language = l;
                }
                tx.save_server(guild, &s)?;
            }
            Ok(Reply::private(
                Msg::ServerSettings {
                    changed: !change.is_empty(),
                    channel: s.game_channel,
                    threads: s.threads,
                    rated: s.rated,
                    days: s.default_days.unwrap_or(ChallengeOptions::default().days),
                    language: s.language.clone(),
                },
                caller.lang,
            ))
        })
    }

    /// A challenge's options with the server's defaults applied: its days
    /// per move when none were given; unrated when the server allows no
    /// rated games (refused when rated was asked for).
    pub(super) fn with_server_defaults(
        &self,
        opts: &ChallengeOptions,
        place: Place,
    ) -> AppResult<ChallengeOptions> {
        let store = self.store()?;
        let s = store.read(|r| server_of(r, place.guild))?;
        let mut o = opts.clone();
        if !o.days_given {
            if let Some(d) = s.default_days {
                o.days = d;
            }
        }
        if !s.rated && o.rated {
            if o.rated_given {
                return Err(Refusal::RatedOffHere.into());
            }
            o.rated = false;
        }
        Ok(o)
    }

    /// Where a new game's first messages go (for the front end).
    pub fn start_place(&self, game_id: i64) -> AppResult<StartPlace> {
        let store = self.store()?;
        store.read(|r| -> AppResult<StartPlace> {
            let Some(g) = r.game(game_id)? else {
                return Ok(StartPlace {
                    channel: None,
                    thread: false,
                });
            };
            let s = server_of(r, g.guild_id)?;
            Ok(StartPlace {
                channel: g.channel_id,
                thread: s.threads,
            })
        })
    }

    /// The language to answer `user` in on `guild`: their own choice, else
    /// the server's default, else their client's.
    pub fn lang_in(&self, user: i64, guild: Option<i64>, client: Lang) -> Lang {
        let Ok(store) = self.store() else {
            return client;
        };
        let chosen = store
            .read(|r| -> StoreResult<Option<String>> {
                if let Some(l) = r.player(user)?.and_then(|p| p.settings.language) {
                    return Ok(Some(l));
                }
                Ok(server_of(r, guild)?.language)
            })
            .ok()
            .flatten();
        match chosen.as_deref() {
            Some("de") => Lang::De,
            Some("en") => Lang::En,
            _ => client,
        }
    }
}
