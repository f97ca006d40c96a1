//! What the use cases of games share: loading and picking the caller's game
//! (the thread rule), finishing a game with its ratings, stored endings, and
//! the announcements of moves. The use cases themselves live by family in
//! `challenges.rs`, `moves.rs`, `actions.rs`, `players.rs` and `buttons.rs`.

use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::Outcomes;

use super::message::{ChallengeSummary, Ending, GameLine, Msg, Refusal, StartProblem, Who};
use super::stored::rule_from;
use super::{
    App, AppError, AppResult, BoardView, Caller, Danger, Place, Visibility, POINTS_PER_GAME,
};
use crate::engine::Level;
use crate::notation::{format_move, Style, Termination};
use crate::shogi::{Color, Game, GameError, Move, Outcome, Position};
use crate::store::{GameRow, NewChallenge, NewGame, PlayerRow, Reader, Tx};

/// Whether a board of game `row` is drawn from Gote's side for `viewer`.
/// Public posts always show Sente at the bottom, so that everyone following
/// a thread sees every board the same way up; a board only `viewer` sees
/// follows their `orientation` setting: `own` (the default) puts their own
/// side at the bottom, `sente` keeps Sente there.
pub(super) fn flipped(row: &GameRow, viewer: &PlayerRow, visibility: Visibility) -> bool {
    visibility == Visibility::Caller
        && viewer.settings.orientation != "sente"
        && row.gote == viewer.user_id
        && row.sente != viewer.user_id
}

pub(super) fn game_from_row(row: &GameRow, moves: &[String]) -> AppResult<Game> {
    let corrupt = |what: String| AppError::Internal(format!("game {}: {what}", row.id));
    let start = Position::from_sfen(&row.start_sfen).map_err(|e| corrupt(e.to_string()))?;
    let rule = rule_from(&row.rule).ok_or_else(|| corrupt(format!("rule {}", row.rule)))?;
    let parsed: Vec<Move> = moves
        .iter()
        .map(|m| Move::from_usi(m).map_err(|_| corrupt(format!("move {m}"))))
        .collect::<Result<_, _>>()?;
    let game = match Game::replay(start, rule, &parsed) {
        Ok(g) => g,
        // A finished game's last move may have ended it; replay stops there.
        Err((i, e)) => return Err(corrupt(format!("move {} ({}): {e}", i + 1, moves[i]))),
    };
    if game.position().to_sfen() != row.sfen {
        return Err(corrupt(format!(
            "stored position {} differs from replay {}",
            row.sfen,
            game.position().to_sfen()
        )));
    }
    Ok(game)
}

pub(super) fn summary_of(c: &NewChallenge) -> ChallengeSummary {
    ChallengeSummary {
        variant: c.variant.clone(),
        handicap: c.handicap.clone(),
        rule: c.rule.clone(),
        days: c.days_per_move,
        rated: c.rated,
        color: c.color.clone(),
        stake: c.stake,
        sennichite_replay: c.sennichite_replay,
        custom_start: c.start_sfen.is_some(),
    }
}

/// A move as public messages write it: the Japanese form with the Western
/// one beside (`▲７六歩 (P-7f)`), the same for every reader of a thread.
/// Private replies use the reader's own notation instead.
pub(super) fn public_move_text(pos: &Position, mv: Move, previous: Option<Move>) -> String {
    format!(
        "{} ({})",
        format_move(pos, mv, Style::Japanese, previous),
        format_move(pos, mv, Style::Western, previous)
    )
}

/// The danger help for `side` in `pos`: its hanging pieces.
pub(super) fn danger_marks(pos: &Position, side: Color) -> Danger {
    Danger {
        hanging: crate::engine::danger::hanging(pos, side),
        ..Danger::default()
    }
}

pub(super) fn style_of(p: &PlayerRow) -> Style {
    Style::from_name(&p.settings.notation).unwrap_or_default()
}

pub(super) fn result_name(o: Outcome) -> (&'static str, String) {
    let (result, reason) = super::stored::outcome_names(o);
    (result, reason.to_string())
}

pub(super) struct Loaded {
    pub(super) row: GameRow,
    pub(super) game: Game,
}

impl Loaded {
    pub(super) fn user_of(&self, c: Color) -> i64 {
        match c {
            Color::Sente => self.row.sente,
            Color::Gote => self.row.gote,
        }
    }

    pub(super) fn color_of(&self, user: i64) -> Option<Color> {
        if self.row.sente == user {
            Some(Color::Sente)
        } else if self.row.gote == user {
            Some(Color::Gote)
        } else {
            None
        }
    }

    /// Whether one of the players is the computer.
    pub(super) fn against_computer(&self) -> bool {
        super::level_of(self.row.sente).is_some() || super::level_of(self.row.gote).is_some()
    }

    pub(super) fn to_move_id(&self) -> i64 {
        self.to_move()
    }

    pub(super) fn to_move(&self) -> i64 {
        self.user_of(self.game.position().side_to_move())
    }
}

impl App {
    pub(super) fn who(tx: &Reader<'_>, id: i64) -> AppResult<Who> {
        let name = tx
            .player(id)?
            .map_or_else(|| format!("#{id}"), |p| p.display_name);
        Ok(Who { id, name })
    }

    pub(super) fn player(tx: &Reader<'_>, id: i64) -> AppResult<PlayerRow> {
        tx.player(id)?
            .ok_or_else(|| AppError::Internal(format!("player {id} missing")))
    }

    pub(super) fn load(tx: &Reader<'_>, game_id: i64) -> AppResult<Loaded> {
        let row = tx.game(game_id)?.ok_or(Refusal::NoSuchGame)?;
        let moves = tx.moves(game_id)?;
        let game = game_from_row(&row, &moves)?;
        Ok(Loaded { row, game })
    }

    /// The game whose thread the request comes from, if any.
    pub(super) fn thread_game(tx: &Reader<'_>, place: Place) -> AppResult<Option<GameRow>> {
        match place.channel {
            Some(ch) => Ok(tx.game_in_thread(ch)?),
            None => Ok(None),
        }
    }

    /// Inside a game's thread a command means that game or nothing: its
    /// players get it (finished or not; the caller checks the status), anyone
    /// else and any other `game:` are refused with the thread's game named.
    pub(super) fn in_thread(
        tx: &Reader<'_>,
        caller: &Caller,
        game: Option<i64>,
        row: GameRow,
    ) -> AppResult<Loaded> {
        if !row.has_player(caller.id) || game.is_some_and(|id| id != row.id) {
            return Err(Refusal::ThreadIsGame {
                game_id: row.id,
                sente: Self::who(tx, row.sente)?,
                gote: Self::who(tx, row.gote)?,
            }
            .into());
        }
        Self::load(tx, row.id)
    }

    /// Picks the caller's game: in a game's thread that game (see
    /// [`App::in_thread`]); elsewhere the given id, or the only active game.
    /// With several active games and no id the caller is asked which.
    pub(super) fn pick_game(
        tx: &Reader<'_>,
        caller: &Caller,
        game: Option<i64>,
        place: Place,
    ) -> AppResult<Loaded> {
        if let Some(row) = Self::thread_game(tx, place)? {
            return Self::in_thread(tx, caller, game, row);
        }
        if let Some(id) = game {
            let l = Self::load(tx, id)?;
            if !l.row.has_player(caller.id) {
                return Err(Refusal::NotYourGame.into());
            }
            same_server(l.row.guild_id, place)?;
            return Ok(l);
        }
        let active = tx.active_games_of(caller.id)?;
        match active.len() {
            0 => Err(Refusal::NoActiveGame.into()),
            1 => {
                // The only game, unless it belongs to another server.
                same_server(active[0].guild_id, place)?;
                Self::load(tx, active[0].id)
            }
            _ => {
                let mut lines = Vec::new();
                for g in &active {
                    lines.push(Self::game_line(tx, g, caller.id)?);
                }
                Err(Refusal::WhichGame(lines).into())
            }
        }
    }

    /// Like `pick_game`, but outside a game's thread and without an id it
    /// takes the caller's most recent game, finished or not (for `/board`,
    /// `/export`, `/replay`, `/analyze`).
    pub(super) fn pick_game_any(
        tx: &Reader<'_>,
        caller: &Caller,
        game: Option<i64>,
        place: Place,
    ) -> AppResult<Loaded> {
        match Self::pick_game(tx, caller, game, place) {
            Err(AppError::Refused(Refusal::NoActiveGame)) => {
                let recent = tx.recent_games_of(caller.id, 1)?;
                let g = recent.first().ok_or(Refusal::NoActiveGame)?;
                same_server(g.guild_id, place)?;
                Self::load(tx, g.id)
            }
            other => other,
        }
    }

    pub(super) fn game_line(tx: &Reader<'_>, g: &GameRow, me: i64) -> AppResult<GameLine> {
        let sente_to_move = g.ply % 2 == 0;
        let start_side_sente = g.start_sfen.split(' ').nth(1) != Some("w");
        let sente_moves = sente_to_move == start_side_sente;
        let to_move = if sente_moves { g.sente } else { g.gote };
        Ok(GameLine {
            game_id: g.id,
            opponent: Self::who(tx, g.opponent_of(me))?,
            your_turn: to_move == me,
            deadline: g.deadline,
            ply: g.ply,
        })
    }

    /// The current board of `l` in `viewer`'s piece style and theme, the way
    /// up [`flipped`] says for a post of `visibility`.
    pub(super) fn board_view(
        tx: &Reader<'_>,
        l: &Loaded,
        viewer: &PlayerRow,
        visibility: Visibility,
    ) -> AppResult<BoardView> {
        let pos = l.game.position();
        Ok(BoardView {
            game_id: l.row.id,
            sfen: pos.to_sfen(),
            last_move: l.game.moves().last().map(ToString::to_string),
            flip: flipped(&l.row, viewer, visibility),
            piece_style: viewer.settings.piece_style.clone(),
            theme: viewer.settings.theme.clone(),
            dots: viewer.settings.dots,
            names: viewer.settings.names,
            danger: Self::danger_for(tx, l, viewer, visibility)?
                .map(|side| danger_marks(pos, side)),
            repetitions: u8::try_from(l.game.repetition_count()).unwrap_or(u8::MAX),
        })
    }

    /// The side whose danger help a board of game `l` drawn for `viewer`
    /// shows, if any: the viewer's setting (`auto`: against Beginner and
    /// Easy; `always`; `off`), never in rated or ladder games, and only on
    /// boards that are the viewer's (private ones, or any in a game against
    /// the computer, where the viewer is the only player).
    pub(super) fn danger_for(
        tx: &Reader<'_>,
        l: &Loaded,
        viewer: &PlayerRow,
        visibility: Visibility,
    ) -> AppResult<Option<Color>> {
        let Some(side) = l.color_of(viewer.user_id) else {
            return Ok(None);
        };
        if l.row.rated || (visibility == Visibility::Public && !l.against_computer()) {
            return Ok(None);
        }
        let opponent = super::level_of(l.user_of(!side));
        let on = match viewer.settings.danger.as_str() {
            "always" => true,
            "auto" => matches!(opponent, Some(Level::Beginner | Level::Easy)),
            _ => false,
        };
        if !on || tx.is_ladder(l.row.id)? {
            return Ok(None);
        }
        Ok(Some(side))
    }

    /// Ends a game in the store, applies ratings, and describes the end.
    pub(super) fn finish(tx: &Tx<'_>, l: &Loaded, outcome: Outcome, now: i64) -> AppResult<Ending> {
        let (result, reason) = result_name(outcome);
        tx.finish_game(l.row.id, l.row.version, result, &reason, now)?;
        let mut ratings = Vec::new();
        let winner = match outcome.winner() {
            Some(c) => Some(Self::who(tx, l.user_of(c))?),
            None => None,
        };
        if l.row.rated && outcome != Outcome::Aborted {
            let s = Self::player(tx, l.row.sente)?;
            let g = Self::player(tx, l.row.gote)?;
            let res = match outcome.winner() {
                Some(Color::Sente) => Outcomes::WIN,
                Some(Color::Gote) => Outcomes::LOSS,
                None => Outcomes::DRAW,
            };
            let (ns, ng) = elo(
                &EloRating { rating: s.rating },
                &EloRating { rating: g.rating },
                &res,
                &EloConfig { k: 32.0 },
            );
            tx.set_rating(s.user_id, l.row.id, s.rating, ns.rating, now)?;
            tx.set_rating(g.user_id, l.row.id, g.rating, ng.rating, now)?;
            if let Some(w) = outcome.winner() {
                tx.add_to_purse(l.user_of(w), POINTS_PER_GAME, 0)?;
                tx.add_to_purse(l.user_of(!w), -POINTS_PER_GAME, 0)?;
            }
            ratings.push((
                Who {
                    id: s.user_id,
                    name: s.display_name,
                },
                s.rating,
                ns.rating,
            ));
            ratings.push((
                Who {
                    id: g.user_id,
                    name: g.display_name,
                },
                g.rating,
                ng.rating,
            ));
        }
        // The pot: the winner's; a draw or an abort gives each stake back.
        let stake = tx.stake_of_game(l.row.id)?;
        if stake > 0 {
            match outcome.winner() {
                Some(w) => tx.add_to_purse(l.user_of(w), 0, 2 * stake)?,
                None => {
                    tx.add_to_purse(l.row.sente, 0, stake)?;
                    tx.add_to_purse(l.row.gote, 0, stake)?;
                }
            }
        }
        Ok(Ending {
            outcome,
            winner,
            ratings,
            pot: 2 * stake,
        })
    }
}

impl App {
    /// After a sennichite in a game whose challenge asked for it: the next
    /// game starts at once in the same place (thread), with colours
    /// swapped, the same options and stake, linked to the drawn one. A
    /// handicap game keeps its sides (the handicap stays with the stronger
    /// player). `None` when the challenge did not ask for a replay.
    pub(super) fn replay_sennichite(tx: &Tx<'_>, l: &Loaded, now: i64) -> AppResult<Option<Msg>> {
        if !tx.sennichite_replay_of_game(l.row.id)? {
            return Ok(None);
        }
        let swap = l.row.handicap.is_none();
        let (sente, gote) = if swap {
            (l.row.gote, l.row.sente)
        } else {
            (l.row.sente, l.row.gote)
        };
        let deadline = Some(now + l.row.days_per_move * super::DAY);
        let g = NewGame {
            guild_id: l.row.guild_id,
            channel_id: l.row.channel_id,
            variant: l.row.variant.clone(),
            handicap: l.row.handicap.clone(),
            rule: l.row.rule.clone(),
            days_per_move: l.row.days_per_move,
            rated: l.row.rated,
            sente,
            gote,
            start_sfen: l.row.start_sfen.clone(),
            deadline,
            created_at: now,
        };
        let game_id = tx.insert_game(&g)?;
        tx.set_replay_of(game_id, l.row.id)?;
        let first = if g.start_sfen.split(' ').nth(1) == Some("w") {
            gote
        } else {
            sente
        };
        Self::pause_if_away(tx, game_id, first, now)?;
        if let Some(thread) = l.row.thread_id {
            tx.set_thread(game_id, thread)?;
        }
        // The replay's options (stake, replaying again) live, as for every
        // game, in the accepted challenge that started it.
        let stake = tx.stake_of_game(l.row.id)?;
        let took = stake > 0 && tx.take_stake(sente, stake)? && {
            if tx.take_stake(gote, stake)? {
                true
            } else {
                tx.add_to_purse(sente, 0, stake)?;
                false
            }
        };
        let c = NewChallenge {
            guild_id: l.row.guild_id,
            channel_id: l.row.channel_id,
            challenger: sente,
            challenged: Some(gote),
            variant: l.row.variant.clone(),
            handicap: l.row.handicap.clone(),
            rule: l.row.rule.clone(),
            days_per_move: l.row.days_per_move,
            rated: l.row.rated,
            color: "sente".into(),
            rematch_of: Some(l.row.id),
            created_at: now,
            expires_at: now,
            start_sfen: Some(l.row.start_sfen.clone()),
            stake: if took { stake } else { 0 },
            sennichite_replay: true,
        };
        let challenge = tx.insert_challenge(&c)?;
        tx.close_challenge(challenge, "accepted", Some(game_id))?;
        let start = Position::from_sfen(&l.row.start_sfen)
            .map_err(|e| AppError::Internal(format!("game {}: {e}", l.row.id)))?;
        let first = match start.side_to_move() {
            Color::Sente => sente,
            Color::Gote => gote,
        };
        Ok(Some(Msg::SennichiteReplay {
            game_id: l.row.id,
            new_game: game_id,
            sente: Self::who(tx, sente)?,
            gote: Self::who(tx, gote)?,
            to_move: Self::who(tx, first)?,
            deadline,
        }))
    }
}

pub(super) fn refusal_of(e: GameError) -> Refusal {
    match e {
        GameError::GameOver(_) => Refusal::GameIsOver,
        GameError::Illegal(i) => Refusal::Move(crate::notation::MoveInputError::Illegal(i)),
        GameError::CannotDeclare(m) => Refusal::CannotDeclare(m),
        GameError::WrongRule(_) => Refusal::WrongRule,
        GameError::KingsNotInCamp => Refusal::KingsNotInCamp,
        GameError::TooLateToAbort => Refusal::TooLateToAbort,
        GameError::NothingToTakeBack => Refusal::NothingToTakeBack,
    }
}

/// A game or challenge belongs to the server it was made on: from another
/// server's channel it is refused (its public replies and pings would land
/// there). Direct messages and the console (no server) may act on any.
pub(super) fn same_server(home: Option<i64>, place: Place) -> Result<(), Refusal> {
    match (home, place.guild) {
        (Some(h), Some(here)) if h != here => Err(Refusal::OtherServer),
        _ => Ok(()),
    }
}

/// Refuses starting something new inside a game's thread (a command there
/// means that game or nothing).
pub(super) fn not_in_game_thread(tx: &Reader<'_>, place: Place) -> AppResult<()> {
    if let Some(ch) = place.channel {
        if let Some(row) = tx.game_in_thread(ch)? {
            return Err(Refusal::ThreadIsGame {
                game_id: row.id,
                sente: App::who(tx, row.sente)?,
                gote: App::who(tx, row.gote)?,
            }
            .into());
        }
    }
    Ok(())
}

/// Seconds an announcement waits in the outbox for the front end to post
/// the reply itself (and acknowledge it) before the outbox delivers it.
pub const ANNOUNCE_GRACE: i64 = 60;

/// Queues the announcement of ply `ply` of `game_id` in the game's place,
/// due after [`ANNOUNCE_GRACE`]; returns its outbox id.
pub(super) fn queue_played(tx: &Tx<'_>, game_id: i64, ply: i64, now: i64) -> AppResult<i64> {
    queue_notice(tx, &super::Notice::Played { game_id, ply }, now)
}

/// Queues `notice` as the announcement of a public reply, due after
/// [`ANNOUNCE_GRACE`]; returns its outbox id.
pub(super) fn queue_notice(tx: &Tx<'_>, notice: &super::Notice, now: i64) -> AppResult<i64> {
    let payload =
        serde_json::to_string(notice).map_err(|e| AppError::Internal(format!("notice: {e}")))?;
    Ok(tx.push_outbox_due(&payload, now, now + ANNOUNCE_GRACE)?)
}

/// Why a custom start position cannot begin a game: it is already over
/// (mate, no legal move) or impossible (the side not to move is in check,
/// so its king could be taken). `None` when a game can start from it.
pub(super) fn start_is_over(pos: &Position) -> Option<StartProblem> {
    let stm = pos.side_to_move();
    if let Some(k) = pos.king_square(!stm) {
        if pos.is_attacked(k, stm, pos.occupied()) {
            return Some(StartProblem::OpponentInCheck);
        }
    }
    if pos.legal_moves().is_empty() {
        return Some(if pos.in_check() {
            StartProblem::Checkmate
        } else {
            StartProblem::NoLegalMove
        });
    }
    None
}

/// Plies to undo so that `user`'s last move is taken back (0: none).
pub(super) fn takeback_plies(l: &Loaded, user: i64) -> usize {
    let Some(color) = l.color_of(user) else {
        return 0;
    };
    let n = l.game.ply();
    let last_mover = |k: usize| -> Color {
        // The side that made move k (1-based).
        let start = l.game.start().side_to_move();
        if k % 2 == 1 {
            start
        } else {
            !start
        }
    };
    if n >= 1 && last_mover(n) == color {
        1
    } else if n >= 2 {
        2
    } else {
        0
    }
}

pub(super) fn stored_ending_pub(tx: &Reader<'_>, row: &GameRow) -> AppResult<Option<Ending>> {
    stored_ending(tx, row)
}

pub(super) fn stored_ending(tx: &Reader<'_>, row: &GameRow) -> AppResult<Option<Ending>> {
    let (Some(result), Some(reason)) = (&row.result, &row.reason) else {
        return Ok(None);
    };
    let outcome = match stored_outcome(result, reason) {
        Some(o) => o,
        None => return Ok(None),
    };
    let winner = match outcome.winner() {
        Some(Color::Sente) => Some(App::who(tx, row.sente)?),
        Some(Color::Gote) => Some(App::who(tx, row.gote)?),
        None => None,
    };
    Ok(Some(Ending {
        outcome,
        winner,
        ratings: Vec::new(),
        pot: 0,
    }))
}

/// The outcome stored as result and reason names (`app::stored`'s table).
#[must_use]
pub fn stored_outcome(result: &str, reason: &str) -> Option<Outcome> {
    super::stored::outcome_from_names(result, reason)
}

pub(super) fn stored_termination(
    result: &str,
    reason: &str,
    to_move: Color,
) -> Option<Termination> {
    super::stored::termination_from_names(result, reason, to_move)
}
