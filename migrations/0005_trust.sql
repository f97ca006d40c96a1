-- Trust at the edges (issue #17).
--
-- 1. players.notation also accepts 'western-numeric'. SQLite cannot alter a
--    CHECK constraint, so the table is rebuilt the way SQLite documents
--    ("Making Other Kinds Of Table Schema Changes", sqlite.org/lang_altertable.html):
--    create the new table, copy the rows, drop the old one, rename the new
--    one. The store runs migrations with `PRAGMA foreign_keys = OFF` (it is a
--    no-op inside the migration's transaction) and checks before committing
--    (`PRAGMA foreign_key_check`, rows whose parent is `players`) that the
--    references from challenges, games and rating_history stay intact: they
--    name the table `players`, which exists again with the same keys.
CREATE TABLE players_new (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    notation     TEXT    NOT NULL DEFAULT 'western'
                 CHECK (notation IN ('usi', 'western', 'western-numeric', 'japanese')),
    piece_style  TEXT    NOT NULL DEFAULT 'kanji'
                 CHECK (piece_style IN ('kanji', 'kanji2', 'international')),
    theme        TEXT    NOT NULL DEFAULT 'light' CHECK (theme IN ('light', 'dark')),
    language     TEXT    CHECK (language IS NULL OR language IN ('en', 'de')),
    dms          INTEGER NOT NULL DEFAULT 0 CHECK (dms IN (0, 1)),
    rating       REAL    NOT NULL DEFAULT 1500,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL
);
INSERT INTO players_new (user_id, display_name, notation, piece_style, theme, language, dms,
                         rating, rated_games, created_at)
    SELECT user_id, display_name, notation, piece_style, theme, language, dms,
           rating, rated_games, created_at
    FROM players;
DROP TABLE players;
ALTER TABLE players_new RENAME TO players;

-- 2. The outbox retries with backoff and keeps dead letters. A notice is due
--    when `dead = 0 AND next_attempt_at <= now`; `attempts` counts failed
--    deliveries; `last_error` says why the last one failed. Existing notices
--    are due at once.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN dead INTEGER NOT NULL DEFAULT 0 CHECK (dead IN (0, 1));
UPDATE outbox SET next_attempt_at = created_at;
CREATE INDEX outbox_due ON outbox (dead, next_attempt_at);

-- 3. The computer's replies as durable work: one job per game (the ply it
--    answers), claimed by a worker with a lease (`claimed_until`); a job whose
--    lease ran out is taken again (after a crash or restart).
CREATE TABLE computer_jobs (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    claimed_until INTEGER
);

-- 4. Items the scheduler could not handle (a game that does not load, a
--    challenge that cannot expire, ...): skipped until released by hand.
--    `count` counts how often the item failed, across releases; a released
--    item (`released = 1`) is tried again and back in quarantine if it fails.
CREATE TABLE quarantine (
    kind     TEXT    NOT NULL,
    ref_id   INTEGER NOT NULL,
    error    TEXT    NOT NULL,
    count    INTEGER NOT NULL DEFAULT 1,
    first_at INTEGER NOT NULL,
    last_at  INTEGER NOT NULL,
    released INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1)),
    PRIMARY KEY (kind, ref_id)
);

-- 5. What each user did when, for cooldowns and rate limits; pruned after
--    the same retention period as the answered requests.
CREATE TABLE actions (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX actions_user ON actions (user_id, kind, at);
CREATE INDEX actions_at ON actions (at);

-- Answered request ids are pruned by age.
CREATE INDEX requests_at ON requests (at);

-- Counting open challenges per challenger (caps).
CREATE INDEX challenges_challenger ON challenges (challenger, status);
