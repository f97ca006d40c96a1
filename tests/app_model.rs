//! A seeded model-based test of the app layer (issue #17): five members (and
//! the computer) send random sequences of commands and button presses —
//! challenges and their answers, legal, illegal and garbage moves, repeated
//! request ids, boards, resignations (and their confirmation buttons),
//! aborts, takebacks and their answers, counting, declarations, exports,
//! replays, rematches, settings with valid and invalid choices, garbage
//! button ids — from their server's channels, another server, direct
//! messages and the games' threads, while the clock runs and the scheduler
//! ends overdue games.
//!
//! A small model (who plays which game, whose turn it is, which thread
//! belongs to which game, which request ids were answered) predicts what
//! must be refused and what must succeed. After every step the invariants
//! hold: a refusal changes nothing; no internal error answers a user; only
//! players change a game; every change of a game's moves or status is
//! announced publicly (or queued as a notice); a repeated request id never
//! applies a move twice; every game's stored moves replay legally to its
//! stored position.
//!
//! All violations of all seeds are collected and reported grouped by kind,
//! each with its seed and step, so one run shows every cause.

use crate::app_world;

use std::collections::{BTreeMap, BTreeSet};

use app_world::{caller, place, refusal_name, resign_buttons, Got, Snapshot, World};
use komadai::app::{
    Action, AppResult, ButtonAction, Caller, ChallengeOptions, ComputerOptions, Msg, Place,
    SettingsChange,
};
use komadai::engine::Level;
use komadai::notation::{format_move, RecordFormat, Style};
use komadai::shogi::{Color, Handicap, Variant};

const SEEDS: u64 = 20;
const STEPS: usize = 300;

const MEMBERS: [i64; 5] = [201, 202, 203, 204, 205];
const NAMES: [&str; 5] = ["Ann", "Ben", "Cho", "Dov", "Eva"];
/// Guild A with two channels, guild B with one.
const GUILD_A: i64 = 1;
const GUILD_B: i64 = 2;
const CHANNELS: [(i64, i64); 3] = [(GUILD_A, 10), (GUILD_A, 11), (GUILD_B, 20)];
/// Threads get ids from here on (thread of game N: THREADS + N).
const THREADS: i64 = 5000;
/// UNSURE (issue #17 lists "other server" without the answer): a request
/// that names a game or challenge of one server (`game:N`, a button id) and
/// is sent from another server's channel is refused.
const OTHER_SERVER_REFUSED: bool = true;
/// UNSURE: also when the game is not named but picked as the caller's only
/// active game.
const OTHER_SERVER_IMPLICIT_REFUSED: bool = true;
/// At most this many games against the computer per seed (engine time).
const MAX_COMPUTER_GAMES: usize = 2;

fn member(i: usize) -> Caller {
    caller(MEMBERS[i], NAMES[i])
}

fn name_of(id: i64) -> &'static str {
    MEMBERS
        .iter()
        .position(|&m| m == id)
        .map_or("?", |i| NAMES[i])
}

/// What the model says a call must do.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Predict {
    /// Nothing specific (the invariants still hold).
    Any,
    /// Refused (the reason, for the report).
    Refuse(String),
    /// Refused with this refusal variant.
    RefuseWith(&'static str, String),
    /// Succeeds (any visibility).
    Ok(String),
    /// A repeated request id: answered privately, nothing changes.
    AlreadyDone,
    /// This move (USI) is stored in this game, announced publicly.
    Moves { game: i64, usi: String },
}

/// How a request names its game.
#[derive(Clone, Copy, Debug)]
enum Resolved {
    /// This game.
    Game(i64),
    /// Must be refused.
    Refuse(&'static str),
    /// Must be refused with the list of the caller's games.
    WhichGame,
    /// The rules say nothing (e.g. `game:` naming another game than the thread's).
    Unknown,
}

struct Model {
    rng: fastrand::Rng,
    /// Thread id -> game.
    threads: BTreeMap<i64, i64>,
    /// Request ids of applied moves.
    answered: BTreeSet<String>,
    /// Every request id sent.
    sent: Vec<String>,
    computer_games: usize,
    /// How often each kind of prediction was checked (coverage).
    checked: BTreeMap<&'static str, usize>,
}

/// One violation.
struct Violation {
    kind: String,
    seed: u64,
    step: usize,
    detail: String,
}

struct Run {
    seed: u64,
    step: usize,
    w: World,
    m: Model,
    violations: Vec<Violation>,
    /// The store as last read, while no call happened since.
    cached: Option<Snapshot>,
}

impl Run {
    fn violation(&mut self, kind: &str, detail: String) {
        self.violations.push(Violation {
            kind: kind.to_string(),
            seed: self.seed,
            step: self.step,
            detail,
        });
    }

    /// The store now (the last snapshot while nothing was called since).
    fn snap(&mut self) -> Snapshot {
        match &self.cached {
            Some(s) => s.clone(),
            None => {
                let s = self.w.snapshot(&MEMBERS);
                self.cached = Some(s.clone());
                s
            }
        }
    }

    fn random_place(&mut self, snap: &Snapshot) -> Place {
        let r = self.m.rng.u8(..100);
        if r < 40 && !self.m.threads.is_empty() {
            let threads: Vec<(i64, i64)> = self.m.threads.iter().map(|(&t, &g)| (t, g)).collect();
            let (t, g) = threads[self.m.rng.usize(..threads.len())];
            let guild = snap.games.get(&g).and_then(|(row, _)| row.guild_id);
            return Place {
                guild,
                channel: Some(t),
            };
        }
        if r < 45 {
            // A direct message.
            return Place::default();
        }
        let (g, c) = CHANNELS[self.m.rng.usize(..CHANNELS.len())];
        place(g, c)
    }

    /// The game a game command means, by the rules of issue #17.
    fn resolve(
        &self,
        snap: &Snapshot,
        who: i64,
        arg: Option<i64>,
        at: Place,
        any_recent: bool,
    ) -> Resolved {
        let thread_game = at.channel.and_then(|c| self.m.threads.get(&c).copied());
        let implicit = arg.is_none() && thread_game.is_none();
        let id = match (arg, thread_game) {
            (Some(id), _) if !snap.games.contains_key(&id) => {
                return Resolved::Refuse("no such game")
            }
            // "In a game's thread a command means that game or nothing."
            (Some(id), Some(t)) if id != t => {
                return Resolved::Refuse("game: names another game than the thread's");
            }
            (Some(id), _) => id,
            (None, Some(t)) => t,
            (None, None) => {
                let active: Vec<i64> = snap
                    .games
                    .iter()
                    .filter(|(_, (g, _))| g.status == "active" && g.has_player(who))
                    .map(|(&id, _)| id)
                    .collect();
                match active.len() {
                    0 if any_recent => return Resolved::Unknown,
                    0 => return Resolved::Refuse("no active game"),
                    1 => active[0],
                    _ => return Resolved::WhichGame,
                }
            }
        };
        let (row, _) = &snap.games[&id];
        if !row.has_player(who) {
            return Resolved::Refuse("not a player");
        }
        if (implicit && OTHER_SERVER_IMPLICIT_REFUSED) || (!implicit && OTHER_SERVER_REFUSED) {
            if let (Some(g), Some(h)) = (at.guild, row.guild_id) {
                if g != h {
                    return Resolved::Refuse(if implicit {
                        "only active game is on another server"
                    } else {
                        "game of another server"
                    });
                }
            }
        }
        Resolved::Game(id)
    }

    /// A random game id: mostly existing ones, sometimes not.
    fn random_game_id(&mut self, snap: &Snapshot) -> i64 {
        let ids: Vec<i64> = snap.games.keys().copied().collect();
        if ids.is_empty() || self.m.rng.u8(..10) == 0 {
            return self.m.rng.i64(-2..(ids.len() as i64 + 3));
        }
        ids[self.m.rng.usize(..ids.len())]
    }

    fn random_member(&mut self) -> usize {
        self.m.rng.usize(..MEMBERS.len())
    }

    /// The caller and game of a random active game's player to move (human).
    fn player_to_move(&mut self, snap: &Snapshot) -> Option<(usize, i64)> {
        let list: Vec<(usize, i64)> = snap
            .games
            .iter()
            .filter_map(|(&id, (row, moves))| {
                let user = app_world::to_move(row, moves)?;
                let i = MEMBERS.iter().position(|&m| m == user)?;
                Some((i, id))
            })
            .collect();
        if list.is_empty() {
            None
        } else {
            Some(list[self.m.rng.usize(..list.len())])
        }
    }

    /// Runs one call and checks the invariants and the prediction.
    fn check(
        &mut self,
        what: &str,
        who: &Caller,
        predict: &Predict,
        call: impl FnOnce(&World) -> AppResult,
    ) -> (Got, Snapshot, Snapshot) {
        let before = self.snap();
        let got = Got::of(call(&self.w));
        self.cached = None;
        let after = self.snap();
        let label = format!("{what} by {} ({})", who.name, who.id);
        // Invariants.
        if let Got::Internal(e) = &got {
            // Grouped by the error without its numbers.
            let kind: String = e.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
            self.violation(&format!("internal error: {kind}"), format!("{label}: {e}"));
        }
        *self.m.checked.entry(predict_kind(predict)).or_default() += 1;
        if matches!(got, Got::Refused(_) | Got::Internal(_)) {
            let diff = before.diff(&after);
            if !diff.is_empty() {
                self.violation(
                    "a refusal changed the store",
                    format!("{label}: {} / {}", got.describe(), diff.join("; ")),
                );
            }
        }
        for id in before.changed_games(&after) {
            let (row, _) = &after.games[&id];
            if !row.has_player(who.id) {
                self.violation(
                    "a non-player changed a game",
                    format!(
                        "{label} changed game {id} of {} and {}: {}",
                        name_of(row.sente),
                        name_of(row.gote),
                        got.describe()
                    ),
                );
            }
        }
        let played = before.played_or_ended(&after);
        if !played.is_empty() && !matches!(got, Got::Public(_)) && after.outbox <= before.outbox {
            self.violation(
                "a change of a game was not announced",
                format!("{label}: games {played:?}, {}", got.describe()),
            );
        }
        if let Err(e) = after.check_replays_of(&before.changed_games(&after)) {
            self.violation("stored moves do not replay", format!("{label}: {e}"));
        }
        // The prediction.
        match predict {
            Predict::Any => {}
            Predict::Refuse(why) => {
                if !matches!(got, Got::Refused(_)) {
                    self.violation(
                        &format!("not refused: {}", why_kind(why)),
                        format!("{label} ({why}): {}", got.describe()),
                    );
                }
            }
            Predict::RefuseWith(name, why) => match &got {
                Got::Refused(r) if refusal_name(r) == *name => {}
                _ => self.violation(
                    &format!("not refused with {name}"),
                    format!("{label} ({why}): {}", got.describe()),
                ),
            },
            Predict::Ok(why) => {
                if got.reply().is_none() {
                    self.violation(
                        &format!("refused though allowed: {}", why_kind(why)),
                        format!("{label} ({why}): {}", got.describe()),
                    );
                }
            }
            Predict::AlreadyDone => {
                if !matches!(got, Got::Private(_)) || before != after {
                    self.violation(
                        "a repeated request id was applied again",
                        format!(
                            "{label}: {} / {}",
                            got.describe(),
                            before.diff(&after).join("; ")
                        ),
                    );
                }
            }
            Predict::Moves { game, usi } => {
                let ok = matches!(got, Got::Public(_))
                    && match (before.games.get(game), after.games.get(game)) {
                        (Some((_, b)), Some((_, a))) => {
                            a.len() > b.len() && a[..b.len()] == b[..] && a[b.len()] == *usi
                        }
                        _ => false,
                    };
                if !ok {
                    self.violation(
                        "a legal move by the player to move was not played",
                        format!("{label}: {usi} in game {game}: {}", got.describe()),
                    );
                }
            }
        }
        // Threads for new games, as the Discord adapter opens them.
        if let Some(r) = got.reply() {
            if let Msg::GameStarted { game_id, .. } = r.msg {
                self.maybe_thread(game_id);
            }
        }
        (got, before, after)
    }

    fn maybe_thread(&mut self, game: i64) {
        if self.m.rng.u8(..4) > 0 {
            let thread = THREADS + game;
            self.cached = None;
            if self.w.app.set_game_thread(game, thread).is_ok() {
                self.m.threads.insert(thread, game);
            }
        }
    }

    // --- the steps ---------------------------------------------------------------

    fn step_challenge(&mut self) {
        let i = self.random_member();
        let who = member(i);
        let opponent = match self.m.rng.u8(..10) {
            0 => None,
            _ => Some(self.random_member()),
        };
        let days = [1, 2, 3, 5, 7, 14, 0, 4][self.m.rng.usize(..8)];
        let variant = if self.m.rng.u8(..5) == 0 {
            Variant::Minishogi
        } else {
            Variant::Standard
        };
        let handicap = (self.m.rng.u8(..8) == 0).then(|| Handicap::ALL[self.m.rng.usize(..9)]);
        let rated = self.m.rng.bool();
        let color = [None, Some(Color::Sente), Some(Color::Gote)][self.m.rng.usize(..3)];
        let opts = ChallengeOptions {
            variant,
            handicap,
            rated,
            color,
            days,
            ..ChallengeOptions::default()
        };
        let (g, c) = CHANNELS[self.m.rng.usize(..CHANNELS.len())];
        let at = place(g, c);
        let predict = if opponent == Some(i) {
            Predict::Refuse("challenging oneself".into())
        } else if ![1, 2, 3, 5, 7, 14].contains(&days) {
            Predict::Refuse("bad days per move".into())
        } else if handicap.is_some() && variant == Variant::Minishogi {
            Predict::Refuse("handicap in minishogi".into())
        } else if rated && (handicap.is_some() || variant == Variant::Minishogi) {
            Predict::Refuse("rated handicap or minishogi".into())
        } else {
            Predict::Any
        };
        let opp = opponent.map(|o| (MEMBERS[o], NAMES[o]));
        self.check("/challenge", &who, &predict, |w| {
            w.app.challenge(&who, opp, &opts, at)
        });
    }

    fn step_challenge_button(&mut self, snap: &Snapshot) {
        let key = ["accept", "decline", "cancel"][self.m.rng.usize(..3)];
        let ids: Vec<i64> = snap.challenges.keys().copied().collect();
        let id = if ids.is_empty() || self.m.rng.u8(..8) == 0 {
            self.m.rng.i64(0..ids.len() as i64 + 3)
        } else {
            ids[self.m.rng.usize(..ids.len())]
        };
        // Usually the member the challenge concerns, else anyone.
        let i = match snap.challenges.get(&id) {
            Some(c) if self.m.rng.bool() => {
                let user = match key {
                    "cancel" => c.data.challenger,
                    _ => c.data.challenged.unwrap_or(MEMBERS[self.m.rng.usize(..5)]),
                };
                MEMBERS.iter().position(|&m| m == user).unwrap_or(0)
            }
            _ => self.random_member(),
        };
        let who = member(i);
        let at = match snap.challenges.get(&id) {
            Some(c) if self.m.rng.u8(..5) > 0 => Place {
                guild: c.data.guild_id,
                channel: c.data.channel_id,
            },
            _ => {
                let (g, ch) = CHANNELS[self.m.rng.usize(..CHANNELS.len())];
                place(g, ch)
            }
        };
        let now = self.w.app.now();
        let predict = match snap.challenges.get(&id) {
            None => Predict::Refuse("no such challenge".into()),
            Some(c) if c.status != "open" => Predict::Refuse("closed challenge".into()),
            Some(c)
                if OTHER_SERVER_REFUSED
                    && matches!((at.guild, c.data.guild_id), (Some(a), Some(b)) if a != b) =>
            {
                Predict::Refuse("challenge of another server".into())
            }
            Some(c) => match key {
                "accept" if c.data.challenger == who.id => {
                    Predict::Refuse("accepting one's own challenge".into())
                }
                "accept" if c.data.challenged.is_some_and(|x| x != who.id) => {
                    Predict::Refuse("accepting someone else's challenge".into())
                }
                "accept" if c.data.expires_at <= now => Predict::Refuse("expired".into()),
                "decline" if c.data.challenged != Some(who.id) => {
                    Predict::Refuse("declining someone else's challenge".into())
                }
                "cancel" if c.data.challenger != who.id => {
                    Predict::Refuse("cancelling someone else's challenge".into())
                }
                "decline" | "cancel" => Predict::Ok("answering one's challenge".into()),
                _ => Predict::Any,
            },
        };
        let custom = format!("{key}:{id}");
        let (got, _, after) = self.check(&format!("[{custom}]"), &who, &predict, |w| {
            w.app.press(&who, &custom, at)
        });
        // The model: an answered challenge is closed; an accepted one is a
        // new game between the challenger and the caller, at ply 0.
        if got.reply().is_some() {
            let closed = after
                .challenges
                .get(&id)
                .is_some_and(|c| c.status != "open");
            let game_ok = match got.reply().map(|r| &r.msg) {
                Some(Msg::GameStarted { game_id, .. }) => {
                    after.games.get(game_id).is_some_and(|(g, moves)| {
                        let challenger = snap.challenges.get(&id).map(|c| c.data.challenger);
                        g.has_player(who.id)
                            && challenger.is_some_and(|c| g.has_player(c))
                            && g.status == "active"
                            && moves.is_empty()
                    })
                }
                _ => key != "accept",
            };
            if !closed || !game_ok {
                self.violation(
                    "an answered challenge is not closed or its game is wrong",
                    format!("[{custom}] by {}: {}", who.name, got.describe()),
                );
            }
        }
    }

    fn step_play_computer(&mut self) {
        if self.m.computer_games >= MAX_COMPUTER_GAMES {
            return;
        }
        self.m.computer_games += 1;
        let who = member(self.random_member());
        let opts = ComputerOptions {
            level: Level::Beginner,
            variant: if self.m.rng.bool() {
                Variant::Minishogi
            } else {
                Variant::Standard
            },
            handicap: None,
            color: [None, Some(Color::Sente), Some(Color::Gote)][self.m.rng.usize(..3)],
        };
        let (g, c) = CHANNELS[self.m.rng.usize(..CHANNELS.len())];
        let (got, _, after) = self.check("/play beginner", &who, &Predict::Any, |w| {
            w.app.play_computer(&who, &opts, place(g, c))
        });
        if got.reply().is_some() {
            if let Some((&id, _)) = after.games.iter().next_back() {
                self.maybe_thread(id);
            }
        }
    }

    /// A move: mostly by a player to move in their game, with a legal move;
    /// else anyone, anywhere, with legal, illegal or garbage text.
    fn step_move(&mut self, snap: &Snapshot) {
        let (i, game) = match self.player_to_move(snap) {
            Some(p) if self.m.rng.u8(..10) < 8 => (p.0, Some(p.1)),
            _ => (self.random_member(), None),
        };
        let who = member(i);
        let game = match game {
            Some(g) => Some(g),
            None if self.m.rng.bool() => Some(self.random_game_id(snap)),
            None => None,
        };
        // How the game is designated.
        let (arg, at) = match self.m.rng.u8(..10) {
            0..=4 => {
                let at = match game.and_then(|g| snap.games.get(&g)) {
                    Some((row, _)) if self.m.rng.u8(..5) > 0 => Place {
                        guild: row.guild_id,
                        channel: row.channel_id,
                    },
                    _ => self.random_place(snap),
                };
                (game, at)
            }
            5..=7 => {
                let thread = game.and_then(|g| {
                    self.m
                        .threads
                        .iter()
                        .find(|(_, &tg)| tg == g)
                        .map(|(&t, _)| t)
                });
                match (thread, game.and_then(|g| snap.games.get(&g))) {
                    (Some(t), Some((row, _))) => (
                        None,
                        Place {
                            guild: row.guild_id,
                            channel: Some(t),
                        },
                    ),
                    _ => (game, self.random_place(snap)),
                }
            }
            _ => (None, self.random_place(snap)),
        };
        let resolved = self.resolve(snap, who.id, arg, at, false);
        // The text.
        let target = match resolved {
            Resolved::Game(g) => Some(g),
            _ => game,
        };
        let board = target
            .and_then(|g| snap.games.get(&g))
            .and_then(|(row, moves)| app_world::replayed(row, moves));
        let kind = self.m.rng.u8(..10);
        let (text, legal_usi) = match (&board, kind) {
            (Some(g), 0..=6) if !g.position().legal_moves().is_empty() => {
                let moves = g.position().legal_moves();
                let m = moves[self.m.rng.usize(..moves.len())];
                if self.m.rng.u8(..4) == 0 {
                    let prev = g.moves().last().copied();
                    (format_move(g.position(), m, Style::Western, prev), None)
                } else {
                    (m.to_string(), Some(m.to_string()))
                }
            }
            (Some(g), 7) => match never_legal(g) {
                Some(m) => (m, None),
                None => (garbage(&mut self.m.rng), None),
            },
            _ => (garbage(&mut self.m.rng), None),
        };
        // The request id: fresh, or one sent before.
        let request = if !self.m.sent.is_empty() && self.m.rng.u8(..7) == 0 {
            self.m.sent[self.m.rng.usize(..self.m.sent.len())].clone()
        } else {
            format!("interaction:{}:{}", self.seed, self.step)
        };
        let too_long = text.chars().count() > 200;
        let predict = if self.m.answered.contains(&request) && !too_long {
            Predict::AlreadyDone
        } else {
            match resolved {
                Resolved::Refuse(why) => Predict::Refuse(format!("move: {why}")),
                Resolved::WhichGame => {
                    Predict::RefuseWith("WhichGame", "move: several games".into())
                }
                Resolved::Unknown => Predict::Any,
                Resolved::Game(g) => {
                    let (row, moves) = &snap.games[&g];
                    if row.status != "active" {
                        Predict::Refuse("move in a finished game".into())
                    } else if app_world::to_move(row, moves) != Some(who.id) {
                        Predict::Refuse("move when it is not one's turn".into())
                    } else if let Some(usi) = legal_usi.clone() {
                        Predict::Moves { game: g, usi }
                    } else if kind == 7
                        && board.as_ref().and_then(never_legal) == Some(text.clone())
                    {
                        Predict::Refuse("illegal move".into())
                    } else {
                        Predict::Any
                    }
                }
            }
        };
        let predict = if too_long {
            Predict::Refuse("text too long".into())
        } else {
            predict
        };
        let label = format!("/move {text:?} game:{arg:?} at {at:?} request {request}");
        let rq = request.clone();
        let (got, before, after) = self.check(&label, &who, &predict, |w| {
            w.app.move_command(&who, arg, &text, at, Some(&rq))
        });
        self.m.sent.push(request.clone());
        if got.reply().is_some() && after.move_count() > before.move_count() {
            self.m.answered.insert(request);
        }
    }

    /// `/board`, `/export`, `/replay`: read-only game commands.
    fn step_view(&mut self, snap: &Snapshot) {
        let i = self.random_member();
        let who = member(i);
        let (arg, at) = self.random_designation(snap, who.id);
        let which = self.m.rng.u8(..10);
        let resolved = self.resolve(snap, who.id, arg, at, true);
        let predict = match resolved {
            Resolved::Refuse(why) => Predict::Refuse(format!("view: {why}")),
            Resolved::WhichGame => Predict::RefuseWith("WhichGame", "view: several games".into()),
            Resolved::Unknown => Predict::Any,
            Resolved::Game(_) => Predict::Ok("a player looks at their game".into()),
        };
        match which {
            0 => {
                self.check(
                    &format!("/board game:{arg:?} at {at:?}"),
                    &who,
                    &predict,
                    |w| w.app.board(&who, arg, at),
                );
            }
            1..=3 => {
                let format = [RecordFormat::Kif, RecordFormat::Csa, RecordFormat::Usi]
                    [self.m.rng.usize(..3)];
                let gif = self.m.rng.u8(..20) == 0;
                // KIF and CSA have no minishogi: a refusal is as good as the file.
                let minishogi = match resolved {
                    Resolved::Game(g) => snap.games[&g].0.variant == "minishogi",
                    _ => false,
                };
                let predict = if minishogi && !gif && format != RecordFormat::Usi {
                    Predict::Any
                } else {
                    predict
                };
                self.check(
                    &format!("/export {format:?} gif:{gif} game:{arg:?} at {at:?}"),
                    &who,
                    &predict,
                    |w| {
                        if gif {
                            w.app.export_gif(&who, arg, at)
                        } else {
                            w.app.export(&who, arg, format, at)
                        }
                    },
                );
            }
            _ => {
                let ply = match self.m.rng.u8(..3) {
                    0 => None,
                    _ => Some(self.m.rng.usize(..30)),
                };
                self.check(
                    &format!("/replay ply:{ply:?} game:{arg:?} at {at:?}"),
                    &who,
                    &predict,
                    |w| w.app.replay(&who, arg, ply, at),
                );
            }
        }
    }

    /// `game:` and the place: the caller's own game, another game, a thread, or none.
    fn random_designation(&mut self, snap: &Snapshot, who: i64) -> (Option<i64>, Place) {
        let own: Vec<i64> = snap
            .games
            .iter()
            .filter(|(_, (g, _))| g.has_player(who))
            .map(|(&id, _)| id)
            .collect();
        match self.m.rng.u8(..10) {
            0..=3 => {
                let g = if !own.is_empty() && self.m.rng.bool() {
                    own[self.m.rng.usize(..own.len())]
                } else {
                    self.random_game_id(snap)
                };
                let at = match snap.games.get(&g) {
                    Some((row, _)) if self.m.rng.u8(..4) > 0 => Place {
                        guild: row.guild_id,
                        channel: row.channel_id,
                    },
                    _ => self.random_place(snap),
                };
                (Some(g), at)
            }
            4..=7 if !self.m.threads.is_empty() => {
                let threads: Vec<(i64, i64)> =
                    self.m.threads.iter().map(|(&t, &g)| (t, g)).collect();
                let mine: Vec<(i64, i64)> = threads
                    .iter()
                    .copied()
                    .filter(|(_, g)| own.contains(g))
                    .collect();
                let (t, g) = if !mine.is_empty() && self.m.rng.bool() {
                    mine[self.m.rng.usize(..mine.len())]
                } else {
                    threads[self.m.rng.usize(..threads.len())]
                };
                let guild = snap.games.get(&g).and_then(|(row, _)| row.guild_id);
                (
                    None,
                    Place {
                        guild,
                        channel: Some(t),
                    },
                )
            }
            _ => (None, self.random_place(snap)),
        }
    }

    /// `/resign`, `/abort`, `/declare`, `/count`, `/takeback`.
    fn step_action(&mut self, snap: &Snapshot) {
        let who = match self.player_to_move(snap) {
            Some((i, _)) if self.m.rng.bool() => member(i),
            _ => member(self.random_member()),
        };
        let (arg, at) = self.random_designation(snap, who.id);
        let resolved = self.resolve(snap, who.id, arg, at, false);
        let action = self.m.rng.u8(..5);
        let name = ["/resign", "/abort", "/declare", "/count", "/takeback"][usize::from(action)];
        let predict = match resolved {
            Resolved::Refuse(why) => Predict::Refuse(format!("{name}: {why}")),
            Resolved::WhichGame => {
                Predict::RefuseWith("WhichGame", format!("{name}: several games"))
            }
            Resolved::Unknown => Predict::Any,
            Resolved::Game(g) => {
                let (row, _) = &snap.games[&g];
                if row.status != "active" {
                    Predict::Refuse(format!("{name} in a finished game"))
                } else if action == 1 && row.ply < 10 {
                    Predict::Ok("abort before ply 10".into())
                } else if action == 1 {
                    Predict::Refuse("abort after ply 10".into())
                } else if action == 0 {
                    Predict::Ok("resign prompt".into())
                } else if action == 4 && row.rated {
                    Predict::Refuse("takeback in a rated game".into())
                } else {
                    Predict::Any
                }
            }
        };
        let label = format!("{name} game:{arg:?} at {at:?}");
        let (got, before, after) = self.check(&label, &who, &predict, |w| match action {
            0 => w.app.game_action(&who, arg, Action::Resign, at),
            1 => w.app.game_action(&who, arg, Action::Abort, at),
            2 => w.app.game_action(&who, arg, Action::Declare, at),
            3 => w.app.game_action(&who, arg, Action::Count, at),
            _ => w.app.takeback(&who, arg, at),
        });
        if action == 0 {
            let changed = before.played_or_ended(&after);
            if !changed.is_empty() {
                self.violation(
                    "/resign ended a game without confirmation",
                    format!("{label} by {}: games {changed:?}", who.name),
                );
            }
            // Press a button of the prompt: the caller, or someone else
            // who copied the id.
            if let (Some(reply), Resolved::Game(g)) = (got.reply().cloned(), resolved) {
                let (confirm, cancel) = resign_buttons(&reply);
                let pick = if self.m.rng.bool() { confirm } else { cancel };
                if let Some(button) = pick {
                    let presser = if self.m.rng.u8(..4) == 0 {
                        member(self.random_member())
                    } else {
                        who.clone()
                    };
                    let snap = self.snap();
                    let is_player = snap.games[&g].0.has_player(presser.id);
                    let active = snap.games[&g].0.status == "active";
                    let predict = match (
                        is_player,
                        active,
                        app_world::is_resign_confirm(button.action),
                    ) {
                        (false, _, _) => Predict::Refuse("resign button: not a player".into()),
                        (true, false, true) => Predict::Refuse("resign button: game over".into()),
                        (true, true, true) if presser.id == who.id => {
                            Predict::Ok("confirming one's resignation".into())
                        }
                        _ => Predict::Any,
                    };
                    let id = button.id.clone();
                    let (got, b, a) = self.check(&format!("[{id}]"), &presser, &predict, |w| {
                        w.app.press(&presser, &id, at)
                    });
                    if app_world::is_resign_confirm(button.action)
                        && presser.id == who.id
                        && active
                        && got.reply().is_some()
                        && a.games[&g].0.status != "finished"
                    {
                        self.violation(
                            "confirming a resignation did not end the game",
                            format!("[{id}] by {}: {}", presser.name, b.diff(&a).join("; ")),
                        );
                    }
                }
            }
        }
    }

    /// Buttons about games: takeback answers, count, declare, rematch, replay.
    fn step_game_button(&mut self, snap: &Snapshot) {
        let keys = [
            "takeback-yes",
            "takeback-no",
            "count-yes",
            "declare",
            "rematch",
            "replay-first",
            "replay-back",
            "replay-next",
            "replay-last",
        ];
        let key = keys[self.m.rng.usize(..keys.len())];
        // Prefer games with a pending takeback for its answers.
        let pending: Vec<(i64, i64)> = snap
            .games
            .iter()
            .filter_map(|(&id, (g, _))| g.takeback_by.map(|by| (id, g.opponent_of(by))))
            .collect();
        let (game, who) = if key.starts_with("takeback") && !pending.is_empty() && self.m.rng.bool()
        {
            let (g, opp) = pending[self.m.rng.usize(..pending.len())];
            let i = MEMBERS.iter().position(|&m| m == opp).unwrap_or(0);
            (g, member(i))
        } else {
            let g = self.random_game_id(snap);
            let i = match snap.games.get(&g) {
                Some((row, _)) if self.m.rng.bool() => MEMBERS
                    .iter()
                    .position(|&m| m == row.sente || m == row.gote)
                    .unwrap_or(0),
                _ => self.random_member(),
            };
            (g, member(i))
        };
        let custom = if key.starts_with("replay") {
            format!("{key}:{game}:{}", self.m.rng.usize(..20))
        } else {
            format!("{key}:{game}")
        };
        let at = match snap.games.get(&game) {
            Some((row, _)) if self.m.rng.u8(..4) > 0 => {
                let thread = self
                    .m
                    .threads
                    .iter()
                    .find(|(_, &g)| g == game)
                    .map(|(&t, _)| t);
                Place {
                    guild: row.guild_id,
                    channel: thread.or(row.channel_id),
                }
            }
            _ => self.random_place(snap),
        };
        let in_other_thread = at
            .channel
            .and_then(|c| self.m.threads.get(&c))
            .is_some_and(|&t| t != game);
        let predict = match snap.games.get(&game) {
            None => Predict::Refuse("button of no game".into()),
            // A message of one game in another game's thread: the rules say nothing.
            Some((row, _)) if in_other_thread && row.has_player(who.id) => Predict::Any,
            Some((row, _)) if !row.has_player(who.id) => {
                Predict::Refuse("button of someone else's game".into())
            }
            Some((row, _))
                if OTHER_SERVER_REFUSED
                    && matches!((at.guild, row.guild_id), (Some(a), Some(b)) if a != b) =>
            {
                Predict::Refuse("button of a game of another server".into())
            }
            Some((row, _)) => match key {
                "takeback-yes" | "takeback-no"
                    if row.status == "active" && row.takeback_by.is_some_and(|by| by != who.id) =>
                {
                    Predict::Ok("answering the opponent's takeback".into())
                }
                "takeback-yes" | "takeback-no" => {
                    Predict::Refuse("takeback answer without a request".into())
                }
                "rematch" if row.status == "active" => {
                    Predict::Refuse("rematch of a running game".into())
                }
                // The computer never answers a challenge (the rematch button
                // is not shown under games against it).
                "rematch" if row.sente < 0 || row.gote < 0 => {
                    Predict::Refuse("rematch of a game against the computer".into())
                }
                k if k.starts_with("replay") => Predict::Ok("replaying one's game".into()),
                _ if row.status != "active" && key != "rematch" => {
                    Predict::Refuse("button of a finished game".into())
                }
                _ => Predict::Any,
            },
        };
        self.check(&format!("[{custom}] at {at:?}"), &who, &predict, |w| {
            w.app.press(&who, &custom, at)
        });
    }

    fn step_settings(&mut self) {
        let who = member(self.random_member());
        let pick = |rng: &mut fastrand::Rng, list: &[&str]| -> Option<String> {
            if rng.bool() {
                Some(list[rng.usize(..list.len())].to_string())
            } else {
                None
            }
        };
        let notation = pick(
            &mut self.m.rng,
            &[
                "usi",
                "western",
                "western-numeric",
                "japanese",
                "kanji",
                "hodges",
                "klingon",
            ],
        );
        let piece_style = pick(
            &mut self.m.rng,
            &[
                "kanji",
                "kanji2",
                "international",
                "pictogram",
                "pictogram-kanji",
                "emoji",
            ],
        );
        let theme = pick(&mut self.m.rng, &["light", "dark", "neon"]);
        let language = pick(&mut self.m.rng, &["en", "de", "auto", "fr"]);
        let dms = self.m.rng.bool().then(|| self.m.rng.bool());
        let orientation = pick(&mut self.m.rng, &["own", "sente", "upside-down"]);
        let danger = pick(&mut self.m.rng, &["auto", "always", "off", "sometimes"]);
        let dots = self.m.rng.bool().then(|| self.m.rng.bool());
        let names = self.m.rng.bool().then(|| self.m.rng.bool());
        let bad = notation.as_deref() == Some("klingon")
            || orientation.as_deref() == Some("upside-down")
            || danger.as_deref() == Some("sometimes")
            || piece_style.as_deref() == Some("emoji")
            || theme.as_deref() == Some("neon")
            || language.as_deref() == Some("fr");
        let change = SettingsChange {
            notation,
            piece_style,
            theme,
            language,
            dms,
            orientation,
            danger,
            dots,
            names,
        };
        let predict = if bad {
            Predict::Refuse("invalid setting".into())
        } else {
            Predict::Ok("valid settings".into())
        };
        self.check(&format!("/settings {change:?}"), &who, &predict, |w| {
            w.app.settings(&who, &change)
        });
    }

    fn step_misc(&mut self, snap: &Snapshot) {
        let who = member(self.random_member());
        match self.m.rng.u8(..5) {
            0 => {
                self.check("/games", &who, &Predict::Ok("games".into()), |w| {
                    w.app.games(&who)
                });
            }
            1 => {
                let user = self.m.rng.bool().then(|| MEMBERS[self.m.rng.usize(..5)]);
                self.check("/stats", &who, &Predict::Any, |w| w.app.stats(&who, user));
            }
            2 => {
                let at = self.random_place(snap);
                self.check(
                    "/leaderboard",
                    &who,
                    &Predict::Ok("leaderboard".into()),
                    |w| {
                        w.app
                            .leaderboard(&who, at.guild, komadai::store::Ranking::Elo)
                    },
                );
            }
            _ => {
                // A garbage button id.
                let id = garbage_button(&mut self.m.rng);
                let at = self.random_place(snap);
                let predict = if ButtonAction::parse(&id).is_none() {
                    Predict::Refuse("garbage button".into())
                } else {
                    Predict::Any
                };
                self.check(&format!("[{id:?}]"), &who, &predict, |w| {
                    w.app.press(&who, &id, at)
                });
            }
        }
    }

    /// The clock runs; now and then the scheduler ends overdue games.
    fn step_tick(&mut self) {
        let before = self.snap();
        let result = self.w.app.tick();
        self.cached = None;
        let after = self.snap();
        if let Err(e) = result {
            self.violation("the scheduler failed", format!("{e:?}"));
        }
        let ended: Vec<i64> = before
            .played_or_ended(&after)
            .into_iter()
            .filter(|id| after.games[id].0.status == "finished")
            .collect();
        if after.outbox < before.outbox + ended.len() {
            self.violation(
                "a timeout was not announced",
                format!(
                    "games {ended:?}, outbox {} -> {}",
                    before.outbox, after.outbox
                ),
            );
        }
        if let Err(e) = after.check_replays() {
            self.violation("stored moves do not replay", format!("tick: {e}"));
        }
    }

    fn step(&mut self) {
        let snap = self.snap();
        let r = self.m.rng.u8(..100);
        match r {
            0..=9 => self.step_challenge(),
            10..=21 => self.step_challenge_button(&snap),
            22 => self.step_play_computer(),
            23..=59 => self.step_move(&snap),
            60..=68 => self.step_view(&snap),
            69..=78 => self.step_action(&snap),
            79..=87 => self.step_game_button(&snap),
            88..=92 => self.step_settings(),
            _ => self.step_misc(&snap),
        }
        let secs = if self.m.rng.u8(..50) == 0 {
            self.m.rng.i64(86_400..3 * 86_400)
        } else {
            self.m.rng.i64(30..7_200)
        };
        self.w.clock.advance(secs);
        if self.step % 25 == 24 {
            self.step_tick();
        }
    }
}

/// A board move (USI) of the side not to move: never legal in `g`.
fn never_legal(g: &komadai::shogi::Game) -> Option<String> {
    let sfen = g.position().to_sfen();
    let mut parts: Vec<&str> = sfen.split(' ').collect();
    if parts.len() < 2 {
        return None;
    }
    parts[1] = if parts[1] == "b" { "w" } else { "b" };
    let flipped = komadai::shogi::Position::from_sfen(&parts.join(" ")).ok()?;
    let legal = g.position().legal_moves();
    let m = flipped
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !m.is_drop() && !legal.contains(m))?;
    Some(m.to_string())
}

fn why_kind(why: &str) -> String {
    why.to_string()
}

/// Text that is no move: random characters, notation-like noise, empty,
/// overlong, words.
fn garbage(rng: &mut fastrand::Rng) -> String {
    match rng.u8(..8) {
        0 => String::new(),
        1 => "x".repeat(rng.usize(201..260)),
        2 => [
            "resign",
            "help",
            "7g7f7f",
            "P*5z",
            "同",
            "▲７六歩？",
            "0000",
            "K-5h+",
        ][rng.usize(..8)]
        .to_string(),
        3 => (0..rng.usize(1..12)).map(|_| rng.char(..)).collect(),
        4 => format!("{}{}", rng.u8(1..10), rng.u8(1..10)),
        5 => "9a9a".into(),
        6 => "🐉*5e".into(),
        _ => {
            let alphabet: Vec<char> = "123456789abcdefghi*+PLNSGBRK- ".chars().collect();
            (0..rng.usize(1..8))
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        }
    }
}

fn garbage_button(rng: &mut fastrand::Rng) -> String {
    let keys = [
        "accept",
        "decline",
        "cancel",
        "takeback-yes",
        "count-yes",
        "declare",
        "rematch",
        "replay-next",
        "resign",
        "x",
        "",
    ];
    let key = keys[rng.usize(..keys.len())];
    match rng.u8(..6) {
        0 => format!("{key}:"),
        1 => format!("{key}:{}", rng.i64(..)),
        2 => format!("{key}:{}:{}:{}", rng.u8(..9), rng.u8(..9), rng.u8(..9)),
        3 => (0..rng.usize(0..30)).map(|_| rng.char(..)).collect(),
        4 => format!("{key}:abc"),
        _ => format!("{key}:{}:-1", rng.u8(..9)),
    }
}

fn predict_kind(p: &Predict) -> &'static str {
    match p {
        Predict::Any => "any",
        Predict::Refuse(_) => "refuse",
        Predict::RefuseWith(..) => "refuse with",
        Predict::Ok(_) => "ok",
        Predict::AlreadyDone => "already done",
        Predict::Moves { .. } => "moves",
    }
}

fn run_seed(seed: u64) -> (Vec<Violation>, BTreeMap<&'static str, usize>) {
    let mut run = Run {
        seed,
        step: 0,
        w: World::new(seed),
        m: Model {
            rng: fastrand::Rng::with_seed(0xa11d_0000 + seed),
            threads: BTreeMap::new(),
            answered: BTreeSet::new(),
            sent: Vec::new(),
            computer_games: 0,
            checked: BTreeMap::new(),
        },
        violations: Vec::new(),
        cached: None,
    };
    for step in 0..STEPS {
        run.step = step;
        run.step();
    }
    (run.violations, run.m.checked)
}

#[test]
fn random_command_sequences_keep_the_invariants() {
    let mut all = Vec::new();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..SEEDS {
        let (v, c) = run_seed(seed);
        all.extend(v);
        for (k, n) in c {
            *checked.entry(k).or_default() += n;
        }
    }
    if std::env::var_os("KOMADAI_MODEL_COUNTS").is_some() {
        eprintln!("checks by kind: {checked:?}");
    }
    // The sequences reach the interesting cases (counts of seeds 0..20).
    for (kind, least) in [
        ("moves", 150),
        ("already done", 20),
        ("refuse with", 3),
        ("refuse", 1000),
        ("ok", 300),
    ] {
        let n = checked.get(kind).copied().unwrap_or(0);
        assert!(n >= least, "only {n} checks of kind {kind:?}: {checked:?}");
    }
    if all.is_empty() {
        return;
    }
    let mut by_kind: BTreeMap<&str, Vec<&Violation>> = BTreeMap::new();
    for v in &all {
        by_kind.entry(v.kind.as_str()).or_default().push(v);
    }
    let mut report = format!(
        "{} violations of {} kinds over {SEEDS} seeds x {STEPS} steps:\n",
        all.len(),
        by_kind.len()
    );
    for (kind, list) in &by_kind {
        report.push_str(&format!("\n== {kind} ({} times)\n", list.len()));
        for v in list.iter().take(3) {
            report.push_str(&format!(
                "  seed {} step {}: {}\n",
                v.seed, v.step, v.detail
            ));
        }
    }
    panic!("{report}");
}
