-- Vacation: a member may pause the deadlines of their correspondence games
-- for a yearly allowance of days. While `vacation_since` is set, every game
-- in which they are to move keeps the seconds that were left in
-- `paused_left` instead of a deadline; going back restores the deadline as
-- now + paused_left, so deadlines and reminders shift exactly.
ALTER TABLE players ADD COLUMN vacation_since BIGINT;
-- The UTC year `vacation_used` counts for, and the seconds used in it by
-- vacations that ended (a vacation counts for the year it began in).
ALTER TABLE players ADD COLUMN vacation_year BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_used BIGINT NOT NULL DEFAULT 0 CHECK (vacation_used >= 0);
ALTER TABLE games ADD COLUMN paused_left BIGINT CHECK (paused_left IS NULL OR paused_left >= 0);
CREATE INDEX players_on_vacation ON players (vacation_since) WHERE vacation_since IS NOT NULL;

-- Conditional premoves: a player's lines for a game, "if the opponent plays
-- the first move, answer with the second (then if the third, the fourth...)".
-- `from_ply` is the ply of the opponent's move the line begins with; moves
-- are USI, separated by spaces. Only their owner ever sees them.
CREATE TABLE premoves (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES players (user_id),
    line_no    BIGINT NOT NULL,
    from_ply   BIGINT NOT NULL CHECK (from_ply >= 1),
    moves      TEXT    NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id, line_no)
);

-- Server settings, changed by members with Manage Server: beside the game
-- channel and threads (already here), whether rated games are allowed, the
-- default days per move of a challenge, and the default language for
-- members who did not choose one.
ALTER TABLE servers ADD COLUMN rated BIGINT NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE servers ADD COLUMN default_days BIGINT
    CHECK (default_days IS NULL OR default_days IN (1, 2, 3, 5, 7, 14));
ALTER TABLE servers ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'de'));

-- Following: a member gets the moves of a game, or of another member's
-- games on the server where they followed, by direct message. Opt-in (a
-- member follows by hand) and capped (KOMADAI_MAX_FOLLOWS per member).
CREATE TABLE follows (
    user_id    BIGINT NOT NULL REFERENCES players (user_id),
    kind       TEXT    NOT NULL CHECK (kind IN ('game', 'player')),
    target     BIGINT NOT NULL,
    guild_id   BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, target)
);
CREATE INDEX follows_target ON follows (kind, target);
