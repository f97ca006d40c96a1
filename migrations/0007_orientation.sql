-- Which way up a player sees boards meant only for them (ephemeral answers,
-- replays, GIF exports): 'own' puts their own side at the bottom, 'sente'
-- always Sente. Public posts always show Sente at the bottom.
ALTER TABLE players ADD COLUMN orientation TEXT NOT NULL DEFAULT 'own'
    CHECK (orientation IN ('own', 'sente'));
