//! What the app says: messages as data (an i18n key with its arguments) and
//! the refusals. `i18n` turns both into English or German sentences.

use serde::{Deserialize, Serialize};

use crate::notation::MoveInputError;
use crate::shogi::{DeclarationMissing, Outcome, PieceKind};

/// A player as a message names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    /// Discord user id (the adapter turns it into a mention).
    pub id: i64,
    /// Display name (the console prints it).
    pub name: String,
}

/// How a finished game ended, for messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The rules core's outcome.
    pub outcome: Outcome,
    /// The winner, if any.
    pub winner: Option<Who>,
    /// Rating changes `(player, before, after)` for rated games (their
    /// points change by [`super::POINTS_PER_GAME`] with a win or a loss).
    pub ratings: Vec<(Who, f64, f64)>,
    /// The pot of Taler (both stakes): the winner's, or given back.
    pub pot: i64,
}

/// A line of `/games`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// Game id.
    pub game_id: i64,
    /// The opponent.
    pub opponent: Who,
    /// Whether it is the caller's turn.
    pub your_turn: bool,
    /// Deadline of the side to move (Unix seconds).
    pub deadline: Option<i64>,
    /// Plies played.
    pub ply: i64,
}

/// Everything the app can say.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A challenge was made.
    ChallengeMade {
        /// Challenge id.
        id: i64,
        /// Who challenges.
        challenger: Who,
        /// Who is challenged (`None`: anyone may accept).
        challenged: Option<Who>,
        /// Summary of the options.
        options: ChallengeSummary,
    },
    /// A challenge was accepted (its message, rewritten once answered).
    ChallengeAccepted {
        /// Challenge id.
        id: i64,
        /// Who challenged.
        challenger: Who,
        /// Who accepted.
        by: Who,
        /// The game it started.
        game_id: i64,
    },
    /// A challenge was declined.
    ChallengeDeclined {
        /// Challenge id.
        id: i64,
        /// Who declined.
        by: Who,
    },
    /// The challenger withdrew the challenge.
    ChallengeCancelled {
        /// Challenge id.
        id: i64,
    },
    /// Nobody answered within 7 days.
    ChallengeExpired {
        /// Challenge id.
        id: i64,
        /// Who had challenged.
        challenger: Who,
    },
    /// A game started.
    GameStarted {
        /// Game id.
        game_id: i64,
        /// Sente (moves first in even games).
        sente: Who,
        /// Gote.
        gote: Who,
        /// Whose move it is.
        to_move: Who,
        /// Deadline of the first move.
        deadline: Option<i64>,
        /// Options.
        options: ChallengeSummary,
    },
    /// A game against the computer began (in its own thread on Discord).
    ComputerGameStarted {
        /// Game id.
        game_id: i64,
        /// Sente.
        sente: Who,
        /// Gote.
        gote: Who,
        /// Whose turn it is.
        to_move: Who,
    },
    /// `/danger`: the caller's hanging pieces and, for a piece they named,
    /// where it can go.
    Danger {
        /// Game id.
        game_id: i64,
        /// The caller's pieces attacked and not defended: (kind, square).
        hanging: Vec<(PieceKind, String)>,
        /// The piece asked about: (kind, its square or `None` in hand, how
        /// many safe targets, the targets where it could be taken without a
        /// recapture).
        piece: Option<(PieceKind, Option<String>, usize, Vec<String>)>,
    },
    /// A sennichite was replayed at once (the challenge's option): the next
    /// game, colours swapped, in the same place.
    SennichiteReplay {
        /// The drawn game.
        game_id: i64,
        /// The new game.
        new_game: i64,
        /// Sente of the new game.
        sente: Who,
        /// Gote of the new game.
        gote: Who,
        /// Who moves first in it.
        to_move: Who,
        /// Deadline of its first move.
        deadline: Option<i64>,
    },
    /// A move was played.
    MovePlayed {
        /// Game id.
        game_id: i64,
        /// Who moved.
        mover: Who,
        /// The move in Japanese with the Western form beside (`▲７六歩 (P-7f)`).
        text: String,
        /// The kind captured, if any.
        captured: Option<PieceKind>,
        /// Whether the move promoted.
        promoted: bool,
        /// Whether it gives check.
        check: bool,
        /// How often the position has now occurred (warn from 3).
        repetitions: usize,
        /// What the move did, when it matters (a line under the announcement).
        comments: Vec<crate::engine::comment::Comment>,
        /// Whose turn it is now (None when the game ended).
        next: Option<Who>,
        /// Deadline of the next move.
        deadline: Option<i64>,
        /// The end, if the move ended the game.
        ending: Option<Ending>,
    },
    /// `/vacation on`: the caller is away.
    VacationStarted {
        /// Active games against members.
        games: usize,
        /// Of those, the ones whose deadline was paused now (the caller's turn).
        paused: usize,
        /// When the vacation ends at the latest (the allowance runs out).
        until: i64,
        /// Seconds of the allowance left this year.
        left: i64,
    },
    /// `/vacation off`: the caller is back.
    VacationEnded {
        /// Games whose deadline runs again.
        resumed: usize,
        /// Seconds used this year.
        used: i64,
        /// Seconds allowed each year.
        allowance: i64,
    },
    /// `/vacation` without a choice: the caller's account.
    VacationStatus {
        /// Away since, if away.
        since: Option<i64>,
        /// End at the latest, if away.
        until: Option<i64>,
        /// Seconds used this year.
        used: i64,
        /// Seconds allowed each year.
        allowance: i64,
        /// The year.
        year: i64,
    },
    /// In a game's place: the opponent went on vacation.
    OpponentAway {
        /// Game.
        game_id: i64,
        /// Who is away.
        player: Who,
        /// Back at the latest.
        until: i64,
    },
    /// In a game's place: the opponent is back.
    OpponentBack {
        /// Game.
        game_id: i64,
        /// Who is back.
        player: Who,
        /// Their deadline in this game, when it is their turn.
        deadline: Option<i64>,
    },
    /// `/privacy`: what is stored about the caller.
    Privacy {
        /// Whether there is a player row at all.
        stored: bool,
        /// The counts.
        about: crate::store::StoredAbout,
    },
    /// The caller's data was erased; `games` games keep them as "former member".
    Erased {
        /// Games kept.
        games: i64,
    },
    /// `/follow` without a target: what the caller follows.
    Follows {
        /// The follows, oldest first.
        items: Vec<FollowItem>,
        /// The most one may have.
        cap: i64,
    },
    /// `/follow`: following started.
    FollowStarted {
        /// What.
        item: FollowItem,
    },
    /// `/follow stop:`: this many follows ended.
    FollowStopped {
        /// How many.
        count: usize,
    },
    /// By direct message: a move of a followed game or member.
    FollowedMove {
        /// Game.
        game_id: i64,
        /// The game's thread or channel, for a link.
        place: Option<i64>,
        /// The move's announcement.
        inner: Box<Msg>,
    },
    /// `/games server:`: the server's live games.
    ServerGames {
        /// Most recently moved first.
        games: Vec<ServerGame>,
        /// How many more are not listed.
        more: i64,
    },
    /// `/server`: the server's settings (after a change, when `changed`).
    ServerSettings {
        /// Whether they were just changed.
        changed: bool,
        /// Where games start (`None`: where they are accepted).
        channel: Option<i64>,
        /// Threads for games.
        threads: bool,
        /// Rated games allowed.
        rated: bool,
        /// Default days per move.
        days: i64,
        /// Default language (`None`: each member's client).
        language: Option<String>,
    },
    /// `/premove`: the caller's lines in a game, in their notation.
    PremoveLines {
        /// Game.
        game_id: i64,
        /// (number, moves: condition, answer, condition, answer...).
        lines: Vec<(i64, Vec<String>)>,
    },
    /// `/premove line:`: a line was added.
    PremoveAdded {
        /// Game.
        game_id: i64,
        /// (number, moves).
        line: (i64, Vec<String>),
    },
    /// `/premove clear`: lines were deleted.
    PremovesCleared {
        /// Game.
        game_id: i64,
        /// How many.
        dropped: usize,
    },
    /// By direct message: the opponent's move was in none of the reader's
    /// premove lines, so they were dropped and nothing was played.
    PremovesDropped {
        /// Game.
        game_id: i64,
        /// The game's thread or channel, for a link.
        place: Option<i64>,
        /// The opponent's move (`△３四歩 (P-3d)`).
        played: String,
        /// How many lines were dropped.
        count: usize,
        /// Whether the reader is to move now (the game goes on).
        your_move: bool,
    },
    /// The move that follows was a conditional premove of `by`'s.
    PremovePlayed {
        /// Game.
        game_id: i64,
        /// Whose premove.
        by: Who,
    },
    /// A request was repeated; it had already been applied.
    AlreadyDone {
        /// Game id.
        game_id: i64,
        /// Ply of the applied move.
        ply: i64,
    },
    /// `/resign` asks first: resigning now loses the game, or (before ply 10)
    /// aborts it.
    ConfirmResign {
        /// Game id.
        game_id: i64,
        /// Whether resigning now aborts the game instead of losing it.
        abort: bool,
    },
    /// The player pressed Cancel: the game goes on.
    ResignCancelled {
        /// Game id.
        game_id: i64,
    },
    /// The computer is still thinking; its move will be posted in the
    /// game's thread or channel.
    ComputerThinking {
        /// Game id.
        game_id: i64,
    },
    /// The game ended (resignation, abort, declaration, counting, timeout).
    GameOver {
        /// Game id.
        game_id: i64,
        /// How.
        ending: Ending,
    },
    /// The position of a game.
    Board {
        /// Game id.
        game_id: i64,
        /// Sente.
        sente: Who,
        /// Gote.
        gote: Who,
        /// Whose turn (None when finished).
        to_move: Option<Who>,
        /// Plies played.
        ply: i64,
        /// Deadline of the side to move.
        deadline: Option<i64>,
        /// The end, for finished games.
        ending: Option<Ending>,
    },
    /// The caller's active games.
    Games(Vec<GameLine>),
    /// A takeback was asked for.
    TakebackOffered {
        /// Game id.
        game_id: i64,
        /// Who asks.
        by: Who,
    },
    /// The takeback was accepted: the moves are undone.
    TakebackDone {
        /// Game id.
        game_id: i64,
        /// Plies undone.
        plies: usize,
    },
    /// The takeback was refused by the opponent.
    TakebackDeclined {
        /// Game id.
        game_id: i64,
    },
    /// A player asked to count (24-point rule).
    CountOffered {
        /// Game id.
        game_id: i64,
        /// Who asks.
        by: Who,
    },
    /// A lesson of `/learn` (its words come from i18n).
    Lesson {
        /// 1-based.
        number: usize,
        /// How many lessons.
        total: usize,
        /// Which.
        lesson: super::Lesson,
    },
    /// A right answer to a lesson.
    LessonPassed {
        /// The move, in the learner's notation.
        played: String,
    },
    /// A legal but wrong answer: try again (with the lesson's hint).
    LessonTryAgain {
        /// The move, in the learner's notation.
        played: String,
        /// Which lesson.
        lesson: super::Lesson,
    },
    /// One position of a replay.
    Replay {
        /// Game id.
        game_id: i64,
        /// The ply shown (0 = the start position).
        ply: usize,
        /// How many plies the game has.
        total: usize,
        /// The move that led here: who played it and the move in the
        /// viewer's notation.
        mv: Option<(crate::shogi::Color, String)>,
    },
    /// Exported game record (the text is attached).
    Exported {
        /// Game id.
        game_id: i64,
        /// Format name (KIF, CSA, SFEN).
        format: String,
    },
    /// The caller's settings.
    Settings {
        /// Notation name.
        notation: String,
        /// Piece style.
        piece_style: String,
        /// Theme.
        theme: String,
        /// Language (None: the Discord client's).
        language: Option<String>,
        /// DMs on your turn.
        dms: bool,
        /// Danger help: `auto`, `always`, `off`.
        danger: String,
        /// Movement dots on the faces.
        dots: bool,
        /// Piece names under the symbols.
        names: bool,
        /// Boards meant only for the player: `own` or `sente` at the bottom.
        orientation: String,
    },
    /// Rating and record of a player.
    Stats {
        /// Whose.
        who: Who,
        /// Elo.
        rating: f64,
        /// Rated games.
        rated_games: i64,
        /// Points (+10 a rated win, -10 a rated loss).
        points: i64,
        /// Taler balance.
        taler: i64,
        /// Wins.
        wins: i64,
        /// Losses.
        losses: i64,
        /// Draws.
        draws: i64,
        /// Results against each computer level: (level, wins, losses, draws).
        computer: Vec<(String, i64, i64, i64)>,
        /// Handicap ladder step reached (0 to 8, see `app::LADDER`).
        ladder: usize,
        /// Vacation this year: (seconds used, seconds allowed).
        vacation: (i64, i64),
    },
    /// The handicap ladder at the start of a ladder game: the step reached
    /// (0 to 8; 8 = 1 dan).
    Ladder {
        /// Steps climbed.
        step: usize,
    },
    /// Server leaderboard: (player, rating, rated games).
    Leaderboard {
        /// What it ranks by.
        by: crate::store::Ranking,
        /// (player, rating, points, Taler, rated games), best first.
        rows: Vec<(Who, f64, i64, i64, i64)>,
    },
    /// Reminder before the deadline.
    Reminder {
        /// Game id.
        game_id: i64,
        /// Whose turn.
        player: Who,
        /// Deadline.
        deadline: i64,
        /// Seconds left.
        left: i64,
    },
    /// Help text for the console.
    Help,
    /// Help for Discord: every slash command in a sentence.
    SlashHelp,
    /// A move played and the computer's answer.
    Both(Box<Msg>, Box<Msg>),
    /// The link to a game's read-only page (when a public URL is set).
    GamePage {
        /// The page's full URL.
        url: String,
    },
    /// A hint: the move in the player's notation and why.
    Hint {
        /// The move.
        text: String,
        /// Why it is good.
        reason: crate::engine::HintReason,
    },
    /// Post-game analysis: the turning points (move number, move played,
    /// better move, what it cost); the graph is attached.
    Analysis {
        /// Game id.
        game_id: i64,
        /// Turning points.
        points: Vec<(usize, String, String, Swing)>,
    },
    /// A puzzle begins: mate in `plies`, `attacker` to move.
    PuzzleStart {
        /// Puzzle id.
        puzzle_id: String,
        /// Mate length in plies.
        plies: u32,
        /// Whether it is today's daily puzzle.
        daily: bool,
        /// The side to move (the attacker).
        attacker: crate::shogi::Color,
    },
    /// A correct attacker move; the bot defended.
    PuzzleProgress {
        /// The player's move (USI).
        played: String,
        /// The bot's defence (USI).
        defence: String,
        /// Plies left for the mate.
        plies_left: u32,
    },
    /// The puzzle is solved (the player mated).
    PuzzleSolved {
        /// Puzzle id.
        puzzle_id: String,
        /// For the daily puzzle: the attempts it took.
        attempts: Option<i64>,
    },
    /// The attempt failed: the move did not check, or mate is no longer forced.
    PuzzleFailed {
        /// The player's move (USI).
        played: String,
        /// True when the move gave no check.
        not_check: bool,
        /// The solution (USI main line).
        solution: String,
    },
    /// Today's solvers of the daily puzzle, fewest attempts first.
    PuzzleDailyList {
        /// The day (UTC days since 1970-01-01).
        day: i64,
        /// Solvers with their attempts.
        rows: Vec<(Who, i64)>,
    },
    /// The caller's streak of consecutive days with the daily puzzle solved.
    PuzzleStreak {
        /// Days.
        days: i64,
    },
    /// A league was created; members join with its button.
    LeagueCreated {
        /// The league.
        league: LeagueInfo,
        /// Who created it.
        by: Who,
    },
    /// A member joined a league.
    LeagueJoined {
        /// The league (its player count includes them).
        league: LeagueInfo,
        /// Who.
        who: Who,
    },
    /// A member left a league before its start.
    LeagueLeft {
        /// The league.
        league: LeagueInfo,
        /// Who.
        who: Who,
    },
    /// A member withdrew from a running league: their running games were
    /// resigned, their later pairings are lost.
    LeagueWithdrew {
        /// The league.
        league: LeagueInfo,
        /// Who.
        who: Who,
        /// The games resigned.
        resigned: Vec<i64>,
    },
    /// Withdraw from a running league? (Its games left are lost.)
    ConfirmWithdraw {
        /// The league.
        league: LeagueInfo,
    },
    /// A manager started a league before its date.
    LeagueStartedNow {
        /// The league.
        league: LeagueInfo,
    },
    /// A round of a league begins (its pairings).
    LeagueRound {
        /// The league.
        league: LeagueInfo,
        /// The round.
        round: i64,
        /// Its pairings.
        pairings: Vec<PairingLine>,
    },
    /// The pairings of a round (`/league pairings`).
    LeaguePairings {
        /// The league.
        league: LeagueInfo,
        /// The round.
        round: i64,
        /// Its pairings.
        pairings: Vec<PairingLine>,
    },
    /// Said before a league game's start message.
    LeagueGameIntro {
        /// League.
        league_id: i64,
        /// Its name.
        name: String,
        /// The round.
        round: i64,
        /// Rounds in all.
        rounds: i64,
    },
    /// The standings of a league (`last`: the final ones).
    LeagueStandings {
        /// The league.
        league: LeagueInfo,
        /// Best first.
        rows: Vec<StandingLine>,
        /// The league is over: the final standings.
        last: bool,
    },
    /// A league was cancelled at its start for want of players.
    LeagueCancelled {
        /// The league.
        league: LeagueInfo,
        /// Players it needed.
        need: usize,
    },
    /// The server's leagues, newest first.
    LeagueList {
        /// The leagues.
        leagues: Vec<LeagueInfo>,
    },
}

/// What a turning point of `/analyze` cost the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swing {
    /// About this many centipawns.
    Pawns(i32),
    /// The move let the opponent mate in this many plies; the better move held.
    AllowedMate(u32),
    /// The player could have mated in this many plies, starting with the better move.
    MissedMate(u32),
}

/// The options of a challenge, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeSummary {
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Handicap name.
    pub handicap: Option<String>,
    /// Entering-king rule name.
    pub rule: String,
    /// Days per move.
    pub days: i64,
    /// Rated.
    pub rated: bool,
    /// The challenger's colour choice (`sente`, `gote`, `random`).
    pub color: String,
    /// Taler each player puts in (0: none).
    pub stake: i64,
    /// A sennichite starts the next game at once, colours swapped.
    pub sennichite_replay: bool,
    /// The game starts from a set-up position, not the variant's or handicap's.
    pub custom_start: bool,
}

/// Something a member follows, as messages name it.
#[derive(Clone, Debug, PartialEq)]
pub enum FollowItem {
    /// A game.
    Game {
        /// Game.
        game_id: i64,
        /// Sente.
        sente: Who,
        /// Gote.
        gote: Who,
    },
    /// A game that no longer exists.
    GoneGame(i64),
    /// A member's games.
    Member(Who),
}

/// A league as messages show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeagueInfo {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// `roundrobin`, `double` or `swiss`.
    pub format: String,
    /// Rounds (round robin: 0 before the start).
    pub rounds: i64,
    /// The round being played (0 before the start).
    pub round: i64,
    /// `standard` or `minishogi`.
    pub variant: String,
    /// Days per move.
    pub days: i64,
    /// Rated.
    pub rated: bool,
    /// Start.
    pub starts_at: i64,
    /// Most players.
    pub max_players: i64,
    /// Players (withdrawn ones included).
    pub players: usize,
    /// Of those, withdrawn.
    pub withdrawn: usize,
    /// `open`, `running`, `finished`, `cancelled`.
    pub status: String,
}

/// A pairing of a league round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingLine {
    /// Board.
    pub board: i64,
    /// Sente.
    pub sente: Who,
    /// Gote (`None`: a bye).
    pub gote: Option<Who>,
    /// Its game, once started.
    pub game_id: Option<i64>,
    /// `sente`, `gote`, `draw`, `none`, once decided.
    pub result: Option<String>,
    /// How: `bye`, `forfeit`, or the game's ending (`resignation`, `timeout`...).
    pub how: Option<String>,
    /// Its game's thread or channel.
    pub place: Option<i64>,
}

/// A line of league standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingLine {
    /// Place (shared on a complete tie).
    pub place: usize,
    /// The player.
    pub who: Who,
    /// Points in halves.
    pub halves: i64,
    /// Sonneborn-Berger in quarters.
    pub sb_quarters: i64,
    /// Wins.
    pub wins: i64,
    /// Draws.
    pub draws: i64,
    /// Losses.
    pub losses: i64,
    /// Pairings decided against an opponent (byes not counted).
    pub played: usize,
    /// Withdrew.
    pub withdrawn: bool,
}

/// A live game of a server, for `/games server:`.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerGame {
    /// Game.
    pub game_id: i64,
    /// Sente.
    pub sente: Who,
    /// Gote.
    pub gote: Who,
    /// Plies played.
    pub ply: usize,
    /// Who is to move.
    pub to_move: Who,
    /// Its thread or channel.
    pub place: Option<i64>,
}

/// Why the app refused a request. Shown only to the caller.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// No game with that id.
    #[error("no such game")]
    NoSuchGame,
    /// No challenge with that id (or it is closed).
    #[error("no such open challenge")]
    NoSuchChallenge,
    /// The caller has no active game.
    #[error("no active game")]
    NoActiveGame,
    /// The caller has several games and did not say which.
    #[error("which game?")]
    WhichGame(Vec<GameLine>),
    /// The request came from a game's thread but is not a command of one of
    /// its players about that game.
    #[error("this thread is game #{game_id}")]
    ThreadIsGame {
        /// The thread's game.
        game_id: i64,
        /// Its Sente player.
        sente: Who,
        /// Its Gote player.
        gote: Who,
    },
    /// A rate limit: try again in this many seconds.
    #[error("too many requests; try again in {seconds} s")]
    RateLimited {
        /// Seconds until the next use is allowed.
        seconds: i64,
    },
    /// The caller has as many open challenges as allowed.
    #[error("too many open challenges")]
    TooManyChallenges {
        /// The cap.
        max: i64,
    },
    /// The caller already has an open challenge to that member (or a rematch offer for that game).
    #[error("already challenged")]
    AlreadyChallenged,
    /// A player has as many active games as allowed.
    #[error("too many active games")]
    TooManyGames {
        /// The cap.
        max: i64,
        /// Whether it is the caller (else the other player).
        you: bool,
    },
    /// The caller has as many games against the computer as allowed.
    #[error("too many games against the computer")]
    TooManyComputerGames {
        /// The cap.
        max: i64,
    },
    /// Handicap-ladder games are played without hints and takebacks (the
    /// ranks would mean nothing otherwise).
    #[error("no help on the ladder")]
    NoHelpOnLadder,
    /// An offer of the caller is still waiting for an answer.
    #[error("an offer is pending")]
    OfferPending,
    /// The record format cannot write this game (KIF and CSA have no 5×5
    /// board).
    #[error("this format cannot write this game")]
    FormatUnsupported,
    /// Rematch or challenge addressed to the computer.
    #[error("the computer takes no challenges")]
    ComputerTakesNoChallenge,
    /// The game or challenge belongs to another Discord server.
    #[error("that belongs to another server")]
    OtherServer,
    /// A custom start position that is already over or impossible.
    #[error("the start position cannot begin a game: {0:?}")]
    StartIsOver(StartProblem),
    /// The caller does not play in this game.
    #[error("not your game")]
    NotYourGame,
    /// It is the opponent's move.
    #[error("not your turn")]
    NotYourTurn {
        /// Whose turn it is.
        to_move: Who,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameIsOver,
    /// The move text was not accepted.
    #[error("move refused: {0}")]
    Move(MoveInputError),
    /// Challenging oneself.
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    /// Only the challenged player may answer.
    #[error("this challenge is not addressed to you")]
    NotChallenged,
    /// Only the challenger may cancel.
    #[error("only the challenger can cancel")]
    NotChallenger,
    /// Accepting one's own open challenge.
    #[error("you cannot accept your own challenge")]
    OwnChallenge,
    /// Handicap and minishogi games are never rated.
    #[error("handicap and minishogi games are never rated")]
    UnratedVariant,
    /// No danger help in rated games.
    #[error("no danger help in rated games")]
    NoDangerInRated,
    /// The caller has no such piece (or it cannot move).
    #[error("no such piece")]
    NoSuchPiece(String),
    /// A button meant for someone else.
    #[error("not your button")]
    NotYourButton,
    /// Erasure waits until the member's games are over.
    #[error("{0} games still going")]
    EraseWithActiveGames(i64),
    /// Erasure waits while the member plays in a running league (its id).
    #[error("still in league {0}")]
    EraseInLeague(i64),
    /// One cannot follow oneself or one's own game.
    #[error("cannot follow yourself")]
    FollowYourself,
    /// Already followed.
    #[error("already following")]
    AlreadyFollowing,
    /// The most follows a member may have.
    #[error("at most {0} follows")]
    TooManyFollows(i64),
    /// Server settings exist only on a server.
    #[error("only on a server")]
    OnlyOnAServer,
    /// Changing server settings needs Manage Server.
    #[error("needs Manage Server")]
    NeedsManageServer,
    /// The server allows no rated games.
    #[error("no rated games on this server")]
    RatedOffHere,
    /// Premoves are for games between members.
    #[error("no premoves against the computer")]
    NoPremoveAgainstComputer,
    /// A premove line is entered on the opponent's turn.
    #[error("premove on your own turn")]
    PremoveOnYourTurn,
    /// No line with that number.
    #[error("no premove line {0}")]
    NoSuchPremoveLine(i64),
    /// The caller keeps the most lines allowed in this game.
    #[error("at most {0} premove lines")]
    TooManyPremoveLines(i64),
    /// Another line answers the same condition differently.
    #[error("conflicts with premove line {0}")]
    PremoveConflict(i64),
    /// A line is pairs of moves (condition, answer); this many were given.
    #[error("{0} moves: premove lines are pairs")]
    PremoveNeedsPairs(usize),
    /// A line holds at most this many moves.
    #[error("premove line longer than {0} moves")]
    PremoveTooLong(usize),
    /// Move `index` (1-based) of a line is not legal where it is played.
    #[error("premove move {index}: {error}")]
    PremoveMove {
        /// 1-based.
        index: usize,
        /// Why.
        error: Box<crate::notation::MoveInputError>,
    },
    /// The game is over after move `0` of the line, so nothing can follow.
    #[error("the game ends at premove move {0}")]
    PremoveAfterEnd(usize),
    /// `/vacation on` while on vacation.
    #[error("already on vacation")]
    AlreadyOnVacation,
    /// `/vacation off` while not on vacation.
    #[error("not on vacation")]
    NotOnVacation,
    /// The year's allowance is used up.
    #[error("no vacation left in {year}")]
    NoVacationLeft {
        /// The year.
        year: i64,
    },
    /// A stake needs a rated game.
    #[error("stakes are for rated games")]
    StakeNeedsRated,
    /// A player's Taler do not cover the stake.
    #[error("not enough Taler")]
    NotEnoughTaler {
        /// Whose balance is short.
        who: Who,
        /// Their balance.
        have: i64,
        /// The stake.
        need: i64,
    },
    /// Handicaps are for 9×9 games.
    #[error("handicaps exist only for 9×9 shogi")]
    HandicapInMinishogi,
    /// Days per move must be 1, 2, 3, 5, 7 or 14.
    #[error("days per move must be 1, 2, 3, 5, 7 or 14")]
    BadDays,
    /// Abort is only possible in the first 9 plies.
    #[error("a game can only be aborted before ply 10")]
    TooLateToAbort,
    /// Takebacks are for friendly games.
    #[error("no takebacks in rated games")]
    RatedNoTakeback,
    /// There is nothing to take back.
    #[error("nothing to take back")]
    NothingToTakeBack,
    /// No takeback (or count) request is pending from the opponent.
    #[error("nothing to confirm")]
    NothingToConfirm,
    /// The declaration conditions are not met.
    #[error("cannot declare: {0:?}")]
    CannotDeclare(Vec<DeclarationMissing>),
    /// The game uses another entering-king rule.
    #[error("this game uses another entering-king rule")]
    WrongRule,
    /// Counting needs both kings in the opponent's camp.
    #[error("both kings must be in the opponent's camp")]
    KingsNotInCamp,
    /// A rematch needs a finished game.
    #[error("the game is still running")]
    GameNotFinished,
    /// Two requests raced; this one lost.
    #[error("the game changed meanwhile, try again")]
    Conflict,
    /// A bad command argument.
    #[error("bad argument: {0}")]
    BadArgument(String),
    /// An argument that takes one of a few words, given another.
    #[error("bad argument: {key}={value} (one of {choices})")]
    NotOneOf {
        /// The argument's name.
        key: String,
        /// What was given.
        value: String,
        /// The words it takes, comma-separated.
        choices: String,
    },
    /// A number outside the range its argument takes.
    #[error("bad argument: {key}={value} (from {min} to {max})")]
    OutOfRange {
        /// The argument's name.
        key: String,
        /// What was given.
        value: i64,
        /// The smallest it takes.
        min: i64,
        /// The largest it takes.
        max: i64,
    },
    /// Text longer than the limit.
    #[error("input too long")]
    TooLong,
    /// The engine's queue is full.
    #[error("the computer is busy")]
    EngineBusy,
    /// Hints are never given in rated games.
    #[error("no hints in rated games")]
    NoHintInRated,
    /// Unknown command.
    #[error("unknown command")]
    UnknownCommand(String),
    /// A button id that is none of the bot's (forged, or from an old version).
    #[error("unknown button")]
    UnknownButton(String),
    /// A move sent to the caller's puzzle was refused (they also have a
    /// game, so say where the move went).
    #[error("in your puzzle: {0}")]
    InPuzzle(Box<Refusal>),
    /// The game has more moves than one animation may show.
    #[error("too long for a GIF")]
    GifTooLong(usize),
    /// No lesson with that number.
    #[error("no such lesson")]
    NoSuchLesson(usize),
    /// The last lesson is a game: it takes no move.
    #[error("the lesson is a game")]
    LessonIsAGame,
    /// No puzzle in progress.
    #[error("no puzzle in progress")]
    NoActivePuzzle,
    /// No puzzle of that kind exists.
    #[error("no such puzzle")]
    NoSuchPuzzle,
    /// Today's daily puzzle is already solved.
    #[error("today's puzzle is already solved")]
    DailyAlreadySolved,
    /// A league name is 1 to this many characters.
    #[error("bad league name")]
    BadLeagueName(usize),
    /// Swiss rounds are 1 to this many.
    #[error("bad number of Swiss rounds")]
    BadSwissRounds(i64),
    /// A round robin's rounds follow from its players.
    #[error("rounds are for Swiss leagues")]
    RoundsOnlySwiss,
    /// A league takes between `min` and `max` players.
    #[error("bad league size")]
    BadLeagueSize {
        /// Fewest.
        min: i64,
        /// Most.
        max: i64,
    },
    /// The start is not a date.
    #[error("bad league start {0}")]
    BadLeagueStart(String),
    /// The start is past, or too far ahead.
    #[error("league start out of range")]
    LeagueStartOutOfRange {
        /// Days ahead at most.
        days: i64,
    },
    /// The server has the most leagues open or running.
    #[error("at most {0} leagues")]
    TooManyLeagues(usize),
    /// No such league on this server.
    #[error("no such league")]
    NoSuchLeague,
    /// The league has started or ended.
    #[error("the league is closed")]
    LeagueClosed,
    /// Already in the league.
    #[error("already in the league")]
    AlreadyInLeague,
    /// The league has its most players.
    #[error("the league is full")]
    LeagueFull(i64),
    /// Not in the league (or withdrawn).
    #[error("not in the league")]
    NotInLeague,
    /// Too few players to start.
    #[error("too few players")]
    LeagueTooFew {
        /// Joined.
        have: usize,
        /// Needed.
        need: usize,
    },
    /// No pairings before the start.
    #[error("the league has not started")]
    LeagueNotStarted,
    /// No such round.
    #[error("no such round")]
    NoSuchRound {
        /// The last round there is.
        last: i64,
    },
    /// League games cannot be aborted.
    #[error("league games cannot be aborted")]
    NoAbortInLeague,
}

/// Why a custom start position cannot begin a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartProblem {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move.
    NoLegalMove,
    /// The side not to move is in check (its king could be captured).
    OpponentInCheck,
}
