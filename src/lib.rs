//! komadai: a Discord bot for correspondence shogi.
//!
//! The crate is a library with a thin binary. Data flows one way: adapters
//! (Discord, console) call the app layer, which uses the store, the engine,
//! the renderer and the notation module, all of which rest on the pure rules
//! core in [`shogi`].

pub mod cli;
pub mod engine;
pub mod shogi;
