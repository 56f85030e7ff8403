//! Layer 6 of the library (docs/DESIGN.md, "Layers"), building databases: what a set of sectors
//! costs ([`plan`]), solving components and writing their tables under a lock per component
//! ([`generate`], [`lock`]), checking stored tables against their successors ([`verify`]), and the
//! work over a whole table directory: its verification, compaction and statistics
//! ([`verification`], [`compaction`], [`stats`]). Imports the layers below:
//! [`solve`](crate::solve), [`table`](crate::table), [`sector`](crate::sector),
//! [`game`](crate::game), [`sys`](crate::sys); never [`probe`](crate::probe) or the programs.

pub mod compaction;
pub mod generate;
pub mod lock;
pub mod plan;
pub mod stats;
pub mod verification;
pub mod verify;
