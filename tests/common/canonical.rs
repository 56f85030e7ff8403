//! Canonical positions for the brute-force oracles, built from the rules engine alone: positions
//! normalised with the side to move as White, reduced by the board's symmetries
//! (`Board::symmetries` / `transform`, turned into byte tables here), and a sortable key per
//! position. Nothing here comes from the solver's index.

use millbase::rules::{Bits, points};
use millbase::{Color, Position, Sector, Variant};

/// The `k`-point sets of an `n`-point board.
pub fn k_sets(n: usize, k: usize) -> Vec<Bits> {
    (0..1 << n)
        .filter(|s: &Bits| s.count_ones() as usize == k)
        .collect()
}

/// Two stone sets in one number, the side to move's above: keys compare by `us` first.
pub fn pair(us: Bits, them: Bits) -> u64 {
    (us as u64) << 24 | them as u64
}

/// The key of a normalised position (White to move): the stones in hand of the side to move and
/// of the opponent in bits 52..56 and 48..52, then [`pair`].
pub fn key_of(in_hand: [u8; 2], stones: u64) -> u64 {
    (in_hand[0] as u64) << 52 | (in_hand[1] as u64) << 48 | stones
}

/// The normalised position of a key.
pub fn position_of(key: u64) -> Position {
    Position::new(
        [(key >> 24) as Bits & 0xFF_FFFF, key as Bits & 0xFF_FFFF],
        [(key >> 52) as u8 & 0xF, (key >> 48) as u8 & 0xF],
        Color::White,
    )
}

/// The sector of a normalised position.
pub fn sector_of(pos: &Position) -> Sector {
    assert!(pos.to_move == Color::White && !pos.pending_removal());
    Sector::new(
        pos.stones[0].count_ones() as u8,
        pos.stones[1].count_ones() as u8,
        pos.in_hand[0],
        pos.in_hand[1],
    )
}

/// The board's symmetries as byte tables: `images[sym][j][x]` is the image of the points
/// `x << 8j` under symmetry `sym`.
pub struct Symmetries {
    images: Vec<[[Bits; 256]; 3]>,
}

impl Symmetries {
    pub fn new(v: &Variant) -> Symmetries {
        let board = v.board();
        let images = (0..board.symmetries().len())
            .map(|sym| {
                let mut t = [[0; 256]; 3];
                for (j, row) in t.iter_mut().enumerate() {
                    for (x, image) in row.iter_mut().enumerate() {
                        *image = board.transform(sym, ((x as Bits) << (8 * j)) & board.full());
                    }
                }
                t
            })
            .collect();
        Symmetries { images }
    }

    /// The image of `set` under symmetry `sym`.
    pub fn image(&self, sym: usize, set: Bits) -> Bits {
        let t = &self.images[sym];
        t[0][(set & 0xFF) as usize]
            | t[1][(set >> 8 & 0xFF) as usize]
            | t[2][(set >> 16 & 0xFF) as usize]
    }

    /// The smallest image of `us` under the symmetries, and the mask of the symmetries that
    /// map `us` to it: the smallest image of a position (us, them) as a [`pair`] is then the
    /// pair of that image and the smallest image of `them` under those symmetries.
    pub fn frame(&self, us: Bits) -> (Bits, u32) {
        let mut rep = Bits::MAX;
        let mut mask = 0;
        for s in 0..self.images.len() {
            let image = self.image(s, us);
            if image < rep {
                (rep, mask) = (image, 0);
            }
            if image == rep {
                mask |= 1 << s;
            }
        }
        (rep, mask)
    }

    /// The smallest image of `them` under the symmetries of `mask`.
    pub fn smallest(&self, mask: u32, them: Bits) -> Bits {
        let images = points(mask).map(|s| self.image(s as usize, them));
        images.min().expect("the mask of a frame is not empty")
    }
}
