//! millbase: endgame databases and perfect play for Nine Men's Morris and its family.

pub mod engine;
pub mod export;
pub mod generate;
pub mod index;
pub mod lock;
pub mod memory;
pub mod movegen;
pub mod notation;
pub mod plan;
pub mod position;
pub mod probe;
pub mod reach;
pub mod report;
pub mod rules;
pub mod solve;
pub mod table;
pub mod value;
pub mod verify;
