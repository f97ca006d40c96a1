//! Where replies are delivered, for front ends that have places (Discord
//! threads and channels) and direct messages. No game decisions here.

use super::scheduler::Notice;
use super::{App, AppResult};
use crate::lang::Lang;

impl App {
    /// Remembers the thread a game lives in (replies and notices go there).
    pub fn set_game_thread(&self, game_id: i64, thread: i64) -> AppResult<()> {
        let store = self.store()?;
        store.transaction(|tx| tx.set_thread(game_id, thread))?;
        Ok(())
    }

    /// The game's thread, else the channel it was started in.
    pub fn game_channel(&self, game_id: i64) -> AppResult<Option<i64>> {
        let store = self.store()?;
        let row = store.read(|r| r.game(game_id))?;
        Ok(row.and_then(|g| g.thread_id.or(g.channel_id)))
    }

    /// Where a scheduler notice belongs: the game's thread or channel, or
    /// the channel of an expired challenge (the first of
    /// [`DueNotice::places`](super::DueNotice)).
    pub fn notice_channel(&self, notice: &Notice) -> AppResult<Option<i64>> {
        let store = self.store()?;
        let places = store.read(|tx| super::scheduler::notice_places(tx, notice))?;
        Ok(places.first().copied())
    }

    /// Whether `user` asked for a direct message when it is their turn.
    #[must_use]
    pub fn wants_dms(&self, user: i64) -> bool {
        let Ok(store) = self.store() else {
            return false;
        };
        let player = store.read(|r| r.player(user)).ok().flatten();
        player.is_some_and(|p| p.settings.dms)
    }

    /// A direct message to `user` could not be delivered: turns their turn
    /// DMs off (so this is said once) and returns the language to tell them in.
    pub fn dms_failed(&self, user: i64) -> AppResult<Lang> {
        let store = self.store()?;
        let lang = store.transaction(|tx| -> AppResult<Lang> {
            let Some(p) = tx.player(user)? else {
                return Ok(Lang::En);
            };
            let mut s = p.settings;
            s.dms = false;
            tx.save_settings(user, &s)?;
            Ok(match s.language.as_deref() {
                Some("de") => Lang::De,
                _ => Lang::En,
            })
        })?;
        Ok(lang)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::app::{Caller, ChallengeOptions, ManualClock, Place, SeededDice, SettingsChange};
    use crate::store::Store;

    #[test]
    fn threads_and_dm_settings() {
        let store = Store::open_in_memory().expect("store");
        let app = App::new(
            store,
            Arc::new(ManualClock::new(1_000_000)),
            Arc::new(SeededDice::new(1)),
        );
        let a = Caller::new(1, "a", Lang::En);
        let b = Caller::new(2, "b", Lang::De);
        let place = Place {
            guild: Some(9),
            channel: Some(77),
        };
        app.challenge(&a, Some((2, "b")), &ChallengeOptions::default(), place)
            .expect("challenge");
        let r = app.accept(&b, 1, place).expect("accept");
        let game = r.board.expect("board").game_id;
        assert_eq!(app.game_channel(game).expect("channel"), Some(77));
        app.set_game_thread(game, 88).expect("thread");
        assert_eq!(
            app.notice_channel(&Notice::Timeout { game_id: game })
                .expect("notice"),
            Some(88)
        );
        assert!(!app.wants_dms(2));
        let on = SettingsChange {
            dms: Some(true),
            language: Some("de".into()),
            ..SettingsChange::default()
        };
        app.settings(&b, &on).expect("settings");
        assert!(app.wants_dms(2));
        assert_eq!(app.dms_failed(2).expect("off"), Lang::De);
        assert!(!app.wants_dms(2));
    }
}
