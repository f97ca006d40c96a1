//! `/privacy`: what the bot stores about a member, and the erasure of it
//! (Discord's developer policy): settings, DMs, follows, Taler, progress and
//! rating history go; finished games stay, with the member's name replaced
//! by "former member", so their opponents' records are intact.

use super::message::{Msg, Refusal};
use super::{App, AppResult, ButtonAction, Caller, Reply};

/// The name that replaces an erased member's.
pub const FORMER_MEMBER: &str = "former member";

impl App {
    /// `/privacy`: privately, what is stored about the caller, with a
    /// button to erase it.
    pub fn privacy(&self, caller: &Caller) -> AppResult {
        let store = self.store()?;
        store.read(|tx| -> AppResult {
            let stored = tx.player(caller.id)?.is_some();
            let about = tx.stored_about(caller.id)?;
            let mut r = Reply::private(Msg::Privacy { stored, about }, caller.lang);
            if stored {
                r.buttons.push(ButtonAction::EraseYes.button(caller.id));
            }
            Ok(r)
        })
    }

    /// The erase button: only its owner may press it, and only without
    /// games still going (they would need the member's moves).
    pub fn erase(&self, caller: &Caller, user: i64) -> AppResult {
        if caller.id != user {
            return Err(Refusal::NotYourButton.into());
        }
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            if tx.player(user)?.is_none() {
                return Ok(Reply::private(Msg::Erased { games: 0 }, caller.lang));
            }
            tx.lock_player(user)?;
            let about = tx.stored_about(user)?;
            if about.active_games > 0 {
                return Err(Refusal::EraseWithActiveGames(about.active_games).into());
            }
            // A running league would pair them again: they withdraw first.
            for id in tx.leagues_playing(user)? {
                if tx.league(id)?.is_some_and(|l| l.status == "running") {
                    return Err(Refusal::EraseInLeague(id).into());
                }
            }
            tx.erase_player(user, FORMER_MEMBER)?;
            Ok(Reply::private(
                Msg::Erased { games: about.games },
                caller.lang,
            ))
        })
    }
}
