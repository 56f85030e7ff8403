//! Layer 2 of the library (docs/DESIGN.md, "Layers"), the rules and the game model: variants and
//! their boards ([`rules`]), positions and moves ([`position`]), move generation and the game's
//! outcome ([`movegen`]), values and the N-move rule ([`value`]), and Sanmill's notation
//! ([`notation`]). Imports only [`sys`](crate::sys).

pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;
pub mod value;
