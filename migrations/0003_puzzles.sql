-- Tsume puzzles: the collection (loaded from the binary on start, idempotently),
-- each player's puzzle in progress, and the daily puzzle's results.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    plies INTEGER NOT NULL,
    sfen TEXT NOT NULL,
    solution TEXT NOT NULL
);
CREATE INDEX puzzles_by_plies ON puzzles (plies, id);

-- At most one puzzle in progress per player; moves are USI, space-separated.
CREATE TABLE puzzle_sessions (
    user_id INTEGER PRIMARY KEY,
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
    day INTEGER,
    moves TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL
);

-- One row per player and UTC day (days since 1970-01-01) they tried the daily puzzle.
CREATE TABLE daily_results (
    day INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    puzzle_id TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    solved_at INTEGER,
    PRIMARY KEY (day, user_id)
);
