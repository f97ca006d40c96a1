-- Server leagues: a member with Manage Server creates one, members join
-- until it starts, the bot pairs them (round robin, double round robin or
-- a fixed number of Swiss rounds), starts each round's games and moves on
-- when every game of the round has a result.
CREATE TABLE leagues (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    -- Where it was created: the sign-up, round and final posts go here.
    channel_id    INTEGER,
    name          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('roundrobin', 'double', 'swiss')),
    -- Swiss: the fixed number of rounds; round robin: set at the start.
    rounds        INTEGER NOT NULL CHECK (rounds >= 0),
    variant       TEXT    NOT NULL CHECK (variant IN ('standard', 'minishogi')),
    days_per_move INTEGER NOT NULL CHECK (days_per_move >= 1),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    starts_at     INTEGER NOT NULL,
    max_players   INTEGER NOT NULL CHECK (max_players >= 2),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    -- The round being played (0 before the start).
    round         INTEGER NOT NULL DEFAULT 0,
    created_by    INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER
);
CREATE INDEX leagues_status ON leagues (status, starts_at);
CREATE INDEX leagues_guild ON leagues (guild_id, id);

CREATE TABLE league_players (
    league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES players (user_id),
    joined_at    INTEGER NOT NULL,
    -- Set when the player withdrew after the start: their running games
    -- were resigned, their later pairings are lost without a game.
    withdrawn_at INTEGER,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX league_players_user ON league_players (user_id);

-- One pairing of a round. `gote` NULL is a bye. `result` is set when the
-- pairing is decided without a game (a bye, a withdrawal: reason 'bye' or
-- 'forfeit'; 'none' when both withdrew); a played pairing's result is its
-- game's.
CREATE TABLE league_pairings (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round     INTEGER NOT NULL CHECK (round >= 1),
    board     INTEGER NOT NULL CHECK (board >= 1),
    sente     INTEGER NOT NULL REFERENCES players (user_id),
    gote      INTEGER REFERENCES players (user_id),
    game_id   INTEGER UNIQUE REFERENCES games (id),
    result    TEXT    CHECK (result IN ('sente', 'gote', 'draw', 'none')),
    reason    TEXT    CHECK (reason IN ('bye', 'forfeit')),
    PRIMARY KEY (league_id, round, board)
);
