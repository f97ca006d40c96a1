//! Every integration test, in one binary.
//!
//! Each file of `tests/` is a module here rather than a crate of its own:
//! with ~30 crates, `cargo test` compiled and linked ~30 optimised binaries,
//! each with its own copy of the library's generic code, and that was most of
//! CI's time. Helpers shared by several files live in `tests/common/` and are
//! declared once below. Run one file's tests with its module name as the
//! filter, e.g. `cargo test --test integration soak::`.

#[path = "common/app_world.rs"]
mod app_world;
#[path = "common/endpoint.rs"]
mod endpoint;
#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/lines.rs"]
mod lines;
#[path = "common/pg.rs"]
mod pg;
#[path = "common/run.rs"]
mod run;

mod app_model;
mod authorization;
mod backup;
mod cli;
mod console;
mod console_fuzz;
mod crash;
mod discord_e2e;
mod engine_hints;
mod engine_tactics;
mod http_interactions;
mod invariants;
mod load_seed;
mod notation;
mod notation_cli;
mod oracle_legal;
mod perft;
mod puzzles;
mod records;
mod render_golden;
mod rules;
mod scale_out;
mod scheduler;
mod self_play_cli;
mod soak;
mod store;
mod store_backends;
mod trust;
mod tsume_shortest_mate;
mod tsume_solver;
mod usi;
mod usi_mate;
mod web_page;
mod workers;
