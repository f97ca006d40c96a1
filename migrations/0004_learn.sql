-- /learn: each player's place in the course (0-based lesson index; the
-- lesson shown and answered next).
CREATE TABLE learn_progress (
    user_id INTEGER PRIMARY KEY,
    lesson INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
