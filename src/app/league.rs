//! Server leagues: a member with Manage Server creates one (`/league
//! create`), members join with a button until it starts, and the scheduler
//! does the rest. At the start it pairs the players (a round robin is
//! scheduled whole, a Swiss round is paired when it begins), starts every
//! game of a round (each in its own thread on Discord), and moves on once
//! every game of the round has a result — a timeout or a withdrawal
//! included. The last round ends with the final standings. Everything is in
//! the database, so a restart (or another process) picks up where it was.
//!
//! League games count: a resignation or a timeout before ply 10 is a loss,
//! not an abort, and they cannot be aborted.

use std::collections::HashMap;

use super::args::{not_one_of, variant_arg};
use super::challenges::{ChallengeOptions, DAYS_PER_MOVE};
use super::message::{LeagueInfo, Msg, PairingLine, Refusal, StandingLine, Who};
use super::scheduler::{game_places, lang_of_in, NoticeReply};
use super::server::server_of;
use super::stored::variant_name;
use super::tournament::{self, Score, SwissPlayer};
use super::{App, AppError, AppResult, ButtonAction, Caller, Notice, Place, Reply, DAY};
use crate::lang::Lang;
use crate::shogi::{Color, Outcome, Position, Variant, WinReason};
use crate::store::{LeaguePlayerRow, LeagueRow, NewGame, NewLeague, PairingRow, Reader, Tx};

/// Fewest players a league starts with; with fewer it is cancelled.
pub const MIN_LEAGUE_PLAYERS: usize = 3;
/// Most players a league takes.
pub const MAX_LEAGUE_PLAYERS: i64 = 50;
/// Players a league takes when the creator does not say.
pub const DEFAULT_LEAGUE_PLAYERS: i64 = 16;
/// Most Swiss rounds.
pub const MAX_SWISS_ROUNDS: i64 = 15;
/// Swiss rounds when the creator does not say.
pub const DEFAULT_SWISS_ROUNDS: i64 = 5;
/// Most leagues open or running on one server at once.
pub const MAX_LIVE_LEAGUES: usize = 5;
/// Longest league name.
pub const MAX_LEAGUE_NAME: usize = 50;
/// A league starts at most this far ahead.
pub const LEAGUE_HORIZON: i64 = 90 * DAY;
/// When no start is given: a week after the creation.
pub const DEFAULT_LEAGUE_START: i64 = 7 * DAY;

/// The kinds of league.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeagueFormat {
    /// Everyone plays everyone once.
    RoundRobin,
    /// Everyone plays everyone twice, with each colour.
    Double,
    /// A fixed number of Swiss rounds.
    Swiss,
}

/// The formats a refusal offers (each is accepted by [`LeagueFormat::parse`]).
const FORMAT_WORDS: [&str; 3] = ["rr", "double", "swiss"];

impl LeagueFormat {
    /// From a user's word (`roundrobin`, `rr`, `double`, `swiss`; German too).
    #[must_use]
    pub fn parse(s: &str) -> Option<LeagueFormat> {
        match s.to_ascii_lowercase().replace(['-', '_', ' '], "").as_str() {
            "roundrobin" | "rr" | "jedergegenjeden" | "rundenturnier" => {
                Some(LeagueFormat::RoundRobin)
            }
            "double" | "doubleroundrobin" | "doppelrunde" | "doppelt" => Some(LeagueFormat::Double),
            "swiss" | "schweizer" | "schweizersystem" => Some(LeagueFormat::Swiss),
            _ => None,
        }
    }

    /// As stored.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LeagueFormat::RoundRobin => "roundrobin",
            LeagueFormat::Double => "double",
            LeagueFormat::Swiss => "swiss",
        }
    }

    fn of(stored: &str) -> LeagueFormat {
        match stored {
            "double" => LeagueFormat::Double,
            "swiss" => LeagueFormat::Swiss,
            _ => LeagueFormat::RoundRobin,
        }
    }
}

/// What `/league create` asks for (`None`: the default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeagueOptions {
    /// Name.
    pub name: String,
    /// `roundrobin`, `double` or `swiss`.
    pub format: Option<String>,
    /// Swiss rounds.
    pub rounds: Option<i64>,
    /// `standard` or `minishogi`.
    pub variant: Option<String>,
    /// Days per move.
    pub days: Option<i64>,
    /// Rated.
    pub rated: Option<bool>,
    /// Start: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` (UTC) or `now`.
    pub start: Option<String>,
    /// Most players.
    pub max_players: Option<i64>,
}

/// What `/league` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeagueOp<'a> {
    /// Create a league (Manage Server).
    Create(&'a LeagueOptions),
    /// Join (a league id, or the server's newest open league).
    Join(Option<i64>),
    /// Leave before the start; after it, ask whether to withdraw.
    Leave(Option<i64>),
    /// Withdraw from a running league (after the question).
    Withdraw(i64),
    /// Start now instead of at the start date (Manage Server).
    Start(Option<i64>),
    /// The standings.
    Standings(Option<i64>),
    /// The pairings of a round (default: the current one).
    Pairings(Option<i64>, Option<i64>),
    /// The server's leagues.
    List,
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A start given as `now`, `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DD
/// HH:MM` / `YYYY-MM-DDTHH:MM` (UTC).
#[must_use]
pub fn parse_start(s: &str, now: i64) -> Option<i64> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("now") || s.eq_ignore_ascii_case("jetzt") {
        return Some(now);
    }
    let (date, time) = match s.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t.trim())),
        None => (s, None),
    };
    let mut parts = date.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(2000..=9999).contains(&y) || !(1..=12).contains(&m) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    // Rejects 31 February and the like: the date must come back as given.
    if crate::i18n::civil(days * DAY) != (y, m, d) {
        return None;
    }
    let secs = match time {
        None => 0,
        Some(t) => {
            let (h, min) = t.split_once(':')?;
            let (h, min): (i64, i64) = (h.parse().ok()?, min.parse().ok()?);
            if !(0..24).contains(&h) || !(0..60).contains(&min) {
                return None;
            }
            h * 3600 + min * 60
        }
    };
    Some(days * DAY + secs)
}

/// The players of a league in seeding order (rating, then who joined first).
fn seeded(mut players: Vec<LeaguePlayerRow>) -> Vec<LeaguePlayerRow> {
    players.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(a.joined_at.cmp(&b.joined_at))
            .then(a.user_id.cmp(&b.user_id))
    });
    players
}

/// The score of a decided pairing.
fn score_of(p: &PairingRow) -> Option<Score> {
    p.outcome().and_then(Score::from_name)
}

impl App {
    /// `/league`: create, join, leave (withdraw), start, standings, pairings,
    /// list.
    pub fn league(&self, caller: &Caller, op: LeagueOp<'_>, place: Place) -> AppResult {
        super::check_len(&caller.name)?;
        let Some(guild) = place.guild else {
            return Err(Refusal::OnlyOnAServer.into());
        };
        match op {
            LeagueOp::Create(o) => self.create_league(caller, o, guild, place),
            LeagueOp::Join(id) => self.join_league(caller, id, guild),
            LeagueOp::Leave(id) => self.leave_league(caller, id, guild, false),
            LeagueOp::Withdraw(id) => self.leave_league(caller, Some(id), guild, true),
            LeagueOp::Start(id) => self.start_league_now(caller, id, guild),
            LeagueOp::Standings(id) => self.league_standings(caller, id, guild),
            LeagueOp::Pairings(id, round) => self.league_pairings(caller, id, round, guild),
            LeagueOp::List => {
                let store = self.store()?;
                store.read(|r| -> AppResult {
                    let leagues = r.leagues_of(guild, 10)?;
                    let mut list = Vec::new();
                    for l in &leagues {
                        list.push(info(r, l)?);
                    }
                    Ok(Reply::private(
                        Msg::LeagueList { leagues: list },
                        caller.lang,
                    ))
                })
            }
        }
    }

    fn create_league(
        &self,
        caller: &Caller,
        o: &LeagueOptions,
        guild: i64,
        place: Place,
    ) -> AppResult {
        if !caller.manages_server {
            return Err(Refusal::NeedsManageServer.into());
        }
        let now = self.now();
        let name = o.name.trim();
        if name.is_empty()
            || name.chars().count() > MAX_LEAGUE_NAME
            || name.chars().any(char::is_control)
        {
            return Err(Refusal::BadLeagueName(MAX_LEAGUE_NAME).into());
        }
        let format = match o.format.as_deref() {
            None => LeagueFormat::RoundRobin,
            Some(f) => {
                LeagueFormat::parse(f).ok_or_else(|| not_one_of("format", f, FORMAT_WORDS))?
            }
        };
        let rounds = match (format, o.rounds) {
            (LeagueFormat::Swiss, None) => DEFAULT_SWISS_ROUNDS,
            (LeagueFormat::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
            (LeagueFormat::Swiss, Some(_)) => {
                return Err(Refusal::BadSwissRounds(MAX_SWISS_ROUNDS).into())
            }
            (_, None) => 0,
            (_, Some(_)) => return Err(Refusal::RoundsOnlySwiss.into()),
        };
        let variant = variant_name(variant_arg(o.variant.as_deref())?.unwrap_or(Variant::Standard));
        let max_players = o.max_players.unwrap_or(DEFAULT_LEAGUE_PLAYERS);
        if !(MIN_LEAGUE_PLAYERS as i64..=MAX_LEAGUE_PLAYERS).contains(&max_players) {
            return Err(Refusal::BadLeagueSize {
                min: MIN_LEAGUE_PLAYERS as i64,
                max: MAX_LEAGUE_PLAYERS,
            }
            .into());
        }
        let starts_at = match o.start.as_deref() {
            None => now + DEFAULT_LEAGUE_START,
            Some(s) => parse_start(s, now)
                .ok_or_else(|| Refusal::BadLeagueStart(s.chars().take(40).collect()))?,
        };
        // "now" or a moment of the past minute is fine; a date gone by is a slip.
        if starts_at < now - 60 || starts_at > now + LEAGUE_HORIZON {
            return Err(Refusal::LeagueStartOutOfRange {
                days: LEAGUE_HORIZON / DAY,
            }
            .into());
        }
        let starts_at = starts_at.max(now);
        if let Some(d) = o.days {
            if !DAYS_PER_MOVE.contains(&d) {
                return Err(Refusal::BadDays.into());
            }
        }
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let s = server_of(tx, Some(guild))?;
            // Minishogi games are unrated, as challenges are.
            let rated = match o.rated {
                Some(true) if variant == "minishogi" => return Err(Refusal::UnratedVariant.into()),
                Some(true) if !s.rated => return Err(Refusal::RatedOffHere.into()),
                Some(r) => r,
                None => s.rated && variant != "minishogi",
            };
            let days = o
                .days
                .or(s.default_days)
                .unwrap_or(ChallengeOptions::default().days);
            let live = tx
                .leagues_of(guild, 100)?
                .iter()
                .filter(|l| l.status == "open" || l.status == "running")
                .count();
            if live >= MAX_LIVE_LEAGUES {
                return Err(Refusal::TooManyLeagues(MAX_LIVE_LEAGUES).into());
            }
            tx.upsert_player(caller.id, &caller.name, now)?;
            let id = tx.insert_league(&NewLeague {
                guild_id: guild,
                channel_id: place.channel,
                name: name.to_string(),
                format: format.name().to_string(),
                rounds,
                variant: variant.to_string(),
                days_per_move: days,
                rated,
                starts_at,
                max_players,
                created_by: caller.id,
                created_at: now,
            })?;
            let l = tx
                .league(id)?
                .ok_or_else(|| AppError::Internal(format!("league {id} vanished")))?;
            let mut r = Reply::public(
                Msg::LeagueCreated {
                    league: info(tx, &l)?,
                    by: caller.who(),
                },
                caller.lang,
            );
            r.buttons = vec![
                ButtonAction::LeagueJoin.button(id),
                ButtonAction::LeagueLeave.button(id),
            ];
            Ok(r)
        })
    }

    /// The league a command means: the one named (on this server), else
    /// the newest of the server that `fits`.
    fn pick_league(
        r: &Reader<'_>,
        id: Option<i64>,
        guild: i64,
        fits: impl Fn(&LeagueRow) -> AppResult<bool>,
    ) -> AppResult<LeagueRow> {
        if let Some(id) = id {
            return r
                .league(id)?
                .filter(|l| l.guild_id == guild)
                .ok_or_else(|| Refusal::NoSuchLeague.into());
        }
        for l in r.leagues_of(guild, 20)? {
            if fits(&l)? {
                return Ok(l);
            }
        }
        Err(Refusal::NoSuchLeague.into())
    }

    /// The open league a command means, locked for the transaction.
    fn open_league(tx: &Tx<'_>, id: Option<i64>, guild: i64) -> AppResult<LeagueRow> {
        let l = Self::pick_league(tx, id, guild, |l| Ok(l.status == "open"))?;
        tx.lock_league(l.id)?;
        let l = tx.league(l.id)?.ok_or(Refusal::NoSuchLeague)?;
        if l.status != "open" {
            return Err(Refusal::LeagueClosed.into());
        }
        Ok(l)
    }

    fn join_league(&self, caller: &Caller, id: Option<i64>, guild: i64) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let l = Self::open_league(tx, id, guild)?;
            let players = tx.league_players(l.id)?;
            if players.iter().any(|p| p.user_id == caller.id) {
                return Err(Refusal::AlreadyInLeague.into());
            }
            if players.len() as i64 >= l.max_players {
                return Err(Refusal::LeagueFull(l.max_players).into());
            }
            tx.upsert_player(caller.id, &caller.name, now)?;
            tx.join_league(l.id, caller.id, now)?;
            Ok(Reply::public(
                Msg::LeagueJoined {
                    league: info(tx, &l)?,
                    who: caller.who(),
                },
                caller.lang,
            ))
        })
    }

    fn leave_league(
        &self,
        caller: &Caller,
        id: Option<i64>,
        guild: i64,
        confirmed: bool,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let l = Self::pick_league(tx, id, guild, |l| {
                Ok((l.status == "open" || l.status == "running")
                    && tx
                        .league_players(l.id)?
                        .iter()
                        .any(|p| p.user_id == caller.id && p.withdrawn_at.is_none()))
            })?;
            tx.lock_league(l.id)?;
            let l = tx.league(l.id)?.ok_or(Refusal::NoSuchLeague)?;
            match l.status.as_str() {
                "open" => {
                    if !tx.unjoin_league(l.id, caller.id)? {
                        return Err(Refusal::NotInLeague.into());
                    }
                    Ok(Reply::public(
                        Msg::LeagueLeft {
                            league: info(tx, &l)?,
                            who: caller.who(),
                        },
                        caller.lang,
                    ))
                }
                "running" if !confirmed => {
                    if !tx
                        .league_players(l.id)?
                        .iter()
                        .any(|p| p.user_id == caller.id && p.withdrawn_at.is_none())
                    {
                        return Err(Refusal::NotInLeague.into());
                    }
                    // Withdrawing loses every game left: asked first, with
                    // a button only the caller sees.
                    let mut r = Reply::private(
                        Msg::ConfirmWithdraw {
                            league: info(tx, &l)?,
                        },
                        caller.lang,
                    );
                    r.buttons = vec![ButtonAction::LeagueWithdraw.button(l.id)];
                    Ok(r)
                }
                "running" => {
                    if !tx.withdraw_from_league(l.id, caller.id, now)? {
                        return Err(Refusal::NotInLeague.into());
                    }
                    let resigned = Self::resign_league_games(tx, &l, caller.id, now)?;
                    let mut r = Reply::public(
                        Msg::LeagueWithdrew {
                            league: info(tx, &l)?,
                            who: caller.who(),
                            resigned,
                        },
                        caller.lang,
                    );
                    r.notify = vec![caller.id];
                    Ok(r)
                }
                _ => Err(Refusal::LeagueClosed.into()),
            }
        })
    }

    /// A withdrawing player's running games of league `l` end as their
    /// resignation (announced in each game's place). Returns the games.
    fn resign_league_games(tx: &Tx<'_>, l: &LeagueRow, user: i64, now: i64) -> AppResult<Vec<i64>> {
        let mut resigned = Vec::new();
        for p in tx.league_pairings(l.id)? {
            let Some(game_id) = p
                .game_id
                .filter(|_| p.game_status.as_deref() == Some("active"))
            else {
                continue;
            };
            if p.sente != user && p.gote != Some(user) {
                continue;
            }
            let loaded = Self::load(tx, game_id)?;
            let Some(color) = loaded.color_of(user) else {
                continue;
            };
            let outcome = Outcome::Win {
                winner: !color,
                reason: WinReason::Resignation,
            };
            Self::finish(tx, &loaded, outcome, now)?;
            push(tx, &Notice::Ended { game_id }, now)?;
            resigned.push(game_id);
        }
        Ok(resigned)
    }

    fn start_league_now(&self, caller: &Caller, id: Option<i64>, guild: i64) -> AppResult {
        if !caller.manages_server {
            return Err(Refusal::NeedsManageServer.into());
        }
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult {
            let l = Self::open_league(tx, id, guild)?;
            let players = tx.league_players(l.id)?.len();
            if players < MIN_LEAGUE_PLAYERS {
                return Err(Refusal::LeagueTooFew {
                    have: players,
                    need: MIN_LEAGUE_PLAYERS,
                }
                .into());
            }
            self.advance_league(tx, l.id, now, true)?;
            let l = tx.league(l.id)?.ok_or(Refusal::NoSuchLeague)?;
            Ok(Reply::private(
                Msg::LeagueStartedNow {
                    league: info(tx, &l)?,
                },
                caller.lang,
            ))
        })
    }

    fn league_standings(&self, caller: &Caller, id: Option<i64>, guild: i64) -> AppResult {
        let store = self.store()?;
        store.read(|r| -> AppResult {
            let l = Self::pick_league(r, id, guild, |l| Ok(l.status != "cancelled"))?;
            let last = l.status == "finished";
            standings_reply(r, &l, caller.lang, last)
        })
    }

    fn league_pairings(
        &self,
        caller: &Caller,
        id: Option<i64>,
        round: Option<i64>,
        guild: i64,
    ) -> AppResult {
        let store = self.store()?;
        store.read(|r| -> AppResult {
            let l = Self::pick_league(r, id, guild, |l| Ok(l.status != "cancelled"))?;
            if l.round == 0 {
                return Err(Refusal::LeagueNotStarted.into());
            }
            let round = round.unwrap_or(l.round);
            // A round robin is scheduled whole: its later rounds can be shown.
            let last = if LeagueFormat::of(&l.format) == LeagueFormat::Swiss {
                l.round
            } else {
                l.rounds
            };
            if !(1..=last).contains(&round) {
                return Err(Refusal::NoSuchRound { last }.into());
            }
            Ok(Reply::private(
                Msg::LeaguePairings {
                    league: info(r, &l)?,
                    round,
                    pairings: pairing_lines(r, &l, round)?,
                },
                caller.lang,
            ))
        })
    }

    /// The scheduler's step for league `id`: starts it when its start has
    /// come (or cancels it for want of players), starts the next round when
    /// every game of the current one has a result, and ends it after the
    /// last. Returns how many notices it queued.
    pub(super) fn league_step(&self, tx: &Tx<'_>, id: i64, now: i64) -> AppResult<usize> {
        tx.lock_league(id)?;
        self.advance_league(tx, id, now, false)
    }

    fn advance_league(&self, tx: &Tx<'_>, id: i64, now: i64, early: bool) -> AppResult<usize> {
        let mut added = 0;
        let Some(l) = tx.league(id)? else {
            return Ok(0);
        };
        if l.status == "open" {
            if l.starts_at > now && !early {
                return Ok(0);
            }
            added += self.begin_league(tx, &l, now)?;
        }
        // Rounds decided without a game (everyone withdrew) are passed at once.
        loop {
            let Some(l) = tx.league(id)? else {
                return Ok(added);
            };
            if l.status != "running" {
                return Ok(added);
            }
            let pairings = tx.league_pairings(id)?;
            let open = pairings
                .iter()
                .any(|p| p.round == l.round && score_of(p).is_none());
            if l.round > 0 && open {
                return Ok(added);
            }
            let active = tx
                .league_players(id)?
                .iter()
                .filter(|p| p.withdrawn_at.is_none())
                .count();
            let swiss = LeagueFormat::of(&l.format) == LeagueFormat::Swiss;
            if l.round >= l.rounds || (swiss && active < 2) {
                if tx.move_league(id, "running", l.round, "finished", l.round, l.rounds, now)? {
                    push(tx, &Notice::LeagueEnded { league_id: id }, now)?;
                    added += 1;
                }
                return Ok(added);
            }
            added += self.begin_round(tx, &l, l.round + 1, now)?;
        }
    }

    /// Starts league `l` (open, its start come): cancelled with fewer than
    /// [`MIN_LEAGUE_PLAYERS`]; a round robin is scheduled whole.
    fn begin_league(&self, tx: &Tx<'_>, l: &LeagueRow, now: i64) -> AppResult<usize> {
        let players = seeded(tx.league_players(l.id)?);
        if players.len() < MIN_LEAGUE_PLAYERS {
            if tx.move_league(l.id, "open", 0, "cancelled", 0, l.rounds, now)? {
                push(tx, &Notice::LeagueEnded { league_id: l.id }, now)?;
                return Ok(1);
            }
            return Ok(0);
        }
        let format = LeagueFormat::of(&l.format);
        let rounds = if format == LeagueFormat::Swiss {
            l.rounds
        } else {
            let schedule = tournament::round_robin(players.len(), format == LeagueFormat::Double);
            for (r, round) in schedule.iter().enumerate() {
                for (b, &(s, g)) in round.iter().enumerate() {
                    let bye = g.is_none();
                    tx.insert_pairing(
                        l.id,
                        r as i64 + 1,
                        b as i64 + 1,
                        players[s].user_id,
                        g.map(|g| players[g].user_id),
                        bye.then_some("none"),
                        bye.then_some("bye"),
                    )?;
                }
            }
            schedule.len() as i64
        };
        if !tx.move_league(l.id, "open", 0, "running", 0, rounds, now)? {
            return Err(AppError::Refused(Refusal::Conflict));
        }
        Ok(0)
    }

    /// Starts round `round` of running league `l`: pairs it (Swiss), decides
    /// the pairings of withdrawn players, starts the games, and announces
    /// the round and each game.
    fn begin_round(&self, tx: &Tx<'_>, l: &LeagueRow, round: i64, now: i64) -> AppResult<usize> {
        if !tx.move_league(l.id, "running", round - 1, "running", round, l.rounds, now)? {
            return Err(AppError::Refused(Refusal::Conflict));
        }
        let players = seeded(tx.league_players(l.id)?);
        let withdrawn: Vec<i64> = players
            .iter()
            .filter(|p| p.withdrawn_at.is_some())
            .map(|p| p.user_id)
            .collect();
        if LeagueFormat::of(&l.format) == LeagueFormat::Swiss {
            self.pair_swiss_round(tx, l, &players, round)?;
        }
        let mut added = 0;
        push(
            tx,
            &Notice::LeagueRound {
                league_id: l.id,
                round,
            },
            now,
        )?;
        added += 1;
        let server = server_of(tx, Some(l.guild_id))?;
        for p in tx.league_pairings(l.id)? {
            if p.round != round || p.result.is_some() || p.game_id.is_some() {
                continue;
            }
            let Some(gote) = p.gote else {
                continue;
            };
            let (sw, gw) = (withdrawn.contains(&p.sente), withdrawn.contains(&gote));
            if sw || gw {
                let result = match (sw, gw) {
                    (true, true) => "none",
                    (true, false) => "gote",
                    _ => "sente",
                };
                tx.set_pairing_result(l.id, round, p.board, result, "forfeit")?;
                continue;
            }
            let start = if l.variant == "minishogi" {
                Position::minishogi_startpos()
            } else {
                Position::startpos()
            };
            let g = NewGame {
                guild_id: Some(l.guild_id),
                channel_id: server.game_channel.or(l.channel_id),
                variant: l.variant.clone(),
                handicap: None,
                rule: super::stored::rule_name(ChallengeOptions::default().rule).to_string(),
                days_per_move: l.days_per_move,
                rated: l.rated,
                sente: p.sente,
                gote,
                start_sfen: start.to_sfen(),
                deadline: Some(now + l.days_per_move * DAY),
                created_at: now,
            };
            let game_id = tx.insert_game(&g)?;
            tx.set_pairing_game(l.id, round, p.board, game_id)?;
            self.start_paused_if_away(tx, game_id, p.sente, now)?;
            push(tx, &Notice::LeagueGame { game_id }, now)?;
            added += 1;
        }
        Ok(added)
    }

    fn pair_swiss_round(
        &self,
        tx: &Tx<'_>,
        l: &LeagueRow,
        players: &[LeaguePlayerRow],
        round: i64,
    ) -> AppResult<()> {
        let index: HashMap<i64, usize> = players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.user_id, i))
            .collect();
        let mut sp: Vec<SwissPlayer> = players
            .iter()
            .map(|p| SwissPlayer {
                rating: p.rating,
                withdrawn: p.withdrawn_at.is_some(),
                ..SwissPlayer::default()
            })
            .collect();
        for p in tx.league_pairings(l.id)? {
            let Some(&s) = index.get(&p.sente) else {
                continue;
            };
            let score = score_of(&p).unwrap_or(Score::Nobody);
            match p.gote.and_then(|g| index.get(&g).copied()) {
                None => {
                    sp[s].had_bye = true;
                    if score == Score::Sente {
                        sp[s].halves += 2;
                    }
                }
                Some(g) => {
                    sp[s].met.push(g);
                    sp[g].met.push(s);
                    let (hs, hg) = match score {
                        Score::Sente => (2, 0),
                        Score::Gote => (0, 2),
                        Score::Draw => (1, 1),
                        Score::Nobody => (0, 0),
                    };
                    sp[s].halves += hs;
                    sp[g].halves += hg;
                    // A game played (not a forfeit) counts for colours.
                    if p.game_id.is_some() {
                        sp[s].balance += 1;
                        sp[g].balance -= 1;
                        sp[s].last_sente = Some(true);
                        sp[g].last_sente = Some(false);
                    }
                }
            }
        }
        let pairs = tournament::swiss(&sp);
        for (b, (s, g)) in pairs.into_iter().enumerate() {
            let bye = g.is_none();
            tx.insert_pairing(
                l.id,
                round,
                b as i64 + 1,
                players[s].user_id,
                g.map(|g| players[g].user_id),
                // A Swiss bye scores a point.
                bye.then_some("sente"),
                bye.then_some("bye"),
            )?;
        }
        Ok(())
    }

    /// A league game ends before ply 10 by resignation or timeout: it is
    /// still a loss (league games count). Other games: `outcome` as is.
    pub(super) fn league_outcome(
        tx: &Reader<'_>,
        game_id: i64,
        outcome: Outcome,
        loser: Color,
        reason: WinReason,
    ) -> AppResult<Outcome> {
        if outcome == Outcome::Aborted && tx.league_of_game(game_id)?.is_some() {
            return Ok(Outcome::Win {
                winner: !loser,
                reason,
            });
        }
        Ok(outcome)
    }

    /// The reply of a league notice and where it goes (the league's
    /// channel; a game: its thread or channel); `None` when it no longer
    /// matters.
    pub(super) fn league_notice_reply(
        tx: &Reader<'_>,
        notice: &Notice,
    ) -> AppResult<Option<NoticeReply>> {
        match *notice {
            Notice::LeagueRound { league_id, round } => {
                let Some(l) = tx.league(league_id)? else {
                    return Ok(None);
                };
                let pairings = pairing_lines(tx, &l, round)?;
                let mut r = Reply::public(
                    Msg::LeagueRound {
                        league: info(tx, &l)?,
                        round,
                        pairings: pairings.clone(),
                    },
                    server_lang(tx, l.guild_id)?,
                );
                r.notify = pairings
                    .iter()
                    .filter(|p| p.game_id.is_some())
                    .flat_map(|p| std::iter::once(p.sente.id).chain(p.gote.as_ref().map(|g| g.id)))
                    .collect();
                Ok(Some(NoticeReply {
                    reply: r,
                    places: l.channel_id.into_iter().collect(),
                    dm: None,
                }))
            }
            Notice::LeagueGame { game_id } => {
                let Some(row) = tx.game(game_id)? else {
                    return Ok(None);
                };
                let Some((league_id, round)) = tx.league_of_game(game_id)? else {
                    return Ok(None);
                };
                let Some(l) = tx.league(league_id)? else {
                    return Ok(None);
                };
                if row.status != "active" {
                    return Ok(None);
                }
                let loaded = Self::load(tx, game_id)?;
                let to_move = loaded.to_move_id();
                let started = Msg::GameStarted {
                    game_id,
                    sente: Self::who(tx, row.sente)?,
                    gote: Self::who(tx, row.gote)?,
                    to_move: Self::who(tx, to_move)?,
                    deadline: row.deadline,
                    options: super::message::ChallengeSummary {
                        variant: row.variant.clone(),
                        handicap: None,
                        rule: row.rule.clone(),
                        days: row.days_per_move,
                        rated: row.rated,
                        color: "league".into(),
                        stake: 0,
                        sennichite_replay: false,
                        custom_start: false,
                    },
                };
                let msg = Msg::Both(
                    Box::new(Msg::LeagueGameIntro {
                        league_id,
                        name: l.name.clone(),
                        round,
                        rounds: l.rounds,
                    }),
                    Box::new(started),
                );
                let viewer = Self::player(tx, row.sente)?;
                let mut r = Reply::public(msg, lang_of_in(tx, to_move, row.guild_id)?);
                r.board = Some(Self::board_view(
                    tx,
                    &loaded,
                    &viewer,
                    super::Visibility::Public,
                )?);
                r.notify = vec![row.sente, row.gote];
                let dm = tx
                    .player(to_move)?
                    .filter(|p| p.settings.dms)
                    .map(|p| p.user_id);
                Ok(Some(NoticeReply {
                    reply: r,
                    places: game_places(&row),
                    dm,
                }))
            }
            Notice::LeagueEnded { league_id } => {
                let Some(l) = tx.league(league_id)? else {
                    return Ok(None);
                };
                let lang = server_lang(tx, l.guild_id)?;
                let r = if l.status == "cancelled" {
                    Reply::public(
                        Msg::LeagueCancelled {
                            league: info(tx, &l)?,
                            need: MIN_LEAGUE_PLAYERS,
                        },
                        lang,
                    )
                } else {
                    let mut r = standings_reply(tx, &l, lang, true)?;
                    r.notify = tx.league_players(l.id)?.iter().map(|p| p.user_id).collect();
                    r
                };
                Ok(Some(NoticeReply {
                    reply: r,
                    places: l.channel_id.into_iter().collect(),
                    dm: None,
                }))
            }
            _ => Ok(None),
        }
    }

    /// A league game's thread name, when the game should get a thread and
    /// has none yet (for the front end delivering its start notice).
    pub(super) fn league_thread(
        tx: &Reader<'_>,
        notice: &Notice,
    ) -> AppResult<Option<(i64, String)>> {
        let Notice::LeagueGame { game_id } = *notice else {
            return Ok(None);
        };
        let Some(row) = tx.game(game_id)? else {
            return Ok(None);
        };
        if row.thread_id.is_some() || !server_of(tx, row.guild_id)?.threads {
            return Ok(None);
        }
        let (s, g) = (Self::who(tx, row.sente)?, Self::who(tx, row.gote)?);
        let name: String = format!("#{game_id} ☗{} – ☖{}", s.name, g.name)
            .chars()
            .take(100)
            .collect();
        Ok(Some((game_id, name)))
    }
}

/// Queues `notice`, due now.
fn push(tx: &Tx<'_>, notice: &Notice, now: i64) -> AppResult<i64> {
    Ok(tx.push_outbox(&super::scheduler::to_json(notice)?, now)?)
}

/// The language of a server's public league posts: its default, else English.
fn server_lang(r: &Reader<'_>, guild: i64) -> AppResult<Lang> {
    Ok(match server_of(r, Some(guild))?.language.as_deref() {
        Some("de") => Lang::De,
        _ => Lang::En,
    })
}

/// A league as messages show it.
fn info(r: &Reader<'_>, l: &LeagueRow) -> AppResult<LeagueInfo> {
    let players = r.league_players(l.id)?;
    Ok(LeagueInfo {
        id: l.id,
        name: l.name.clone(),
        format: l.format.clone(),
        rounds: l.rounds,
        round: l.round,
        variant: l.variant.clone(),
        days: l.days_per_move,
        rated: l.rated,
        starts_at: l.starts_at,
        max_players: l.max_players,
        players: players.len(),
        withdrawn: players.iter().filter(|p| p.withdrawn_at.is_some()).count(),
        status: l.status.clone(),
    })
}

fn who_of(players: &[LeaguePlayerRow], id: i64) -> Who {
    let name = players
        .iter()
        .find(|p| p.user_id == id)
        .map_or_else(|| format!("#{id}"), |p| p.name.clone());
    Who { id, name }
}

/// The pairings of one round, as messages show them.
fn pairing_lines(r: &Reader<'_>, l: &LeagueRow, round: i64) -> AppResult<Vec<PairingLine>> {
    let players = r.league_players(l.id)?;
    let mut out = Vec::new();
    for p in r.league_pairings(l.id)? {
        if p.round != round {
            continue;
        }
        let place = match p.game_id {
            Some(g) => r.game(g)?.and_then(|g| g.thread_id.or(g.channel_id)),
            None => None,
        };
        out.push(PairingLine {
            board: p.board,
            sente: who_of(&players, p.sente),
            gote: p.gote.map(|g| who_of(&players, g)),
            game_id: p.game_id,
            result: p.outcome().map(str::to_string),
            how: p.reason.clone().or_else(|| p.game_reason.clone()),
            place,
        });
    }
    Ok(out)
}

/// The standings of league `l` as text and a table image.
fn standings_reply(r: &Reader<'_>, l: &LeagueRow, lang: Lang, last: bool) -> AppResult {
    let players = seeded(r.league_players(l.id)?);
    let index: HashMap<i64, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user_id, i))
        .collect();
    let mut decided = Vec::new();
    let mut played = vec![0usize; players.len()];
    for p in r.league_pairings(l.id)? {
        let Some(score) = score_of(&p) else {
            continue;
        };
        let Some(&s) = index.get(&p.sente) else {
            continue;
        };
        let g = p.gote.and_then(|g| index.get(&g).copied());
        if let Some(g) = g {
            played[s] += 1;
            played[g] += 1;
        }
        decided.push((s, g, score));
    }
    let table = tournament::standings(players.len(), &decided);
    let rows: Vec<StandingLine> = table
        .iter()
        .map(|s| {
            let p = &players[s.player];
            StandingLine {
                place: s.place,
                who: Who {
                    id: p.user_id,
                    name: p.name.clone(),
                },
                halves: s.halves,
                sb_quarters: s.sb_quarters,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                played: played[s.player],
                withdrawn: p.withdrawn_at.is_some(),
            }
        })
        .collect();
    let league = info(r, l)?;
    let picture = crate::i18n::standings_table(&league, &rows, last, lang);
    let mut reply = Reply::public(Msg::LeagueStandings { league, rows, last }, lang);
    reply.attachment = Some((
        format!("league-{}-standings.png", l.id),
        crate::render::table_png(&picture, crate::render::Theme::Light),
    ));
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_a_refusal_offers_is_accepted() {
        for f in FORMAT_WORDS {
            assert!(LeagueFormat::parse(f).is_some(), "{f}");
        }
    }

    #[test]
    fn starts_parse_as_utc_dates_and_times() {
        let now = 1_800_000_000;
        assert_eq!(parse_start("now", now), Some(now));
        assert_eq!(parse_start("1970-01-02", now), None, "before 2000");
        assert_eq!(parse_start("2026-12-24", now), Some(1_798_070_400));
        assert_eq!(
            parse_start("2026-12-24 18:30", now),
            Some(1_798_070_400 + 18 * 3600 + 30 * 60)
        );
        assert_eq!(
            parse_start("2026-12-24T18:30", now),
            Some(1_798_070_400 + 66_600)
        );
        assert_eq!(parse_start("2026-02-30", now), None);
        assert_eq!(parse_start("2026-13-01", now), None);
        assert_eq!(parse_start("2026-12-24 25:00", now), None);
        assert_eq!(parse_start("tomorrow", now), None);
        assert_eq!(
            parse_start("2028-02-29", now),
            Some(days_from_civil(2028, 2, 29) * DAY)
        );
    }

    #[test]
    fn a_league_game_links_its_page_when_a_public_url_is_set() {
        use std::sync::Arc;
        let app = App::new(
            crate::store::Store::open_in_memory().unwrap(),
            Arc::new(super::super::ManualClock::new(1_800_000_000)),
            Arc::new(super::super::SeededDice::new(1)),
        )
        .with_public_url(Some("https://shogi.example.org".into()));
        let place = Place {
            guild: Some(1),
            channel: Some(2),
        };
        let mut boss = Caller::new(1, "boss", Lang::En);
        boss.manages_server = true;
        let options = LeagueOptions {
            name: "Cup".into(),
            start: Some("now".into()),
            ..LeagueOptions::default()
        };
        app.league(&boss, LeagueOp::Create(&options), place)
            .unwrap();
        for u in 10..13 {
            let c = Caller::new(u, &format!("p{u}"), Lang::En);
            app.league(&c, LeagueOp::Join(None), place).unwrap();
        }
        app.tick().unwrap();
        let starts: Vec<Reply> = app
            .pending_notices()
            .unwrap()
            .into_iter()
            .filter(|(_, n, _)| matches!(n, Notice::LeagueGame { .. }))
            .map(|(_, _, r)| r)
            .collect();
        assert_eq!(starts.len(), 1, "three players: one game a round");
        let text = crate::i18n::Localize::localize(&starts[0].msg, Lang::En);
        assert!(text.contains("https://shogi.example.org/g/"), "{text}");
    }

    #[test]
    fn formats_parse_in_english_and_german() {
        assert_eq!(
            LeagueFormat::parse("Round-Robin"),
            Some(LeagueFormat::RoundRobin)
        );
        assert_eq!(LeagueFormat::parse("double"), Some(LeagueFormat::Double));
        assert_eq!(LeagueFormat::parse("Schweizer"), Some(LeagueFormat::Swiss));
        assert_eq!(LeagueFormat::parse("knockout"), None);
    }
}
