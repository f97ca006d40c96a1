//! komadai: a Discord bot for correspondence shogi.
//!
//! The crate is a library with a thin binary. Data flows one way: adapters
//! (Discord, console) call the app layer, which uses the store, the engine,
//! the renderer and the notation module, all of which rest on the pure rules
//! core in [`shogi`].

pub mod app;
pub mod cli;
pub mod console;
pub mod discord;
pub mod engine;
pub mod i18n;
pub mod lang;
pub mod notation;
pub mod render;
pub mod shogi;
pub mod store;
pub mod tsume;
pub mod web;
