-- The read-only game page (issue #20, item 6): see migrations/0010_game_pages.sql.
-- The key is two gen_random_uuid() (PostgreSQL 13+, from the server's strong
-- random source): 64 hex digits, 244 random bits.
CREATE TABLE page_secret (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
INSERT INTO page_secret (id, secret)
    VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

CREATE TABLE analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    evals TEXT NOT NULL,
    turning TEXT NOT NULL,
    analysed_at BIGINT NOT NULL
);
