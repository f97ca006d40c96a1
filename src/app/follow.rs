//! Following games and members: `/follow game:` or `/follow member:` sends
//! their moves to the follower by direct message (opt-in: nothing is
//! followed until a member asks; capped at `Caps::follows` per member and
//! [`MAX_FOLLOWER_DMS`] direct messages per move). `/games server:` lists a
//! server's live games with links to their threads.

use super::message::{FollowItem, Msg, Refusal, ServerGame};
use super::play::same_server;
use super::scheduler::to_json;
use super::{App, AppResult, Caller, Place, Reply};
use crate::store::{Followed, GameRow, Reader, Tx};

/// The most followers told of one move (the oldest follows first).
pub const MAX_FOLLOWER_DMS: i64 = 100;

/// The most games `/games server:` lists.
pub const SERVER_GAMES_SHOWN: i64 = 20;

impl App {
    /// `/follow`: starts (or with `stop`, ends) following a game or a
    /// member; with neither, lists what the caller follows (with `stop`,
    /// ends every follow). Private.
    pub fn follow(
        &self,
        caller: &Caller,
        game: Option<i64>,
        member: Option<(i64, &str)>,
        stop: bool,
        place: Place,
    ) -> AppResult {
        if let Some((_, name)) = member {
            super::check_len(name)?;
        }
        let now = self.now();
        let cap = self.caps.follows;
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let what = match (game, member) {
                (Some(_), Some(_)) => {
                    return Err(Refusal::BadArgument("game and member".into()).into())
                }
                (Some(id), None) => Some(Followed::Game(id)),
                (None, Some((id, name))) => {
                    if id == caller.id {
                        return Err(Refusal::FollowYourself.into());
                    }
                    if super::level_of(id).is_some() {
                        return Err(Refusal::BadArgument("member".into()).into());
                    }
                    tx.upsert_player(id, name, now)?;
                    Some(Followed::Player(id))
                }
                (None, None) => None,
            };
            let msg = match (what, stop) {
                (None, false) => {
                    let mut items = Vec::new();
                    for f in tx.follows_of(caller.id)? {
                        items.push(item(tx, f)?);
                    }
                    Msg::Follows { items, cap }
                }
                (what, true) => Msg::FollowStopped {
                    count: tx.unfollow(caller.id, what)?,
                },
                (Some(what), false) => {
                    if let Followed::Game(id) = what {
                        let Some(g) = tx.game(id)? else {
                            return Err(Refusal::NoSuchGame.into());
                        };
                        same_server(g.guild_id, place)?;
                        if g.status != "active" {
                            return Err(Refusal::GameIsOver.into());
                        }
                        if g.sente == caller.id || g.gote == caller.id {
                            return Err(Refusal::FollowYourself.into());
                        }
                    }
                    if tx.follows(caller.id, what)? {
                        return Err(Refusal::AlreadyFollowing.into());
                    }
                    if tx.follows_of(caller.id)?.len() as i64 >= cap {
                        return Err(Refusal::TooManyFollows(cap).into());
                    }
                    tx.follow(caller.id, what, place.guild, now)?;
                    Msg::FollowStarted {
                        item: item(tx, what)?,
                    }
                }
            };
            Ok(Reply::private(msg, caller.lang))
        })
    }

    /// `/games server:`: the live games of the caller's server with links
    /// to their threads. Private.
    pub fn server_games(&self, caller: &Caller, place: Place) -> AppResult {
        let Some(guild) = place.guild else {
            return Err(Refusal::OnlyOnAServer.into());
        };
        let store = self.store()?;
        store.read(|tx| -> AppResult {
            let mut games = Vec::new();
            for g in tx.live_games_in(guild, SERVER_GAMES_SHOWN)? {
                let l = Self::load(tx, g.id)?;
                games.push(ServerGame {
                    game_id: g.id,
                    sente: Self::who(tx, g.sente)?,
                    gote: Self::who(tx, g.gote)?,
                    ply: l.game.ply(),
                    to_move: Self::who(tx, l.to_move())?,
                    place: g.thread_id.or(g.channel_id),
                });
            }
            let more = tx.live_game_count(guild)? - games.len() as i64;
            Ok(Reply::private(
                Msg::ServerGames {
                    games,
                    more: more.max(0),
                },
                caller.lang,
            ))
        })
    }

    /// Queues a direct message of ply `ply` of `game` for each follower.
    pub(super) fn tell_followers(tx: &Tx<'_>, game: &GameRow, ply: i64, now: i64) -> AppResult<()> {
        for user in tx.followers_of(game, MAX_FOLLOWER_DMS)? {
            let n = super::Notice::Followed {
                game_id: game.id,
                ply,
                user,
            };
            tx.push_outbox(&to_json(&n)?, now)?;
        }
        Ok(())
    }
}

/// A follow as a message names it.
fn item(tx: &Reader<'_>, f: Followed) -> AppResult<FollowItem> {
    Ok(match f {
        Followed::Game(id) => match tx.game(id)? {
            Some(g) => FollowItem::Game {
                game_id: id,
                sente: App::who(tx, g.sente)?,
                gote: App::who(tx, g.gote)?,
            },
            None => FollowItem::GoneGame(id),
        },
        Followed::Player(id) => FollowItem::Member(App::who(tx, id)?),
    })
}
