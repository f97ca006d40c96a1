-- A challenge may start from a given position (an SFEN, e.g. from an imported
-- KIF or a composed problem). Such games are never rated.
ALTER TABLE challenges ADD COLUMN start_sfen TEXT;
