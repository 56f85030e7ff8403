//! Layer 1 of the library (docs/DESIGN.md, "Layers"), system helpers: memory hints for the solver's
//! large arrays and the record of the files this process holds (for clean-up on signals). Imports
//! nothing of the crate.

pub mod held;
pub mod memory;
