-- komadai schema, version 1. Append-only: later changes come as new files.
-- Times are Unix seconds (UTC). Discord ids are stored as INTEGER (i64).

CREATE TABLE players (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    notation     TEXT    NOT NULL DEFAULT 'western'
                 CHECK (notation IN ('usi', 'western', 'japanese')),
    piece_style  TEXT    NOT NULL DEFAULT 'kanji'
                 CHECK (piece_style IN ('kanji', 'kanji2', 'international')),
    theme        TEXT    NOT NULL DEFAULT 'light' CHECK (theme IN ('light', 'dark')),
    language     TEXT    CHECK (language IS NULL OR language IN ('en', 'de')),
    dms          INTEGER NOT NULL DEFAULT 0 CHECK (dms IN (0, 1)),
    rating       REAL    NOT NULL DEFAULT 1500,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL
);

CREATE TABLE servers (
    guild_id     INTEGER PRIMARY KEY,
    game_channel INTEGER,
    threads      INTEGER NOT NULL DEFAULT 1 CHECK (threads IN (0, 1))
);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER,
    challenger    INTEGER NOT NULL REFERENCES players (user_id),
    challenged    INTEGER REFERENCES players (user_id),          -- NULL: open challenge
    variant       TEXT    NOT NULL CHECK (variant IN ('standard', 'minishogi')),
    handicap      TEXT,
    rule          TEXT    NOT NULL CHECK (rule IN ('declaration27', 'counting24', 'try')),
    days_per_move INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 14)),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    color         TEXT    NOT NULL CHECK (color IN ('sente', 'gote', 'random')),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id       INTEGER REFERENCES games (id),
    rematch_of    INTEGER REFERENCES games (id),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL
);
CREATE INDEX challenges_open ON challenges (status, expires_at);

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER,
    thread_id     INTEGER,
    variant       TEXT    NOT NULL CHECK (variant IN ('standard', 'minishogi')),
    handicap      TEXT,
    rule          TEXT    NOT NULL CHECK (rule IN ('declaration27', 'counting24', 'try')),
    days_per_move INTEGER NOT NULL,
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    sente         INTEGER NOT NULL REFERENCES players (user_id),
    gote          INTEGER NOT NULL REFERENCES players (user_id),
    start_sfen    TEXT    NOT NULL,
    sfen          TEXT    NOT NULL,                -- current position, checked on load
    ply           INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    result        TEXT    CHECK (result IN ('sente', 'gote', 'draw', 'aborted')),
    reason        TEXT,
    version       INTEGER NOT NULL DEFAULT 0,      -- optimistic concurrency
    deadline      INTEGER,                         -- of the side to move
    reminded      INTEGER NOT NULL DEFAULT 0,      -- bit 1: half time, bit 2: 10 % left
    takeback_by   INTEGER,                         -- player who asked for a takeback
    count_by      INTEGER,                         -- player who asked to count (24 points)
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    finished_at   INTEGER
);
CREATE INDEX games_sente ON games (sente, status);
CREATE INDEX games_gote ON games (gote, status);
CREATE INDEX games_deadline ON games (status, deadline);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    usi       TEXT    NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE rating_history (
    id       INTEGER PRIMARY KEY,
    user_id  INTEGER NOT NULL REFERENCES players (user_id),
    game_id  INTEGER NOT NULL REFERENCES games (id),
    before   REAL    NOT NULL,
    after    REAL    NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (user_id, at);

-- Requests already answered, so a retried request is not applied twice.
CREATE TABLE requests (
    request_id TEXT    PRIMARY KEY,
    response   TEXT    NOT NULL,
    at         INTEGER NOT NULL
);

-- Notices the scheduler produced (reminders, timeouts, expiries); written in the
-- same transaction as the state change, deleted once the front end delivered them.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    payload    TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
