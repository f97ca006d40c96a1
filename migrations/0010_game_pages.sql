-- The read-only game page (issue #20, item 6).
--
-- page_secret: one random key per database. A game's page address is the
-- game id with an HMAC-SHA256 of it under this key (app::page), so every
-- game, old or new, has an unguessable address without a column of its
-- own, and every process over the same database computes the same one.
-- SQLite's randomblob() draws from the operating system's entropy.
CREATE TABLE page_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
INSERT INTO page_secret (id, secret) VALUES (1, lower(hex(randomblob(32))));

-- The latest /analyze of a game, for the page's evaluation graph: one
-- evaluation per ply from Sente's view (`cp:N`, `mate:sente:N`,
-- `mate:gote:N`, space-separated) and the turning points' move numbers.
CREATE TABLE analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    evals TEXT NOT NULL,
    turning TEXT NOT NULL,
    analysed_at INTEGER NOT NULL
);
