//! The use cases of komadai, independent of Discord: challenge, accept,
//! move, resign, takeback, declare, count, export, settings, ratings, and the
//! deadline scheduler.
//!
//! Every use case returns a transport-neutral [`Reply`]: who sees it, a
//! message as data ([`Msg`], turned into English or German by `i18n`), an
//! optional board to draw, buttons whose ids carry the game or challenge id
//! (so they keep working after a restart), and whom to notify. Refusals are
//! [`Refusal`]s, shown only to the caller. Time and randomness come in through
//! [`Clock`] and [`Dice`] so tests control them.

mod actions;
mod args;
mod buttons;
mod caps;
mod challenges;
mod computer;
mod danger;
mod delivery;
mod follow;
mod league;
mod learn;
mod message;
mod moves;
mod page;
mod play;
mod players;
mod premove;
mod privacy;
mod puzzle;
mod replay;
mod scheduler;
mod server;
mod stored;
mod tournament;
mod vacation;

use std::sync::{Arc, Mutex};

pub use actions::Action;
pub use args::{ranking_arg, ChallengeArgs, ComputerArgs};
pub use caps::{Caps, CapsError, Rate};
pub use challenges::{ChallengeOptions, DAYS_PER_MOVE, MAX_STAKE, POINTS_PER_GAME, START_TALER};
pub use computer::{computer_id, computer_who, level_from, level_of, ComputerOptions, LADDER};
pub use follow::{MAX_FOLLOWER_DMS, SERVER_GAMES_SHOWN};
pub use league::{
    parse_start, LeagueFormat, LeagueOp, LeagueOptions, MAX_LEAGUE_NAME, MAX_LEAGUE_PLAYERS,
    MAX_SWISS_ROUNDS, MIN_LEAGUE_PLAYERS,
};
pub use learn::{Lesson, LESSONS};
pub use message::{
    ChallengeSummary, Ending, FollowItem, GameLine, LeagueInfo, Msg, PairingLine, Refusal,
    ServerGame, StandingLine, StartProblem, Swing, Who,
};
pub use page::{check_token, page_token, GamePage, PageAnalysis};
pub use play::{stored_outcome, ANNOUNCE_GRACE};
pub use players::SettingsChange;
pub use premove::{PremoveOp, MAX_LINE_MOVES};
pub use puzzle::{day_of, PuzzleKind, PUZZLE_NODES};
pub use scheduler::{panic_text, DueNotice, Notice};
pub use server::{ServerChange, StartPlace};
pub use stored::{handicap_from, handicap_name, rule_from, rule_name, variant_name};
pub use vacation::Away;

use crate::lang::Lang;
use crate::store::{Store, StoreError};

/// Seconds in a day.
pub const DAY: i64 = 86_400;
/// Unanswered challenges expire after this long.
pub const CHALLENGE_TTL: i64 = 7 * DAY;
/// Longest free text accepted in any argument.
pub const MAX_ARG_CHARS: usize = 200;

/// The current time, as Unix seconds.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> i64;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    }
}

/// A clock that tests and the console move by hand.
#[derive(Debug, Default)]
pub struct ManualClock(std::sync::atomic::AtomicI64);

impl ManualClock {
    /// A clock at `t`.
    #[must_use]
    pub fn new(t: i64) -> ManualClock {
        ManualClock(std::sync::atomic::AtomicI64::new(t))
    }

    /// Moves the clock forward by `secs`.
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Randomness: the furigoma coin.
pub trait Dice: Send + Sync {
    /// A fair coin: true means the challenger gets Sente.
    fn coin(&self) -> bool;
    /// A seed for the weaker computer levels' choices.
    fn seed(&self) -> u64;
}

/// Dice from a seeded generator (fixed seed in tests, time-seeded in production).
#[derive(Debug)]
pub struct SeededDice(Mutex<fastrand::Rng>);

impl SeededDice {
    /// Dice with this seed.
    #[must_use]
    pub fn new(seed: u64) -> SeededDice {
        SeededDice(Mutex::new(fastrand::Rng::with_seed(seed)))
    }
}

impl Dice for SeededDice {
    fn coin(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .bool()
    }

    fn seed(&self) -> u64 {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .u64(..)
    }
}

/// Who asks: the Discord user (or console user) and their client's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    /// User id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// The language of the caller's client (interaction locale).
    pub lang: Lang,
    /// Whether they may change the server's settings (Discord's Manage
    /// Server permission, as the interaction reports it).
    pub manages_server: bool,
}

impl Caller {
    /// A caller.
    #[must_use]
    pub fn new(id: i64, name: &str, lang: Lang) -> Caller {
        Caller {
            id,
            name: name.to_string(),
            lang,
            manages_server: false,
        }
    }

    /// As a message names them.
    #[must_use]
    pub fn who(&self) -> Who {
        Who {
            id: self.id,
            name: self.name.clone(),
        }
    }
}

/// Where a request comes from (Discord server, channel or thread).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Server.
    pub guild: Option<i64>,
    /// Channel or thread.
    pub channel: Option<i64>,
}

/// Who sees a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Visibility {
    /// Everyone in the channel.
    Public,
    /// Only the caller (ephemeral).
    Caller,
}

/// A button under a reply. Its id is `action:number` (replay buttons:
/// `action:game:ply`) and stays valid after a restart.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Button {
    /// The custom id, e.g. `accept:12`.
    pub id: String,
    /// What the button does (its label comes from i18n).
    pub action: ButtonAction,
    /// Shown but not pressable (e.g. "back" at the start of a replay).
    pub disabled: bool,
}

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ButtonAction {
    /// Accept a challenge.
    Accept,
    /// Decline a challenge.
    Decline,
    /// Cancel one's own challenge.
    Cancel,
    /// Confirm the opponent's takeback.
    TakebackYes,
    /// Refuse the opponent's takeback.
    TakebackNo,
    /// Agree to count.
    CountYes,
    /// Declare an entering-king win.
    Declare,
    /// Offer a rematch with colours swapped.
    Rematch,
    /// Confirm one's own resignation (or abort, before ply 10).
    ResignYes,
    /// Keep playing after all.
    ResignNo,
    /// Replay: to the start position.
    ReplayFirst,
    /// Replay: one ply back.
    ReplayBack,
    /// Replay: one ply forward.
    ReplayNext,
    /// Replay: to the last position.
    ReplayLast,
    /// Erase the caller's data (`/privacy`), after the question.
    EraseYes,
    /// Join a league (its id).
    LeagueJoin,
    /// Leave a league before its start; after it, ask whether to withdraw
    /// (its id).
    LeagueLeave,
    /// Withdraw from a running league, after the question (its id).
    LeagueWithdraw,
}

impl ButtonAction {
    /// The prefix of the custom id.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            ButtonAction::Accept => "accept",
            ButtonAction::Decline => "decline",
            ButtonAction::Cancel => "cancel",
            ButtonAction::TakebackYes => "takeback-yes",
            ButtonAction::TakebackNo => "takeback-no",
            ButtonAction::CountYes => "count-yes",
            ButtonAction::Declare => "declare",
            ButtonAction::Rematch => "rematch",
            ButtonAction::ResignYes => "resign-yes",
            ButtonAction::ResignNo => "resign-no",
            ButtonAction::ReplayFirst => "replay-first",
            ButtonAction::ReplayBack => "replay-back",
            ButtonAction::ReplayNext => "replay-next",
            ButtonAction::ReplayLast => "replay-last",
            ButtonAction::EraseYes => "erase-yes",
            ButtonAction::LeagueJoin => "league-join",
            ButtonAction::LeagueLeave => "league-leave",
            ButtonAction::LeagueWithdraw => "league-withdraw",
        }
    }

    /// Whether the button steps through a replay (its id also carries a ply).
    #[must_use]
    pub const fn is_replay(self) -> bool {
        matches!(
            self,
            ButtonAction::ReplayFirst
                | ButtonAction::ReplayBack
                | ButtonAction::ReplayNext
                | ButtonAction::ReplayLast
        )
    }

    const ALL: [ButtonAction; 18] = [
        ButtonAction::Accept,
        ButtonAction::Decline,
        ButtonAction::Cancel,
        ButtonAction::TakebackYes,
        ButtonAction::TakebackNo,
        ButtonAction::CountYes,
        ButtonAction::Declare,
        ButtonAction::Rematch,
        ButtonAction::ResignYes,
        ButtonAction::ResignNo,
        ButtonAction::ReplayFirst,
        ButtonAction::ReplayBack,
        ButtonAction::ReplayNext,
        ButtonAction::ReplayLast,
        ButtonAction::EraseYes,
        ButtonAction::LeagueJoin,
        ButtonAction::LeagueLeave,
        ButtonAction::LeagueWithdraw,
    ];

    /// A button for `id`.
    #[must_use]
    pub fn button(self, id: i64) -> Button {
        Button {
            id: format!("{}:{id}", self.key()),
            action: self,
            disabled: false,
        }
    }

    /// A replay button: show `ply` of game `id`.
    #[must_use]
    pub fn replay_button(self, id: i64, ply: usize, disabled: bool) -> Button {
        Button {
            id: format!("{}:{id}:{ply}", self.key()),
            action: self,
            disabled,
        }
    }

    /// Parses a custom id into its action, number and (replay buttons only)
    /// ply.
    #[must_use]
    pub fn parse(custom_id: &str) -> Option<(ButtonAction, i64, Option<usize>)> {
        let mut parts = custom_id.split(':');
        let key = parts.next()?;
        let action = ButtonAction::ALL.into_iter().find(|a| a.key() == key)?;
        let id = parts.next()?.parse().ok()?;
        let ply = match (action.is_replay(), parts.next()) {
            (true, Some(p)) => Some(p.parse().ok()?),
            (false, None) => None,
            _ => return None,
        };
        if parts.next().is_some() {
            return None;
        }
        Some((action, id, ply))
    }
}

/// The danger help drawn on a board (see [`crate::engine::danger`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Danger {
    /// The viewer's pieces that are attacked and not defended.
    pub hanging: Vec<crate::shogi::Square>,
    /// The piece whose targets are shown.
    pub selected: Option<crate::shogi::Square>,
    /// Its targets where it stays safe.
    pub safe: Vec<crate::shogi::Square>,
    /// Its targets where it could be taken without a recapture.
    pub unsafe_targets: Vec<crate::shogi::Square>,
}

/// A board to show: the adapter draws it with the viewer's style.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardView {
    /// The game.
    pub game_id: i64,
    /// The position.
    pub sfen: String,
    /// The last move (USI), highlighted.
    pub last_move: Option<String>,
    /// Whether to draw it from Gote's side.
    pub flip: bool,
    /// The viewer's piece style (`kanji`, `kanji2`, `international`).
    pub piece_style: String,
    /// The viewer's theme (`light`, `dark`).
    pub theme: String,
    /// Movement dots on the piece faces (the viewer's setting).
    pub dots: bool,
    /// Piece names under the symbols (the viewer's setting).
    pub names: bool,
    /// The danger help, when it is on for this viewer.
    pub danger: Option<Danger>,
    /// How often the shown position has occurred in its game (from 3 the
    /// picture warns that a fourth is sennichite).
    pub repetitions: u8,
}

impl BoardView {
    /// A position outside any game (a lesson, a puzzle, a challenge's
    /// set-up position) drawn in `settings`' style.
    #[must_use]
    pub fn outside_game(sfen: String, settings: &crate::store::Settings) -> BoardView {
        BoardView {
            game_id: 0,
            sfen,
            piece_style: settings.piece_style.clone(),
            theme: settings.theme.clone(),
            dots: settings.dots,
            names: settings.names,
            ..BoardView::default()
        }
    }

    /// The picture options for this view (the viewer's style, theme,
    /// dots and names; the words on the picture in `lang`).
    #[must_use]
    pub fn render_options(&self, lang: Lang) -> crate::render::RenderOptions {
        use crate::render::{PieceStyle, RenderOptions, Theme};
        RenderOptions {
            style: match self.piece_style.as_str() {
                "kanji2" => PieceStyle::TwoKanji,
                "international" => PieceStyle::International,
                "pictogram" => PieceStyle::Pictogram,
                "pictogram-kanji" => PieceStyle::PictogramKanji,
                _ => PieceStyle::Kanji,
            },
            theme: if self.theme == "dark" {
                Theme::Dark
            } else {
                Theme::Light
            },
            flip: self.flip,
            move_dots: self.dots,
            names: self.names,
            lang,
            ..RenderOptions::default()
        }
    }

    /// What is drawn over the position: the danger help, mate, and the
    /// repetition warning.
    #[must_use]
    pub fn marks(&self, pos: &crate::shogi::Position) -> crate::render::Marks {
        let d = self.danger.clone().unwrap_or_default();
        crate::render::Marks {
            hanging: d.hanging,
            selected: d.selected,
            safe: d.safe,
            unsafe_targets: d.unsafe_targets,
            mate: pos.is_checkmate(),
            repetitions: self.repetitions,
        }
    }

    /// The board as PNG bytes, its words in `lang`.
    pub fn png(&self, lang: Lang) -> Result<Vec<u8>, crate::shogi::SfenError> {
        let pos = crate::shogi::Position::from_sfen(&self.sfen)?;
        let last = self
            .last_move
            .as_deref()
            .and_then(|m| crate::shogi::Move::from_usi(m).ok());
        Ok(crate::render::board_png_marked(
            &pos,
            last,
            &self.render_options(lang),
            &self.marks(&pos),
        ))
    }
}

/// A reply to one request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// Who sees it.
    pub visibility: Visibility,
    /// What it says.
    pub msg: Msg,
    /// In which language.
    pub lang: Lang,
    /// A board to draw, if any.
    pub board: Option<BoardView>,
    /// Buttons.
    pub buttons: Vec<Button>,
    /// Users to mention or message.
    pub notify: Vec<i64>,
    /// A file to attach: (name, contents).
    pub attachment: Option<(String, Vec<u8>)>,
    /// Answering a button: replace the message the button belongs to
    /// instead of sending a new one (stepping through a replay).
    pub replace: bool,
    /// Answering a challenge's button: what the challenge's own message
    /// becomes (who answered it, its buttons disabled), so nobody presses
    /// a stale button. The reply itself is a new message.
    pub settles: Option<Box<Reply>>,
    /// Outbox notices that repeat this public reply in the game's place:
    /// acknowledge them ([`App::ack_notice`]) once the reply is posted, or
    /// release them ([`App::release_notice`]) when posting failed, so the
    /// announcement is never lost. Otherwise they are delivered after a
    /// grace period.
    pub announcements: Vec<i64>,
}

impl Reply {
    fn public(msg: Msg, lang: Lang) -> Reply {
        Reply {
            visibility: Visibility::Public,
            msg,
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

    fn private(msg: Msg, lang: Lang) -> Reply {
        Reply {
            visibility: Visibility::Caller,
            ..Reply::public(msg, lang)
        }
    }

    /// The same reply with `first` said before its message.
    fn after(self, first: Msg) -> Reply {
        Reply {
            msg: Msg::Both(Box::new(first), Box::new(self.msg)),
            ..self
        }
    }
}

/// An error of a use case: a refusal for the caller, or an internal failure.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request was refused; tell the caller why.
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// Something broke inside (log it, apologise).
    #[error("internal: {0}")]
    Internal(String),
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::Conflict => AppError::Refused(Refusal::Conflict),
            other => AppError::Internal(other.to_string()),
        }
    }
}

/// Result of a use case.
pub type AppResult<T = Reply> = Result<T, AppError>;

/// See [`App::status`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// Due notices and queued computer replies, across processes.
    pub backlog: crate::store::Backlog,
    /// The pool for game replies and hints.
    pub engine: crate::engine::PoolLoad,
    /// The pool for post-game analyses.
    pub analysis: crate::engine::PoolLoad,
    /// This process's database connections.
    pub db: crate::store::PoolStats,
}

/// The application: the store, the clock and the dice.
pub struct App {
    store: Store,
    clock: Arc<dyn Clock>,
    dice: Arc<dyn Dice>,
    /// Game replies and hints.
    engine: crate::engine::EnginePool,
    /// Post-game analyses (long), apart so they never delay a game.
    analysis: crate::engine::EnginePool,
    /// Caps and rate limits.
    caps: Caps,
    /// The public base URL of the game pages (`KOMADAI_PUBLIC_URL`): when
    /// set, game messages link to their game's page.
    public_url: Option<String>,
}

impl App {
    /// An app over an opened store.
    #[must_use]
    pub fn new(store: Store, clock: Arc<dyn Clock>, dice: Arc<dyn Dice>) -> App {
        // One engine thread for games and hints and one for analyses, each
        // with a short queue: when it is full, callers are told the computer
        // is busy (a game's reply then waits in the database for the worker)
        // instead of waiting without end. An analysis (up to 30 s) never
        // holds up a game's reply.
        let engine = crate::engine::EnginePool::new(1, 4);
        let analysis = crate::engine::EnginePool::new(1, 2);
        App {
            store,
            clock,
            dice,
            engine,
            analysis,
            caps: Caps::default(),
            public_url: None,
        }
    }

    /// The same app linking game messages to their pages under `base`
    /// (e.g. `https://shogi.example.org`); `None` links nothing.
    #[must_use]
    pub fn with_public_url(mut self, base: Option<String>) -> App {
        self.public_url = base.filter(|b| !b.trim().is_empty());
        self
    }

    /// The same app with other caps and rate limits.
    #[must_use]
    pub fn with_caps(mut self, caps: Caps) -> App {
        self.caps = caps;
        self
    }

    /// Now, from the app's clock.
    #[must_use]
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// How the process and the shared database are doing (for `/metrics`):
    /// work waiting for every process, this process's engine pools and
    /// database connections.
    pub fn status(&self) -> AppResult<Status> {
        let now = self.now();
        let backlog = self.store.read(|r| r.backlog(now))?;
        Ok(Status {
            backlog,
            engine: self.engine.load(),
            analysis: self.analysis.load(),
            db: self.store.pool_stats(),
        })
    }

    /// The store (shared by every request: the database serialises what
    /// must be serialised).
    fn store(&self) -> AppResult<&Store> {
        Ok(&self.store)
    }

    /// Runs `f` with the store (for tools and tests).
    pub fn with_store<T>(&self, f: impl FnOnce(&Store) -> T) -> AppResult<T> {
        Ok(f(&self.store))
    }
}

fn check_len(text: &str) -> Result<(), Refusal> {
    if text.chars().count() > MAX_ARG_CHARS {
        Err(Refusal::TooLong)
    } else {
        Ok(())
    }
}
