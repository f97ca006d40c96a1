//! The simulated community of the load benchmark: which servers, players,
//! games and moves exist, derived from a game's index alone, so that the
//! seeding process and every load process agree without talking.
//!
//! Game `i` lives in server `i % guilds`, between two of that server's
//! `MEMBERS` members, in thread `THREAD_BASE + i`. Its moves are a prefix of
//! one of `POOL` random open lines (`Game::random_line`); how many plies
//! were played varies from 0 to `2 * avg_plies` (games `2k` and `2k + 1`
//! together have exactly `2 * avg_plies`, so the total is exact).
//! Shared by `benches/load/main.rs` and `tests/load_seed.rs`.

#![allow(dead_code)]

use komadai::app::{rule_name, variant_name, DAY};
use komadai::shogi::{EnteringKingRule, Game, Move, Position, Variant};
use komadai::store::{NewGame, SeedGame, Store, StoreResult};

/// "Now" of the simulation (the app's clock).
pub const T0: i64 = 1_800_000_000;
/// Members of a server who play.
pub const MEMBERS: u64 = 16;
/// Distinct lines the games follow.
pub const POOL: usize = 1000;
/// Plies of each line: the seeded prefix plus room for the load to play on.
pub const LINE_PLIES: usize = 200;
const GUILD_BASE: i64 = 700_000_000_000;
const CHANNEL_BASE: i64 = 800_000_000_000;
/// Thread of game 0 (thread of game `i`: `THREAD_BASE + i`).
pub const THREAD_BASE: i64 = 900_000_000_000;
const PLAYER_BASE: i64 = 100_000_000_000;
/// Games written per transaction while seeding.
const GAMES_PER_TX: usize = 1000;

/// The size of the community.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Active games.
    pub games: usize,
    /// Servers.
    pub guilds: usize,
    /// Average plies already played per game.
    pub avg_plies: usize,
}

/// One game of the layout.
#[derive(Clone, Debug)]
pub struct Spec {
    pub index: usize,
    pub guild: i64,
    pub channel: i64,
    pub thread: i64,
    pub sente: i64,
    pub gote: i64,
    /// Index into the pool of lines.
    pub line: usize,
    /// Plies seeded.
    pub plies: usize,
    pub days: i64,
    pub rated: bool,
}

/// splitmix64: a well-mixed number from an index.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A player's display name.
pub fn name_of(user: i64) -> String {
    format!("p{}", user - PLAYER_BASE)
}

impl Layout {
    /// Game `i`.
    pub fn spec(&self, i: usize) -> Spec {
        let g = (i % self.guilds) as u64;
        let h = mix(i as u64);
        let m1 = h % MEMBERS;
        let m2 = (m1 + 1 + (h >> 8) % (MEMBERS - 1)) % MEMBERS;
        let player = |m: u64| PLAYER_BASE + (g * MEMBERS + m) as i64;
        let d = (mix((i / 2) as u64 ^ 0x5eed) % (self.avg_plies as u64 + 1)) as usize;
        let plies = if i % 2 == 0 {
            self.avg_plies + d
        } else {
            self.avg_plies - d
        };
        Spec {
            index: i,
            guild: GUILD_BASE + g as i64,
            channel: CHANNEL_BASE + g as i64,
            thread: THREAD_BASE + i as i64,
            sente: player(m1),
            gote: player(m2),
            line: (h >> 20) as usize % POOL,
            plies,
            days: [1, 2, 3, 5, 7, 14][(h >> 40) as usize % 6],
            rated: (h >> 50) % 3 == 0,
        }
    }

    /// Moves seeded in all.
    pub fn total_plies(&self) -> usize {
        (0..self.games).map(|i| self.spec(i).plies).sum()
    }
}

/// The pool of lines every game follows.
pub fn lines() -> Vec<Vec<Move>> {
    (0..POOL)
        .map(|j| Game::random_line(0x10ad_0000 + j as u64, LINE_PLIES))
        .collect()
}

/// The SFEN after each prefix of a line (`[k]`: after `k` plies).
fn sfens(line: &[Move]) -> Vec<String> {
    let mut game = Game::new(Position::startpos(), EnteringKingRule::default());
    let mut out = vec![game.position().to_sfen()];
    for &m in line {
        game.play(m).expect("a line's moves are legal");
        out.push(game.position().to_sfen());
    }
    out
}

/// The rows of game `s` as the app would have written them.
pub fn seed_game(s: &Spec, lines: &[Vec<Move>], sfens: &[Vec<String>]) -> SeedGame {
    let created_at = T0 - (s.plies as i64 + 1) * 6 * 3600;
    let updated_at = if s.plies == 0 {
        created_at
    } else {
        T0 - 60 - (mix(s.index as u64 ^ 0xda7e) % 3600) as i64
    };
    SeedGame {
        game: NewGame {
            guild_id: Some(s.guild),
            channel_id: Some(s.channel),
            variant: variant_name(Variant::Standard).into(),
            handicap: None,
            rule: rule_name(EnteringKingRule::default()).into(),
            days_per_move: s.days,
            rated: s.rated,
            sente: s.sente,
            gote: s.gote,
            start_sfen: Position::startpos().to_sfen(),
            deadline: Some(created_at + s.days * DAY),
            created_at,
        },
        thread_id: s.thread,
        challenge_color: if s.index % 3 == 0 { "random" } else { "sente" }.into(),
        challenge_expires_at: created_at - 600 + komadai::app::CHALLENGE_TTL,
        moves: lines[s.line][..s.plies]
            .iter()
            .map(ToString::to_string)
            .collect(),
        sfen: sfens[s.line][s.plies].clone(),
        deadline: Some(updated_at + s.days * DAY),
        updated_at,
    }
}

/// Writes the whole layout (players, then games with their challenges and
/// moves, `GAMES_PER_TX` games per transaction) and refreshes the planner's
/// statistics. `progress` hears the games written so far.
pub fn seed(
    store: &Store,
    layout: &Layout,
    lines: &[Vec<Move>],
    mut progress: impl FnMut(usize),
) -> StoreResult<()> {
    let sfens: Vec<Vec<String>> = lines.iter().map(|l| sfens(l)).collect();
    let mut players: Vec<i64> = (0..layout.games)
        .flat_map(|i| {
            let s = layout.spec(i);
            [s.sente, s.gote]
        })
        .collect();
    players.sort_unstable();
    players.dedup();
    let players: Vec<(i64, String)> = players.into_iter().map(|p| (p, name_of(p))).collect();
    for chunk in players.chunks(20_000) {
        store.transaction(|tx| tx.bulk_players(chunk, T0 - 90 * DAY))?;
    }
    let mut done = 0;
    while done < layout.games {
        let end = (done + GAMES_PER_TX).min(layout.games);
        let batch: Vec<SeedGame> = (done..end)
            .map(|i| seed_game(&layout.spec(i), lines, &sfens))
            .collect();
        store.transaction(|tx| tx.bulk_games(&batch))?;
        done = end;
        progress(done);
    }
    store.transaction(|tx| tx.analyze())
}
