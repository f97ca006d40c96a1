//! The load benchmark's seeding (`Tx::bulk_players`, `Tx::bulk_games` in
//! `src/store/load.rs`, driven by `benches/load/scenario.rs`) writes games
//! that the app plays like its own, on both backends: the rows equal those
//! of the same game started and played through the app, and every seeded
//! game then answers autocomplete, `/move` (with its PNG), `/board`,
//! `/export` and `/games` in its thread.

use komadai::app::{App, Caller, ChallengeOptions, ManualClock, Place, SeededDice, DAY};
use komadai::i18n::Lang;
use komadai::notation::RecordFormat;
use komadai::shogi::Color;
use komadai::store::{Backend, GameRow, Store};

#[path = "../benches/load/scenario.rs"]
mod scenario;

use crate::pg;

use scenario::{Layout, T0, THREAD_BASE};

fn open(backend: Backend, dir: &tempfile::TempDir) -> Store {
    match backend {
        Backend::Sqlite => Store::open(dir.path().join("seed.db")).expect("SQLite opens"),
        Backend::Postgres => Store::open(
            pg::fresh_database("load_seed").expect("the PostgreSQL tests run only with a server"),
        )
        .expect("PostgreSQL opens"),
    }
}

fn caller(user: i64) -> Caller {
    Caller::new(user, &scenario::name_of(user), Lang::En)
}

/// The columns a game's history decides (not its ids, times or thread).
fn played_state(g: &GameRow) -> impl PartialEq + std::fmt::Debug {
    (
        (g.variant.clone(), g.handicap.clone(), g.rule.clone()),
        (
            g.days_per_move,
            g.rated,
            g.start_sfen.clone(),
            g.sfen.clone(),
        ),
        (g.ply, g.status.clone(), g.result.clone(), g.version),
        (g.reminded, g.takeback_by, g.count_by),
        g.deadline.map(|d| d - g.updated_at),
    )
}

fn seeded_games_play_like_the_apps_own(backend: Backend) {
    let layout = Layout {
        games: 20,
        guilds: 4,
        avg_plies: 6,
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(backend, &dir);
    let lines = scenario::lines();
    scenario::seed(&store, &layout, &lines, |_| {}).expect("seeding");
    let last = THREAD_BASE + layout.games as i64 - 1;
    let plies = store
        .read(|r| r.plies_by_thread(THREAD_BASE, last))
        .unwrap();
    assert_eq!(plies.len(), layout.games);
    assert_eq!(
        plies.iter().map(|(_, p)| *p as usize).sum::<usize>(),
        layout.games * layout.avg_plies,
        "games 2k and 2k+1 together have 2 × avg_plies"
    );
    let lengths: std::collections::HashSet<i64> = plies.iter().map(|(_, p)| *p).collect();
    assert!(lengths.len() > 1, "the plies vary");

    // The same game started and played through the app gives the same row.
    let spec = layout.spec(0);
    let twin = App::new(
        Store::open_in_memory().unwrap(),
        std::sync::Arc::new(ManualClock::new(T0)),
        std::sync::Arc::new(SeededDice::new(1)),
    );
    let (sente, gote) = (caller(spec.sente), caller(spec.gote));
    let opts = ChallengeOptions {
        days: spec.days,
        rated: spec.rated,
        color: Some(Color::Sente),
        ..Default::default()
    };
    let c = twin
        .challenge(&sente, Some((gote.id, &gote.name)), &opts, Place::default())
        .unwrap();
    let challenge: i64 = c.buttons[0].id.split(':').nth(1).unwrap().parse().unwrap();
    let game = twin
        .accept(&gote, challenge, Place::default())
        .unwrap()
        .board
        .unwrap()
        .game_id;
    for (k, mv) in lines[spec.line][..spec.plies].iter().enumerate() {
        let who = if k % 2 == 0 { &sente } else { &gote };
        twin.play_move(who, Some(game), &mv.to_string(), Place::default(), None)
            .unwrap();
    }
    let played = twin
        .with_store(|s| s.peek(|r| r.game(game).unwrap().unwrap()))
        .unwrap()
        .unwrap();
    let seeded = store
        .peek(|r| r.game_in_thread(spec.thread).unwrap().unwrap())
        .unwrap();
    assert_eq!(played_state(&seeded), played_state(&played));
    let moves = |s: &Store, id: i64| s.peek(|r| r.moves(id).unwrap()).unwrap();
    assert_eq!(
        moves(&store, seeded.id),
        twin.with_store(|s| moves(s, game)).unwrap()
    );
    assert_eq!((seeded.sente, seeded.gote), (spec.sente, spec.gote));
    assert_eq!(seeded.thread_id, Some(spec.thread));
    let ch = store.peek(|r| r.challenge(1).unwrap().unwrap()).unwrap();
    assert_eq!(ch.status, "accepted");
    let ch_game = store
        .peek(|r| r.game(ch.game_id.unwrap()).unwrap().unwrap())
        .unwrap();
    assert!(
        ch_game.has_player(ch.data.challenger) && ch_game.has_player(ch.data.challenged.unwrap())
    );

    // Every seeded game plays on in its thread.
    let app = App::new(
        store,
        std::sync::Arc::new(ManualClock::new(T0)),
        std::sync::Arc::new(SeededDice::new(2)),
    );
    for i in 0..layout.games {
        let s = layout.spec(i);
        let place = Place {
            guild: Some(s.guild),
            channel: Some(s.thread),
        };
        let who = caller(if s.plies % 2 == 0 { s.sente } else { s.gote });
        let next = lines[s.line][s.plies].to_string();
        let offered = app.move_suggestions(&who, None, "", place, 1000).unwrap();
        assert!(
            offered.iter().any(|(_, usi)| *usi == next),
            "game {i}: autocomplete offers {next}"
        );
        let r = app
            .move_command(&who, None, &next, place, Some(&format!("seeded-{i}")))
            .unwrap_or_else(|e| panic!("game {i}: {next} is refused: {e:?}"));
        assert!(r.board.as_ref().unwrap().png(r.lang).unwrap().len() > 1000);
        for id in r.announcements {
            app.ack_notice(id).unwrap();
        }
        let again = app
            .move_command(&who, None, &next, place, Some(&format!("seeded-{i}")))
            .unwrap();
        assert!(
            again.board.is_none(),
            "a repeated request is not played twice"
        );
        assert!(app.board(&who, None, place).unwrap().board.is_some());
        let kif = app.export(&who, None, RecordFormat::Kif, place).unwrap();
        assert!(kif.attachment.is_some());
        assert!(app.games(&who).is_ok());
        let row = app
            .with_store(|st| st.peek(|r| r.game_in_thread(s.thread).unwrap().unwrap()))
            .unwrap()
            .unwrap();
        assert_eq!(row.ply as usize, s.plies + 1, "game {i}");
        assert_eq!(row.version as usize, s.plies + 1, "game {i}");
        assert_eq!(row.deadline, Some(T0 + s.days * DAY));
    }
    assert!(
        app.with_store(|st| st.peek(|r| r.outbox().unwrap()).unwrap())
            .unwrap()
            .is_empty(),
        "every announcement was acknowledged"
    );
}

#[test]
fn seeded_games_play_like_the_apps_own_on_sqlite() {
    seeded_games_play_like_the_apps_own(Backend::Sqlite);
}

#[test]
fn seeded_games_play_like_the_apps_own_on_postgres() {
    if pg::available() {
        seeded_games_play_like_the_apps_own(Backend::Postgres);
    }
}
