//! Bulk loading for the load benchmark (`benches/load.rs`): many players,
//! games and moves written in a few large statements instead of one use
//! case per row, yet row for row what the app writes.
//!
//! A seeded game looks exactly like a game the app started and played
//! (`App::accept`, then `App::play_move` once per move): an accepted
//! challenge pointing at it, the game row with its thread, current SFEN, ply,
//! version (one bump per move) and the deadline of the side to move, and one
//! `moves` row per ply. The app then loads and plays it like any other game
//! (`tests/load_seed.rs` checks that on both backends).

use super::sql::{Db, Val};
use super::{NewGame, StoreError, StoreResult, Tx};

/// Rows per multi-row `INSERT` (PostgreSQL takes at most 65,535 arguments
/// per statement, SQLite 32,766; the widest insert here has 15 columns).
const BATCH_ROWS: usize = 500;

/// A game to write as if the app had started and played it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedGame {
    /// The game as `App::accept` creates it (`deadline` is replaced by
    /// [`SeedGame::deadline`]).
    pub game: NewGame,
    /// The game's thread (`App::set_game_thread`).
    pub thread_id: i64,
    /// The challenger's colour as the challenge named it: `sente`, `gote` or
    /// `random`.
    pub challenge_color: String,
    /// When the challenge would have expired (`App::challenge`: its
    /// creation plus `CHALLENGE_TTL`); it was accepted at `game.created_at`.
    pub challenge_expires_at: i64,
    /// The moves played, in USI, from `game.start_sfen`.
    pub moves: Vec<String>,
    /// The SFEN after the last move (what `App::play_move` stores; the app
    /// checks it against a replay of the moves when it loads the game).
    pub sfen: String,
    /// Deadline of the side to move.
    pub deadline: Option<i64>,
    /// When the last move was played (`updated_at`); the moves are spread
    /// evenly between `game.created_at` and this.
    pub updated_at: i64,
}

/// `(?1, ?2, …), (…)`: placeholders for `rows` rows of `cols` columns.
fn placeholders(rows: usize, cols: usize) -> String {
    let mut s = String::with_capacity(rows * cols * 5);
    for r in 0..rows {
        if r > 0 {
            s.push_str(", ");
        }
        s.push('(');
        for c in 0..cols {
            if c > 0 {
                s.push_str(", ");
            }
            s.push('?');
            s.push_str(&(r * cols + c + 1).to_string());
        }
        s.push(')');
    }
    s
}

/// Runs `INSERT INTO {head} VALUES …{tail}` for `rows` in batches; returns
/// the rows of the `RETURNING` clause in `tail`, if any.
fn insert_batched(
    db: &dyn Db,
    head: &str,
    tail: &str,
    cols: usize,
    rows: &[Vec<Val>],
) -> StoreResult<Vec<super::sql::Row>> {
    let mut out = Vec::new();
    for chunk in rows.chunks(BATCH_ROWS) {
        let sql = format!(
            "INSERT INTO {head} VALUES {}{tail}",
            placeholders(chunk.len(), cols)
        );
        let args: Vec<Val> = chunk.iter().flatten().cloned().collect();
        if tail.is_empty() {
            db.exec(&sql, &args)?;
        } else {
            out.extend(db.rows(&sql, &args)?);
        }
    }
    Ok(out)
}

impl Tx<'_> {
    /// Creates the players that do not exist yet (`user_id`, display name),
    /// with default settings, as their first command would.
    pub fn bulk_players(&self, players: &[(i64, String)], now: i64) -> StoreResult<()> {
        let rows: Vec<Vec<Val>> = players
            .iter()
            .map(|(id, name)| vec![Val::Int(*id), Val::Text(name.clone()), Val::Int(now)])
            .collect();
        insert_batched(
            self.c(),
            "players (user_id, display_name, created_at)",
            " ON CONFLICT (user_id) DO NOTHING",
            3,
            &rows,
        )?;
        Ok(())
    }

    /// Writes `games` (whose players exist) with their accepted challenges
    /// and their moves; returns the new game ids in the order of `games`.
    pub fn bulk_games(&self, games: &[SeedGame]) -> StoreResult<Vec<i64>> {
        let rows: Vec<Vec<Val>> = games
            .iter()
            .map(|s| {
                let g = &s.game;
                let plies = s.moves.len() as i64;
                vec![
                    g.guild_id.into(),
                    g.channel_id.into(),
                    Val::Int(s.thread_id),
                    (&g.variant).into(),
                    (&g.handicap).into(),
                    (&g.rule).into(),
                    g.days_per_move.into(),
                    g.rated.into(),
                    g.sente.into(),
                    g.gote.into(),
                    (&g.start_sfen).into(),
                    (&s.sfen).into(),
                    // ply and version: each move bumps both.
                    Val::Int(plies),
                    Val::Int(plies),
                    s.deadline.into(),
                    g.created_at.into(),
                    s.updated_at.into(),
                ]
            })
            .collect();
        let returned = insert_batched(
            self.c(),
            "games (guild_id, channel_id, thread_id, variant, handicap, rule, days_per_move, rated,
                sente, gote, start_sfen, sfen, ply, version, deadline, created_at, updated_at)",
            " RETURNING id, thread_id",
            17,
            &rows,
        )?;
        // RETURNING gives no order guarantee: match the ids by thread.
        let mut by_thread = std::collections::HashMap::with_capacity(returned.len());
        for r in &returned {
            by_thread.insert(r.get::<i64>(1)?, r.get::<i64>(0)?);
        }
        let ids = games
            .iter()
            .map(|s| {
                by_thread.get(&s.thread_id).copied().ok_or_else(|| {
                    StoreError::Corrupt(format!("no game id for thread {}", s.thread_id))
                })
            })
            .collect::<StoreResult<Vec<i64>>>()?;

        // The challenge each game came from, accepted: the challenger is the
        // player the colour names (gote for `gote`), else sente.
        let challenges: Vec<Vec<Val>> = games
            .iter()
            .zip(&ids)
            .map(|(s, &id)| {
                let g = &s.game;
                let (challenger, challenged) = if s.challenge_color == "gote" {
                    (g.gote, g.sente)
                } else {
                    (g.sente, g.gote)
                };
                vec![
                    g.guild_id.into(),
                    g.channel_id.into(),
                    challenger.into(),
                    challenged.into(),
                    (&g.variant).into(),
                    (&g.handicap).into(),
                    (&g.rule).into(),
                    g.days_per_move.into(),
                    g.rated.into(),
                    (&s.challenge_color).into(),
                    g.created_at.into(),
                    s.challenge_expires_at.into(),
                    Val::Text("accepted".into()),
                    id.into(),
                ]
            })
            .collect();
        insert_batched(
            self.c(),
            "challenges (guild_id, channel_id, challenger, challenged, variant, handicap, rule,
                days_per_move, rated, color, created_at, expires_at, status, game_id)",
            "",
            14,
            &challenges,
        )?;

        let mut moves = Vec::new();
        for (s, &id) in games.iter().zip(&ids) {
            let n = s.moves.len() as i64;
            let span = s.updated_at - s.game.created_at;
            for (i, usi) in s.moves.iter().enumerate() {
                let ply = i as i64 + 1;
                moves.push(vec![
                    Val::Int(id),
                    Val::Int(ply),
                    Val::Text(usi.clone()),
                    Val::Int(s.game.created_at + span * ply / n.max(1)),
                ]);
            }
        }
        insert_batched(
            self.c(),
            "moves (game_id, ply, usi, played_at)",
            "",
            4,
            &moves,
        )?;
        Ok(ids)
    }

    /// Refreshes the query planner's statistics after a bulk load
    /// (`ANALYZE`), as autovacuum or `PRAGMA optimize` would some time later.
    pub fn analyze(&self) -> StoreResult<()> {
        self.c().exec("ANALYZE", &[])?;
        Ok(())
    }
}

impl super::Reader<'_> {
    /// `(thread_id, ply)` of the active games whose thread lies in
    /// `lo..=hi` (the load benchmark learns where its games stand).
    pub fn plies_by_thread(&self, lo: i64, hi: i64) -> StoreResult<Vec<(i64, i64)>> {
        self.c().all(
            "SELECT thread_id, ply FROM games WHERE thread_id BETWEEN ?1 AND ?2 AND status = 'active'",
            super::sql::args![lo, hi],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    #[test]
    fn placeholders_number_every_column() {
        assert_eq!(placeholders(1, 2), "(?1, ?2)");
        assert_eq!(placeholders(2, 3), "(?1, ?2, ?3), (?4, ?5, ?6)");
    }
}
