//! Row types of the store: plain data as it is in the tables.

use super::sql::Row;
use super::StoreResult;

/// A player's settings as stored (text values checked by the schema).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `usi`, `western` or `japanese`.
    pub notation: String,
    /// `kanji`, `kanji2`, `international`, `pictogram` or `pictogram-kanji`.
    pub piece_style: String,
    /// `light` or `dark`.
    pub theme: String,
    /// `en`, `de`, or `None` to follow the Discord client.
    pub language: Option<String>,
    /// Whether the player wants a DM when it is their turn.
    pub dms: bool,
    /// Boards meant only for this player: `own` (their side at the bottom)
    /// or `sente` (Sente at the bottom). Public posts always show Sente at
    /// the bottom.
    pub orientation: String,
    /// Danger help on the boards this player sees: `auto` (in games
    /// against Beginner and Easy, and in lessons), `always` (every unrated
    /// game) or `off`.
    pub danger: String,
    /// Movement dots on the piece faces.
    pub dots: bool,
    /// A small piece name under the symbol, in the player's language.
    pub names: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            notation: "western".into(),
            piece_style: "kanji".into(),
            theme: "light".into(),
            language: None,
            dms: false,
            orientation: "own".into(),
            danger: "auto".into(),
            dots: false,
            names: false,
        }
    }
}

/// A row of `players`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    /// Discord user id.
    pub user_id: i64,
    /// Name shown in messages.
    pub display_name: String,
    /// Settings.
    pub settings: Settings,
    /// Elo rating.
    pub rating: f64,
    /// Number of rated games finished.
    pub rated_games: i64,
    /// Points: +10 for each rated win, -10 for each rated loss.
    pub points: i64,
    /// Taler balance (play money; stakes of running games are not in it).
    pub taler: i64,
}

impl PlayerRow {
    pub(super) const COLUMNS: &'static str =
        "user_id, display_name, notation, piece_style, theme, language, dms, rating, rated_games, orientation, points, taler, danger, dots, names";
    pub(super) const COLUMNS_P: &'static str = "p.user_id, p.display_name, p.notation, p.piece_style, p.theme, p.language, p.dms, p.rating, p.rated_games, p.orientation, p.points, p.taler, p.danger, p.dots, p.names";

    pub(super) fn from_row(r: &Row) -> StoreResult<PlayerRow> {
        Ok(PlayerRow {
            user_id: r.get(0)?,
            display_name: r.get(1)?,
            settings: Settings {
                notation: r.get(2)?,
                piece_style: r.get(3)?,
                theme: r.get(4)?,
                language: r.get(5)?,
                dms: r.get(6)?,
                orientation: r.get(9)?,
                danger: r.get(12)?,
                dots: r.get(13)?,
                names: r.get(14)?,
            },
            rating: r.get(7)?,
            rated_games: r.get(8)?,
            points: r.get(10)?,
            taler: r.get(11)?,
        })
    }
}

/// What a leaderboard ranks by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ranking {
    /// Elo rating.
    #[default]
    Elo,
    /// Points (+10 a rated win, -10 a rated loss).
    Points,
    /// Taler balance.
    Taler,
}

/// A new challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct NewChallenge {
    /// Server, if any.
    pub guild_id: Option<i64>,
    /// Channel it was made in.
    pub channel_id: Option<i64>,
    /// Who challenges.
    pub challenger: i64,
    /// Who is challenged (`None`: open to anyone).
    pub challenged: Option<i64>,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Handicap name, if any.
    pub handicap: Option<String>,
    /// Entering-king rule.
    pub rule: String,
    /// Days per move.
    pub days_per_move: i64,
    /// Rated game.
    pub rated: bool,
    /// `sente`, `gote` or `random` (the challenger's colour).
    pub color: String,
    /// The game this is a rematch of.
    pub rematch_of: Option<i64>,
    /// Creation time.
    pub created_at: i64,
    /// Expiry time.
    pub expires_at: i64,
    /// Taler each player puts in when the game starts (rated games only; 0: none).
    pub stake: i64,
    /// A sennichite starts the next game at once with colours swapped.
    pub sennichite_replay: bool,
    /// A start position other than the variant's or handicap's, if any.
    pub start_sfen: Option<String>,
}

/// A row of `challenges`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Id.
    pub id: i64,
    /// The data it was created with.
    pub data: NewChallenge,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    /// The game it led to.
    pub game_id: Option<i64>,
}

impl ChallengeRow {
    pub(super) const COLUMNS: &'static str = "id, guild_id, channel_id, challenger, challenged, variant, handicap, rule, days_per_move, rated, color, rematch_of, created_at, expires_at, status, game_id, start_sfen, stake, sennichite_replay";

    pub(super) fn from_row(r: &Row) -> StoreResult<ChallengeRow> {
        Ok(ChallengeRow {
            id: r.get(0)?,
            data: NewChallenge {
                guild_id: r.get(1)?,
                channel_id: r.get(2)?,
                challenger: r.get(3)?,
                challenged: r.get(4)?,
                variant: r.get(5)?,
                handicap: r.get(6)?,
                rule: r.get(7)?,
                days_per_move: r.get(8)?,
                rated: r.get(9)?,
                color: r.get(10)?,
                rematch_of: r.get(11)?,
                created_at: r.get(12)?,
                expires_at: r.get(13)?,
                start_sfen: r.get(16)?,
                stake: r.get(17)?,
                sennichite_replay: r.get(18)?,
            },
            status: r.get(14)?,
            game_id: r.get(15)?,
        })
    }
}

/// A new game.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// Server, if any.
    pub guild_id: Option<i64>,
    /// Channel.
    pub channel_id: Option<i64>,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Handicap name, if any.
    pub handicap: Option<String>,
    /// Entering-king rule.
    pub rule: String,
    /// Days per move.
    pub days_per_move: i64,
    /// Rated.
    pub rated: bool,
    /// Sente's user id.
    pub sente: i64,
    /// Gote's user id.
    pub gote: i64,
    /// Start position.
    pub start_sfen: String,
    /// Deadline of the first mover.
    pub deadline: Option<i64>,
    /// Creation time.
    pub created_at: i64,
}

/// A row of `games`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Id.
    pub id: i64,
    /// Server.
    pub guild_id: Option<i64>,
    /// Channel.
    pub channel_id: Option<i64>,
    /// Thread, once created.
    pub thread_id: Option<i64>,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Handicap name.
    pub handicap: Option<String>,
    /// Entering-king rule.
    pub rule: String,
    /// Days per move.
    pub days_per_move: i64,
    /// Rated.
    pub rated: bool,
    /// Sente's user id.
    pub sente: i64,
    /// Gote's user id.
    pub gote: i64,
    /// Start position.
    pub start_sfen: String,
    /// Current position as stored.
    pub sfen: String,
    /// Plies played.
    pub ply: i64,
    /// `active` or `finished`.
    pub status: String,
    /// `sente`, `gote`, `draw` or `aborted`.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Deadline of the side to move.
    pub deadline: Option<i64>,
    /// Reminder bits sent.
    pub reminded: i64,
    /// Pending takeback request by this player.
    pub takeback_by: Option<i64>,
    /// Pending counting request by this player.
    pub count_by: Option<i64>,
    /// Created.
    pub created_at: i64,
    /// Last change.
    pub updated_at: i64,
}

impl GameRow {
    pub(super) const COLUMNS: &'static str = "id, guild_id, channel_id, thread_id, variant, handicap, rule, days_per_move, rated, sente, gote, start_sfen, sfen, ply, status, result, reason, version, deadline, reminded, takeback_by, count_by, created_at, updated_at";

    pub(super) fn from_row(r: &Row) -> StoreResult<GameRow> {
        Ok(GameRow {
            id: r.get(0)?,
            guild_id: r.get(1)?,
            channel_id: r.get(2)?,
            thread_id: r.get(3)?,
            variant: r.get(4)?,
            handicap: r.get(5)?,
            rule: r.get(6)?,
            days_per_move: r.get(7)?,
            rated: r.get(8)?,
            sente: r.get(9)?,
            gote: r.get(10)?,
            start_sfen: r.get(11)?,
            sfen: r.get(12)?,
            ply: r.get(13)?,
            status: r.get(14)?,
            result: r.get(15)?,
            reason: r.get(16)?,
            version: r.get(17)?,
            deadline: r.get(18)?,
            reminded: r.get(19)?,
            takeback_by: r.get(20)?,
            count_by: r.get(21)?,
            created_at: r.get(22)?,
            updated_at: r.get(23)?,
        })
    }

    /// Whether `user` plays in this game.
    #[must_use]
    pub fn has_player(&self, user: i64) -> bool {
        self.sente == user || self.gote == user
    }

    /// The opponent of `user` (the caller checked `has_player`).
    #[must_use]
    pub fn opponent_of(&self, user: i64) -> i64 {
        if self.sente == user {
            self.gote
        } else {
            self.sente
        }
    }
}

/// Work waiting in the database, for every process (for `/metrics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Outbox notices due and not yet delivered (not dead letters).
    pub due_notices: i64,
    /// Computer replies queued and not yet played.
    pub pending_computer_replies: i64,
}

/// A row of `outbox`: a notice waiting for delivery, or a dead letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Id (delivery order among due notices).
    pub id: i64,
    /// The notice as JSON (`app::Notice`).
    pub payload: String,
    /// When it was written.
    pub created_at: i64,
    /// Failed deliveries so far.
    pub attempts: i64,
    /// When it is due (again).
    pub next_attempt_at: i64,
    /// Why the last delivery failed.
    pub last_error: Option<String>,
    /// Given up on: kept for the operator, never handed out again unless released.
    pub dead: bool,
}

impl OutboxRow {
    pub(super) const COLUMNS: &'static str =
        "id, payload, created_at, attempts, next_attempt_at, last_error, dead";

    pub(super) fn from_row(r: &Row) -> StoreResult<OutboxRow> {
        Ok(OutboxRow {
            id: r.get(0)?,
            payload: r.get(1)?,
            created_at: r.get(2)?,
            attempts: r.get(3)?,
            next_attempt_at: r.get(4)?,
            last_error: r.get(5)?,
            dead: r.get(6)?,
        })
    }
}

/// A row of `quarantine`: an item the scheduler failed on and now skips.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuarantineRow {
    /// What it is (`game`, `challenge`, `notice`, ...).
    pub kind: String,
    /// Its id.
    pub ref_id: i64,
    /// The last error.
    pub error: String,
    /// How often it failed.
    pub count: i64,
    /// First failure.
    pub first_at: i64,
    /// Last failure.
    pub last_at: i64,
}

impl QuarantineRow {
    pub(super) const COLUMNS: &'static str = "kind, ref_id, error, count, first_at, last_at";

    pub(super) fn from_row(r: &Row) -> StoreResult<QuarantineRow> {
        Ok(QuarantineRow {
            kind: r.get(0)?,
            ref_id: r.get(1)?,
            error: r.get(2)?,
            count: r.get(3)?,
            first_at: r.get(4)?,
            last_at: r.get(5)?,
        })
    }
}

/// What the reminder step needs of an active game with a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadlineRow {
    /// Game id.
    pub game_id: i64,
    /// Days per move.
    pub days_per_move: i64,
    /// Deadline of the side to move.
    pub deadline: i64,
    /// Reminder bits already sent.
    pub reminded: i64,
}
