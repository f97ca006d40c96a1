-- Games on the handicap ladder (against Strong, started with /play
-- level:ladder) are marked: they allow no hints and no takebacks, and only
-- they count for the ladder. Before this column the ladder counted every
-- finished 9x9 game against Strong (user id -4), so those are marked.
ALTER TABLE games ADD COLUMN ladder INTEGER NOT NULL DEFAULT 0 CHECK (ladder IN (0, 1));
UPDATE games SET ladder = 1 WHERE (sente = -4 OR gote = -4) AND variant = 'standard';

-- A command sent in a game's thread finds the game by its thread.
CREATE INDEX games_thread ON games (thread_id);
