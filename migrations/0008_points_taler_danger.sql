-- Points and Taler beside Elo (never real money). Rated games give the
-- winner +10 points and the loser -10. Every player starts with 1000 Taler;
-- a rated challenge may set a stake, which both players put in when the
-- game starts: the winner takes the pot, a draw or an abort returns it.
--
-- The players table also gains the danger-help setting and the piece styles
-- of the description (pictograms), with movement dots and piece names as
-- options. SQLite cannot alter a CHECK constraint, so `players` is rebuilt as
-- in 0005 (the store checks the references to it before committing).
CREATE TABLE players_new (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    notation     TEXT    NOT NULL DEFAULT 'western'
                 CHECK (notation IN ('usi', 'western', 'western-numeric', 'japanese')),
    piece_style  TEXT    NOT NULL DEFAULT 'kanji'
                 CHECK (piece_style IN ('kanji', 'kanji2', 'international', 'pictogram',
                                        'pictogram-kanji')),
    theme        TEXT    NOT NULL DEFAULT 'light' CHECK (theme IN ('light', 'dark')),
    language     TEXT    CHECK (language IS NULL OR language IN ('en', 'de')),
    dms          INTEGER NOT NULL DEFAULT 0 CHECK (dms IN (0, 1)),
    rating       REAL    NOT NULL DEFAULT 1500,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    orientation  TEXT    NOT NULL DEFAULT 'own' CHECK (orientation IN ('own', 'sente')),
    points       INTEGER NOT NULL DEFAULT 0,
    taler        INTEGER NOT NULL DEFAULT 1000 CHECK (taler >= 0),
    -- Red outlines on hanging pieces: 'auto' in games against Beginner and
    -- Easy and in lessons, 'always' in every unrated game, 'off'.
    danger       TEXT    NOT NULL DEFAULT 'auto' CHECK (danger IN ('auto', 'always', 'off')),
    -- Movement dots on the piece faces, and a small name under the symbol.
    dots         INTEGER NOT NULL DEFAULT 0 CHECK (dots IN (0, 1)),
    names        INTEGER NOT NULL DEFAULT 0 CHECK (names IN (0, 1))
);
INSERT INTO players_new (user_id, display_name, notation, piece_style, theme, language, dms,
                         rating, rated_games, created_at, orientation)
    SELECT user_id, display_name, notation, piece_style, theme, language, dms,
           rating, rated_games, created_at, orientation
    FROM players;
DROP TABLE players;
ALTER TABLE players_new RENAME TO players;
ALTER TABLE challenges ADD COLUMN stake INTEGER NOT NULL DEFAULT 0
    CHECK (stake >= 0);
-- The professional rule as a challenge option: a sennichite starts the next
-- game at once, colours swapped, in the same place (linked by rematch_of).
ALTER TABLE challenges ADD COLUMN sennichite_replay INTEGER NOT NULL DEFAULT 0
    CHECK (sennichite_replay IN (0, 1));
-- The game whose sennichite this game replays (NULL for every other game).
ALTER TABLE games ADD COLUMN replay_of INTEGER REFERENCES games (id);
