#!/usr/bin/env python3
"""USI proxy that measures how long an engine really thinks.

Usage: usi_timer.py TIMES_FILE ENGINE [ARGS...]

Starts ENGINE (in its own directory, as cshogi.cli would), passes every line
between the match runner and the engine unchanged, and appends to TIMES_FILE
one line per move: the milliseconds from the moment a `go` reached the
engine to the moment its `bestmove` came back. Ponder searches (`go
ponder`) are timed from their `ponderhit` on: only the time spent on the
engine's own clock counts.

Why: engines treat a byoyomi differently (gpsshogi thinks about 1 s on
`go byoyomi 300`, Fairy-Stockfish about byoyomi - 75 ms), and cshogi.cli's
CSA records keep whole seconds only, so "equal byoyomi" is not equal time.
run_match.sh wraps both engines in this proxy and summarize.py reports each
side's mean time per move next to the score.
"""
import os
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    times_path, cmd = sys.argv[1], sys.argv[2:]
    engine_dir = os.path.dirname(os.path.abspath(cmd[0])) or None
    child = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=engine_dir,
        text=True,
        bufsize=1,
        encoding="utf-8",
        errors="replace",
    )
    started = [None]  # perf_counter of the pending timed `go`
    lock = threading.Lock()
    times = open(times_path, "a", encoding="utf-8")

    def to_engine():
        for line in sys.stdin:
            words = line.split()
            if words and words[0] == "go":
                with lock:
                    started[0] = None if "ponder" in words else time.perf_counter()
            elif words and words[0] == "ponderhit":
                with lock:
                    started[0] = time.perf_counter()
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except (BrokenPipeError, OSError):
                break
            if words and words[0] == "quit":
                break
        try:
            child.stdin.close()
        except OSError:
            pass

    threading.Thread(target=to_engine, daemon=True).start()
    for line in child.stdout:
        if line.startswith("bestmove"):
            with lock:
                t0, started[0] = started[0], None
            if t0 is not None:
                times.write(f"{(time.perf_counter() - t0) * 1000:.1f}\n")
                times.flush()
        sys.stdout.write(line)
        sys.stdout.flush()
    times.close()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
