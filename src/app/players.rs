//! Players: settings, statistics, the leaderboard, names and languages.

use super::args::{not_one_of, one_of, LANGUAGES};
use super::message::{Msg, Refusal, Who};
use super::{App, AppResult, Caller, Reply};
use crate::notation::Style;
use crate::store::Settings;

impl App {
    /// `/settings`: changes the given settings (each `None` stays) and shows them.
    pub fn settings(&self, caller: &Caller, change: &SettingsChange) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let mut s = Self::player(tx, caller.id)?.settings;
            if let Some(n) = &change.notation {
                match Style::from_name(n) {
                    Some(style) => s.notation = style.name().into(),
                    None => {
                        return Err(not_one_of("notation", n, Style::ALL.map(Style::name)).into())
                    }
                }
            }
            if let Some(p) = &change.piece_style {
                one_of("style", p, &PIECE_STYLES)?;
                s.piece_style.clone_from(p);
            }
            if let Some(t) = &change.theme {
                one_of("theme", t, &["light", "dark"])?;
                s.theme.clone_from(t);
            }
            if let Some(l) = &change.language {
                s.language = match l.as_str() {
                    "en" | "de" => Some(l.clone()),
                    "auto" => None,
                    _ => return Err(not_one_of("language", l, LANGUAGES).into()),
                };
            }
            if let Some(d) = change.dms {
                s.dms = d;
            }
            if let Some(o) = &change.orientation {
                one_of("orientation", o, &["own", "sente"])?;
                s.orientation.clone_from(o);
            }
            if let Some(d) = &change.danger {
                one_of("danger", d, &["auto", "always", "off"])?;
                s.danger.clone_from(d);
            }
            if let Some(d) = change.dots {
                s.dots = d;
            }
            if let Some(n) = change.names {
                s.names = n;
            }
            tx.save_settings(caller.id, &s)?;
            let lang = match s.language.as_deref() {
                Some("de") => crate::lang::Lang::De,
                Some("en") => crate::lang::Lang::En,
                _ => caller.lang,
            };
            Ok(Reply::private(settings_msg(&s), lang))
        })
    }

    /// `/help` on Discord: every slash command in a sentence (only the
    /// caller sees it).
    #[must_use]
    pub fn slash_help(&self, caller: &Caller) -> Reply {
        Reply::private(Msg::SlashHelp, caller.lang)
    }

    /// `/stats` of `user` (the caller when `None`).
    pub fn stats(&self, caller: &Caller, user: Option<i64>) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let id = user.unwrap_or(caller.id);
            let Some(p) = tx.player(id)? else {
                return Err(Refusal::BadArgument(format!("user {id}")).into());
            };
            let (wins, losses, draws, _) = tx.record_of(id)?;
            let mut computer = Vec::new();
            for level in crate::engine::Level::ALL {
                let (w, l, d) = tx.record_against(id, super::computer_id(level))?;
                if w + l + d > 0 {
                    computer.push((level.name().to_string(), w, l, d));
                }
            }
            Ok(Reply::public(
                Msg::Stats {
                    who: Who {
                        id,
                        name: p.display_name,
                    },
                    rating: p.rating,
                    rated_games: p.rated_games,
                    points: p.points,
                    taler: p.taler,
                    wins,
                    losses,
                    draws,
                    computer,
                    ladder: Self::ladder_of(tx, id)?,
                    vacation: (
                        super::vacation::used_at(&tx.vacation(id)?.unwrap_or_default(), now),
                        self.caps.vacation_days.saturating_mul(super::DAY),
                    ),
                },
                caller.lang,
            ))
        })
    }

    /// `/leaderboard` of a server (everyone when `guild` is `None`), by
    /// Elo, points or Taler.
    pub fn leaderboard(
        &self,
        caller: &Caller,
        guild: Option<i64>,
        by: crate::store::Ranking,
    ) -> AppResult {
        let store = self.store()?;
        let rows = store.read(|r| r.leaderboard(guild, by, 10))?;
        let rows = rows
            .into_iter()
            .map(|p| {
                (
                    Who {
                        id: p.user_id,
                        name: p.display_name,
                    },
                    p.rating,
                    p.points,
                    p.taler,
                    p.rated_games,
                )
            })
            .collect();
        Ok(Reply::public(Msg::Leaderboard { by, rows }, caller.lang))
    }

    /// The display name of a user, if known.
    pub fn display_name(&self, user: i64) -> Option<String> {
        let store = self.store().ok()?;
        let p = store.read(|r| r.player(user)).ok().flatten()?;
        Some(p.display_name)
    }

    /// The language a reply to `user` should use: their setting, else `client`.
    pub fn lang_for(&self, user: i64, client: crate::lang::Lang) -> crate::lang::Lang {
        self.lang_in(user, None, client)
    }
}

/// Settings to change; `None` keeps the current value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// `usi`, `western`, `western-numeric`, `japanese`.
    pub notation: Option<String>,
    /// `kanji`, `kanji2`, `international`.
    pub piece_style: Option<String>,
    /// `light`, `dark`.
    pub theme: Option<String>,
    /// `en`, `de`, `auto`.
    pub language: Option<String>,
    /// DMs on your turn.
    pub dms: Option<bool>,
    /// `own`, `sente`: which way up boards meant only for you are drawn.
    pub orientation: Option<String>,
    /// `auto`, `always`, `off`: danger help on your boards.
    pub danger: Option<String>,
    /// Movement dots on the piece faces.
    pub dots: Option<bool>,
    /// Piece names under the symbols.
    pub names: Option<bool>,
}

/// The piece styles a player can choose, by their stored names.
pub const PIECE_STYLES: [&str; 5] = [
    "kanji",
    "kanji2",
    "international",
    "pictogram",
    "pictogram-kanji",
];

pub(super) fn settings_msg(s: &Settings) -> Msg {
    Msg::Settings {
        notation: s.notation.clone(),
        piece_style: s.piece_style.clone(),
        theme: s.theme.clone(),
        language: s.language.clone(),
        dms: s.dms,
        orientation: s.orientation.clone(),
        danger: s.danger.clone(),
        dots: s.dots,
        names: s.names,
    }
}
