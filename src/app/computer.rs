//! Playing the computer, hints and post-game analysis: the use cases that
//! need the engine. Engine work runs on the app's bounded [`EnginePool`]
//! outside the store lock, so a long search never blocks other players; when
//! the queue is full the caller is told to try again in a moment.

use std::time::{Duration, Instant};

use super::caps::Kind;
use super::message::{Msg, Refusal, Swing, Who};
use super::{App, AppError, AppResult, Caller, Place, Reply};
use crate::engine::{self, AnalysisBudget, Level, Limits, Score};
use crate::notation::{format_move, Style};
use crate::render::{eval_graph_png, Eval, GameEnd, GameEndKind, Theme};
use crate::shogi::{Color, Handicap, Outcome, Position, Variant, WinReason};
use crate::store::NewGame;

/// The handicap ladder against Strong (SPEC §4), easiest first: six
/// pieces, four, two, rook and lance, rook, bishop, lance, even.
pub const LADDER: [Option<Handicap>; 8] = [
    Some(Handicap::SixPieces),
    Some(Handicap::FourPieces),
    Some(Handicap::TwoPieces),
    Some(Handicap::RookLance),
    Some(Handicap::Rook),
    Some(Handicap::Bishop),
    Some(Handicap::Lance),
    None,
];

/// How far `user` has climbed the ladder (0 to 8; 8 = the even game won,
/// 1 dan). Derived from the finished ladder games (games against Strong
/// started with `/play level:ladder`; they allow no hints or takebacks) in
/// the order they ended: a win at the handicap of the current step climbs one step; other
/// games (other handicaps, losses, draws) change nothing. So progress is
/// kept with the games themselves and can never disagree with them.
fn ladder_step(tx: &crate::store::Reader<'_>, user: i64) -> AppResult<usize> {
    let mut step = 0;
    for (handicap, won) in tx.ladder_results(user)? {
        let Some(want) = LADDER.get(step) else { break };
        let played = handicap.as_deref().and_then(super::handicap_from);
        if won && played == *want {
            step += 1;
        }
    }
    Ok(step)
}

/// The user id of the computer at `level` (negative: never a Discord id).
#[must_use]
pub const fn computer_id(level: Level) -> i64 {
    match level {
        Level::Beginner => -1,
        Level::Easy => -2,
        Level::Medium => -3,
        Level::Strong => -4,
    }
}

/// The level of a computer user id.
#[must_use]
pub fn level_of(user: i64) -> Option<Level> {
    Level::ALL.into_iter().find(|&l| computer_id(l) == user)
}

/// The name of a level in messages and settings (`beginner`, ...).
#[must_use]
pub fn level_from(s: &str) -> Option<Level> {
    Level::ALL
        .into_iter()
        .find(|l| l.name().eq_ignore_ascii_case(s))
}

/// What a game against the computer looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerOptions {
    /// Strength.
    pub level: Level,
    /// Standard or minishogi.
    pub variant: Variant,
    /// A handicap the computer gives (it plays Gote and moves first).
    pub handicap: Option<Handicap>,
    /// The player's colour (`None`: furigoma); ignored with a handicap.
    pub color: Option<Color>,
}

/// Days per move in games against the computer: long, and never enforced.
const COMPUTER_DAYS: i64 = 14;

/// Time the engine may think for a hint.
const HINT_TIME: Duration = Duration::from_millis(1000);

/// How long a caller waits for a hint before giving up.
const ENGINE_WAIT: Duration = Duration::from_secs(20);

/// How long a move against the computer waits for its answer inline. Past
/// that the player is told the answer will be posted, and the worker plays it.
pub const INLINE_WAIT: Duration = Duration::from_secs(6);

/// How long a job stays claimed by the request that stored it (the inline
/// answer); if that process dies, the worker takes the job after this.
pub(super) const INLINE_CLAIM_SECS: i64 = 30;

/// How long the worker waits for room in the queue and for one answer.
const WORKER_WAIT: Duration = Duration::from_secs(30);

/// A claimed computer job is taken over by another run after this long
/// (the claiming process may have died).
const JOB_LEASE_SECS: i64 = 120;

impl App {
    /// `/play`: a new unrated game against the computer.
    pub fn play_computer(
        &self,
        caller: &Caller,
        opts: &ComputerOptions,
        place: Place,
    ) -> AppResult {
        self.start_computer_game(caller, opts, place, false)
    }

    /// A new game against the computer; a `ladder` game is marked so (no
    /// hints, no takebacks, it counts for the ladder).
    fn start_computer_game(
        &self,
        caller: &Caller,
        opts: &ComputerOptions,
        place: Place,
        ladder: bool,
    ) -> AppResult {
        super::check_len(&caller.name)?;
        if opts.handicap.is_some() && opts.variant == Variant::Minishogi {
            return Err(Refusal::HandicapInMinishogi.into());
        }
        let now = self.now();
        let coin = self.dice.coin();
        let comp = computer_id(opts.level);
        let human_sente = match (opts.handicap, opts.color) {
            (Some(_), _) => true,
            (None, Some(c)) => c == Color::Sente,
            (None, None) => coin,
        };
        let start = match (opts.handicap, opts.variant) {
            (Some(h), _) => h.start_position(),
            (None, Variant::Minishogi) => Position::minishogi_startpos(),
            (None, Variant::Standard) => Position::startpos(),
        };
        let computer_first = (start.side_to_move() == Color::Sente) != human_sente;
        let game_id = {
            let store = self.store()?;
            store.transaction(|tx| -> AppResult<_> {
                super::play::not_in_game_thread(tx, place)?;
                tx.upsert_player(caller.id, &caller.name, now)?;
                self.caps.check_computer_games(tx, caller.id)?;
                tx.upsert_player(comp, &format!("komadai ({})", opts.level.name()), now)?;
                let (sente, gote) = if human_sente {
                    (caller.id, comp)
                } else {
                    (comp, caller.id)
                };
                let g = NewGame {
                    guild_id: place.guild,
                    channel_id: place.channel,
                    variant: super::variant_name(opts.variant).into(),
                    handicap: opts.handicap.map(|h| super::handicap_name(h).into()),
                    rule: "declaration27".into(),
                    days_per_move: COMPUTER_DAYS,
                    rated: false,
                    sente,
                    gote,
                    start_sfen: start.to_sfen(),
                    deadline: None,
                    created_at: now,
                };
                let id = tx.insert_game(&g)?;
                if ladder {
                    tx.set_ladder(id)?;
                }
                if computer_first {
                    tx.enqueue_computer_job(id, 0, now)?;
                    tx.claim_computer_job(id, now, now + INLINE_CLAIM_SECS)?;
                }
                Ok(id)
            })?
        };
        // The computer may move first (as Sente, or as Gote giving a handicap).
        // The new game by its id (the place only says where it was asked).
        let mut board = self.show_board(caller, Some(game_id), Place::default())?;
        if let Msg::Board {
            sente,
            gote,
            to_move: Some(to_move),
            ..
        } = board.msg
        {
            board.msg = Msg::ComputerGameStarted {
                game_id,
                sente,
                gote,
                to_move,
            };
        }
        if computer_first {
            return Ok(self.with_computer_answer(board, game_id, caller.lang));
        }
        Ok(board)
    }

    /// `/play` on the handicap ladder: a game against Strong at the caller's
    /// current step (after the even game is won, further even games).
    pub fn play_ladder(&self, caller: &Caller, place: Place) -> AppResult {
        let step = {
            let store = self.store()?;
            store.transaction(|tx| ladder_step(tx, caller.id))?
        };
        let opts = ComputerOptions {
            level: Level::Strong,
            variant: Variant::Standard,
            handicap: LADDER.get(step).copied().flatten(),
            color: None,
        };
        Ok(self
            .start_computer_game(caller, &opts, place, true)?
            .after(Msg::Ladder { step }))
    }

    /// The caller's ladder step (see [`LADDER`]).
    pub(super) fn ladder_of(tx: &crate::store::Reader<'_>, user: i64) -> AppResult<usize> {
        ladder_step(tx, user)
    }

    /// The computer's answer in `game_id`, if it is the computer's move:
    /// searches on the game pool (waiting at most `wait` for the result;
    /// `queue_patience` for room in the queue) and plays the move, which
    /// also finishes the durable job. `Ok(None)` when it is not the
    /// computer's move (the job is stale and is dropped). `EngineBusy` when
    /// the pool had no room or the search did not finish in time: the job
    /// stays in the database and the worker plays it later.
    fn computer_reply(
        &self,
        game_id: i64,
        lang: crate::lang::Lang,
        wait: Duration,
        queue_patience: Option<Duration>,
    ) -> AppResult<Option<Reply>> {
        let found = {
            let store = self.store()?;
            store.transaction(|tx| -> AppResult<_> {
                let l = Self::load(tx, game_id)?;
                let level = level_of(l.to_move_id()).filter(|_| l.row.status == "active");
                if level.is_none() {
                    tx.finish_computer_job(game_id)?;
                }
                Ok(level.map(|level| (l.game, level)))
            })?
        };
        let Some((game, level)) = found else {
            return Ok(None);
        };
        let seed = self.dice.seed();
        let search = {
            let game = game.clone();
            move |stop| engine::computer_move_until(&game, level, Instant::now(), seed, Some(stop))
        };
        let job = match queue_patience {
            None => self.engine.try_submit_stoppable(search),
            Some(p) => self.engine.submit_waiting(search, p),
        }
        .map_err(|_| Refusal::EngineBusy)?;
        let stopped = std::sync::Arc::clone(job.stop_flag());
        // On a timeout the handle is dropped here, which stops the search.
        let result = job
            .wait_timeout(wait)
            .ok()
            .flatten()
            .ok_or(Refusal::EngineBusy)?;
        // A search cut short by a shutdown plays nothing: its move would be
        // a poor one; the job stays for the next run.
        if stopped.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(Refusal::EngineBusy.into());
        }
        let Some(mv) = result.best else {
            if game.position().legal_moves().is_empty() {
                // No legal move: the game has ended on the human's move already.
                let store = self.store()?;
                store.transaction(|tx| tx.finish_computer_job(game_id))?;
                return Ok(None);
            }
            return Err(Refusal::EngineBusy.into());
        };
        let comp = Caller::new(
            computer_id(level),
            &format!("komadai ({})", level.name()),
            lang,
        );
        let reply = self.play_one_move(
            &comp,
            Some(game_id),
            &mv.to_string(),
            Place::default(),
            None,
        )?;
        Ok(Some(reply))
    }

    /// After a human's move (or a new game) in which the computer is to
    /// move: its answer inline when the engine has it within
    /// [`INLINE_WAIT`], otherwise `reply` with a note that the computer is
    /// thinking and its answer will be posted in the game's place (the
    /// durable job is already stored with the human's move). Never fails:
    /// the human's move is committed.
    pub(super) fn with_computer_answer(
        &self,
        reply: Reply,
        game_id: i64,
        lang: crate::lang::Lang,
    ) -> Reply {
        match self.computer_reply(game_id, lang, INLINE_WAIT, None) {
            Ok(Some(answer)) => {
                let mut combined = answer.after(reply.msg);
                combined.lang = lang;
                combined.notify = Vec::new();
                let mut announcements = reply.announcements;
                announcements.append(&mut combined.announcements);
                combined.announcements = announcements;
                combined
            }
            Ok(None) => reply,
            Err(e) => {
                if let AppError::Internal(e) = &e {
                    tracing::error!(game_id, error = %e, "the computer's answer failed; the worker retries");
                }
                // The worker takes the job at once.
                let released = self.store().and_then(|s| {
                    s.transaction(|tx| -> AppResult<()> { Ok(tx.release_computer_job(game_id)?) })
                });
                if let Err(e) = released {
                    tracing::warn!(game_id, error = %e, "releasing the computer's job failed; its claim expires");
                }
                let mut r = reply;
                r.msg = Msg::Both(Box::new(r.msg), Box::new(Msg::ComputerThinking { game_id }));
                r
            }
        }
    }

    /// The worker: plays the computer's moves that are due (stored with the
    /// human's move, left when the engine was busy, or left by a process
    /// that stopped), each announced through the outbox in the game's
    /// place. Blocking; call it from a background thread every second or
    /// so, and after a restart. Returns how many moves it played.
    pub fn run_computer_jobs(&self) -> AppResult<usize> {
        let now = self.now();
        let jobs = {
            let store = self.store()?;
            store.transaction(|tx| tx.claim_computer_jobs(now, JOB_LEASE_SECS, 4))?
        };
        let mut played = 0;
        for (game_id, _ply) in jobs {
            if self.engine.is_shut_down() {
                break;
            }
            match self.computer_reply(
                game_id,
                crate::lang::Lang::En,
                WORKER_WAIT,
                Some(WORKER_WAIT),
            ) {
                Ok(Some(reply)) => {
                    played += 1;
                    // Nobody waits for this reply: deliver its announcement now.
                    for id in reply.announcements {
                        self.release_notice(id)?;
                    }
                }
                Ok(None) => {}
                // Still busy: the lease expires and a later run retries.
                Err(AppError::Refused(Refusal::EngineBusy)) => {}
                // The game changed meanwhile (a takeback, a resignation):
                // the next run sees whether a job is still due.
                Err(AppError::Refused(r)) => {
                    tracing::info!(game_id, refusal = %r, "computer job skipped");
                }
                Err(AppError::Internal(e)) => {
                    tracing::error!(game_id, error = %e, "computer job failed");
                }
            }
        }
        Ok(played)
    }

    /// Records one successful use of a rate-limited request.
    fn record_use(&self, user: i64, kind: Kind) -> AppResult<()> {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| super::caps::Caps::record(tx, user, kind, now))
    }

    /// Stops every running search and drops queued engine work at once (the
    /// bot is shutting down). Durable jobs stay in the database for the next
    /// start.
    pub fn shutdown(&self) {
        self.engine.shutdown();
        self.analysis.shutdown();
    }

    /// `/hint`: the engine's best move with a reason, for the caller's own
    /// move in a game against the computer or a friendly game. Never in rated games.
    pub fn hint(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let (g, style) = {
            let store = self.store()?;
            store.read(|tx| -> AppResult<_> {
                let l = Self::pick_game(tx, caller, game, place)?;
                if l.row.status != "active" {
                    return Err(Refusal::GameIsOver.into());
                }
                if l.row.rated {
                    return Err(Refusal::NoHintInRated.into());
                }
                if tx.is_ladder(l.row.id)? {
                    return Err(Refusal::NoHelpOnLadder.into());
                }
                if l.to_move_id() != caller.id {
                    let to_move = Self::who(tx, l.to_move_id())?;
                    return Err(Refusal::NotYourTurn { to_move }.into());
                }
                self.caps.check(tx, caller.id, Kind::Hint, self.now())?;
                let style = tx
                    .player(caller.id)?
                    .map(|p| Style::from_name(&p.settings.notation).unwrap_or_default());
                Ok((l.game, style.unwrap_or_default()))
            })?
        };
        let history = engine::game_history(&g);
        let pos = g.position().clone();
        let job = self
            .engine
            .try_submit_stoppable(move |stop| {
                engine::hint(
                    &pos,
                    &history,
                    Limits::time(Instant::now(), HINT_TIME)
                        .with_mate_first(7)
                        .with_stop(stop),
                )
            })
            .map_err(|_| Refusal::EngineBusy)?;
        // A timeout (the handle is dropped: the search stops) is "busy", not
        // "the game is over"; the position has legal moves (checked above).
        let hint = job
            .wait_timeout(ENGINE_WAIT)
            .ok()
            .flatten()
            .flatten()
            .ok_or(Refusal::EngineBusy)?;
        self.record_use(caller.id, Kind::Hint)?;
        let text = format_move(g.position(), hint.mv, style, g.moves().last().copied());
        Ok(Reply::private(
            Msg::Hint {
                text,
                reason: hint.reason,
            },
            caller.lang,
        ))
    }

    /// `/analyze`: an evaluation of every ply, the turning points with the
    /// better move, and the evaluation graph as a PNG attachment.
    pub fn analyze(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let (g, row, style, theme) = {
            let store = self.store()?;
            store.read(|tx| -> AppResult<_> {
                let l = Self::pick_game_any(tx, caller, game, place)?;
                self.caps.check(tx, caller.id, Kind::Analyze, self.now())?;
                let me = Self::player(tx, caller.id)?;
                let style = Style::from_name(&me.settings.notation).unwrap_or_default();
                let theme = if me.settings.theme == "dark" {
                    Theme::Dark
                } else {
                    Theme::Light
                };
                Ok((l.game, l.row, style, theme))
            })?
        };
        if row.status == "active" && row.rated {
            return Err(Refusal::GameNotFinished.into());
        }
        // Analyses have their own pool: one never delays a game's reply.
        let job = {
            let g = g.clone();
            self.analysis
                .try_submit_stoppable(move |stop| {
                    let budget = AnalysisBudget {
                        nodes_per_ply: 20_000,
                        deadline: Some(Instant::now() + Duration::from_secs(30)),
                        stop: Some(stop),
                        ..AnalysisBudget::default()
                    };
                    engine::analyze(&g, &budget)
                })
                .map_err(|_| Refusal::EngineBusy)?
        };
        let analysis = job
            .wait_timeout(Duration::from_secs(60))
            .ok()
            .flatten()
            .ok_or(Refusal::EngineBusy)?;
        self.record_use(caller.id, Kind::Analyze)?;
        // Write each turning point's moves in the caller's notation.
        let mut positions = vec![g.start().clone()];
        for &m in g.moves() {
            let next = positions
                .last()
                .map(|p| p.after(m))
                .unwrap_or_else(Position::startpos);
            positions.push(next);
        }
        let points = analysis
            .turning_points
            .iter()
            .map(|t| {
                let pos = &positions[t.index];
                let prev = t.index.checked_sub(1).map(|i| g.moves()[i]);
                (
                    t.index + 1,
                    format_move(pos, t.played, style, prev),
                    format_move(pos, t.better, style, prev),
                    swing(t.mover, t.before, t.after, t.loss),
                )
            })
            .collect();
        let evals: Vec<Eval> = analysis.evals.iter().map(|&s| to_eval(s)).collect();
        let end = graph_end(&row, g.ply());
        let turning: Vec<usize> = analysis
            .turning_points
            .iter()
            .map(|t| t.index + 1)
            .collect();
        // Kept for the game's page (its evaluation graph).
        self.store()?.transaction(|tx| {
            tx.save_analysis(
                row.id,
                &super::page::encode_evals(&evals),
                &super::page::encode_turning(&turning),
                self.now(),
            )
        })?;
        let png = eval_graph_png(&evals, end, &turning, theme);
        let mut r = Reply::private(
            Msg::Analysis {
                game_id: row.id,
                points,
            },
            caller.lang,
        );
        r.attachment = Some((format!("komadai-{}-analysis.png", row.id), png));
        Ok(r)
    }
}

/// Where a finished game was decided, for the evaluation graph: mate or
/// resignation after its last ply (other endings are not marked).
pub(super) fn graph_end(row: &crate::store::GameRow, ply: usize) -> Option<GameEnd> {
    match super::stored_outcome(
        row.result.as_deref().unwrap_or(""),
        row.reason.as_deref().unwrap_or(""),
    ) {
        Some(Outcome::Win {
            winner,
            reason: WinReason::Checkmate,
        }) => Some(GameEnd {
            ply,
            kind: GameEndKind::Checkmate,
            winner,
        }),
        Some(Outcome::Win {
            winner,
            reason: WinReason::Resignation,
        }) => Some(GameEnd {
            ply,
            kind: GameEndKind::Resignation,
            winner,
        }),
        _ => None,
    }
}

/// What a move by `mover` cost, from the evaluations (Sente's view) before
/// and after it: a mate it allowed or missed is a mate, not a number of
/// pawns. `Score::Mate(m)` with `m > 0` is a mate in `m` moves of the side
/// to move, `2m - 1` plies.
fn swing(mover: Color, before: Score, after: Score, loss: i32) -> Swing {
    let view = |s: Score, side: Color| if side == Color::Sente { s } else { s.flip() };
    let plies = |m: i32| (2 * m - 1).unsigned_abs();
    // After the move the opponent is to move.
    let opponent_after = view(after, mover.flip());
    let mover_before = view(before, mover);
    let was_lost = matches!(mover_before, Score::Mate(b) if b <= 0);
    let still_mates = matches!(opponent_after, Score::Mate(a) if a <= 0);
    match (mover_before, opponent_after) {
        (_, Score::Mate(a)) if a > 0 && !was_lost => Swing::AllowedMate(plies(a)),
        (Score::Mate(b), _) if b > 0 && !still_mates => Swing::MissedMate(plies(b)),
        _ => Swing::Pawns(loss),
    }
}

/// A search score (Sente's view) as a point of the evaluation graph.
fn to_eval(s: Score) -> Eval {
    match s {
        Score::Cp(c) => Eval::Cp(c),
        Score::Mate(n) if n > 0 => Eval::Mate {
            winner: Color::Sente,
            plies: (2 * n - 1).unsigned_abs(),
        },
        Score::Mate(n) => Eval::Mate {
            winner: Color::Gote,
            plies: (2 * n).unsigned_abs(),
        },
    }
}

/// Who the computer is, for messages.
#[must_use]
pub fn computer_who(level: Level) -> Who {
    Who {
        id: computer_id(level),
        name: format!("komadai ({})", level.name()),
    }
}

#[cfg(test)]
mod ladder_tests {
    use std::sync::Arc;

    use super::*;
    use crate::app::{ManualClock, SeededDice};
    use crate::i18n::{Lang, Localize};
    use crate::store::Store;

    fn app() -> App {
        App::new(
            Store::open_in_memory().expect("store"),
            Arc::new(ManualClock::new(1_800_000_000)),
            Arc::new(SeededDice::new(3)),
        )
    }

    /// Ends `game` as if `human` had won (or lost): the engine never resigns,
    /// so a test cannot simply beat Strong.
    fn finish(app: &App, game: i64, human_wins: bool) {
        app.with_store(|st| {
            st.transaction(|tx| -> AppResult<()> {
                let row = tx.game(game)?.expect("game");
                let human_sente = row.sente > 0;
                let result = if human_wins == human_sente {
                    "sente"
                } else {
                    "gote"
                };
                tx.finish_game(
                    game,
                    row.version,
                    result,
                    "Resignation",
                    1_800_000_100 + game,
                )?;
                Ok(())
            })
        })
        .expect("store")
        .expect("finish");
    }

    fn start(app: &App, who: &Caller) -> (String, i64, Option<String>) {
        let r = app.play_ladder(who, Place::default()).expect("ladder game");
        let id = r.board.as_ref().expect("board").game_id;
        let handicap = app
            .with_store(|st| st.read(|r| r.game(id)))
            .expect("store")
            .expect("read")
            .expect("game")
            .handicap;
        (r.msg.localize(Lang::En), id, handicap)
    }

    #[test]
    fn the_ladder_climbs_on_wins_at_the_current_handicap_only() {
        let app = app();
        let alice = Caller::new(1, "alice", Lang::En);
        let (text, id, h) = start(&app, &alice);
        assert!(
            text.starts_with(
                "Handicap ladder: you are 10 kyu. komadai (Strong) gives you 6 pieces"
            ),
            "{text}"
        );
        assert_eq!(h.as_deref(), Some("6-pieces"));
        // The computer gives the handicap, so it (Gote) has already moved.
        assert!(text.contains("komadai (Strong) played"), "{text}");
        // A loss changes nothing.
        finish(&app, id, false);
        let (text, id, h) = start(&app, &alice);
        assert!(text.contains("10 kyu"), "{text}");
        assert_eq!(h.as_deref(), Some("6-pieces"));
        finish(&app, id, true);
        // A win against Strong at another handicap does not count.
        let opts = ComputerOptions {
            level: Level::Strong,
            variant: Variant::Standard,
            handicap: Some(Handicap::Lance),
            color: None,
        };
        let r = app
            .play_computer(&alice, &opts, Place::default())
            .expect("game");
        finish(&app, r.board.expect("board").game_id, true);
        // Up the ladder, one win per step; the stats show the rank.
        let expected = [
            ("8 kyu", Some("4-pieces")),
            ("6 kyu", Some("2-pieces")),
            ("5 kyu", Some("rook-lance")),
            ("4 kyu", Some("rook")),
            ("3 kyu", Some("bishop")),
            ("2 kyu", Some("lance")),
            ("1 kyu", None),
        ];
        for (rank, handicap) in expected {
            let (text, id, h) = start(&app, &alice);
            assert!(text.contains(&format!("you are {rank}")), "{text}");
            assert_eq!(h.as_deref(), handicap, "{text}");
            let stats = app
                .stats(&alice, None)
                .expect("stats")
                .msg
                .localize(Lang::De);
            let de = rank.replace(" kyu", ". Kyu");
            assert!(stats.contains(&format!("Vorgabeleiter: {de}")), "{stats}");
            finish(&app, id, true);
        }
        let (text, _, h) = start(&app, &alice);
        assert!(text.contains("you are 1 dan"), "{text}");
        assert_eq!(h, None);
        // Another player starts at the bottom.
        let bob = Caller::new(2, "bob", Lang::De);
        let r = app.play_ladder(&bob, Place::default()).expect("game");
        let text = r.msg.localize(Lang::De);
        assert!(text.starts_with("Vorgabeleiter: du bist 10. Kyu"), "{text}");
    }
}

#[cfg(test)]
mod swing_tests {
    use super::*;
    use crate::engine::Score::{Cp, Mate};

    #[test]
    fn a_mate_allowed_or_missed_is_a_mate_not_pawns() {
        // Sente played into a mate in 2 of Gote's moves (3 plies).
        assert_eq!(
            swing(Color::Sente, Cp(150), Mate(-2), 9_000),
            Swing::AllowedMate(3)
        );
        // The same from Gote's side: Sente then mates in 1 (1 ply).
        assert_eq!(
            swing(Color::Gote, Cp(-80), Mate(1), 9_000),
            Swing::AllowedMate(1)
        );
        // Gote had a mate in 3 moves (5 plies) and let it go.
        assert_eq!(
            swing(Color::Gote, Mate(-3), Cp(-400), 2_000),
            Swing::MissedMate(5)
        );
        // Still mating, only slower: not a missed mate.
        assert_eq!(swing(Color::Sente, Mate(2), Mate(2), 10), Swing::Pawns(10));
        // Already lost to a mate: a faster mate is not "allowed".
        assert_eq!(
            swing(Color::Sente, Mate(-3), Mate(-1), 40),
            Swing::Pawns(40)
        );
        // An ordinary mistake.
        assert_eq!(
            swing(Color::Sente, Cp(100), Cp(-250), 350),
            Swing::Pawns(350)
        );
    }
}
