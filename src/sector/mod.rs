//! Layer 3 of the library (docs/DESIGN.md, "Layers"), indexing and the sector graph: the perfect
//! index of a sector's positions up to symmetry ([`index`]), the sectors each sector's moves lead
//! to and the order they are solved in ([`graph`]), and which positions can occur in play
//! ([`reach`]). Imports only [`game`](crate::game) and [`sys`](crate::sys).

pub mod graph;
pub mod index;
pub mod reach;
