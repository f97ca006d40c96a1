#!/usr/bin/env bash
# The load benchmark of issue #18 (benches/load/main.rs): seeds 10,000
# servers, 100,000 active games and 2,000,000 moves, then measures mixed
# traffic (70 % autocomplete, 25 % /move with the PNG, 5 % /games, /board,
# /export) on SQLite (1 process) and PostgreSQL (1 and 3 processes), and
# /move alone on SQLite, and prints one table. Results and the profile go to scripts/load/RESULTS.md
# by hand.
#
#   bash scripts/load/run.sh
#
# Environment (all optional):
#   KOMADAI_LOAD_POSTGRES   a server to use, e.g. postgres://postgres@127.0.0.1:5432
#                           (the database komadai_load on it is dropped and
#                           recreated); otherwise a throwaway cluster is started
#                           from /usr/lib/postgresql/*/bin (as user postgres when root)
#   KOMADAI_LOAD_PG_OPTS    server settings of that cluster
#                           [-c synchronous_commit=off: the durability of SQLite's
#                           synchronous=NORMAL, which komadai uses]
#   KOMADAI_LOAD_SECS       seconds per measurement [15]
#   KOMADAI_LOAD_THREADS    closed-loop clients per process to try [2,4,8]
#   KOMADAI_LOAD_GAMES / _GUILDS / _AVG_PLIES   the community [100000 / 10000 / 20]
#   KOMADAI_LOAD_ONLY       sqlite, pg or all [all]
#   KOMADAI_LOAD_PROFILE=1  also record a perf profile of the /move path (SQLite)
#   KOMADAI_LOAD_DIR        where databases, logs and the profile go [a temp dir]
set -euo pipefail
cd "$(dirname "$0")/../.."

SECS=${KOMADAI_LOAD_SECS:-15}
THREADS=${KOMADAI_LOAD_THREADS:-2,4,8}
GAMES=${KOMADAI_LOAD_GAMES:-100000}
GUILDS=${KOMADAI_LOAD_GUILDS:-10000}
AVG=${KOMADAI_LOAD_AVG_PLIES:-20}
ONLY=${KOMADAI_LOAD_ONLY:-all}
WORK=${KOMADAI_LOAD_DIR:-$(mktemp -d /tmp/komadai-load.XXXXXX)}
mkdir -p "$WORK"
echo "== work directory: $WORK"

echo "== build (cargo bench --no-run)"
cargo bench --bench load --no-run
BENCH=$(cargo bench --bench load --no-run --message-format=json 2>/dev/null |
    grep '"name":"load"' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[ -x "$BENCH" ] || { echo "bench executable not found" >&2; exit 1; }
COMMON=(--bench --games "$GAMES" --guilds "$GUILDS" --avg-plies "$AVG" --secs "$SECS" --threads "$THREADS")

run() { # label, log name, args...
    local log="$WORK/$2.txt"
    shift 2
    "$BENCH" "${COMMON[@]}" "$@" 2> >(tee "$log.err" >&2) | tee "$log"
}

if [ "$ONLY" = all ] || [ "$ONLY" = sqlite ]; then
    echo "== SQLite, 1 process"
    rm -f "$WORK"/load.db*
    run sqlite sqlite-1 --db "$WORK/load.db" --seed --procs 1 --label sqlite-1
fi

if [ "$ONLY" = all ] || [ "$ONLY" = sqlite ]; then
    # The goal "/move with PNG >= 500/s" for /move alone: the same database,
    # nothing but /move (each answered with its PNG), 2 clients.
    echo "== SQLite, 1 process, /move alone"
    run sqlite sqlite-moves --db "$WORK/load.db" --procs 1 --moves-only --threads 2 --label sqlite-moves
fi

if [ "$ONLY" = all ] || [ "$ONLY" = pg ]; then
    PG_BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")
    as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
    if [ -n "${KOMADAI_LOAD_POSTGRES:-}" ]; then
        BASE=${KOMADAI_LOAD_POSTGRES%/}
    else
        echo "== PostgreSQL: a throwaway cluster"
        PG_DIR="$WORK/pg"
        PG_PORT=${KOMADAI_LOAD_PG_PORT:-55441}
        mkdir -p "$PG_DIR"
        if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DIR"; fi
        as_pg "$PG_BIN/initdb" -A trust -U postgres -E UTF8 --no-sync -D "$PG_DIR/data" >/dev/null
        as_pg "$PG_BIN/pg_ctl" -w -t 60 -D "$PG_DIR/data" -l "$PG_DIR/log" \
            -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 ${KOMADAI_LOAD_PG_OPTS:--c synchronous_commit=off}" \
            start >/dev/null
        trap 'as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true' EXIT
        BASE="postgres://postgres@127.0.0.1:$PG_PORT"
    fi
    PSQL=$(command -v psql || echo "$PG_BIN/psql")
    "$PSQL" -q "$BASE/postgres" -c "DROP DATABASE IF EXISTS komadai_load" -c "CREATE DATABASE komadai_load"
    URL="$BASE/komadai_load"
    echo "== PostgreSQL, 1 process"
    run pg pg-1 --db "$URL" --seed --procs 1 --label pg-1
    echo "== PostgreSQL, 3 processes (the same database, played on)"
    run pg pg-3 --db "$URL" --procs 3 --label pg-3
fi

if [ "${KOMADAI_LOAD_PROFILE:-0}" = 1 ] && [ -f "$WORK/load.db" ]; then
    echo "== perf profile of /move with the PNG (SQLite, 2 clients)"
    perf record -F 999 -g -o "$WORK/perf.data" -- \
        "$BENCH" --bench --games "$GAMES" --guilds "$GUILDS" --avg-plies "$AVG" \
        --db "$WORK/load.db" --procs 1 --moves-only --threads 2 --secs 10 --label profile \
        >"$WORK/profile-run.txt" 2>&1
    perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --percent-limit 0.7 \
        --stdio 2>/dev/null | grep -v '^$' | grep '%' | head -40 | tee "$WORK/profile.txt"
fi

echo
echo "== results ($SECS s per measurement; latencies in ms; 'half' = open loop at half the saturating rate)"
printf '%-9s %11s %9s | %-29s | %-29s | %8s | %s\n' config saturating "/move+png" \
    "saturated: ac p50/p99" "half: ac p50/p99, move p99" "other p99" "RSS MB (VmHWM) / errors"
for f in sqlite-1 sqlite-moves pg-1 pg-3; do
    # Only the configurations this run measured (KOMADAI_LOAD_ONLY).
    if [ -f "$WORK/$f.txt" ]; then cat "$WORK/$f.txt"; fi
done | grep '^SUMMARY' |
while read -r _ label rest; do
    get() { echo "$rest" | tr ' ' '\n' | grep "^$1=" | head -${2:-1} | tail -1 | cut -d= -f2; }
    printf '%-9s %11s %9s | %-29s | %-29s | %8s | %s\n' "$label" "$(get sat)" "$(get move)" \
        "$(get ac_p50) / $(get ac_p99)" "$(get ac_p50 2) / $(get ac_p99 2), $(get move_p99 2)" \
        "$(get other_p99)" "$(get rss_mb) / $(get errors)"
done
