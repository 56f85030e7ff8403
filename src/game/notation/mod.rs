//! Text forms of moves and positions.
//!
//! Moves are written as in the Sanmill app: a placement `d6`, a slide or fly `a1-a4`, either
//! with the removal it makes `d6xg7`, `a1-a4xg7`, and (split convention) a lone removal `xg7`.
//!
//! Positions use Sanmill's position string ("FEN"), described in `RULES.md`:
//!
//! ```text
//! ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes
//! ```
//!
//! board groups, side to move, phase, action, six counts (white on board, white in hand, black
//! on board, black in hand, white to remove, black to remove), four last-mill squares, the
//! formed-mills bitmask, plies since the last removal or placement, the full-move number and
//! optional suffixes. The keyword `start` stands for the variant's initial position. A
//! position with moves is the position string (or `start`), the word `moves` and the moves
//! ([`parse_line`]: `start moves d6 f4 xd6`).
//!
//! The last-mill squares come in two numberings. Node ids (-1 for none, 0 up in the board's
//! ring order) are what Sanmill writes, with the marker `ids:nodes` at the end; legacy ids
//! (0 for none, node + 8) are older strings' form, without the marker. Both are read: without
//! the marker a field that only a node id can be (-1, or 1 to 7) makes all four node ids,
//! and otherwise they read as legacy ids ([`parse_position`] has the details). Positions
//! are always written in Sanmill's form, with node ids and `ids:nodes`
//! ([`format_position`]).

mod fen;
mod line;
mod moves;

pub use fen::{
    PositionError, PositionInfo, START, format_position, format_position_info, parse_position,
    parse_position_info,
};
pub use line::{Line, LineError, MOVES, parse_line};
pub use moves::{MoveError, format_move, parse_legal_move, parse_move};

#[cfg(test)]
mod tests;
