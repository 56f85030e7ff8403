//! Text forms of moves and positions.
//!
//! Moves are written as in the Sanmill app: a placement `d6`, a slide or fly `a1-a4`, either
//! with the removal it makes `d6xg7`, `a1-a4xg7`, and (split convention) a lone removal `xg7`.
//!
//! Positions use Sanmill's position string ("FEN"), described in `RULES.md`:
//!
//! ```text
//! ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1
//! ```
//!
//! board groups, side to move, phase, action, six counts (white on board, white in hand, black
//! on board, black in hand, white to remove, black to remove), four last-mill squares, the
//! formed-mills bitmask, plies since the last removal or placement, the full-move number and
//! optional suffixes. The keyword `start` stands for the variant's initial position.

mod fen;
mod moves;

pub use fen::{
    PositionError, PositionInfo, START, format_position, format_position_info, parse_position,
    parse_position_info,
};
pub use moves::{MoveError, format_move, parse_legal_move, parse_move};

#[cfg(test)]
mod tests;
