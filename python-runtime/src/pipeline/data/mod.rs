//! The data folder, as the window and an agent see it, never as the worker does:
//!
//! - [`listing`]: the folder's tree, and the one resolver every path given from outside
//!   goes through;
//! - [`inspect`]: one look at a data file (a description and a preview), told by a fixed
//!   script of ours in a confined worker.

pub mod inspect;
pub mod listing;
