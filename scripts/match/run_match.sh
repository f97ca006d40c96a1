#!/usr/bin/env bash
# Plays komadai (USI mode, release build) against another engine with
# cshogi's match runner and prints score and Elo difference.
#
#   scripts/match/run_match.sh fsf   GAMES BYOYOMI_MS [THEIR_MS] # vs Fairy-Stockfish
#   scripts/match/run_match.sh gps   GAMES BYOYOMI_MS [THEIR_MS] # vs gpsshogi (Thread=1)
#   scripts/match/run_match.sh level A B GAMES BYOYOMI_MS    # komadai level A vs level B
#   scripts/match/run_match.sh bin OTHER GAMES BYOYOMI_MS    # this build vs another komadai binary
#   scripts/match/run_match.sh patient GAMES BYOYOMI_MS [LEVEL] # a level (Beginner) vs patient.py
#
# Colours alternate (cshogi.cli swaps every game); each opening of
# openings.txt is played twice, once with each colour. Games longer than
# 320 plies are drawn (--draw). THEIR_MS gives the opponent another byoyomi
# (time odds: a weaker reference that scores near 50 % measures changes with
# far fewer games than one that wins 90 %). OPENING_SEED=N (default 1)
# shuffles the openings differently, so that two runs of one build can go
# side by side. OPENINGS=FILE plays other openings than openings.txt (e.g.
# openings-kif.txt: the starts of the real games in tests/data/kif).
# KOMADAI_OPTIONS=Name:value[,...] sets komadai's USI options;
# OPPONENT_OPTIONS=Name:value[,...] the opponent's (after its defaults).
# KOMADAI=FILE plays that komadai binary (a frozen build, e.g. the previous
# commit's) instead of building this checkout; its name then stands for the
# commit in the output folder.
# Output goes to scripts/match/out/<name>-<commit>[-<openings>][-seedN]/.
set -euo pipefail
# The whole script is one compound command, read before it runs, so editing
# this file during a long match cannot derail the running copy.
{
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/games"

kind="${1:?fsf|gps|level|bin|patient}"
shift
opts1=""
opts2=""
name1="komadai"
case "$kind" in
  fsf)
    games="${1:-40}"; byo="${2:-300}"; byo2="${3:-$byo}"
    engine2="$(command -v fairy-stockfish)"; name2="fsf"; opts2="Threads:1"
    ;;
  gps)
    games="${1:-40}"; byo="${2:-300}"; byo2="${3:-$byo}"
    # gpsusi writes every setoption to its gpsusi.conf and starts from it
    # the next time: a LimitDepth set by scripts/tune/ (3 or 4) would
    # otherwise cap it in every later match, and a BookDepth of 0 (a run
    # without its opening book) would turn the book off. 10 and 30 are its
    # built-in defaults.
    engine2="$(command -v gpsusi)"; name2="gpsshogi"; opts2="Thread:1,LimitDepth:10,BookDepth:30"
    ;;
  level)
    a="${1:?level A}"; b="${2:?level B}"; games="${3:-40}"; byo="${4:-300}"
    engine2="$here/komadai-usi"; name1="$a"; name2="$b"
    opts1="Level:$a,Seed:1"; opts2="Level:$b,Seed:2"
    ;;
  bin)
    other="${1:?other komadai binary}"; games="${2:-20}"; byo="${3:-200}"
    engine2="$here/komadai-usi2"; name2="other"
    export KOMADAI_BIN2="$(cd "$(dirname "$other")" && pwd)/$(basename "$other")"
    ;;
  patient)
    # patient.py: a beginner who checks every move and every answer for
    # material (it thinks as long as it needs; the byoyomi binds komadai).
    games="${1:-40}"; byo="${2:-300}"; level="${3:-Beginner}"
    engine2="$here/patient.py"; name1="$level"; name2="patient"
    opts1="Level:$level,Seed:1"; opts2="Seed:2"
    ;;
  *) echo "unknown opponent $kind" >&2; exit 2 ;;
esac

# KOMADAI_OPTIONS=Name:value[,...] sets USI options of the komadai under
# test (e.g. MateInOne:true, or EvalFile:/path/net.bin to play a
# candidate network); they join the output folder's name.
if [ -n "${KOMADAI_OPTIONS:-}" ]; then
  opts1="${opts1:+$opts1,}$KOMADAI_OPTIONS"
fi
if [ -n "${OPPONENT_OPTIONS:-}" ]; then
  opts2="${opts2:+$opts2,}$OPPONENT_OPTIONS"
fi
if [ -n "${KOMADAI:-}" ]; then
  under_test="$(cd "$(dirname "$KOMADAI")" && pwd)/$(basename "$KOMADAI")"
  rev="$(basename "$KOMADAI")"
else
  (cd "$root" && cargo build --release --quiet)
  under_test="$root/target/release/komadai"
  rev="$(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet HEAD -- src || echo -dirty)"
fi
byo2="${byo2:-$byo}"
odds=""
[ "$byo2" != "$byo" ] && odds="-at-${byo2}ms"
seed="${OPENING_SEED:-1}"
openings="${OPENINGS:-$here/openings.txt}"
suffix=""
[ "$(basename "$openings")" != openings.txt ] && suffix="-$(basename "$openings" .txt)"
[ "$seed" != 1 ] && suffix="$suffix-seed$seed"
# A value that is a path (EvalFile) joins the name by its file name alone.
optname() { printf %s "$1" | sed 's#[^:,]*/##g' | tr ':,' '=+'; }
[ -n "${KOMADAI_OPTIONS:-}" ] && suffix="$suffix-$(optname "$KOMADAI_OPTIONS")"
[ -n "${OPPONENT_OPTIONS:-}" ] && suffix="$suffix-vs-$(optname "$OPPONENT_OPTIONS")"
out="$here/out/${name1}-vs-${name2}${odds}-${byo}ms-${rev}${suffix}"
mkdir -p "$out/csa"
# Freeze the binary so that rebuilding during a long match changes nothing.
cp "$under_test" "$out/komadai"
export KOMADAI_BIN="$out/komadai"
log="$out/match.log"
# Both engines run behind usi_timer.py, which writes each side's real thinking
# time per move: "equal byoyomi" is not equal time (gpsshogi thinks about 1 s
# on a 300 ms byoyomi). cshogi.cli starts a bare executable, hence the
# wrappers.
times1="$out/times-1-$name1.txt"
times2="$out/times-2-$name2.txt"
rm -f "$times1" "$times2"
timed() { # timed WRAPPER TIMES ENGINE
  printf '#!/bin/sh\nexec python3 %q %q %q\n' "$here/usi_timer.py" "$2" "$3" >"$1"
  chmod +x "$1"
}
timed "$out/engine1" "$times1" "$here/komadai-usi"
timed "$out/engine2" "$times2" "$engine2"
# cshogi.cli waits for every move under byoyomi: bound the whole run.
limit=$(( games * 400 ))
set +e
timeout "${limit}s" python3 -m cshogi.cli "$out/engine1" "$out/engine2" \
  --name1 "$name1" --name2 "$name2" \
  ${opts1:+--options1 "$opts1"} ${opts2:+--options2 "$opts2"} \
  --games "$games" --byoyomi "$byo" "$byo2" --draw 320 \
  --opening "$openings" --opening-seed "$seed" \
  --csa "$out/csa" >"$log" 2>&1
status=$?
set -e
[ "$status" -eq 124 ] && echo "time limit reached after ${limit}s; partial result:"
python3 "$here/summarize.py" "$log" "$name1" "$name2" --times "$times1" "$times2" ||
  python3 "$here/summarize.py" --csa "$out/csa" "$name1" "$name2" --times "$times1" "$times2"
exit
}
