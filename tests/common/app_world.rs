//! Shared by `tests/authorization.rs` and `tests/app_model.rs`: an app over
//! an in-memory store with a hand-moved clock and seeded dice, snapshots of
//! everything a request may change (read through the store's reader), and
//! the classification of a use case's result.
//!
//! The few places that depend on how the confirmation of `/resign` is built
//! (issue #17, item 2) are marked ADAPT.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use komadai::app::{
    rule_from, App, AppError, AppResult, Button, ButtonAction, Caller, ManualClock, Msg, Place,
    Refusal, Reply, SeededDice, Visibility,
};
use komadai::i18n::{Lang, Localize};
use komadai::shogi::{Game, Move, Position};
use komadai::store::{ChallengeRow, GameRow, PlayerRow, Store};

/// The start of every test's clock (2027-01-15).
pub const T0: i64 = 1_800_000_000;

/// The user ids of the computer levels (negative, see `app::computer_id`).
pub const COMPUTERS: [i64; 4] = [-1, -2, -3, -4];

/// An app with a clock the test moves.
pub struct World {
    /// The app under test.
    pub app: App,
    /// Its clock.
    pub clock: Arc<ManualClock>,
}

impl World {
    /// A fresh app on an empty in-memory store, dice seeded with `seed`.
    pub fn new(seed: u64) -> World {
        let clock = Arc::new(ManualClock::new(T0));
        let app = App::new(
            Store::open_in_memory().expect("in-memory store"),
            clock.clone(),
            Arc::new(SeededDice::new(seed)),
        );
        World { app, clock }
    }

    /// Everything a request may change, for `users` (and the computers).
    pub fn snapshot(&self, users: &[i64]) -> Snapshot {
        Snapshot::take(&self.app, users)
    }
}

/// A caller speaking English.
pub fn caller(id: i64, name: &str) -> Caller {
    Caller::new(id, name, Lang::En)
}

/// A place: server and channel (or thread).
pub fn place(guild: i64, channel: i64) -> Place {
    Place {
        guild: Some(guild),
        channel: Some(channel),
    }
}

/// Everything the store holds that a request may change, read through the
/// store's reader: every game with its moves, every challenge, the players
/// (settings and ratings) and the number of queued notices.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Games by id, with their USI moves.
    pub games: BTreeMap<i64, (GameRow, Vec<String>)>,
    /// Challenges by id.
    pub challenges: BTreeMap<i64, ChallengeRow>,
    /// Players by id.
    pub players: BTreeMap<i64, PlayerRow>,
    /// Notices in the outbox.
    pub outbox: usize,
}

/// Ids are handed out in order; the scan stops after this many misses in a row.
const ID_GAP: i64 = 8;

impl Snapshot {
    /// Reads the store.
    pub fn take(app: &App, users: &[i64]) -> Snapshot {
        app.with_store(|s| {
            s.peek(|r| {
                let mut games = BTreeMap::new();
                let (mut id, mut misses) = (1, 0);
                while misses < ID_GAP {
                    match r.game(id).expect("read game") {
                        Some(g) => {
                            misses = 0;
                            let moves = r.moves(id).expect("read moves");
                            games.insert(id, (g, moves));
                        }
                        None => misses += 1,
                    }
                    id += 1;
                }
                let mut challenges = BTreeMap::new();
                let (mut id, mut misses) = (1, 0);
                while misses < ID_GAP {
                    match r.challenge(id).expect("read challenge") {
                        Some(c) => {
                            misses = 0;
                            challenges.insert(id, c);
                        }
                        None => misses += 1,
                    }
                    id += 1;
                }
                let mut players = BTreeMap::new();
                for &u in users.iter().chain(COMPUTERS.iter()) {
                    if let Some(p) = r.player(u).expect("read player") {
                        players.insert(u, p);
                    }
                }
                let outbox = r.outbox().expect("read outbox").len();
                Snapshot {
                    games,
                    challenges,
                    players,
                    outbox,
                }
            })
            .expect("snapshot")
        })
        .expect("store")
    }

    /// What differs from `after`, one line per difference (empty: nothing).
    pub fn diff(&self, after: &Snapshot) -> Vec<String> {
        let mut out = Vec::new();
        let ids: std::collections::BTreeSet<i64> = self
            .games
            .keys()
            .chain(after.games.keys())
            .copied()
            .collect();
        for id in ids {
            match (self.games.get(&id), after.games.get(&id)) {
                (Some(a), Some(b)) if a != b => out.push(format!(
                    "game {id}: {} -> {}",
                    game_summary(a),
                    game_summary(b)
                )),
                (None, Some(b)) => out.push(format!("new game {id}: {}", game_summary(b))),
                (Some(_), None) => out.push(format!("game {id} vanished")),
                _ => {}
            }
        }
        let ids: std::collections::BTreeSet<i64> = self
            .challenges
            .keys()
            .chain(after.challenges.keys())
            .copied()
            .collect();
        for id in ids {
            match (self.challenges.get(&id), after.challenges.get(&id)) {
                (Some(a), Some(b)) if a != b => {
                    out.push(format!("challenge {id}: {} -> {}", a.status, b.status));
                }
                (None, Some(b)) => out.push(format!("new challenge {id} ({})", b.status)),
                (Some(_), None) => out.push(format!("challenge {id} vanished")),
                _ => {}
            }
        }
        let ids: std::collections::BTreeSet<i64> = self
            .players
            .keys()
            .chain(after.players.keys())
            .copied()
            .collect();
        for id in ids {
            let (a, b) = (self.players.get(&id), after.players.get(&id));
            if a != b {
                out.push(format!("player {id}: {a:?} -> {b:?}"));
            }
        }
        if self.outbox != after.outbox {
            out.push(format!("outbox {} -> {}", self.outbox, after.outbox));
        }
        out
    }

    /// Games whose moves, position, status, result or offers differ in
    /// `after`, and games that are new there.
    pub fn changed_games(&self, after: &Snapshot) -> Vec<i64> {
        after
            .games
            .iter()
            .filter(|(id, (b, bm))| match self.games.get(id) {
                None => true,
                Some((a, am)) => {
                    am != bm
                        || a.sfen != b.sfen
                        || a.ply != b.ply
                        || a.status != b.status
                        || a.result != b.result
                        || a.takeback_by != b.takeback_by
                        || a.count_by != b.count_by
                }
            })
            .map(|(&id, _)| id)
            .collect()
    }

    /// Games whose moves or status differ in `after` (the changes that must
    /// be announced), and games that are new there.
    pub fn played_or_ended(&self, after: &Snapshot) -> Vec<i64> {
        after
            .games
            .iter()
            .filter(|(id, (b, bm))| match self.games.get(id) {
                None => true,
                Some((a, am)) => am != bm || a.status != b.status,
            })
            .map(|(&id, _)| id)
            .collect()
    }

    /// Total number of stored moves.
    pub fn move_count(&self) -> usize {
        self.games.values().map(|(_, m)| m.len()).sum()
    }

    /// Every game's stored moves replay legally from its start to its stored
    /// position and ply (`shogi::Game::replay`).
    pub fn check_replays(&self) -> Result<(), String> {
        let all: Vec<i64> = self.games.keys().copied().collect();
        self.check_replays_of(&all)
    }

    /// [`Snapshot::check_replays`] for the games `ids` only.
    pub fn check_replays_of(&self, ids: &[i64]) -> Result<(), String> {
        for (id, (row, moves)) in ids.iter().filter_map(|id| self.games.get_key_value(id)) {
            let start = Position::from_sfen(&row.start_sfen)
                .map_err(|e| format!("game {id}: start {}: {e}", row.start_sfen))?;
            let rule =
                rule_from(&row.rule).ok_or_else(|| format!("game {id}: rule {}", row.rule))?;
            let parsed: Vec<Move> = moves
                .iter()
                .map(|m| Move::from_usi(m).map_err(|e| format!("game {id}: move {m}: {e}")))
                .collect::<Result<_, _>>()?;
            let game = Game::replay(start, rule, &parsed).map_err(|(i, e)| {
                format!("game {id}: move {} ({}) illegal: {e}", i + 1, moves[i])
            })?;
            if game.position().to_sfen() != row.sfen {
                return Err(format!(
                    "game {id}: replay gives {} but {} is stored",
                    game.position().to_sfen(),
                    row.sfen
                ));
            }
            if usize::try_from(row.ply).ok() != Some(moves.len()) {
                return Err(format!(
                    "game {id}: ply {} stored with {} moves",
                    row.ply,
                    moves.len()
                ));
            }
            if game.outcome().is_some() && row.status == "active" {
                return Err(format!("game {id}: over on the board but still active"));
            }
        }
        Ok(())
    }
}

fn game_summary((g, moves): &(GameRow, Vec<String>)) -> String {
    format!(
        "{} ply {} ({} moves, last {:?}) result {:?}/{:?} takeback_by {:?} count_by {:?} v{}",
        g.status,
        g.ply,
        moves.len(),
        moves.last(),
        g.result,
        g.reason,
        g.takeback_by,
        g.count_by,
        g.version
    )
}

/// The game (from the store) replayed, for the test's own model.
pub fn replayed(row: &GameRow, moves: &[String]) -> Option<Game> {
    let start = Position::from_sfen(&row.start_sfen).ok()?;
    let rule = rule_from(&row.rule)?;
    let parsed: Vec<Move> = moves
        .iter()
        .map(|m| Move::from_usi(m).ok())
        .collect::<Option<_>>()?;
    Game::replay(start, rule, &parsed).ok()
}

/// The user to move in a game (from the store), if it is active.
pub fn to_move(row: &GameRow, moves: &[String]) -> Option<i64> {
    if row.status != "active" {
        return None;
    }
    let g = replayed(row, moves)?;
    Some(match g.position().side_to_move() {
        komadai::shogi::Color::Sente => row.sente,
        komadai::shogi::Color::Gote => row.gote,
    })
}

/// What a use case answered, in the terms of the tables.
#[derive(Clone, Debug)]
pub enum Got {
    /// Ok, seen by everyone.
    Public(Box<Reply>),
    /// Ok, seen only by the caller.
    Private(Box<Reply>),
    /// Refused.
    Refused(Refusal),
    /// An internal error (never the answer to anything a user sends).
    Internal(String),
}

impl Got {
    /// Classifies a result.
    pub fn of(r: AppResult) -> Got {
        match r {
            Ok(reply) if reply.visibility == Visibility::Public => Got::Public(Box::new(reply)),
            Ok(reply) => Got::Private(Box::new(reply)),
            Err(AppError::Refused(r)) => Got::Refused(r),
            Err(AppError::Internal(e)) => Got::Internal(e),
        }
    }

    /// The reply, if Ok.
    pub fn reply(&self) -> Option<&Reply> {
        match self {
            Got::Public(r) | Got::Private(r) => Some(r),
            _ => None,
        }
    }

    /// Short description for failure messages.
    pub fn describe(&self) -> String {
        match self {
            Got::Public(r) => format!("Ok public: {}", r.msg.localize(Lang::En)),
            Got::Private(r) => format!("Ok private: {}", r.msg.localize(Lang::En)),
            Got::Refused(r) => format!("refused {}: {}", refusal_name(r), r.localize(Lang::En)),
            Got::Internal(e) => format!("INTERNAL ERROR: {e}"),
        }
    }
}

/// The variant name of a refusal (`NotYourGame`, `WhichGame`, ...): matched
/// by name so that the tables keep compiling when a variant gains fields.
pub fn refusal_name(r: &Refusal) -> String {
    format!("{r:?}")
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// Whether `r`'s message (in English and German) names game `id` (`#id`).
pub fn names_game(r: &Refusal, id: i64) -> bool {
    let tag = format!("#{id}");
    [Lang::En, Lang::De].iter().all(|&l| {
        let text = r.localize(l);
        text.match_indices(&tag).any(|(i, _)| {
            !text[i + tag.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
    })
}

/// The game a reply is about, if it says.
pub fn reply_game(msg: &Msg) -> Option<i64> {
    match msg {
        Msg::GameStarted { game_id, .. }
        | Msg::MovePlayed { game_id, .. }
        | Msg::GameOver { game_id, .. }
        | Msg::Board { game_id, .. }
        | Msg::TakebackOffered { game_id, .. }
        | Msg::TakebackDone { game_id, .. }
        | Msg::TakebackDeclined { game_id }
        | Msg::CountOffered { game_id, .. }
        | Msg::Replay { game_id, .. }
        | Msg::Exported { game_id, .. }
        | Msg::Analysis { game_id, .. } => Some(*game_id),
        Msg::Both(_, second) => reply_game(second),
        _ => None,
    }
}

// --- the confirmation of /resign (issue #17, item 2) -----------------------------

/// ADAPT: whether a button of the reply to `/resign` confirms the
/// resignation (the other button cancels). Decided by the action's name so
/// that this file compiles before and after the confirmation buttons exist.
pub fn is_resign_confirm(action: ButtonAction) -> bool {
    let name = format!("{action:?}").to_ascii_lowercase();
    let negative =
        ["cancel", "keep", "back"].iter().any(|w| name.contains(w)) || name.ends_with("no");
    name.contains("resign") && !negative
}

/// ADAPT: whether a button cancels a pending resignation.
pub fn is_resign_cancel(action: ButtonAction) -> bool {
    let name = format!("{action:?}").to_ascii_lowercase();
    name.contains("resign") && !is_resign_confirm(action)
}

/// The confirm and cancel buttons of a `/resign` prompt, if it has them.
pub fn resign_buttons(reply: &Reply) -> (Option<Button>, Option<Button>) {
    let confirm = reply
        .buttons
        .iter()
        .find(|b| is_resign_confirm(b.action))
        .cloned();
    let cancel = reply
        .buttons
        .iter()
        .find(|b| is_resign_cancel(b.action))
        .cloned();
    (confirm, cancel)
}
