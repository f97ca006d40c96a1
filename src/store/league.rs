//! Queries of server leagues: the league, its players and its pairings.

use super::sql::args;

use super::{Reader, StoreResult, Tx};

/// A row of `leagues`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeagueRow {
    /// Id.
    pub id: i64,
    /// Server.
    pub guild_id: i64,
    /// Where it was created (sign-up, rounds and the final standings).
    pub channel_id: Option<i64>,
    /// Name.
    pub name: String,
    /// `roundrobin`, `double` or `swiss`.
    pub format: String,
    /// Rounds (Swiss: fixed at creation; round robin: set at the start).
    pub rounds: i64,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Days per move of its games.
    pub days_per_move: i64,
    /// Whether its games are rated.
    pub rated: bool,
    /// When it starts (Unix seconds).
    pub starts_at: i64,
    /// Most players it takes.
    pub max_players: i64,
    /// `open`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// The round being played (0 before the start).
    pub round: i64,
    /// Who created it.
    pub created_by: i64,
    /// When it ended.
    pub finished_at: Option<i64>,
}

impl LeagueRow {
    const COLUMNS: &'static str = "id, guild_id, channel_id, name, format, rounds, variant, days_per_move, rated, starts_at, max_players, status, round, created_by, finished_at";

    fn from_row(r: &super::sql::Row) -> StoreResult<LeagueRow> {
        Ok(LeagueRow {
            id: r.get(0)?,
            guild_id: r.get(1)?,
            channel_id: r.get(2)?,
            name: r.get(3)?,
            format: r.get(4)?,
            rounds: r.get(5)?,
            variant: r.get(6)?,
            days_per_move: r.get(7)?,
            rated: r.get(8)?,
            starts_at: r.get(9)?,
            max_players: r.get(10)?,
            status: r.get(11)?,
            round: r.get(12)?,
            created_by: r.get(13)?,
            finished_at: r.get(14)?,
        })
    }
}

/// A league to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLeague {
    /// Server.
    pub guild_id: i64,
    /// Where it is created.
    pub channel_id: Option<i64>,
    /// Name.
    pub name: String,
    /// `roundrobin`, `double` or `swiss`.
    pub format: String,
    /// Swiss rounds (0 for round robin).
    pub rounds: i64,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Days per move.
    pub days_per_move: i64,
    /// Rated.
    pub rated: bool,
    /// Start (Unix seconds).
    pub starts_at: i64,
    /// Most players.
    pub max_players: i64,
    /// Creator.
    pub created_by: i64,
    /// Now.
    pub created_at: i64,
}

/// A player of a league.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaguePlayerRow {
    /// User id.
    pub user_id: i64,
    /// Display name.
    pub name: String,
    /// Rating (the seeding order).
    pub rating: f64,
    /// When they joined.
    pub joined_at: i64,
    /// When they withdrew, if they did.
    pub withdrawn_at: Option<i64>,
}

/// A pairing of a league round, with its game's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    /// Round.
    pub round: i64,
    /// Board within the round.
    pub board: i64,
    /// Sente.
    pub sente: i64,
    /// Gote (`None`: a bye).
    pub gote: Option<i64>,
    /// Its game, once started.
    pub game_id: Option<i64>,
    /// The result decided without a game (`sente`, `gote`, `draw`, `none`).
    pub result: Option<String>,
    /// Why it was decided without a game (`bye`, `forfeit`).
    pub reason: Option<String>,
    /// Its game's status (`active`, `finished`).
    pub game_status: Option<String>,
    /// Its game's result, once finished.
    pub game_result: Option<String>,
    /// Why its game ended.
    pub game_reason: Option<String>,
}

impl PairingRow {
    /// The result that counts: decided without a game, or the finished
    /// game's. `None` while it is being played or not yet started.
    #[must_use]
    pub fn outcome(&self) -> Option<&str> {
        self.result.as_deref().or_else(|| {
            self.game_result
                .as_deref()
                .filter(|_| self.game_status.as_deref() == Some("finished"))
        })
    }
}

read_queries! {
    /// A league by id.
    pub fn league(&self, id: i64) -> StoreResult<Option<LeagueRow>> {
        self.c().opt(
            &format!("SELECT {} FROM leagues WHERE id = ?1", LeagueRow::COLUMNS),
            args![id],
            LeagueRow::from_row,
        )
    }

    /// A server's leagues, newest first, at most `limit`.
    pub fn leagues_of(&self, guild: i64, limit: i64) -> StoreResult<Vec<LeagueRow>> {
        self.c().all(
            &format!("SELECT {} FROM leagues WHERE guild_id = ?1 ORDER BY id DESC LIMIT ?2", LeagueRow::COLUMNS),
            args![guild, limit],
            LeagueRow::from_row,
        )
    }

    /// Leagues the scheduler has work in: open ones whose start has come,
    /// and running ones whose current round has no undecided pairing left.
    pub fn leagues_due(&self, now: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT l.id FROM leagues l
             WHERE (l.status = 'open' AND l.starts_at <= ?1)
                OR (l.status = 'running' AND NOT EXISTS (
                    SELECT 1 FROM league_pairings p LEFT JOIN games g ON g.id = p.game_id
                    WHERE p.league_id = l.id AND p.round = l.round AND p.result IS NULL
                      AND (g.status IS NULL OR g.status <> 'finished')))
             ORDER BY l.id",
            args![now],
            |r| r.get(0),
        )
    }

    /// The players of a league in joining order.
    pub fn league_players(&self, league: i64) -> StoreResult<Vec<LeaguePlayerRow>> {
        self.c().all(
            "SELECT p.user_id, p.display_name, p.rating, l.joined_at, l.withdrawn_at
             FROM league_players l JOIN players p ON p.user_id = l.user_id
             WHERE l.league_id = ?1 ORDER BY l.joined_at, l.user_id",
            args![league],
            |r| {
                Ok(LeaguePlayerRow {
                    user_id: r.get(0)?,
                    name: r.get(1)?,
                    rating: r.get(2)?,
                    joined_at: r.get(3)?,
                    withdrawn_at: r.get(4)?,
                })
            },
        )
    }

    /// Every pairing of a league with its game's state, by round and board.
    pub fn league_pairings(&self, league: i64) -> StoreResult<Vec<PairingRow>> {
        self.c().all(
            "SELECT p.round, p.board, p.sente, p.gote, p.game_id, p.result, p.reason,
                    g.status, g.result, g.reason
             FROM league_pairings p LEFT JOIN games g ON g.id = p.game_id
             WHERE p.league_id = ?1 ORDER BY p.round, p.board",
            args![league],
            |r| {
                Ok(PairingRow {
                    round: r.get(0)?,
                    board: r.get(1)?,
                    sente: r.get(2)?,
                    gote: r.get(3)?,
                    game_id: r.get(4)?,
                    result: r.get(5)?,
                    reason: r.get(6)?,
                    game_status: r.get(7)?,
                    game_result: r.get(8)?,
                    game_reason: r.get(9)?,
                })
            },
        )
    }

    /// The league and round game `game_id` belongs to, if any.
    pub fn league_of_game(&self, game_id: i64) -> StoreResult<Option<(i64, i64)>> {
        self.c().opt(
            "SELECT league_id, round FROM league_pairings WHERE game_id = ?1",
            args![game_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// Leagues `user` is in and has not left: open or running, not withdrawn.
    pub fn leagues_playing(&self, user: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT l.id FROM leagues l JOIN league_players p ON p.league_id = l.id
             WHERE p.user_id = ?1 AND p.withdrawn_at IS NULL AND l.status IN ('open', 'running')
             ORDER BY l.id",
            args![user],
            |r| r.get(0),
        )
    }
}

impl Tx<'_> {
    /// Creates a league and returns its id.
    pub fn insert_league(&self, l: &NewLeague) -> StoreResult<i64> {
        self.c().value(
            "INSERT INTO leagues (guild_id, channel_id, name, format, rounds, variant, days_per_move,
                rated, starts_at, max_players, created_by, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id",
            args![
                l.guild_id,
                l.channel_id,
                &l.name,
                &l.format,
                l.rounds,
                &l.variant,
                l.days_per_move,
                l.rated,
                l.starts_at,
                l.max_players,
                l.created_by,
                l.created_at
            ],
        )
    }

    /// Locks a league's row until the transaction ends (joins, withdrawals
    /// and the scheduler's round steps of several processes run one after
    /// the other). Nothing on SQLite, where the writer is alone.
    pub fn lock_league(&self, id: i64) -> StoreResult<()> {
        let c = self.c();
        let sql = format!("SELECT id FROM leagues WHERE id = ?1{}", c.for_update());
        c.rows(&sql, args![id])?;
        Ok(())
    }

    /// Adds `user` to a league; false when they are in it already.
    pub fn join_league(&self, league: i64, user: i64, now: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "INSERT INTO league_players (league_id, user_id, joined_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (league_id, user_id) DO NOTHING",
            args![league, user, now],
        )?;
        Ok(n == 1)
    }

    /// Removes `user` from a league before its start; false when they were
    /// not in it.
    pub fn unjoin_league(&self, league: i64, user: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "DELETE FROM league_players WHERE league_id = ?1 AND user_id = ?2",
            args![league, user],
        )?;
        Ok(n == 1)
    }

    /// Marks `user` as withdrawn from a running league; false when they
    /// were not in it or had withdrawn already.
    pub fn withdraw_from_league(&self, league: i64, user: i64, now: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE league_players SET withdrawn_at = ?3
             WHERE league_id = ?1 AND user_id = ?2 AND withdrawn_at IS NULL",
            args![league, user, now],
        )?;
        Ok(n == 1)
    }

    /// Moves a league from (`status`, `round`) to (`new_status`,
    /// `new_round`), with its number of rounds; false when it was no longer
    /// there (another process moved it first).
    #[allow(clippy::too_many_arguments)]
    pub fn move_league(
        &self,
        id: i64,
        status: &str,
        round: i64,
        new_status: &str,
        new_round: i64,
        rounds: i64,
        now: i64,
    ) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE leagues SET status = ?4, round = ?5, rounds = ?6,
                finished_at = CASE WHEN ?4 IN ('finished', 'cancelled') THEN ?7 ELSE finished_at END
             WHERE id = ?1 AND status = ?2 AND round = ?3",
            args![id, status, round, new_status, new_round, rounds, now],
        )?;
        Ok(n == 1)
    }

    /// Stores a pairing (`gote` `None`: a bye), with its result when it is
    /// decided without a game.
    #[allow(clippy::too_many_arguments)]
    pub fn insert_pairing(
        &self,
        league: i64,
        round: i64,
        board: i64,
        sente: i64,
        gote: Option<i64>,
        result: Option<&str>,
        reason: Option<&str>,
    ) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO league_pairings (league_id, round, board, sente, gote, result, reason)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            args![league, round, board, sente, gote, result, reason],
        )?;
        Ok(())
    }

    /// Links a pairing to the game started for it.
    pub fn set_pairing_game(
        &self,
        league: i64,
        round: i64,
        board: i64,
        game: i64,
    ) -> StoreResult<()> {
        self.c().exec(
            "UPDATE league_pairings SET game_id = ?4 WHERE league_id = ?1 AND round = ?2 AND board = ?3",
            args![league, round, board, game],
        )?;
        Ok(())
    }

    /// Decides a pairing without a game (a withdrawal).
    pub fn set_pairing_result(
        &self,
        league: i64,
        round: i64,
        board: i64,
        result: &str,
        reason: &str,
    ) -> StoreResult<()> {
        self.c().exec(
            "UPDATE league_pairings SET result = ?4, reason = ?5
             WHERE league_id = ?1 AND round = ?2 AND board = ?3 AND game_id IS NULL",
            args![league, round, board, result, reason],
        )?;
        Ok(())
    }
}
