-- Points and Taler beside Elo (never real money). Rated games give the
-- winner +10 points and the loser -10. Every player starts with 1000 Taler;
-- a rated challenge may set a stake, which both players put in when the
-- game starts: the winner takes the pot, a draw or an abort returns it.
ALTER TABLE players ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN taler BIGINT NOT NULL DEFAULT 1000
    CHECK (taler >= 0);
-- The danger-help setting and the piece styles of the description
-- (pictograms), with movement dots and piece names as options.
ALTER TABLE players DROP CONSTRAINT players_piece_style_check;
ALTER TABLE players ADD CONSTRAINT players_piece_style_check
    CHECK (piece_style IN ('kanji', 'kanji2', 'international', 'pictogram', 'pictogram-kanji'));
ALTER TABLE players ADD COLUMN danger TEXT NOT NULL DEFAULT 'auto'
    CHECK (danger IN ('auto', 'always', 'off'));
ALTER TABLE players ADD COLUMN dots BIGINT NOT NULL DEFAULT 0 CHECK (dots IN (0, 1));
ALTER TABLE players ADD COLUMN names BIGINT NOT NULL DEFAULT 0 CHECK (names IN (0, 1));
ALTER TABLE challenges ADD COLUMN stake BIGINT NOT NULL DEFAULT 0
    CHECK (stake >= 0);
-- The professional rule as a challenge option: a sennichite starts the next
-- game at once, colours swapped, in the same place (linked by rematch_of).
ALTER TABLE challenges ADD COLUMN sennichite_replay BIGINT NOT NULL DEFAULT 0
    CHECK (sennichite_replay IN (0, 1));
-- The game whose sennichite this game replays (NULL for every other game).
ALTER TABLE games ADD COLUMN replay_of BIGINT REFERENCES games (id);
