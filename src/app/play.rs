//! The use cases: challenges, moves, game actions, settings and ratings.

use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::Outcomes;

use super::caps::Kind;
use super::message::{ChallengeSummary, Ending, GameLine, Msg, Refusal, StartProblem, Who};
use super::{
    check_len, App, AppError, AppResult, BoardView, ButtonAction, Caller, Place, Reply,
    CHALLENGE_TTL, DAY,
};
use crate::notation::{
    format_move, parse_move, write_record, GameRecord, InputContext, RecordFormat, Style,
    Termination,
};
use crate::shogi::{
    declaration_check, Color, EnteringKingRule, Game, GameError, Handicap, Move, Outcome, Position,
    Variant,
};
use crate::store::{GameRow, NewChallenge, NewGame, PlayerRow, Reader, Settings, Tx};

/// What a challenge asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// Standard or minishogi.
    pub variant: Variant,
    /// Handicap (9×9 only; the handicap giver plays Gote).
    pub handicap: Option<Handicap>,
    /// Entering-king rule.
    pub rule: EnteringKingRule,
    /// Days per move: 1, 2, 3, 5, 7 or 14.
    pub days: i64,
    /// Rated (even 9×9 games only).
    pub rated: bool,
    /// The challenger's colour: Sente, Gote, or `None` for furigoma.
    pub color: Option<Color>,
    /// A custom start position (never rated); its board size decides the variant.
    pub start: Option<Position>,
}

impl Default for ChallengeOptions {
    fn default() -> Self {
        ChallengeOptions {
            variant: Variant::Standard,
            handicap: None,
            rule: EnteringKingRule::Declaration27,
            days: 3,
            rated: true,
            color: None,
            start: None,
        }
    }
}

/// The allowed days per move.
pub const DAYS_PER_MOVE: [i64; 6] = [1, 2, 3, 5, 7, 14];

// --- names stored in the database ------------------------------------------------

/// The stored name of a variant.
#[must_use]
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Standard => "standard",
        Variant::Minishogi => "minishogi",
    }
}

/// The stored name of an entering-king rule.
#[must_use]
pub fn rule_name(r: EnteringKingRule) -> &'static str {
    match r {
        EnteringKingRule::Declaration27 => "declaration27",
        EnteringKingRule::Counting24 => "counting24",
        EnteringKingRule::Try => "try",
    }
}

/// The rule for a stored or typed name.
#[must_use]
pub fn rule_from(s: &str) -> Option<EnteringKingRule> {
    match s.to_ascii_lowercase().as_str() {
        "declaration27" | "declaration" | "27" => Some(EnteringKingRule::Declaration27),
        "counting24" | "counting" | "24" => Some(EnteringKingRule::Counting24),
        "try" => Some(EnteringKingRule::Try),
        _ => None,
    }
}

/// The stored name of a handicap.
#[must_use]
pub fn handicap_name(h: Handicap) -> &'static str {
    match h {
        Handicap::Lance => "lance",
        Handicap::Bishop => "bishop",
        Handicap::Rook => "rook",
        Handicap::RookLance => "rook-lance",
        Handicap::TwoPieces => "2-pieces",
        Handicap::FourPieces => "4-pieces",
        Handicap::SixPieces => "6-pieces",
        Handicap::EightPieces => "8-pieces",
        Handicap::TenPieces => "10-pieces",
    }
}

/// The handicap for a stored or typed name.
#[must_use]
pub fn handicap_from(s: &str) -> Option<Handicap> {
    Handicap::ALL
        .into_iter()
        .find(|&h| handicap_name(h).eq_ignore_ascii_case(s))
}

fn game_from_row(row: &GameRow, moves: &[String]) -> AppResult<Game> {
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

fn summary_of(c: &NewChallenge) -> ChallengeSummary {
    ChallengeSummary {
        variant: c.variant.clone(),
        handicap: c.handicap.clone(),
        rule: c.rule.clone(),
        days: c.days_per_move,
        rated: c.rated,
        color: c.color.clone(),
    }
}

fn style_of(p: &PlayerRow) -> Style {
    Style::from_name(&p.settings.notation).unwrap_or_default()
}

fn result_name(o: Outcome) -> (&'static str, String) {
    let (result, reason) = super::stored::outcome_names(o);
    (result, reason.to_string())
}

pub(super) struct Loaded {
    pub(super) row: GameRow,
    pub(super) game: Game,
}

impl Loaded {
    fn user_of(&self, c: Color) -> i64 {
        match c {
            Color::Sente => self.row.sente,
            Color::Gote => self.row.gote,
        }
    }

    fn color_of(&self, user: i64) -> Option<Color> {
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

    fn to_move(&self) -> i64 {
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
    fn thread_game(tx: &Reader<'_>, place: Place) -> AppResult<Option<GameRow>> {
        match place.channel {
            Some(ch) => Ok(tx.game_in_thread(ch)?),
            None => Ok(None),
        }
    }

    /// Inside a game's thread a command means that game or nothing: its
    /// players get it (finished or not; the caller checks the status), anyone
    /// else and any other `game:` are refused with the thread's game named.
    fn in_thread(
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

    fn game_line(tx: &Reader<'_>, g: &GameRow, me: i64) -> AppResult<GameLine> {
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

    fn board_view(l: &Loaded, viewer: &PlayerRow) -> BoardView {
        BoardView {
            game_id: l.row.id,
            sfen: l.game.position().to_sfen(),
            last_move: l.game.moves().last().map(ToString::to_string),
            flip: l.row.gote == viewer.user_id && l.row.sente != viewer.user_id,
            piece_style: viewer.settings.piece_style.clone(),
            theme: viewer.settings.theme.clone(),
        }
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
        Ok(Ending {
            outcome,
            winner,
            ratings,
        })
    }

    // --- challenges -------------------------------------------------------------

    /// `/challenge`: challenges `opponent` (or anyone, when `None`).
    pub fn challenge(
        &self,
        caller: &Caller,
        opponent: Option<(i64, &str)>,
        opts: &ChallengeOptions,
        place: Place,
    ) -> AppResult {
        check_len(&caller.name)?;
        if let Some((_, name)) = opponent {
            check_len(name)?;
        }
        if opponent.is_some_and(|(id, _)| id == caller.id) {
            return Err(Refusal::SelfChallenge.into());
        }
        if !DAYS_PER_MOVE.contains(&opts.days) {
            return Err(Refusal::BadDays.into());
        }
        if opts.handicap.is_some() && opts.variant == Variant::Minishogi {
            return Err(Refusal::HandicapInMinishogi.into());
        }
        if opts
            .start
            .as_ref()
            .is_some_and(|p| p.variant() != opts.variant)
        {
            return Err(Refusal::BadArgument("variant".into()).into());
        }
        if opts.start.is_some() && opts.handicap.is_some() {
            return Err(Refusal::BadArgument("handicap".into()).into());
        }
        if let Some(start) = &opts.start {
            if let Some(why) = start_is_over(start) {
                return Err(Refusal::StartIsOver(why).into());
            }
        }
        if opts.rated
            && (opts.handicap.is_some()
                || opts.variant == Variant::Minishogi
                || opts.start.is_some())
        {
            return Err(Refusal::UnratedVariant.into());
        }
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            if let Some((id, name)) = opponent {
                tx.upsert_player(id, name, now)?;
            }
            not_in_game_thread(tx, place)?;
            self.caps
                .check_challenge(tx, caller.id, opponent.map(|(id, _)| id))?;
            self.caps.check_games(tx, caller.id, true)?;
            if opponent.is_some() {
                self.caps.take(tx, caller.id, Kind::Ping, now)?;
            }
            let c = NewChallenge {
                guild_id: place.guild,
                channel_id: place.channel,
                challenger: caller.id,
                challenged: opponent.map(|(id, _)| id),
                variant: variant_name(opts.variant).into(),
                handicap: opts.handicap.map(|h| handicap_name(h).into()),
                rule: rule_name(opts.rule).into(),
                days_per_move: opts.days,
                rated: opts.rated,
                color: match opts.color {
                    Some(Color::Sente) => "sente",
                    Some(Color::Gote) => "gote",
                    None => "random",
                }
                .into(),
                rematch_of: None,
                created_at: now,
                expires_at: now + CHALLENGE_TTL,
                start_sfen: opts.start.as_ref().map(Position::to_sfen),
            };
            let id = tx.insert_challenge(&c)?;
            Ok(Self::challenge_reply(
                id,
                caller,
                opponent.map(|(id, n)| Who { id, name: n.into() }),
                &c,
            ))
        })
    }

    fn challenge_reply(
        id: i64,
        caller: &Caller,
        challenged: Option<Who>,
        c: &NewChallenge,
    ) -> Reply {
        let mut r = Reply::public(
            Msg::ChallengeMade {
                id,
                challenger: caller.who(),
                challenged: challenged.clone(),
                options: summary_of(c),
            },
            caller.lang,
        );
        r.buttons = vec![
            ButtonAction::Accept.button(id),
            ButtonAction::Decline.button(id),
            ButtonAction::Cancel.button(id),
        ];
        r.notify = challenged.map(|w| w.id).into_iter().collect();
        r
    }

    /// Accept: starts the game.
    pub fn accept(&self, caller: &Caller, challenge_id: i64, place: Place) -> AppResult {
        check_len(&caller.name)?;
        let now = self.now();
        let coin = self.dice.coin();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let c = tx.challenge(challenge_id)?.filter(|c| c.status == "open");
            let Some(c) = c else {
                return Err(Refusal::NoSuchChallenge.into());
            };
            if c.data.expires_at <= now {
                return Err(Refusal::NoSuchChallenge.into());
            }
            if c.data.challenger == caller.id {
                return Err(Refusal::OwnChallenge.into());
            }
            if c.data.challenged.is_some_and(|id| id != caller.id) {
                return Err(Refusal::NotChallenged.into());
            }
            same_server(c.data.guild_id, place)?;
            self.caps.check_games(tx, caller.id, true)?;
            self.caps.check_games(tx, c.data.challenger, false)?;
            let challenger_sente = match c.data.color.as_str() {
                "sente" => true,
                "gote" => false,
                _ => coin,
            };
            let (sente, gote) = if challenger_sente {
                (c.data.challenger, caller.id)
            } else {
                (caller.id, c.data.challenger)
            };
            let custom = match c.data.start_sfen.as_deref().map(Position::from_sfen) {
                Some(Ok(p)) => Some(p),
                Some(Err(e)) => return Err(AppError::Internal(format!("challenge {}: {e}", c.id))),
                None => None,
            };
            let start = match (custom, c.data.handicap.as_deref().and_then(handicap_from)) {
                (Some(p), _) => p,
                (None, Some(h)) => h.start_position(),
                (None, None) if c.data.variant == "minishogi" => Position::minishogi_startpos(),
                (None, None) => Position::startpos(),
            };
            let g = NewGame {
                guild_id: c.data.guild_id.or(place.guild),
                channel_id: c.data.channel_id.or(place.channel),
                variant: c.data.variant.clone(),
                handicap: c.data.handicap.clone(),
                rule: c.data.rule.clone(),
                days_per_move: c.data.days_per_move,
                rated: c.data.rated,
                sente,
                gote,
                start_sfen: start.to_sfen(),
                deadline: Some(now + c.data.days_per_move * DAY),
                created_at: now,
            };
            let game_id = tx.insert_game(&g)?;
            tx.close_challenge(c.id, "accepted", Some(game_id))?;
            let l = Self::load(tx, game_id)?;
            let to_move = Self::who(tx, l.to_move())?;
            let viewer = Self::player(tx, l.to_move())?;
            let mut r = Reply::public(
                Msg::GameStarted {
                    game_id,
                    sente: Self::who(tx, sente)?,
                    gote: Self::who(tx, gote)?,
                    to_move,
                    deadline: g.deadline,
                    options: summary_of(&c.data),
                },
                caller.lang,
            );
            r.board = Some(Self::board_view(&l, &viewer));
            r.notify = vec![c.data.challenger, caller.id];
            Ok(r)
        })
    }

    /// Decline (the challenged player only).
    pub fn decline(&self, caller: &Caller, challenge_id: i64) -> AppResult {
        self.close(caller, challenge_id, false, Place::default())
    }

    /// Cancel (the challenger only).
    pub fn cancel(&self, caller: &Caller, challenge_id: i64) -> AppResult {
        self.close(caller, challenge_id, true, Place::default())
    }

    fn close(&self, caller: &Caller, challenge_id: i64, cancel: bool, place: Place) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let Some(c) = tx.challenge(challenge_id)?.filter(|c| c.status == "open") else {
                return Err(Refusal::NoSuchChallenge.into());
            };
            if cancel && c.data.challenger != caller.id {
                return Err(Refusal::NotChallenger.into());
            }
            if !cancel && c.data.challenged != Some(caller.id) {
                return Err(Refusal::NotChallenged.into());
            }
            same_server(c.data.guild_id, place)?;
            let status = if cancel { "cancelled" } else { "declined" };
            tx.close_challenge(c.id, status, None)?;
            let msg = if cancel {
                Msg::ChallengeCancelled { id: c.id }
            } else {
                Msg::ChallengeDeclined {
                    id: c.id,
                    by: caller.who(),
                }
            };
            let mut r = Reply::public(msg, caller.lang);
            r.notify = vec![if cancel {
                c.data.challenged.unwrap_or(caller.id)
            } else {
                c.data.challenger
            }];
            Ok(r)
        })
    }

    /// Rematch of a finished game: a challenge to the opponent with colours swapped.
    pub fn rematch(&self, caller: &Caller, game_id: i64) -> AppResult {
        self.rematch_in(caller, game_id, Place::default())
    }

    /// [`App::rematch`] asked from `place` (the Rematch button).
    fn rematch_in(&self, caller: &Caller, game_id: i64, place: Place) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let row = tx.game(game_id)?.ok_or(Refusal::NoSuchGame)?;
            if !row.has_player(caller.id) {
                return Err(Refusal::NotYourGame.into());
            }
            if row.status != "finished" {
                return Err(Refusal::GameNotFinished.into());
            }
            same_server(row.guild_id, place)?;
            let opponent = row.opponent_of(caller.id);
            if super::level_of(opponent).is_some() {
                return Err(Refusal::ComputerTakesNoChallenge.into());
            }
            self.caps.check_challenge(tx, caller.id, Some(opponent))?;
            self.caps.take(tx, caller.id, Kind::Ping, now)?;
            let c = NewChallenge {
                guild_id: row.guild_id,
                channel_id: row.channel_id,
                challenger: caller.id,
                challenged: Some(opponent),
                variant: row.variant.clone(),
                handicap: row.handicap.clone(),
                rule: row.rule.clone(),
                days_per_move: row.days_per_move,
                rated: row.rated,
                // Colours swapped: the caller takes the other side.
                color: if row.sente == caller.id {
                    "gote"
                } else {
                    "sente"
                }
                .into(),
                rematch_of: Some(row.id),
                created_at: now,
                expires_at: now + CHALLENGE_TTL,
                // A game from a custom position is replayed from the same position.
                start_sfen: (row.handicap.is_none()
                    && row.start_sfen != Position::startpos().to_sfen()
                    && row.start_sfen != Position::minishogi_startpos().to_sfen())
                .then(|| row.start_sfen.clone()),
            };
            let id = tx.insert_challenge(&c)?;
            let who = Self::who(tx, opponent)?;
            Ok(Self::challenge_reply(id, caller, Some(who), &c))
        })
    }

    // --- moves --------------------------------------------------------------------

    /// `/move`: plays the caller's move in their game. With a `request_id`, a
    /// repeated request is answered without being applied twice. In a game
    /// against the computer, the computer's answer follows in the same reply.
    pub fn play_move(
        &self,
        caller: &Caller,
        game: Option<i64>,
        text: &str,
        place: Place,
        request_id: Option<&str>,
    ) -> AppResult {
        let reply = self.play_one_move(caller, game, text, place, request_id)?;
        let game_id = match &reply.msg {
            Msg::MovePlayed {
                game_id,
                ending: None,
                next: Some(next),
                ..
            } if super::level_of(next.id).is_some() && super::level_of(caller.id).is_none() => {
                *game_id
            }
            _ => return Ok(reply),
        };
        // The computer's answer is stored as a job with the move: it comes
        // inline when the engine is quick, else the worker posts it.
        Ok(self.with_computer_answer(reply, game_id, caller.lang))
    }

    /// Plays one move and stores it with its announcement (and, when the
    /// computer is to answer, its durable job) in one transaction.
    pub(super) fn play_one_move(
        &self,
        caller: &Caller,
        game: Option<i64>,
        text: &str,
        place: Place,
        request_id: Option<&str>,
    ) -> AppResult {
        check_len(text)?;
        if let Some(r) = request_id {
            check_len(r)?;
        }
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            // The request id is claimed first: a duplicate sent to another
            // process at the same moment waits for this transaction and then
            // gets its answer, never a second move.
            if let Some(rid) = request_id {
                if !tx.claim_request(rid, now)? {
                    let done = tx.answered(rid)?.unwrap_or_default();
                    let (g, p) = done.split_once(':').unwrap_or(("0", "0"));
                    let msg = Msg::AlreadyDone {
                        game_id: g.parse().unwrap_or(0),
                        ply: p.parse().unwrap_or(0),
                    };
                    return Ok(Reply::private(msg, caller.lang));
                }
            }
            let mut l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            let mover_color = l.game.position().side_to_move();
            if l.user_of(mover_color) != caller.id {
                let to_move = Self::who(tx, l.to_move())?;
                return Err(Refusal::NotYourTurn { to_move }.into());
            }
            let me = Self::player(tx, caller.id)?;
            let style = style_of(&me);
            let before = l.game.position().clone();
            let ctx = InputContext {
                previous: l.game.moves().last().copied(),
                style: Some(style),
            };
            let mv = match parse_move(&before, text, ctx) {
                Ok(m) => m,
                Err(e) => return Err(Refusal::Move(e).into()),
            };
            let outcome = match l.game.play(mv) {
                Ok(o) => o,
                Err(GameError::Illegal(e)) => {
                    return Err(Refusal::Move(crate::notation::MoveInputError::Illegal(e)).into())
                }
                Err(_) => return Err(Refusal::GameIsOver.into()),
            };
            let ply = l.game.ply() as i64;
            let next = l.to_move();
            // Games against the computer have no deadline.
            let deadline = (outcome.is_none() && !l.against_computer())
                .then_some(now + l.row.days_per_move * DAY);
            tx.append_move(
                l.row.id,
                l.row.version,
                ply,
                &mv.to_string(),
                &l.game.position().to_sfen(),
                deadline,
                now,
            )?;
            l.row.version += 1;
            let ending = match outcome {
                Some(o) => Some(Self::finish(tx, &l, o, now)?),
                None => None,
            };
            if super::level_of(caller.id).is_some() {
                tx.finish_computer_job(l.row.id)?;
            } else if ending.is_none() && super::level_of(next).is_some() {
                // Claimed for the inline answer that follows, so the worker
                // does not search it too; released if that does not finish.
                tx.enqueue_computer_job(l.row.id, ply, now)?;
                tx.claim_computer_job(l.row.id, now, now + super::computer::INLINE_CLAIM_SECS)?;
            }
            // The announcement in the game's place, delivered by the outbox
            // unless the front end posts this reply and acknowledges it.
            let announcement = queue_played(tx, l.row.id, ply, now)?;
            if let Some(rid) = request_id {
                tx.answer_request(rid, &format!("{}:{ply}", l.row.id))?;
            }
            let text = format_move(&before, mv, style, ctx.previous);
            let msg = Msg::MovePlayed {
                game_id: l.row.id,
                mover: caller.who(),
                text,
                captured: match mv {
                    Move::Normal { to, .. } => before.piece_at(to).map(|p| p.kind),
                    Move::Drop { .. } => None,
                },
                promoted: mv.is_promotion(),
                check: l.game.position().in_check(),
                repetitions: l.game.repetition_count(),
                next: if ending.is_none() {
                    Some(Self::who(tx, next)?)
                } else {
                    None
                },
                deadline,
                ending: ending.clone(),
            };
            let mut r = Reply::public(msg, caller.lang);
            r.announcements = vec![announcement];
            let opponent = Self::player(tx, l.row.opponent_of(caller.id))?;
            r.board = Some(Self::board_view(&l, &opponent));
            r.notify = vec![opponent.user_id];
            if ending.is_some() {
                if !l.against_computer() {
                    r.buttons.push(ButtonAction::Rematch.button(l.row.id));
                }
            } else if l.game.rule() == EnteringKingRule::Declaration27
                && declaration_check(l.game.position()).is_empty()
            {
                r.buttons.push(ButtonAction::Declare.button(l.row.id));
            }
            Ok(r)
        })
    }

    /// The legal moves of the caller's game written in the caller's notation,
    /// filtered by what was typed (for autocomplete). At most `limit`.
    pub fn move_suggestions(
        &self,
        caller: &Caller,
        game: Option<i64>,
        typed: &str,
        place: Place,
        limit: usize,
    ) -> AppResult<Vec<(String, String)>> {
        let typed: String = typed
            .chars()
            .take(super::MAX_ARG_CHARS)
            .collect::<String>()
            .to_lowercase();
        let store = self.store()?;
        let out = store.read(|tx| -> AppResult<_> {
            let (pos, prev, style) = match Self::puzzle_for_move(tx, caller, game, place)? {
                Some(puzzle) => puzzle,
                None => {
                    let l = match Self::pick_game(tx, caller, game, place) {
                        Ok(l) => l,
                        Err(_) => return Ok(Vec::new()),
                    };
                    if l.row.status != "active" || l.to_move() != caller.id {
                        return Ok(Vec::new());
                    }
                    let style = tx
                        .player(caller.id)?
                        .map(|p| style_of(&p))
                        .unwrap_or_default();
                    (
                        l.game.position().clone(),
                        l.game.moves().last().copied(),
                        style,
                    )
                }
            };
            let pos = &pos;
            let mut v: Vec<(String, String)> = pos
                .legal_moves()
                .iter()
                .map(|&m| (format_move(pos, m, style, prev), m.to_string()))
                .filter(|(shown, usi)| {
                    typed.is_empty()
                        || shown.to_lowercase().contains(&typed)
                        || usi.contains(&typed)
                })
                .collect();
            v.sort();
            v.truncate(limit);
            Ok(v)
        })?;
        Ok(out)
    }

    // --- game actions -------------------------------------------------------------

    /// `/board`: the position of the caller's game (in a game's thread,
    /// that game; otherwise `game:` or the most recent one).
    pub fn board(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        self.show_board(caller, game, place)
    }

    pub(super) fn show_board(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, self.now())?;
            let l = Self::pick_game_any(tx, caller, game, place)?;
            let me = Self::player(tx, caller.id)?;
            let ending = l.game.outcome().map(|o| {
                let winner = o.winner().map(|c| Who {
                    id: l.user_of(c),
                    name: String::new(),
                });
                Ending {
                    outcome: o,
                    winner,
                    ratings: Vec::new(),
                }
            });
            let ending = match ending {
                Some(mut e) => {
                    if let Some(w) = &e.winner {
                        e.winner = Some(Self::who(tx, w.id)?);
                    }
                    Some(e)
                }
                None => stored_ending(tx, &l.row)?,
            };
            let msg = Msg::Board {
                game_id: l.row.id,
                sente: Self::who(tx, l.row.sente)?,
                gote: Self::who(tx, l.row.gote)?,
                to_move: if l.row.status == "active" {
                    Some(Self::who(tx, l.to_move())?)
                } else {
                    None
                },
                ply: l.row.ply,
                deadline: l.row.deadline,
                ending,
            };
            let mut r = Reply::public(msg, caller.lang);
            r.board = Some(Self::board_view(&l, &me));
            Ok(r)
        })
    }

    /// The announcement of ply `ply` of `game_id` (a
    /// [`super::Notice::Played`]), built from the stored game and worded for
    /// the player who is to answer it. `None` when the game no longer has
    /// that ply (it was taken back).
    pub fn played_reply(tx: &Reader<'_>, game_id: i64, ply: i64) -> AppResult<Option<Reply>> {
        let Some(row) = tx.game(game_id)? else {
            return Ok(None);
        };
        let moves = tx.moves(game_id)?;
        let l = Loaded {
            game: game_from_row(&row, &moves)?,
            row,
        };
        let Some(n) = usize::try_from(ply)
            .ok()
            .filter(|&n| n >= 1 && n <= l.game.ply())
        else {
            return Ok(None);
        };
        let played = &l.game.moves()[..n];
        let replay = |k: usize| {
            Game::replay(l.game.start().clone(), l.game.rule(), &played[..k])
                .map_err(|(i, e)| AppError::Internal(format!("game {game_id} move {}: {e}", i + 1)))
        };
        let before = replay(n - 1)?;
        let after = replay(n)?;
        let mv = played[n - 1];
        let mover_color = before.position().side_to_move();
        let mover = l.user_of(mover_color);
        let reader = Self::player(tx, l.user_of(!mover_color))?;
        let last = n == l.game.ply();
        let ending = if last && l.row.status == "finished" {
            stored_ending(tx, &l.row)?
        } else {
            None
        };
        let prev = before.moves().last().copied();
        let msg = Msg::MovePlayed {
            game_id,
            mover: Self::who(tx, mover)?,
            text: format_move(before.position(), mv, style_of(&reader), prev),
            captured: match mv {
                Move::Normal { to, .. } => before.position().piece_at(to).map(|p| p.kind),
                Move::Drop { .. } => None,
            },
            promoted: mv.is_promotion(),
            check: after.position().in_check(),
            repetitions: after.repetition_count(),
            next: if ending.is_none() {
                Some(Self::who(tx, reader.user_id)?)
            } else {
                None
            },
            deadline: if last { l.row.deadline } else { None },
            ending,
        };
        let lang = match reader.settings.language.as_deref() {
            Some("de") => crate::lang::Lang::De,
            _ => crate::lang::Lang::En,
        };
        let mut r = Reply::public(msg, lang);
        r.board = Some(BoardView {
            game_id,
            sfen: after.position().to_sfen(),
            last_move: Some(mv.to_string()),
            flip: l.row.gote == reader.user_id && l.row.sente != reader.user_id,
            piece_style: reader.settings.piece_style.clone(),
            theme: reader.settings.theme.clone(),
        });
        r.notify = vec![reader.user_id];
        Ok(Some(r))
    }

    /// `/games`: the caller's active games.
    pub fn games(&self, caller: &Caller) -> AppResult {
        let store = self.store()?;
        let lines = store.read(|tx| -> AppResult<_> {
            let mut lines = Vec::new();
            for g in tx.active_games_of(caller.id)? {
                lines.push(Self::game_line(tx, &g, caller.id)?);
            }
            Ok(lines)
        })?;
        Ok(Reply::private(Msg::Games(lines), caller.lang))
    }

    /// `/resign`, `/abort`, `/declare`, and confirming a count: actions that
    /// may end the game.
    pub fn game_action(
        &self,
        caller: &Caller,
        game: Option<i64>,
        action: Action,
        place: Place,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let mut l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            let Some(color) = l.color_of(caller.id) else {
                return Err(Refusal::NotYourGame.into());
            };
            let result = match action {
                Action::Resign => {
                    // Ask first, with buttons only the caller sees.
                    let abort = l.game.clone().resign(color) == Ok(Outcome::Aborted);
                    let mut r = Reply::private(
                        Msg::ConfirmResign {
                            game_id: l.row.id,
                            abort,
                        },
                        caller.lang,
                    );
                    r.buttons = vec![
                        ButtonAction::ResignYes.button(l.row.id),
                        ButtonAction::ResignNo.button(l.row.id),
                    ];
                    return Ok(r);
                }
                Action::ResignConfirmed => l.game.resign(color),
                Action::Abort => l.game.abort(),
                Action::Declare => {
                    if l.game.position().side_to_move() != color {
                        let to_move = Self::who(tx, l.to_move())?;
                        return Err(Refusal::NotYourTurn { to_move }.into());
                    }
                    l.game.declare()
                }
                Action::Count => {
                    if !l.game.can_count() {
                        return Err(if l.game.rule() == EnteringKingRule::Counting24 {
                            Refusal::KingsNotInCamp
                        } else {
                            Refusal::WrongRule
                        }
                        .into());
                    }
                    match l.row.count_by {
                        Some(by) if by != caller.id => l.game.count(),
                        Some(_) => return Err(Refusal::OfferPending.into()),
                        None => {
                            self.caps.take(tx, caller.id, Kind::Ping, now)?;
                            tx.set_offer(l.row.id, l.row.version, false, Some(caller.id))?;
                            let mut r = Reply::public(
                                Msg::CountOffered {
                                    game_id: l.row.id,
                                    by: caller.who(),
                                },
                                caller.lang,
                            );
                            r.buttons.push(ButtonAction::CountYes.button(l.row.id));
                            r.notify = vec![l.row.opponent_of(caller.id)];
                            return Ok(r);
                        }
                    }
                }
            };
            let outcome = match result {
                Ok(o) => o,
                Err(e) => return Err(refusal_of(e).into()),
            };
            let ending = Self::finish(tx, &l, outcome, now)?;
            l.row.status = "finished".into();
            let announcement = queue_notice(tx, &super::Notice::Ended { game_id: l.row.id }, now)?;
            let me = Self::player(tx, caller.id)?;
            let mut r = Reply::public(
                Msg::GameOver {
                    game_id: l.row.id,
                    ending,
                },
                caller.lang,
            );
            r.board = Some(Self::board_view(&l, &me));
            r.notify = vec![l.row.opponent_of(caller.id)];
            r.announcements = vec![announcement];
            if !l.against_computer() {
                r.buttons.push(ButtonAction::Rematch.button(l.row.id));
            }
            Ok(r)
        })
    }

    /// The player pressed "Keep playing" under the resignation question:
    /// nothing changes; the question is replaced by a note.
    fn resign_cancelled(&self, caller: &Caller, game_id: i64, place: Place) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let l = Self::pick_game(tx, caller, Some(game_id), place)?;
            let mut r = Reply::private(Msg::ResignCancelled { game_id: l.row.id }, caller.lang);
            r.replace = true;
            Ok(r)
        })
    }

    /// `/takeback`: asks the opponent to undo the caller's last move (friendly games).
    pub fn takeback(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let offer = self.request_takeback(caller, game, place)?;
        // The computer always agrees.
        let game_id = match &offer.msg {
            Msg::TakebackOffered { game_id, .. } => *game_id,
            _ => return Ok(offer),
        };
        let computer = {
            let store = self.store()?;
            let row = store
                .read(|r| r.game(game_id))?
                .ok_or(Refusal::NoSuchGame)?;
            super::level_of(row.opponent_of(caller.id))
        };
        match computer {
            Some(level) => {
                let comp = Caller::new(super::computer_id(level), "komadai", caller.lang);
                let mut r = self.answer_takeback(&comp, game_id, true, Place::default())?;
                r.lang = caller.lang;
                r.notify = Vec::new();
                Ok(r)
            }
            None => Ok(offer),
        }
    }

    fn request_takeback(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            if l.row.rated {
                return Err(Refusal::RatedNoTakeback.into());
            }
            if tx.is_ladder(l.row.id)? {
                return Err(Refusal::NoHelpOnLadder.into());
            }
            if takeback_plies(&l, caller.id) == 0 {
                return Err(Refusal::NothingToTakeBack.into());
            }
            if l.row.takeback_by == Some(caller.id) {
                return Err(Refusal::OfferPending.into());
            }
            if !l.against_computer() {
                self.caps.take(tx, caller.id, Kind::Ping, now)?;
            }
            tx.set_offer(l.row.id, l.row.version, true, Some(caller.id))?;
            let mut r = Reply::public(
                Msg::TakebackOffered {
                    game_id: l.row.id,
                    by: caller.who(),
                },
                caller.lang,
            );
            r.buttons = vec![
                ButtonAction::TakebackYes.button(l.row.id),
                ButtonAction::TakebackNo.button(l.row.id),
            ];
            r.notify = vec![l.row.opponent_of(caller.id)];
            Ok(r)
        })
    }

    /// The opponent answers a takeback request (the button pressed in `place`).
    pub fn answer_takeback(
        &self,
        caller: &Caller,
        game_id: i64,
        yes: bool,
        place: Place,
    ) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let mut l = Self::pick_game(tx, caller, Some(game_id), place)?;
            let Some(by) = l.row.takeback_by.filter(|&by| by != caller.id) else {
                return Err(Refusal::NothingToConfirm.into());
            };
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            if !yes {
                tx.set_offer(l.row.id, l.row.version, true, None)?;
                let mut r = Reply::public(Msg::TakebackDeclined { game_id }, caller.lang);
                r.notify = vec![by];
                return Ok(r);
            }
            let plies = takeback_plies(&l, by);
            for _ in 0..plies {
                l.game
                    .undo()
                    .map_err(|_| crate::store::StoreError::Corrupt("undo".into()))?;
                let deadline = (!l.against_computer()).then_some(now + l.row.days_per_move * DAY);
                tx.remove_last_move(
                    l.row.id,
                    l.row.version,
                    &l.game.position().to_sfen(),
                    deadline,
                    now,
                )?;
                l.row.version += 1;
            }
            let viewer = Self::player(tx, by)?;
            let mut r = Reply::public(Msg::TakebackDone { game_id, plies }, caller.lang);
            r.board = Some(Self::board_view(&l, &viewer));
            r.notify = vec![by];
            Ok(r)
        })
    }

    /// `/export`: the game record as KIF, CSA or SFEN + USI moves.
    pub fn export(
        &self,
        caller: &Caller,
        game: Option<i64>,
        format: RecordFormat,
        place: Place,
    ) -> AppResult {
        let store = self.store()?;
        store.read(|tx| -> AppResult<_> {
            let l = Self::pick_game_any(tx, caller, game, place)?;
            let mut rec = GameRecord::from_game(&l.game);
            rec.sente = Some(Self::who(tx, l.row.sente)?.name);
            rec.gote = Some(Self::who(tx, l.row.gote)?.name);
            if rec.termination.is_none() {
                if let (Some(result), Some(reason)) = (&l.row.result, &l.row.reason) {
                    rec.termination =
                        stored_termination(result, reason, l.game.position().side_to_move());
                }
            }
            // KIF and CSA have no way to write a 5×5 game (and no record
            // format can write some custom starts): say so, offer SFEN.
            let text = write_record(&rec, format).map_err(|_| Refusal::FormatUnsupported)?;
            let (name, ext) = match format {
                RecordFormat::Kif => ("KIF", "kifu"),
                RecordFormat::Csa => ("CSA", "csa"),
                RecordFormat::Usi => ("SFEN", "usi"),
            };
            let mut r = Reply::private(
                Msg::Exported {
                    game_id: l.row.id,
                    format: name.into(),
                },
                caller.lang,
            );
            r.attachment = Some((format!("komadai-{}.{ext}", l.row.id), text.into_bytes()));
            Ok(r)
        })
    }

    /// `/export format:gif`: the whole game as an animated GIF, drawn in the
    /// caller's piece style and theme from their side. Drawn after the store
    /// is released (a long game takes a moment).
    pub fn export_gif(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let (l, view) = {
            let store = self.store()?;
            store.read(|tx| -> AppResult<_> {
                let l = Self::pick_game_any(tx, caller, game, place)?;
                let me = Self::player(tx, caller.id)?;
                let view = Self::board_view(&l, &me);
                Ok((l, view))
            })?
        };
        let max = crate::render::MAX_GIF_MOVES;
        if l.game.moves().len() > max {
            return Err(Refusal::GifTooLong(max).into());
        }
        let gif = crate::render::game_gif(l.game.start(), l.game.moves(), &view.render_options())
            .map_err(|e| AppError::Internal(format!("gif of game {}: {e}", l.row.id)))?;
        let mut r = Reply::private(
            Msg::Exported {
                game_id: l.row.id,
                format: "GIF".into(),
            },
            caller.lang,
        );
        r.attachment = Some((format!("komadai-{}.gif", l.row.id), gif));
        Ok(r)
    }

    // --- players ------------------------------------------------------------------

    /// `/settings`: changes the given settings (each `None` stays) and shows them.
    pub fn settings(&self, caller: &Caller, change: &SettingsChange) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let mut s = Self::player(tx, caller.id)?.settings;
            if let Some(n) = &change.notation {
                match Style::from_name(n) {
                    Some(style) => s.notation = style.name().into(),
                    None => return Err(Refusal::BadArgument(format!("notation {n}")).into()),
                }
            }
            if let Some(p) = &change.piece_style {
                if !["kanji", "kanji2", "international"].contains(&p.as_str()) {
                    return Err(Refusal::BadArgument(format!("style {p}")).into());
                }
                s.piece_style.clone_from(p);
            }
            if let Some(t) = &change.theme {
                if !["light", "dark"].contains(&t.as_str()) {
                    return Err(Refusal::BadArgument(format!("theme {t}")).into());
                }
                s.theme.clone_from(t);
            }
            if let Some(l) = &change.language {
                s.language = match l.as_str() {
                    "en" | "de" => Some(l.clone()),
                    "auto" => None,
                    _ => return Err(Refusal::BadArgument(format!("language {l}")).into()),
                };
            }
            if let Some(d) = change.dms {
                s.dms = d;
            }
            tx.save_settings(caller.id, &s)?;
            let lang = match s.language.as_deref() {
                Some("de") => crate::lang::Lang::De,
                Some("en") => crate::lang::Lang::En,
                _ => caller.lang,
            };
            Ok(Reply::private(settings_msg(&s), lang))
        })
    }

    /// `/stats` of `user` (the caller when `None`).
    pub fn stats(&self, caller: &Caller, user: Option<i64>) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let id = user.unwrap_or(caller.id);
            let Some(p) = tx.player(id)? else {
                return Err(Refusal::BadArgument(format!("user {id}")).into());
            };
            let (wins, losses, draws, _) = tx.record_of(id)?;
            let mut computer = Vec::new();
            for level in crate::engine::Level::ALL {
                let (w, l, d) = tx.record_against(id, super::computer_id(level))?;
                if w + l + d > 0 {
                    computer.push((level.name().to_string(), w, l, d));
                }
            }
            Ok(Reply::public(
                Msg::Stats {
                    who: Who {
                        id,
                        name: p.display_name,
                    },
                    rating: p.rating,
                    rated_games: p.rated_games,
                    wins,
                    losses,
                    draws,
                    computer,
                    ladder: Self::ladder_of(tx, id)?,
                },
                caller.lang,
            ))
        })
    }

    /// `/leaderboard` of a server (everyone when `guild` is `None`).
    pub fn leaderboard(&self, caller: &Caller, guild: Option<i64>) -> AppResult {
        let store = self.store()?;
        let rows = store.read(|r| r.leaderboard(guild, 10))?;
        let list = rows
            .into_iter()
            .map(|p| {
                (
                    Who {
                        id: p.user_id,
                        name: p.display_name,
                    },
                    p.rating,
                    p.rated_games,
                )
            })
            .collect();
        Ok(Reply::public(Msg::Leaderboard(list), caller.lang))
    }

    /// The display name of a user, if known.
    pub fn display_name(&self, user: i64) -> Option<String> {
        let store = self.store().ok()?;
        let p = store.read(|r| r.player(user)).ok().flatten()?;
        Some(p.display_name)
    }

    /// The language a reply to `user` should use: their setting, else `client`.
    pub fn lang_for(&self, user: i64, client: crate::lang::Lang) -> crate::lang::Lang {
        let Ok(store) = self.store() else {
            return client;
        };
        match store
            .read(|r| r.player(user))
            .ok()
            .flatten()
            .and_then(|p| p.settings.language)
        {
            Some(l) if l == "de" => crate::lang::Lang::De,
            Some(l) if l == "en" => crate::lang::Lang::En,
            _ => client,
        }
    }

    /// Dispatches a button press (`accept:12`, `takeback-yes:3`, ...).
    pub fn press(&self, caller: &Caller, custom_id: &str, place: Place) -> AppResult {
        let Some((action, id, ply)) = ButtonAction::parse(custom_id) else {
            return Err(Refusal::UnknownCommand(custom_id.chars().take(40).collect()).into());
        };
        match action {
            ButtonAction::Accept => self.accept(caller, id, place),
            ButtonAction::Decline => self.close(caller, id, false, place),
            ButtonAction::Cancel => self.close(caller, id, true, place),
            ButtonAction::TakebackYes => self.answer_takeback(caller, id, true, place),
            ButtonAction::TakebackNo => self.answer_takeback(caller, id, false, place),
            ButtonAction::CountYes => self.game_action(caller, Some(id), Action::Count, place),
            ButtonAction::Declare => self.game_action(caller, Some(id), Action::Declare, place),
            ButtonAction::Rematch => self.rematch_in(caller, id, place),
            ButtonAction::ResignYes => {
                self.game_action(caller, Some(id), Action::ResignConfirmed, place)
            }
            ButtonAction::ResignNo => self.resign_cancelled(caller, id, place),
            ButtonAction::ReplayFirst
            | ButtonAction::ReplayBack
            | ButtonAction::ReplayNext
            | ButtonAction::ReplayLast => {
                let mut reply = self.replay(caller, Some(id), ply, place)?;
                reply.replace = true;
                Ok(reply)
            }
        }
    }
}

/// Game actions that may end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Ask to resign: answered with a confirmation (Resign / Keep playing).
    Resign,
    /// Resign for real (the confirmation button; aborts before ply 10).
    ResignConfirmed,
    /// Abort (only before ply 10).
    Abort,
    /// Declare an entering-king win (27 points).
    Declare,
    /// Ask to count, or agree to the opponent's request (24 points).
    Count,
}

/// Settings to change; `None` keeps the current value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// `usi`, `western`, `western-numeric`, `japanese`.
    pub notation: Option<String>,
    /// `kanji`, `kanji2`, `international`.
    pub piece_style: Option<String>,
    /// `light`, `dark`.
    pub theme: Option<String>,
    /// `en`, `de`, `auto`.
    pub language: Option<String>,
    /// DMs on your turn.
    pub dms: Option<bool>,
}

fn settings_msg(s: &Settings) -> Msg {
    Msg::Settings {
        notation: s.notation.clone(),
        piece_style: s.piece_style.clone(),
        theme: s.theme.clone(),
        language: s.language.clone(),
        dms: s.dms,
    }
}

fn refusal_of(e: GameError) -> Refusal {
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
fn same_server(home: Option<i64>, place: Place) -> Result<(), Refusal> {
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
fn queue_played(tx: &Tx<'_>, game_id: i64, ply: i64, now: i64) -> AppResult<i64> {
    queue_notice(tx, &super::Notice::Played { game_id, ply }, now)
}

/// Queues `notice` as the announcement of a public reply, due after
/// [`ANNOUNCE_GRACE`]; returns its outbox id.
fn queue_notice(tx: &Tx<'_>, notice: &super::Notice, now: i64) -> AppResult<i64> {
    let payload =
        serde_json::to_string(notice).map_err(|e| AppError::Internal(format!("notice: {e}")))?;
    Ok(tx.push_outbox_due(&payload, now, now + ANNOUNCE_GRACE)?)
}

/// Why a custom start position cannot begin a game: it is already over
/// (mate, no legal move) or impossible (the side not to move is in check,
/// so its king could be taken). `None` when a game can start from it.
fn start_is_over(pos: &Position) -> Option<StartProblem> {
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
fn takeback_plies(l: &Loaded, user: i64) -> usize {
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

fn stored_ending(tx: &Reader<'_>, row: &GameRow) -> AppResult<Option<Ending>> {
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
    }))
}

/// The outcome stored as result and reason names (`app::stored`'s table).
#[must_use]
pub fn stored_outcome(result: &str, reason: &str) -> Option<Outcome> {
    super::stored::outcome_from_names(result, reason)
}

fn stored_termination(result: &str, reason: &str, to_move: Color) -> Option<Termination> {
    super::stored::termination_from_names(result, reason, to_move)
}
