//! Queries of the community features: vacations (paused deadlines) and
//! conditional premove lines.

use super::sql::args;

use super::{GameRow, Reader, StoreResult, Tx};

/// A player's vacation account.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VacationRow {
    /// On vacation since (Unix seconds), or `None`.
    pub since: Option<i64>,
    /// The UTC year `used` counts for.
    pub year: i64,
    /// Seconds used in `year` by vacations that ended.
    pub used: i64,
}

/// A server's settings (the defaults when it has no row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    /// The channel where games start (their threads open there).
    pub game_channel: Option<i64>,
    /// Whether games get their own thread.
    pub threads: bool,
    /// Whether rated games are allowed.
    pub rated: bool,
    /// Default days per move of a challenge (`None`: the bot's default).
    pub default_days: Option<i64>,
    /// Default language for members who did not choose one (`en`, `de`).
    pub language: Option<String>,
}

impl Default for ServerRow {
    fn default() -> Self {
        ServerRow {
            game_channel: None,
            threads: true,
            rated: true,
            default_days: None,
            language: None,
        }
    }
}

/// What the bot stores about a member, counted (for `/privacy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredAbout {
    /// Games they played or play.
    pub games: i64,
    /// Of those, still going.
    pub active_games: i64,
    /// Open challenges they made.
    pub open_challenges: i64,
    /// Rating changes recorded.
    pub rating_changes: i64,
    /// Follows they made.
    pub follows: i64,
    /// Premove lines they keep.
    pub premove_lines: i64,
    /// Puzzle days and the running puzzle.
    pub puzzle_records: i64,
    /// Whether they have lesson progress.
    pub lesson: bool,
}

/// What a member follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Followed {
    /// A game, by id.
    Game(i64),
    /// A member's games (on the server where they followed), by user id.
    Player(i64),
}

impl Followed {
    fn kind(self) -> &'static str {
        match self {
            Followed::Game(_) => "game",
            Followed::Player(_) => "player",
        }
    }

    fn target(self) -> i64 {
        match self {
            Followed::Game(id) | Followed::Player(id) => id,
        }
    }
}

/// One conditional premove line of a player in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PremoveRow {
    /// Its number among the owner's lines of the game.
    pub line_no: i64,
    /// The ply of the opponent's move the line begins with.
    pub from_ply: i64,
    /// USI moves: the opponent's move, the answer, the next condition...
    pub moves: Vec<String>,
}

read_queries! {
    /// A server's settings (`None`: never changed, the defaults apply).
    pub fn server(&self, guild: i64) -> StoreResult<Option<ServerRow>> {
        self.c().opt(
            "SELECT game_channel, threads, rated, default_days, language FROM servers WHERE guild_id = ?1",
            args![guild],
            |r| {
                Ok(ServerRow {
                    game_channel: r.get(0)?,
                    threads: r.get(1)?,
                    rated: r.get(2)?,
                    default_days: r.get(3)?,
                    language: r.get(4)?,
                })
            },
        )
    }

    /// `user`'s vacation account (`None`: no such player).
    pub fn vacation(&self, user: i64) -> StoreResult<Option<VacationRow>> {
        self.c().opt(
            "SELECT vacation_since, vacation_year, vacation_used FROM players WHERE user_id = ?1",
            args![user],
            |r| Ok(VacationRow { since: r.get(0)?, year: r.get(1)?, used: r.get(2)? }),
        )
    }

    /// Players on vacation: (user, account).
    pub fn on_vacation(&self) -> StoreResult<Vec<(i64, VacationRow)>> {
        self.c().all(
            "SELECT user_id, vacation_since, vacation_year, vacation_used FROM players
             WHERE vacation_since IS NOT NULL ORDER BY vacation_since, user_id",
            args![],
            |r| Ok((r.get(0)?, VacationRow { since: r.get(1)?, year: r.get(2)?, used: r.get(3)? })),
        )
    }

    /// The seconds left of game `game_id`'s paused deadline, if it is paused.
    pub fn paused_left(&self, game_id: i64) -> StoreResult<Option<i64>> {
        Ok(self
            .c()
            .opt("SELECT paused_left FROM games WHERE id = ?1", args![game_id], |r| r.get::<Option<i64>>(0))?
            .flatten())
    }

    /// What the bot stores about `user`, counted.
    pub fn stored_about(&self, user: i64) -> StoreResult<StoredAbout> {
        let count = |sql: &str| -> StoreResult<i64> { self.c().value(sql, args![user]) };
        Ok(StoredAbout {
            games: count("SELECT CAST(COUNT(*) AS BIGINT) FROM games WHERE sente = ?1 OR gote = ?1")?,
            active_games: count(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM games WHERE status = 'active' AND (sente = ?1 OR gote = ?1)",
            )?,
            open_challenges: count(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM challenges WHERE status = 'open' AND challenger = ?1",
            )?,
            rating_changes: count("SELECT CAST(COUNT(*) AS BIGINT) FROM rating_history WHERE user_id = ?1")?,
            follows: count("SELECT CAST(COUNT(*) AS BIGINT) FROM follows WHERE user_id = ?1")?,
            premove_lines: count("SELECT CAST(COUNT(*) AS BIGINT) FROM premoves WHERE user_id = ?1")?,
            puzzle_records: count(
                "SELECT CAST((SELECT COUNT(*) FROM daily_results WHERE user_id = ?1)
                     + (SELECT COUNT(*) FROM puzzle_sessions WHERE user_id = ?1) AS BIGINT)",
            )?,
            lesson: count("SELECT CAST(COUNT(*) AS BIGINT) FROM learn_progress WHERE user_id = ?1")? > 0,
        })
    }

    /// What `user` follows, oldest first.
    pub fn follows_of(&self, user: i64) -> StoreResult<Vec<Followed>> {
        self.c().all(
            "SELECT kind, target FROM follows WHERE user_id = ?1 ORDER BY created_at, kind, target",
            args![user],
            |r| {
                let kind: String = r.get(0)?;
                let target: i64 = r.get(1)?;
                Ok(if kind == "game" { Followed::Game(target) } else { Followed::Player(target) })
            },
        )
    }

    /// Whether `user` follows `what`.
    pub fn follows(&self, user: i64, what: Followed) -> StoreResult<bool> {
        Ok(self
            .c()
            .opt(
                "SELECT 1 FROM follows WHERE user_id = ?1 AND kind = ?2 AND target = ?3",
                args![user, what.kind(), what.target()],
                |r| r.get::<i64>(0),
            )?
            .is_some())
    }

    /// Who follows game `game` or one of its players (a player followed on
    /// the game's server), except the players themselves; oldest follow
    /// first, at most `limit`.
    pub fn followers_of(&self, game: &GameRow, limit: i64) -> StoreResult<Vec<i64>> {
        self.c().all(
            "SELECT user_id FROM follows
             WHERE ((kind = 'game' AND target = ?1)
                OR (kind = 'player' AND target IN (?2, ?3) AND (guild_id IS NULL OR guild_id = ?4)))
               AND user_id NOT IN (?2, ?3)
             GROUP BY user_id ORDER BY MIN(created_at), user_id LIMIT ?5",
            args![game.id, game.sente, game.gote, game.guild_id, limit],
            |r| r.get(0),
        )
    }

    /// The live games of a server, most recently moved first, at most `limit`.
    pub fn live_games_in(&self, guild: i64, limit: i64) -> StoreResult<Vec<GameRow>> {
        self.c().all(
            &format!(
                "SELECT {} FROM games WHERE status = 'active' AND guild_id = ?1 ORDER BY updated_at DESC, id DESC LIMIT ?2",
                GameRow::COLUMNS
            ),
            args![guild, limit],
            GameRow::from_row,
        )
    }

    /// How many games are live on a server.
    pub fn live_game_count(&self, guild: i64) -> StoreResult<i64> {
        self.c().value(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM games WHERE status = 'active' AND guild_id = ?1",
            args![guild],
        )
    }

    /// `user`'s premove lines in game `game_id`, by number.
    pub fn premoves(&self, game_id: i64, user: i64) -> StoreResult<Vec<PremoveRow>> {
        self.c().all(
            "SELECT line_no, from_ply, moves FROM premoves WHERE game_id = ?1 AND user_id = ?2 ORDER BY line_no",
            args![game_id, user],
            |r| {
                let moves: String = r.get(2)?;
                Ok(PremoveRow {
                    line_no: r.get(0)?,
                    from_ply: r.get(1)?,
                    moves: moves.split_whitespace().map(str::to_string).collect(),
                })
            },
        )
    }
}

impl Tx<'_> {
    /// Saves a server's settings.
    pub fn save_server(&self, guild: i64, s: &ServerRow) -> StoreResult<()> {
        self.c().exec(
            "INSERT INTO servers (guild_id, game_channel, threads, rated, default_days, language)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (guild_id) DO UPDATE SET game_channel = excluded.game_channel,
                threads = excluded.threads, rated = excluded.rated,
                default_days = excluded.default_days, language = excluded.language",
            args![
                guild,
                s.game_channel,
                s.threads,
                s.rated,
                s.default_days,
                &s.language
            ],
        )?;
        Ok(())
    }

    /// Starts `user`'s vacation at `now`, with the account's year and used
    /// seconds as given (a new year starts at 0). False when they are
    /// already on vacation.
    pub fn start_vacation(&self, user: i64, now: i64, year: i64, used: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE players SET vacation_since = ?2, vacation_year = ?3, vacation_used = ?4
             WHERE user_id = ?1 AND vacation_since IS NULL",
            args![user, now, year, used],
        )?;
        Ok(n == 1)
    }

    /// Ends `user`'s vacation that began at `since`, adding `spent` seconds
    /// to the used time. False when it had ended already (another process
    /// or the player did it first).
    pub fn end_vacation(&self, user: i64, since: i64, spent: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE players SET vacation_since = NULL, vacation_used = vacation_used + ?3
             WHERE user_id = ?1 AND vacation_since = ?2",
            args![user, since, spent],
        )?;
        Ok(n == 1)
    }

    /// Pauses game `game_id`'s deadline: the seconds left (at least 0) are
    /// kept and the deadline is cleared. Nothing when it has none.
    pub fn pause_deadline(&self, game_id: i64, now: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE games SET paused_left = CASE WHEN deadline > ?2 THEN deadline - ?2 ELSE 0 END,
                    deadline = NULL
             WHERE id = ?1 AND status = 'active' AND deadline IS NOT NULL",
            args![game_id, now],
        )?;
        Ok(n == 1)
    }

    /// Restores game `game_id`'s paused deadline as `at` + the seconds it
    /// had left; false when it was not paused.
    pub fn resume_deadline(&self, game_id: i64, at: i64) -> StoreResult<bool> {
        let n = self.c().exec(
            "UPDATE games SET deadline = ?2 + paused_left, paused_left = NULL
             WHERE id = ?1 AND status = 'active' AND paused_left IS NOT NULL",
            args![game_id, at],
        )?;
        Ok(n == 1)
    }

    /// Clears a paused deadline (the game ended, or the turn passed on).
    pub fn clear_paused(&self, game_id: i64) -> StoreResult<()> {
        self.c().exec(
            "UPDATE games SET paused_left = NULL WHERE id = ?1 AND paused_left IS NOT NULL",
            args![game_id],
        )?;
        Ok(())
    }

    /// Erases what the bot keeps about `user` beyond their finished games:
    /// settings, Taler, points and rating back to a new member's, their name
    /// replaced by `name`, follows (theirs and of them), premove lines,
    /// puzzle and lesson progress, their rating history and action log, and
    /// their open challenges (cancelled). Games, and so the opponents'
    /// records, stay.
    pub fn erase_player(&self, user: i64, name: &str) -> StoreResult<()> {
        let c = self.c();
        c.exec(
            "UPDATE players SET display_name = ?2, notation = 'western', piece_style = 'kanji',
                theme = 'light', language = NULL, dms = 0, orientation = 'own', danger = 'auto',
                dots = 0, names = 0, rating = 1500, rated_games = 0, points = 0, taler = 1000,
                vacation_since = NULL, vacation_year = 0, vacation_used = 0
             WHERE user_id = ?1",
            args![user, name],
        )?;
        c.exec(
            "DELETE FROM follows WHERE user_id = ?1 OR (kind = 'player' AND target = ?1)",
            args![user],
        )?;
        c.exec("DELETE FROM premoves WHERE user_id = ?1", args![user])?;
        c.exec(
            "DELETE FROM puzzle_sessions WHERE user_id = ?1",
            args![user],
        )?;
        c.exec("DELETE FROM daily_results WHERE user_id = ?1", args![user])?;
        c.exec("DELETE FROM learn_progress WHERE user_id = ?1", args![user])?;
        c.exec("DELETE FROM rating_history WHERE user_id = ?1", args![user])?;
        c.exec("DELETE FROM actions WHERE user_id = ?1", args![user])?;
        c.exec(
            "UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND challenger = ?1",
            args![user],
        )?;
        // Leagues not yet started: they simply leave. (A running league
        // keeps its players: the app refuses erasure until they withdraw.)
        c.exec(
            "DELETE FROM league_players WHERE user_id = ?1
               AND league_id IN (SELECT id FROM leagues WHERE status = 'open')",
            args![user],
        )?;
        Ok(())
    }

    /// `user` follows `what` (from `guild`); false when they already did.
    pub fn follow(
        &self,
        user: i64,
        what: Followed,
        guild: Option<i64>,
        now: i64,
    ) -> StoreResult<bool> {
        let n = self.c().exec(
            "INSERT INTO follows (user_id, kind, target, guild_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (user_id, kind, target) DO NOTHING",
            args![user, what.kind(), what.target(), guild, now],
        )?;
        Ok(n == 1)
    }

    /// `user` stops following `what` (`None`: everything); how many follows ended.
    pub fn unfollow(&self, user: i64, what: Option<Followed>) -> StoreResult<usize> {
        match what {
            Some(w) => self.c().exec(
                "DELETE FROM follows WHERE user_id = ?1 AND kind = ?2 AND target = ?3",
                args![user, w.kind(), w.target()],
            ),
            None => self
                .c()
                .exec("DELETE FROM follows WHERE user_id = ?1", args![user]),
        }
    }

    /// Adds a premove line for `user` in `game_id`; returns its number.
    pub fn add_premove(
        &self,
        game_id: i64,
        user: i64,
        from_ply: i64,
        moves: &[String],
        now: i64,
    ) -> StoreResult<i64> {
        let next: i64 = self.c().value(
            "SELECT CAST(COALESCE(MAX(line_no), 0) + 1 AS BIGINT) FROM premoves WHERE game_id = ?1 AND user_id = ?2",
            args![game_id, user],
        )?;
        self.c().exec(
            "INSERT INTO premoves (game_id, user_id, line_no, from_ply, moves, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![game_id, user, next, from_ply, moves.join(" "), now],
        )?;
        Ok(next)
    }

    /// Replaces line `line_no` with its continuation.
    pub fn advance_premove(
        &self,
        game_id: i64,
        user: i64,
        line_no: i64,
        from_ply: i64,
        moves: &[String],
    ) -> StoreResult<()> {
        self.c().exec(
            "UPDATE premoves SET from_ply = ?4, moves = ?5 WHERE game_id = ?1 AND user_id = ?2 AND line_no = ?3",
            args![game_id, user, line_no, from_ply, moves.join(" ")],
        )?;
        Ok(())
    }

    /// Deletes one line (`Some`) or all of `user`'s lines in `game_id`;
    /// returns how many were deleted.
    pub fn drop_premoves(
        &self,
        game_id: i64,
        user: i64,
        line_no: Option<i64>,
    ) -> StoreResult<usize> {
        match line_no {
            Some(n) => self.c().exec(
                "DELETE FROM premoves WHERE game_id = ?1 AND user_id = ?2 AND line_no = ?3",
                args![game_id, user, n],
            ),
            None => self.c().exec(
                "DELETE FROM premoves WHERE game_id = ?1 AND user_id = ?2",
                args![game_id, user],
            ),
        }
    }

    /// Deletes every premove line of game `game_id` (it ended, or a move
    /// was taken back).
    pub fn drop_game_premoves(&self, game_id: i64) -> StoreResult<usize> {
        self.c()
            .exec("DELETE FROM premoves WHERE game_id = ?1", args![game_id])
    }
}
