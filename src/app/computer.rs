//! Playing the computer, hints and post-game analysis: the use cases that
//! need the engine. Engine work runs on the app's bounded [`EnginePool`]
//! outside the store lock, so a long search never blocks other players; when
//! the queue is full the caller is told to try again in a moment.

use std::time::{Duration, Instant};

use super::message::{Msg, Refusal, Who};
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
/// 1 dan). Derived from the finished games against Strong in the order they
/// ended: a win at the handicap of the current step climbs one step; other
/// games (other handicaps, losses, draws) change nothing. So progress is
/// kept with the games themselves and can never disagree with them.
fn ladder_step(tx: &crate::store::Tx<'_>, user: i64) -> AppResult<usize> {
    let mut step = 0;
    for (handicap, won) in tx.results_against(user, computer_id(Level::Strong))? {
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

/// How long a caller waits for the engine before giving up.
const ENGINE_WAIT: Duration = Duration::from_secs(20);

impl App {
    /// `/play`: a new unrated game against the computer.
    pub fn play_computer(
        &self,
        caller: &Caller,
        opts: &ComputerOptions,
        place: Place,
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
        let game_id = {
            let mut store = self.store()?;
            store.transaction(|tx| -> AppResult<_> {
                tx.upsert_player(caller.id, &caller.name, now)?;
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
                Ok(tx.insert_game(&g)?)
            })?
        };
        // The computer may move first (as Sente, or as Gote giving a handicap).
        if let Some(reply) = self.computer_turn(game_id, caller.lang)? {
            return Ok(reply);
        }
        self.board(caller, Some(game_id), place)
    }

    /// `/play` on the handicap ladder: a game against Strong at the caller's
    /// current step (after the even game is won, further even games).
    pub fn play_ladder(&self, caller: &Caller, place: Place) -> AppResult {
        let step = {
            let mut store = self.store()?;
            store.transaction(|tx| ladder_step(tx, caller.id))?
        };
        let opts = ComputerOptions {
            level: Level::Strong,
            variant: Variant::Standard,
            handicap: LADDER.get(step).copied().flatten(),
            color: None,
        };
        Ok(self
            .play_computer(caller, &opts, place)?
            .after(Msg::Ladder { step }))
    }

    /// The caller's ladder step (see [`LADDER`]).
    pub(super) fn ladder_of(tx: &crate::store::Tx<'_>, user: i64) -> AppResult<usize> {
        ladder_step(tx, user)
    }

    /// If the side to move in `game_id` is the computer, plays its move.
    /// `None` when it is not the computer's turn.
    pub(super) fn computer_turn(
        &self,
        game_id: i64,
        lang: crate::i18n::Lang,
    ) -> AppResult<Option<Reply>> {
        let (game, level, seed) = {
            let mut store = self.store()?;
            store
                .transaction(|tx| -> AppResult<_> {
                    let l = Self::load(tx, game_id)?;
                    if l.row.status != "active" {
                        return Ok(None);
                    }
                    let Some(level) = level_of(l.to_move_id()) else {
                        return Ok(None);
                    };
                    Ok(Some((l.game, level)))
                })?
                .map(|(g, l)| (g, l, self.dice.seed()))
                .map_or((None, None, 0), |(g, l, s)| (Some(g), Some(l), s))
        };
        let (Some(game), Some(level)) = (game, level) else {
            return Ok(None);
        };
        let job = {
            let game = game.clone();
            self.engine
                .try_submit(move || engine::computer_move(&game, level, Instant::now(), seed))
                .map_err(|_| Refusal::EngineBusy)?
        };
        let result = job
            .wait_timeout(ENGINE_WAIT)
            .ok()
            .flatten()
            .ok_or_else(|| AppError::Internal("the engine did not answer".into()))?;
        let Some(mv) = result.best else {
            return Ok(None);
        };
        let comp = Caller::new(
            computer_id(level),
            &format!("komadai ({})", level.name()),
            lang,
        );
        let reply = self.play_move(
            &comp,
            Some(game_id),
            &mv.to_string(),
            Place::default(),
            None,
        )?;
        Ok(Some(reply))
    }

    /// `/hint`: the engine's best move with a reason, for the caller's own
    /// move in a game against the computer or a friendly game. Never in rated games.
    pub fn hint(&self, caller: &Caller, game: Option<i64>, place: Place) -> AppResult {
        let (g, style) = {
            let mut store = self.store()?;
            store.transaction(|tx| -> AppResult<_> {
                let l = Self::pick_game(tx, caller, game, place)?;
                if l.row.status != "active" {
                    return Err(Refusal::GameIsOver.into());
                }
                if l.row.rated {
                    return Err(Refusal::NoHintInRated.into());
                }
                if l.to_move_id() != caller.id {
                    let to_move = Self::who(tx, l.to_move_id())?;
                    return Err(Refusal::NotYourTurn { to_move }.into());
                }
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
            .try_submit(move || {
                engine::hint(
                    &pos,
                    &history,
                    Limits::time(Instant::now(), HINT_TIME).with_mate_first(7),
                )
            })
            .map_err(|_| Refusal::EngineBusy)?;
        let hint = job
            .wait_timeout(ENGINE_WAIT)
            .ok()
            .flatten()
            .flatten()
            .ok_or(Refusal::GameIsOver)?;
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
            let mut store = self.store()?;
            store.transaction(|tx| -> AppResult<_> {
                let l = Self::pick_game_any(tx, caller, game, place)?;
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
        let budget = AnalysisBudget {
            nodes_per_ply: 20_000,
            deadline: Some(Instant::now() + Duration::from_secs(30)),
            ..AnalysisBudget::default()
        };
        let job = {
            let g = g.clone();
            self.engine
                .try_submit(move || engine::analyze(&g, &budget))
                .map_err(|_| Refusal::EngineBusy)?
        };
        let analysis = job
            .wait_timeout(Duration::from_secs(60))
            .ok()
            .flatten()
            .ok_or_else(|| AppError::Internal("the analysis did not finish".into()))?;
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
                    t.loss,
                )
            })
            .collect();
        let evals: Vec<Eval> = analysis.evals.iter().map(|&s| to_eval(s)).collect();
        let end = match super::stored_outcome(
            row.result.as_deref().unwrap_or(""),
            row.reason.as_deref().unwrap_or(""),
        ) {
            Some(Outcome::Win {
                winner,
                reason: WinReason::Checkmate,
            }) => Some(GameEnd {
                ply: g.ply(),
                kind: GameEndKind::Checkmate,
                winner,
            }),
            Some(Outcome::Win {
                winner,
                reason: WinReason::Resignation,
            }) => Some(GameEnd {
                ply: g.ply(),
                kind: GameEndKind::Resignation,
                winner,
            }),
            _ => None,
        };
        let png = eval_graph_png(&evals, end, theme);
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
            .with_store(|st| st.reader().game(id))
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
