//! The console front end: the same app layer and database as the Discord bot,
//! driven by lines `USER COMMAND [ARGS...]` on stdin. For trying komadai
//! without Discord, and for end-to-end tests.
//!
//! A user is any name (`alice`); `alice:de` speaks German. Lines starting
//! with `:` control the console: `:clock +3d` (also `h`, `m`, `s`) moves the
//! clock, `:tick` runs the deadline scheduler and prints its notices,
//! `:quarantine` lists what the scheduler set aside (`:release game 12` tries
//! it again), `:dead` lists undeliverable notices (`:retry 7` delivers one
//! again). Each
//! reply is printed (and flushed) before the next line is read, so a printed
//! reply means the action is stored.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::app::{
    Action, App, AppError, Caller, ManualClock, Place, Refusal, Reply, SeededDice, SettingsChange,
    Visibility,
};
use crate::i18n::{Lang, Localize};
use crate::notation::RecordFormat;
use crate::store::Store;

/// Options of `komadai console`.
#[derive(Debug, Clone, clap::Args)]
pub struct ConsoleArgs {
    /// The database: a SQLite file (created and migrated if needed) or a
    /// `postgres://user:password@host/database` URL.
    #[arg(long, default_value = "komadai.db", env = "KOMADAI_DB")]
    pub db: PathBuf,
    /// Directory for board images and exported records.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object per reply.
    #[arg(long)]
    pub json: bool,
    /// Start time of the console clock (Unix seconds; default: now).
    #[arg(long)]
    pub start: Option<i64>,
    /// Seed of the furigoma coin (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// A stable user id for a console name (FNV-1a, positive).
#[must_use]
pub fn user_id(name: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    i64::try_from(h >> 1).unwrap_or(i64::MAX)
}

/// Runs the console until stdin ends.
pub fn run(args: &ConsoleArgs) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(&args.db)?;
    let start = args
        .start
        .unwrap_or_else(|| crate::app::SystemClock.now_secs());
    let clock = Arc::new(ManualClock::new(start));
    let seed = args.seed.unwrap_or(start.unsigned_abs());
    let app = App::new(store, clock.clone(), Arc::new(SeededDice::new(seed)))
        .with_caps(crate::app::Caps::from_env()?);
    app.load_puzzles()
        .map_err(|e| format!("loading the puzzles: {e}"))?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)?;
    }
    let mut console = Console {
        app,
        clock,
        args: args.clone(),
        counter: 0,
        guild: None,
        managers: Vec::new(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line?;
        let mut out = stdout.lock();
        for printed in console.line(&line) {
            writeln!(out, "{printed}")?;
        }
        out.flush()?;
    }
    Ok(())
}

impl crate::app::SystemClock {
    /// Now in Unix seconds (for the console's start time).
    #[must_use]
    pub fn now_secs(&self) -> i64 {
        crate::app::Clock::now(self)
    }
}

/// Longest console line accepted.
pub const MAX_LINE: usize = 1000;

struct Console {
    app: App,
    clock: Arc<ManualClock>,
    args: ConsoleArgs,
    counter: u64,
    /// The Discord server the following lines come from (`:guild N`).
    guild: Option<i64>,
    /// Users with Manage Server there (`:manager NAME`).
    managers: Vec<String>,
}

impl Console {
    /// Handles one line and returns what to print.
    fn line(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Vec::new();
        }
        if line.chars().count() > MAX_LINE {
            return vec![self.print_refusal("console", Lang::En, &Refusal::TooLong)];
        }
        if let Some(rest) = line.strip_prefix(':') {
            return self.control(rest);
        }
        let mut parts = line.split_whitespace();
        let user = parts.next().unwrap_or_default();
        let (name, lang) = match user.split_once(':') {
            Some((n, l)) => (n, Lang::from_locale(l)),
            None => (user, Lang::En),
        };
        if name.is_empty() || name.chars().count() > 32 {
            return vec![self.print_refusal(name, lang, &Refusal::BadArgument("user name".into()))];
        }
        // A language chosen in /settings wins over the server's default,
        // which wins over the client's.
        let lang = self.app.lang_in(user_id(name), self.guild, lang);
        let mut caller = Caller::new(user_id(name), name, lang);
        caller.manages_server = self.managers.iter().any(|m| m.eq_ignore_ascii_case(name));
        let command = parts.next().unwrap_or("help").to_ascii_lowercase();
        let rest: Vec<&str> = parts.collect();
        let result = self.command(&caller, &command, &rest);
        match result {
            Ok(reply) => {
                let mut out = vec![self.print_reply(name, &reply)];
                // The reply was shown where the game is: its announcements
                // are delivered.
                for &id in &reply.announcements {
                    if let Err(e) = self.app.ack_notice(id) {
                        out.push(self.print_internal("console", &e.to_string()));
                    }
                }
                out
            }
            Err(AppError::Refused(r)) => vec![self.print_refusal(name, lang, &r)],
            Err(AppError::Internal(e)) => vec![self.print_internal(name, &e)],
        }
    }

    fn control(&mut self, rest: &str) -> Vec<String> {
        let mut parts = rest.split_whitespace();
        match parts.next() {
            Some("clock") => {
                let Some(secs) = parts.next().and_then(parse_offset) else {
                    return vec![self.print_refusal(
                        "console",
                        Lang::En,
                        &Refusal::BadArgument(rest.into()),
                    )];
                };
                self.clock.advance(secs);
                vec![self.print_info(&format!("clock: {}", crate::i18n::utc(self.app.now())))]
            }
            Some("guild") => {
                let guild = match parts.next() {
                    Some("none") => None,
                    Some(n) => match n.parse() {
                        Ok(g) => Some(g),
                        Err(_) => {
                            return vec![self.print_refusal(
                                "console",
                                Lang::En,
                                &Refusal::BadArgument(rest.into()),
                            )]
                        }
                    },
                    None => None,
                };
                self.guild = guild;
                vec![self.print_info(&format!(
                    "server: {}",
                    guild.map_or_else(|| "none".to_string(), |g| g.to_string())
                ))]
            }
            Some("manager") => {
                let names: Vec<String> = parts.map(str::to_string).collect();
                let shown = names.join(", ");
                self.managers = names;
                vec![self.print_info(&format!("Manage Server: {shown}"))]
            }
            Some("tick") => {
                let mut out = Vec::new();
                if let Err(e) = self.app.tick() {
                    out.push(self.print_internal("console", &e.to_string()));
                    return out;
                }
                // The computer's replies that could not be played at once.
                if let Err(e) = self.app.run_computer_jobs() {
                    out.push(self.print_internal("console", &e.to_string()));
                }
                match self.app.pending_notices() {
                    Ok(list) => {
                        for (id, notice, reply) in list {
                            // A follower's move, and the news that premove
                            // lines were dropped, come by direct message only.
                            let to = match notice {
                                crate::app::Notice::Followed { user, .. }
                                | crate::app::Notice::PremovesDropped { user, .. } => {
                                    format!("dm {}", self.name_of(user))
                                }
                                _ => "notice".to_string(),
                            };
                            out.push(self.print_reply(&to, &reply));
                            if let Err(e) = self.app.ack_notice(id) {
                                out.push(self.print_internal("console", &e.to_string()));
                            }
                        }
                    }
                    Err(e) => out.push(self.print_internal("console", &e.to_string())),
                }
                out
            }
            Some("quarantine") => match self.app.quarantine_list() {
                Ok(list) if list.is_empty() => vec![self.print_info("quarantine: empty")],
                Ok(list) => list
                    .iter()
                    .map(|q| {
                        self.print_info(&format!(
                            "quarantine: {} {} failed {}× (last {}): {}",
                            q.kind,
                            q.ref_id,
                            q.count,
                            crate::i18n::utc(q.last_at),
                            q.error
                        ))
                    })
                    .collect(),
                Err(e) => vec![self.print_internal("console", &e.to_string())],
            },
            Some("release") => {
                let (Some(kind), Some(id)) =
                    (parts.next(), parts.next().and_then(|n| n.parse().ok()))
                else {
                    return vec![self.print_refusal(
                        "console",
                        Lang::En,
                        &Refusal::BadArgument(rest.into()),
                    )];
                };
                match self.app.release_quarantined(kind, id) {
                    Ok(true) => vec![self.print_info(&format!("released: {kind} {id}"))],
                    Ok(false) => vec![self.print_info(&format!("not quarantined: {kind} {id}"))],
                    Err(e) => vec![self.print_internal("console", &e.to_string())],
                }
            }
            Some("dead") => match self.app.dead_letters() {
                Ok(list) if list.is_empty() => vec![self.print_info("dead letters: none")],
                Ok(list) => list
                    .iter()
                    .map(|d| {
                        self.print_info(&format!(
                            "dead letter {} after {} attempts: {} ({})",
                            d.id,
                            d.attempts,
                            d.payload,
                            d.last_error.as_deref().unwrap_or("")
                        ))
                    })
                    .collect(),
                Err(e) => vec![self.print_internal("console", &e.to_string())],
            },
            Some("retry") => {
                let Some(id) = parts.next().and_then(|n| n.parse().ok()) else {
                    return vec![self.print_refusal(
                        "console",
                        Lang::En,
                        &Refusal::BadArgument(rest.into()),
                    )];
                };
                match self.app.release_notice(id) {
                    Ok(()) => vec![self.print_info(&format!("notice {id} is due again"))],
                    Err(e) => vec![self.print_internal("console", &e.to_string())],
                }
            }
            _ => vec![self.print_refusal(
                "console",
                Lang::En,
                &Refusal::UnknownCommand(rest.chars().take(40).collect()),
            )],
        }
    }

    fn command(
        &mut self,
        caller: &Caller,
        command: &str,
        args: &[&str],
    ) -> Result<Reply, AppError> {
        let kv = KeyValues::parse(args)?;
        let line: String;
        let place = Place {
            guild: self.guild,
            channel: None,
        };
        let game = kv.number("game")?;
        match command {
            "help" => Ok(help(caller.lang)),
            "challenge" => {
                let opponent = kv.mention();
                let rated = kv
                    .get("rated")
                    .map(|r| {
                        parse_bool(r).ok_or_else(|| Refusal::BadArgument(format!("rated={r}")))
                    })
                    .transpose()?;
                // SFEN fields are joined with '_' on the console line.
                let start = kv
                    .get("sfen")
                    .map(|sfen| {
                        crate::shogi::Position::from_sfen(&sfen.replace('_', " "))
                            .map_err(|e| Refusal::BadArgument(format!("sfen: {e}")))
                    })
                    .transpose()?;
                let o = crate::app::ChallengeArgs {
                    variant: kv.get("variant"),
                    handicap: kv.get("handicap"),
                    rule: kv.get("rule"),
                    days: kv.number("days")?,
                    rated,
                    color: kv.get("color"),
                    start,
                    stake: kv.number("stake")?,
                    sennichite_replay: kv
                        .get("sennichite")
                        .map(|r| {
                            parse_bool(r)
                                .ok_or_else(|| Refusal::BadArgument(format!("sennichite={r}")))
                        })
                        .transpose()?,
                }
                .options()?;
                kv.only(&[
                    "variant",
                    "handicap",
                    "rule",
                    "days",
                    "rated",
                    "color",
                    "sfen",
                    "stake",
                    "sennichite",
                ])?;
                let opp = opponent.map(|n| (user_id(&n), n));
                self.app.challenge(
                    caller,
                    opp.as_ref().map(|(id, n)| (*id, n.as_str())),
                    &o,
                    place,
                )
            }
            "accept" => {
                kv.only(&[])?;
                let id = match kv.positional_number()? {
                    Some(id) => id,
                    None => self.latest_challenge_for(caller)?,
                };
                self.app.accept(caller, id, place)
            }
            "decline" | "cancel" => {
                kv.only(&[])?;
                let id = kv
                    .positional_number()?
                    .ok_or_else(|| Refusal::BadArgument("challenge id".into()))?;
                if command == "decline" {
                    self.app.decline(caller, id)
                } else {
                    self.app.cancel(caller, id)
                }
            }
            "move" | "m" => {
                kv.only(&["game", "request"])?;
                let text = kv.positional.join(" ");
                if text.is_empty() {
                    return Err(Refusal::BadArgument("move".into()).into());
                }
                // In a puzzle (and no game named), `move` answers the
                // puzzle, like /move on Discord.
                self.app
                    .move_command(caller, game, &text, place, kv.get("request"))
            }
            "board" => {
                kv.only(&["game"])?;
                kv.no_positional()?;
                self.app.board(caller, game, place)
            }
            "puzzle" => {
                kv.only(&["plies"])?;
                let mut plies = kv.number("plies")?;
                let mut daily = false;
                for p in &kv.positional {
                    match *p {
                        "daily" => daily = true,
                        "random" => {}
                        n => {
                            plies =
                                Some(n.parse().map_err(|_| Refusal::BadArgument(n.to_string()))?);
                        }
                    }
                }
                let kind = if daily {
                    crate::app::PuzzleKind::Daily
                } else {
                    let p = plies
                        .map(u32::try_from)
                        .transpose()
                        .map_err(|_| Refusal::NoSuchPuzzle)?;
                    crate::app::PuzzleKind::Random(p)
                };
                self.app.start_puzzle(caller, kind)
            }
            "solve" => {
                kv.only(&[])?;
                let text = kv.positional.join(" ");
                if text.is_empty() {
                    return Err(Refusal::BadArgument("move".into()).into());
                }
                self.app.answer_puzzle(caller, &text)
            }
            "daily" => {
                kv.only(&[])?;
                kv.no_positional()?;
                self.app.daily_list(caller)
            }
            "streak" => {
                kv.only(&[])?;
                kv.no_positional()?;
                self.app.streak(caller)
            }
            "games" => {
                kv.only(&[])?;
                match kv.positional.first().copied() {
                    None => self.app.games(caller),
                    Some("server") => self.app.server_games(caller, place),
                    Some(other) => Err(Refusal::BadArgument(other.into()).into()),
                }
            }
            "follow" => {
                kv.only(&["game"])?;
                let member = kv.mention();
                let stop = kv.positional.contains(&"stop");
                let m = member.map(|n| (user_id(&n), n));
                self.app.follow(
                    caller,
                    game,
                    m.as_ref().map(|(id, n)| (*id, n.as_str())),
                    stop,
                    place,
                )
            }
            "resign" | "abort" | "declare" | "count" => {
                kv.only(&["game"])?;
                kv.no_positional()?;
                let action = match command {
                    "resign" => Action::Resign,
                    "abort" => Action::Abort,
                    "declare" => Action::Declare,
                    _ => Action::Count,
                };
                self.app.game_action(caller, game, action, place)
            }
            "takeback" => {
                kv.only(&["game"])?;
                kv.no_positional()?;
                self.app.takeback(caller, game, place)
            }
            "rematch" => {
                kv.only(&[])?;
                let id = kv
                    .positional_number()?
                    .ok_or_else(|| Refusal::BadArgument("game id".into()))?;
                self.app.rematch(caller, id)
            }
            "learn" => {
                kv.only(&["lesson"])?;
                let text = kv.positional.join(" ");
                let text = (!text.is_empty()).then_some(text.as_str());
                self.app.learn(caller, kv.number("lesson")?, text)
            }
            "replay" => {
                kv.only(&["game", "ply"])?;
                kv.no_positional()?;
                let ply = match kv.number("ply")? {
                    Some(p) => Some(
                        usize::try_from(p).map_err(|_| Refusal::BadArgument(format!("ply={p}")))?,
                    ),
                    None => None,
                };
                self.app.replay(caller, game, ply, place)
            }
            "export" => {
                kv.only(&["game"])?;
                if kv.positional.first() == Some(&"gif") {
                    return self.app.export_gif(caller, game, place);
                }
                let format = match kv.positional.first().copied().unwrap_or("kif") {
                    "kif" | "kifu" => RecordFormat::Kif,
                    "csa" => RecordFormat::Csa,
                    "sfen" | "usi" => RecordFormat::Usi,
                    f => return Err(Refusal::BadArgument(format!("format {f}")).into()),
                };
                self.app.export(caller, game, format, place)
            }
            "settings" => {
                kv.only(&[
                    "notation",
                    "style",
                    "theme",
                    "language",
                    "dms",
                    "orientation",
                    "danger",
                    "dots",
                    "names",
                ])?;
                kv.no_positional()?;
                let change = SettingsChange {
                    notation: kv.get("notation").map(str::to_string),
                    piece_style: kv.get("style").map(str::to_string),
                    theme: kv.get("theme").map(str::to_string),
                    language: kv.get("language").map(str::to_string),
                    dms: match kv.get("dms") {
                        Some(d) => Some(
                            parse_bool(d)
                                .ok_or_else(|| Refusal::BadArgument(format!("dms={d}")))?,
                        ),
                        None => None,
                    },
                    orientation: kv.get("orientation").map(str::to_string),
                    danger: kv.get("danger").map(str::to_string),
                    dots: kv
                        .get("dots")
                        .map(|d| {
                            parse_bool(d).ok_or_else(|| Refusal::BadArgument(format!("dots={d}")))
                        })
                        .transpose()?,
                    names: kv
                        .get("names")
                        .map(|d| {
                            parse_bool(d).ok_or_else(|| Refusal::BadArgument(format!("names={d}")))
                        })
                        .transpose()?,
                };
                self.app.settings(caller, &change)
            }
            "stats" => {
                kv.only(&[])?;
                let user = kv.mention().map(|n| user_id(&n));
                self.app.stats(caller, user)
            }
            "leaderboard" => {
                let by = crate::app::ranking_arg(kv.get("by"))?;
                kv.only(&["by"])?;
                kv.no_positional()?;
                self.app.leaderboard(caller, None, by)
            }
            "play" => {
                kv.only(&["level", "variant", "handicap", "color"])?;
                if kv.positional.first() == Some(&"ladder") || kv.get("level") == Some("ladder") {
                    return self.app.play_ladder(caller, place);
                }
                kv.no_positional()?;
                let opts = crate::app::ComputerArgs {
                    level: kv.get("level"),
                    variant: kv.get("variant"),
                    handicap: kv.get("handicap"),
                    color: kv.get("color"),
                }
                .options()?;
                self.app.play_computer(caller, &opts, place)
            }
            "privacy" => {
                kv.only(&[])?;
                kv.no_positional()?;
                self.app.privacy(caller)
            }
            "server" => {
                kv.only(&["channel", "threads", "rated", "days", "language"])?;
                kv.no_positional()?;
                let flag = |k: &str| -> Result<Option<bool>, Refusal> {
                    kv.get(k)
                        .map(|v| {
                            parse_bool(v).ok_or_else(|| Refusal::BadArgument(format!("{k}={v}")))
                        })
                        .transpose()
                };
                let channel = match kv.get("channel") {
                    None => None,
                    Some("none") => Some(None),
                    Some(c) => Some(Some(
                        c.parse()
                            .map_err(|_| Refusal::BadArgument(format!("channel={c}")))?,
                    )),
                };
                let change = crate::app::ServerChange {
                    channel,
                    threads: flag("threads")?,
                    rated: flag("rated")?,
                    days: kv.number("days")?,
                    language: kv.get("language").map(str::to_string),
                };
                self.app.server_settings(caller, place, &change)
            }
            "premove" => {
                kv.only(&["game", "clear"])?;
                let op = if let Some(c) = kv.get("clear") {
                    kv.no_positional()?;
                    if c == "all" {
                        crate::app::PremoveOp::Clear(None)
                    } else {
                        crate::app::PremoveOp::Clear(Some(
                            c.parse()
                                .map_err(|_| Refusal::BadArgument(format!("clear={c}")))?,
                        ))
                    }
                } else if kv.positional.is_empty() {
                    crate::app::PremoveOp::List
                } else {
                    line = kv.positional.join(" ");
                    crate::app::PremoveOp::Add(&line)
                };
                self.app.premove(caller, game, op, place)
            }
            "league" => {
                let sub = kv.positional.first().copied().unwrap_or("list");
                let rest = kv.positional.get(1..).unwrap_or_default();
                let id = number_of;
                let op_options;
                let op = match sub {
                    "create" => {
                        kv.only(&[
                            "format", "rounds", "variant", "days", "rated", "start", "players",
                        ])?;
                        op_options = crate::app::LeagueOptions {
                            name: rest.join(" "),
                            format: kv.get("format").map(str::to_string),
                            rounds: kv.number("rounds")?,
                            variant: kv.get("variant").map(str::to_string),
                            days: kv.number("days")?,
                            rated: kv
                                .get("rated")
                                .map(|r| {
                                    parse_bool(r)
                                        .ok_or_else(|| Refusal::BadArgument(format!("rated={r}")))
                                })
                                .transpose()?,
                            start: kv.get("start").map(|s| s.replace('T', " ")),
                            max_players: kv.number("players")?,
                        };
                        crate::app::LeagueOp::Create(&op_options)
                    }
                    "join" => crate::app::LeagueOp::Join(id(rest)?),
                    "leave" => crate::app::LeagueOp::Leave(id(rest)?),
                    "withdraw" => crate::app::LeagueOp::Withdraw(
                        id(rest)?.ok_or_else(|| Refusal::BadArgument("league id".into()))?,
                    ),
                    "start" => crate::app::LeagueOp::Start(id(rest)?),
                    "standings" | "table" => crate::app::LeagueOp::Standings(id(rest)?),
                    "pairings" => crate::app::LeagueOp::Pairings(id(rest)?, kv.number("round")?),
                    "list" => crate::app::LeagueOp::List,
                    other => return Err(Refusal::BadArgument(other.into()).into()),
                };
                if sub != "create" {
                    kv.only(if sub == "pairings" { &["round"] } else { &[] })?;
                }
                self.app.league(caller, op, place)
            }
            "vacation" => {
                kv.only(&[])?;
                let on = match kv.positional.first().copied() {
                    None => None,
                    Some(v) => Some(
                        parse_bool(v)
                            .ok_or_else(|| Refusal::BadArgument(format!("vacation {v}")))?,
                    ),
                };
                self.app.vacation(caller, on)
            }
            "hint" => {
                kv.only(&["game"])?;
                kv.no_positional()?;
                self.app.hint(caller, game, place)
            }
            "danger" => {
                kv.only(&["game"])?;
                let piece = kv.positional.join(" ");
                self.app.danger(
                    caller,
                    game,
                    Some(piece.as_str()).filter(|p| !p.is_empty()),
                    place,
                )
            }
            "analyze" | "analyse" => {
                kv.only(&["game"])?;
                kv.no_positional()?;
                self.app.analyze(caller, game, place)
            }
            "press" => {
                kv.only(&[])?;
                let id = kv
                    .positional
                    .first()
                    .ok_or_else(|| Refusal::BadArgument("button id".into()))?;
                self.app.press(caller, id, place)
            }
            other => Err(Refusal::UnknownCommand(other.chars().take(40).collect()).into()),
        }
    }

    fn latest_challenge_for(&self, caller: &Caller) -> Result<i64, AppError> {
        let list = self
            .app
            .with_store(|s| s.read(|r| r.open_challenges_for(caller.id)))?
            .map_err(AppError::from)?;
        list.into_iter()
            .find(|c| c.data.challenger != caller.id)
            .map(|c| c.id)
            .ok_or_else(|| Refusal::NoSuchChallenge.into())
    }

    fn save_outputs(&mut self, reply: &Reply) -> (Option<String>, Option<String>) {
        let Some(dir) = &self.args.out else {
            return (None, None);
        };
        self.counter += 1;
        let mut image = None;
        if let Some(b) = &reply.board {
            let path = dir.join(format!("{:04}-game{}.png", self.counter, b.game_id));
            if let Ok(png) = b.png(reply.lang) {
                if std::fs::write(&path, png).is_ok() {
                    image = Some(path.display().to_string());
                }
            }
        }
        let mut file = None;
        if let Some((name, bytes)) = &reply.attachment {
            let path = dir.join(format!("{:04}-{name}", self.counter));
            if std::fs::write(&path, bytes).is_ok() {
                file = Some(path.display().to_string());
            }
        }
        (image, file)
    }

    fn name_of(&self, id: i64) -> String {
        self.app
            .display_name(id)
            .unwrap_or_else(|| format!("#{id}"))
    }

    fn print_reply(&mut self, to: &str, reply: &Reply) -> String {
        // Messages write times as Discord timestamps; the console reads UTC.
        let text = crate::i18n::plain_times(&reply.msg.localize(reply.lang));
        let (image, file) = self.save_outputs(reply);
        let notify: Vec<String> = reply.notify.iter().map(|&id| self.name_of(id)).collect();
        let buttons: Vec<&str> = reply.buttons.iter().map(|b| b.id.as_str()).collect();
        let visibility = match reply.visibility {
            Visibility::Public => "public",
            Visibility::Caller => "caller",
        };
        if self.args.json {
            serde_json::json!({
                "ok": true,
                "to": to,
                "visibility": visibility,
                "text": text,
                "board": reply.board.as_ref().map(|b| &b.sfen),
                "last_move": reply.board.as_ref().and_then(|b| b.last_move.as_ref()),
                "board_style": reply.board.as_ref().map(|b| [&b.piece_style, &b.theme]),
                "flip": reply.board.as_ref().map(|b| b.flip),
                // The danger help drawn on the board: squares in USI.
                "danger": reply.board.as_ref().and_then(|b| b.danger.as_ref()).map(|d| {
                    let squares = |v: &[crate::shogi::Square]| {
                        v.iter().map(ToString::to_string).collect::<Vec<_>>()
                    };
                    serde_json::json!({
                        "hanging": squares(&d.hanging),
                        "selected": d.selected.map(|s| s.to_string()),
                        "safe": squares(&d.safe),
                        "unsafe": squares(&d.unsafe_targets),
                    })
                }),
                "image": image,
                "file": file,
                "buttons": buttons,
                "notify": notify,
            })
            .to_string()
        } else {
            let mut s = format!("[{visibility} → {to}] {text}");
            if let Some(b) = &reply.board {
                s.push_str(&format!("\n  board: {}", b.sfen));
            }
            if let Some(i) = image {
                s.push_str(&format!("\n  image: {i}"));
            }
            if let Some(f) = file {
                s.push_str(&format!("\n  file: {f}"));
            }
            if !buttons.is_empty() {
                s.push_str(&format!("\n  buttons: {}", buttons.join(" ")));
            }
            if !notify.is_empty() {
                s.push_str(&format!("\n  notify: {}", notify.join(" ")));
            }
            s
        }
    }

    fn print_refusal(&self, to: &str, lang: Lang, r: &Refusal) -> String {
        let text = crate::i18n::plain_times(&r.localize(lang));
        if self.args.json {
            serde_json::json!({"ok": false, "to": to, "visibility": "caller", "text": text})
                .to_string()
        } else {
            format!("[caller → {to}] {text}")
        }
    }

    fn print_internal(&self, to: &str, e: &str) -> String {
        if self.args.json {
            serde_json::json!({"ok": false, "to": to, "visibility": "caller", "error": e})
                .to_string()
        } else {
            format!("[error → {to}] internal error: {e}")
        }
    }

    fn print_info(&self, text: &str) -> String {
        if self.args.json {
            serde_json::json!({"ok": true, "to": "console", "visibility": "caller", "text": text})
                .to_string()
        } else {
            format!("[console] {text}")
        }
    }
}

fn help(lang: Lang) -> Reply {
    Reply {
        visibility: Visibility::Caller,
        msg: crate::app::Msg::Help,
        lang,
        board: None,
        buttons: Vec::new(),
        notify: Vec::new(),
        attachment: None,
        replace: false,
        settles: None,
        announcements: Vec::new(),
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "on" | "1" | "ja" => Some(true),
        "no" | "n" | "false" | "off" | "0" | "nein" => Some(false),
        _ => None,
    }
}

fn parse_offset(s: &str) -> Option<i64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit())?);
    let n: i64 = num.parse().ok().filter(|&n: &i64| n <= 10_000)?;
    let mult = match unit {
        "d" => 86_400,
        "h" => 3_600,
        "m" => 60,
        "s" => 1,
        _ => return None,
    };
    Some(n * mult)
}

/// The number in `words` (`12` or `#12`), if there is one word; more than
/// one is refused.
fn number_of(words: &[&str]) -> Result<Option<i64>, AppError> {
    match words {
        [] => Ok(None),
        [n] => n
            .trim_start_matches('#')
            .parse()
            .map(Some)
            .map_err(|_| Refusal::BadArgument((*n).into()).into()),
        [_, extra, ..] => Err(Refusal::BadArgument((*extra).into()).into()),
    }
}

/// `key=value` arguments, `@mentions` and positional words of a console line.
struct KeyValues<'a> {
    pairs: Vec<(&'a str, &'a str)>,
    mentions: Vec<&'a str>,
    positional: Vec<&'a str>,
}

impl<'a> KeyValues<'a> {
    fn parse(args: &[&'a str]) -> Result<KeyValues<'a>, AppError> {
        let mut kv = KeyValues {
            pairs: Vec::new(),
            mentions: Vec::new(),
            positional: Vec::new(),
        };
        for a in args {
            if a.chars().count() > crate::app::MAX_ARG_CHARS {
                return Err(Refusal::TooLong.into());
            }
            if let Some(m) = a.strip_prefix('@') {
                if m.is_empty() || m.chars().count() > 32 {
                    return Err(Refusal::BadArgument((*a).into()).into());
                }
                kv.mentions.push(m);
            } else if let Some((k, v)) = a
                .split_once('=')
                .filter(|(k, _)| k.chars().all(|c| c.is_ascii_alphabetic()) && !k.is_empty())
            {
                kv.pairs.push((k, v));
            } else {
                kv.positional.push(a);
            }
        }
        Ok(kv)
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| *v)
    }

    fn number(&self, key: &str) -> Result<Option<i64>, AppError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .trim_start_matches('#')
                .parse()
                .map(Some)
                .map_err(|_| Refusal::BadArgument(format!("{key}={v}")).into()),
        }
    }

    fn positional_number(&self) -> Result<Option<i64>, AppError> {
        number_of(&self.positional)
    }

    fn mention(&self) -> Option<String> {
        self.mentions.first().map(|m| (*m).to_string())
    }

    fn only(&self, keys: &[&str]) -> Result<(), AppError> {
        for (k, v) in &self.pairs {
            if !keys.iter().any(|x| x.eq_ignore_ascii_case(k)) {
                return Err(Refusal::BadArgument(format!("{k}={v}")).into());
            }
        }
        Ok(())
    }

    fn no_positional(&self) -> Result<(), AppError> {
        match self.positional.first() {
            Some(p) => Err(Refusal::BadArgument((*p).into()).into()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets() {
        assert_eq!(parse_offset("+3d"), Some(3 * 86_400));
        assert_eq!(parse_offset("12h"), Some(12 * 3600));
        assert_eq!(parse_offset("+x"), None);
        assert_eq!(parse_offset("+99999999999d"), None);
    }

    #[test]
    fn user_ids_are_stable_and_case_insensitive() {
        assert_eq!(user_id("Alice"), user_id("alice"));
        assert_ne!(user_id("alice"), user_id("bob"));
        assert!(user_id("alice") > 0);
    }
}
