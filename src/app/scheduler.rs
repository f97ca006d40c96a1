//! Deadlines: the scheduler step ends overdue games, sends reminders at half
//! time and with 10 % left (each once), and expires unanswered challenges.
//!
//! Every state change and the notice about it are written in one
//! transaction: the notice goes to the `outbox` table, and the front end
//! deletes it (`ack`) once delivered. After a restart, undelivered notices are
//! still there and nothing is decided twice. (A crash between delivering and
//! acknowledging repeats that one notice: at-least-once delivery.)

use serde::{Deserialize, Serialize};

use super::message::{Msg, Who};
use super::{App, AppResult, Reply, Visibility, DAY};
use crate::i18n::Lang;

/// A notice waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    /// A reminder for the player to move.
    Reminder {
        /// Game.
        game_id: i64,
        /// Who must move.
        player: i64,
        /// The deadline.
        deadline: i64,
        /// Seconds left when the reminder was decided.
        left: i64,
    },
    /// A game ended because a deadline passed.
    Timeout {
        /// Game.
        game_id: i64,
    },
    /// A challenge expired unanswered.
    ChallengeExpired {
        /// Challenge.
        challenge_id: i64,
        /// Who had challenged.
        challenger: i64,
    },
}

impl App {
    /// One scheduler step at the app clock's time: decides what is due and
    /// writes the notices to the outbox. Returns how many notices it added.
    pub fn tick(&self) -> AppResult<usize> {
        let now = self.now();
        let mut store = self.store()?;
        let added = store.transaction(|tx| -> AppResult<_> {
            let mut added = 0;
            for c in tx.expired_challenges(now)? {
                if tx.close_challenge(c.id, "expired", None)? {
                    let n = Notice::ChallengeExpired {
                        challenge_id: c.id,
                        challenger: c.data.challenger,
                    };
                    tx.push_outbox(&to_json(&n)?, now)?;
                    added += 1;
                }
            }
            for g in tx.overdue_games(now)? {
                let l = Self::load(tx, g.id)?;
                let loser = l.game.position().side_to_move();
                let mut game = l.game.clone();
                let outcome = game
                    .timeout(loser)
                    .map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))?;
                Self::finish(tx, &l, outcome, now)?;
                tx.push_outbox(&to_json(&Notice::Timeout { game_id: g.id })?, now)?;
                added += 1;
            }
            for g in tx.games_with_deadline()? {
                let Some(deadline) = g.deadline else { continue };
                let total = g.days_per_move * DAY;
                let left = deadline - now;
                let mut bits = 0;
                if left * 10 <= total && g.reminded & 2 == 0 {
                    bits = 3;
                } else if left * 2 <= total && g.reminded & 1 == 0 {
                    bits = 1;
                }
                if bits == 0 {
                    continue;
                }
                let l = Self::load(tx, g.id)?;
                tx.mark_reminded(g.id, bits)?;
                let n = Notice::Reminder {
                    game_id: g.id,
                    player: l.to_move_id(),
                    deadline,
                    left,
                };
                tx.push_outbox(&to_json(&n)?, now)?;
                added += 1;
            }
            Ok(added)
        })?;
        Ok(added)
    }

    /// The undelivered notices with their replies, oldest first.
    pub fn pending_notices(&self) -> AppResult<Vec<(i64, Notice, Reply)>> {
        let mut store = self.store()?;
        let out = store.transaction(|tx| -> AppResult<_> {
            let mut out = Vec::new();
            for (id, payload) in tx.outbox()? {
                let notice: Notice = serde_json::from_str(&payload)
                    .map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))?;
                let reply = match &notice {
                    Notice::Reminder {
                        game_id,
                        player,
                        deadline,
                        left,
                    } => {
                        let who = Self::who(tx, *player)?;
                        let lang = lang_of(tx, *player)?;
                        let mut r = Reply::public(
                            Msg::Reminder {
                                game_id: *game_id,
                                player: who,
                                deadline: *deadline,
                                left: *left,
                            },
                            lang,
                        );
                        r.notify = vec![*player];
                        r
                    }
                    Notice::Timeout { game_id } => {
                        let row = tx
                            .game(*game_id)?
                            .ok_or_else(|| crate::store::StoreError::Corrupt("game".into()))?;
                        let ending = super::play::stored_ending_pub(tx, &row)?;
                        let Some(ending) = ending else { continue };
                        let lang = lang_of(tx, row.sente)?;
                        let mut r = Reply::public(
                            Msg::GameOver {
                                game_id: *game_id,
                                ending,
                            },
                            lang,
                        );
                        r.notify = vec![row.sente, row.gote];
                        r.buttons
                            .push(super::ButtonAction::Rematch.button(*game_id));
                        r
                    }
                    Notice::ChallengeExpired {
                        challenge_id,
                        challenger,
                    } => {
                        let who: Who = Self::who(tx, *challenger)?;
                        let lang = lang_of(tx, *challenger)?;
                        let mut r = Reply::public(
                            Msg::ChallengeExpired {
                                id: *challenge_id,
                                challenger: who,
                            },
                            lang,
                        );
                        r.visibility = Visibility::Public;
                        r.notify = vec![*challenger];
                        r
                    }
                };
                out.push((id, notice, reply));
            }
            Ok(out)
        })?;
        Ok(out)
    }

    /// Marks a notice as delivered.
    pub fn ack_notice(&self, id: i64) -> AppResult<()> {
        let mut store = self.store()?;
        store.transaction(|tx| tx.ack_outbox(id))?;
        Ok(())
    }
}

fn lang_of(tx: &crate::store::Tx<'_>, user: i64) -> crate::store::StoreResult<Lang> {
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

fn to_json(n: &Notice) -> crate::store::StoreResult<String> {
    serde_json::to_string(n).map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))
}
