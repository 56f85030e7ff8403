//! Game-theoretic values with distances, and their 16-bit encoding.

use std::fmt;

/// The value of a position for the side to move, with the distance in plies to the end of
/// the game under perfect play (winner fastest, loser slowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies (0: has already lost).
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

/// Encoded draw.
pub const DRAW: u16 = 0;
/// Encoded unused slot (a non-canonical index entry).
pub const UNUSED: u16 = 0xFFFF;
/// Flag of decided values in the encoding.
pub const DECIDED: u16 = 0x8000;
/// Flag of wins among decided values.
pub const WIN_FLAG: u16 = 0x4000;
/// Largest representable distance.
pub const MAX_PLIES: u16 = 0x3FFE;

impl Value {
    /// 16-bit encoding: draw 0, loss `0x8000 | n`, win `0xC000 | n`.
    #[inline]
    pub fn encode(self) -> u16 {
        match self {
            Value::Draw => DRAW,
            Value::Loss(n) => DECIDED | n,
            Value::Win(n) => DECIDED | WIN_FLAG | n,
        }
    }

    /// Decode a stored value; `None` for an unused slot or a malformed code.
    #[inline]
    pub fn decode(code: u16) -> Option<Value> {
        match code {
            DRAW => Some(Value::Draw),
            UNUSED => None,
            c if c & DECIDED == 0 => None,
            c if c & WIN_FLAG != 0 => Some(Value::Win(c & MAX_PLIES_MASK)),
            c => Some(Value::Loss(c & MAX_PLIES_MASK)),
        }
    }

    /// The value of the position before a move, for the side that made the move leading to a
    /// position of this value.
    #[inline]
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A total order from the point of view of the side choosing: faster wins first, then
    /// draws, then slower losses.
    pub fn preference(self) -> i32 {
        match self {
            Value::Win(n) => 100_000 - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -100_000 + n as i32,
        }
    }

    /// Distance in plies; `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn kind(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }
}

const MAX_PLIES_MASK: u16 = 0x3FFF;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Loss(0),
            Value::Win(203),
            Value::Loss(204),
        ] {
            assert_eq!(Value::decode(v.encode()), Some(v));
        }
        assert_eq!(Value::decode(UNUSED), None);
        assert_eq!(Value::decode(5), None);
        assert!(Value::Win(1).preference() > Value::Win(3).preference());
        assert!(Value::Loss(9).preference() > Value::Loss(2).preference());
        assert!(Value::Draw.preference() > Value::Loss(99).preference());
    }
}
