//! Board geometry and rule variants, as data.
//!
//! A [`Board`] is a set of named points joined by drawn lines; adjacency follows the lines and
//! some lines are mills. Its symmetry group is computed from the graph: every permutation of
//! the points that preserves adjacency and maps mills onto mills. A
//! [`Variant`](super::Variant) combines a board with the number of stones per side and the
//! rule options.

use std::fmt;
use std::sync::OnceLock;

/// A set of points as a bitmask (bit `i` = point `i`). Boards have at most 24 points.
pub type Bits = u32;

/// The points of a set, lowest first.
#[inline]
pub fn points(mut set: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let p = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(p)
        }
    })
}

/// Marker for "no square" in compact move encodings.
pub const NO_SQUARE: u8 = u8::MAX;

/// Padding for unused mill slots: never a subset of a real stone set.
const NO_MILL: Bits = u32::MAX;

/// Most mills through one point on any supported board.
pub const MAX_MILLS_PER_POINT: usize = 4;

/// One drawn line of a board: consecutive points are adjacent; `mill` lines form mills.
struct Line {
    points: &'static [&'static str],
    mill: bool,
}

const fn mill(points: &'static [&'static str]) -> Line {
    Line { points, mill: true }
}

const fn link(points: &'static [&'static str]) -> Line {
    Line {
        points,
        mill: false,
    }
}

/// Static description of a board: point names, groups for position strings, drawn lines.
struct BoardSpec {
    name: &'static str,
    /// Groups of points as written in position strings, separated by `/`; the concatenation
    /// is the point numbering (point `i` is the `i`-th name).
    groups: &'static [&'static [&'static str]],
    lines: &'static [Line],
}

const INNER: &[&str] = &["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"];
const MIDDLE: &[&str] = &["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"];
const OUTER: &[&str] = &["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"];

const SQUARE_LINES: [Line; 16] = [
    mill(&["a7", "d7", "g7"]),
    mill(&["g7", "g4", "g1"]),
    mill(&["g1", "d1", "a1"]),
    mill(&["a1", "a4", "a7"]),
    mill(&["b6", "d6", "f6"]),
    mill(&["f6", "f4", "f2"]),
    mill(&["f2", "d2", "b2"]),
    mill(&["b2", "b4", "b6"]),
    mill(&["c5", "d5", "e5"]),
    mill(&["e5", "e4", "e3"]),
    mill(&["e3", "d3", "c3"]),
    mill(&["c3", "c4", "c5"]),
    mill(&["d7", "d6", "d5"]),
    mill(&["g4", "f4", "e4"]),
    mill(&["d1", "d2", "d3"]),
    mill(&["a4", "b4", "c4"]),
];

const DIAGONAL_LINES: [Line; 20] = {
    let [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = SQUARE_LINES;
    [
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        k,
        l,
        m,
        n,
        o,
        p,
        mill(&["a7", "b6", "c5"]),
        mill(&["g7", "f6", "e5"]),
        mill(&["a1", "b2", "c3"]),
        mill(&["g1", "f2", "e3"]),
    ]
};

const STANDARD: BoardSpec = BoardSpec {
    name: "standard",
    groups: &[INNER, MIDDLE, OUTER],
    lines: &SQUARE_LINES,
};

const DIAGONAL: BoardSpec = BoardSpec {
    name: "diagonal",
    groups: &[INNER, MIDDLE, OUTER],
    lines: &DIAGONAL_LINES,
};

const SIX: BoardSpec = BoardSpec {
    name: "six",
    groups: &[MIDDLE, OUTER],
    lines: &[
        mill(&["a7", "d7", "g7"]),
        mill(&["g7", "g4", "g1"]),
        mill(&["g1", "d1", "a1"]),
        mill(&["a1", "a4", "a7"]),
        mill(&["b6", "d6", "f6"]),
        mill(&["f6", "f4", "f2"]),
        mill(&["f2", "d2", "b2"]),
        mill(&["b2", "b4", "b6"]),
        link(&["d7", "d6"]),
        link(&["g4", "f4"]),
        link(&["d1", "d2"]),
        link(&["a4", "b4"]),
    ],
};

const THREE: BoardSpec = BoardSpec {
    name: "three",
    groups: &[
        &["a3", "b3", "c3"],
        &["a2", "b2", "c2"],
        &["a1", "b1", "c1"],
    ],
    lines: &[
        mill(&["a1", "b1", "c1"]),
        mill(&["a2", "b2", "c2"]),
        mill(&["a3", "b3", "c3"]),
        mill(&["a1", "a2", "a3"]),
        mill(&["b1", "b2", "b3"]),
        mill(&["c1", "c2", "c3"]),
    ],
};

/// A board: points, adjacency, mills and the symmetry group computed from them.
pub struct Board {
    /// Short name (`standard`, `diagonal`, `six`, `three`).
    pub name: &'static str,
    names: Vec<&'static str>,
    group_sizes: Vec<usize>,
    adjacency: Vec<Bits>,
    mills: Vec<Bits>,
    point_mills: Vec<[Bits; MAX_MILLS_PER_POINT]>,
    /// Per point: the two ends of every mill line whose middle point it is.
    flanks: Vec<Vec<Bits>>,
    symmetries: Vec<Vec<u8>>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board").field("name", &self.name).finish()
    }
}

impl Board {
    fn build(spec: &BoardSpec) -> Board {
        let names: Vec<&'static str> = spec.groups.iter().flat_map(|g| g.iter().copied()).collect();
        let n = names.len();
        assert!(n <= 24, "boards have at most 24 points");
        let id = |name: &str| {
            names
                .iter()
                .position(|&p| p == name)
                .unwrap_or_else(|| panic!("board {}: unknown point {name}", spec.name))
        };
        let mut adjacency = vec![0 as Bits; n];
        let mut mills = Vec::new();
        let mut point_mills = vec![[NO_MILL; MAX_MILLS_PER_POINT]; n];
        let mut flanks = vec![Vec::new(); n];
        for line in spec.lines {
            let ids: Vec<usize> = line.points.iter().map(|p| id(p)).collect();
            for w in ids.windows(2) {
                adjacency[w[0]] |= 1 << w[1];
                adjacency[w[1]] |= 1 << w[0];
            }
            if line.mill {
                let mask = ids.iter().fold(0, |m, &i| m | (1 << i));
                mills.push(mask);
                if let [a, middle, b] = ids[..] {
                    flanks[middle].push(1 << a | 1 << b);
                }
                for &i in &ids {
                    let slot = point_mills[i]
                        .iter()
                        .position(|&m| m == NO_MILL)
                        .expect("too many mills through one point");
                    point_mills[i][slot] = mask;
                }
            }
        }
        let mut board = Board {
            name: spec.name,
            names,
            group_sizes: spec.groups.iter().map(|g| g.len()).collect(),
            adjacency,
            mills,
            point_mills,
            flanks,
            symmetries: Vec::new(),
        };
        board.symmetries = board.compute_symmetries();
        board
    }

    /// Every permutation of the points that preserves adjacency and maps mills onto mills,
    /// found by backtracking; the identity comes first.
    fn compute_symmetries(&self) -> Vec<Vec<u8>> {
        let n = self.len();
        // Assign points in breadth-first order so adjacency constraints prune early.
        let mut order = vec![0usize];
        let mut seen: Bits = 1;
        let mut i = 0;
        while order.len() < n {
            if i == order.len() {
                let next = (0..n).find(|&p| seen & (1 << p) == 0).unwrap();
                order.push(next);
                seen |= 1 << next;
            }
            let mut adj = self.adjacency[order[i]] & !seen;
            while adj != 0 {
                let p = adj.trailing_zeros() as usize;
                adj &= adj - 1;
                order.push(p);
                seen |= 1 << p;
            }
            i += 1;
        }
        let mut result = Vec::new();
        let mut image = vec![u8::MAX; n];
        self.extend_symmetry(&order, 0, &mut image, 0, &mut result);
        result.sort();
        result
    }

    fn extend_symmetry(
        &self,
        order: &[usize],
        depth: usize,
        image: &mut [u8],
        used: Bits,
        out: &mut Vec<Vec<u8>>,
    ) {
        if depth == order.len() {
            let maps_mills = self
                .mills
                .iter()
                .all(|&m| self.mills.contains(&self.permute(image, m)));
            if maps_mills {
                out.push(image.to_vec());
            }
            return;
        }
        let p = order[depth];
        for q in 0..self.len() {
            if used & (1 << q) != 0 {
                continue;
            }
            if self.adjacency[p].count_ones() != self.adjacency[q].count_ones() {
                continue;
            }
            let consistent = order[..depth].iter().all(|&r| {
                let adj_before = self.adjacency[p] & (1 << r) != 0;
                let adj_after = self.adjacency[q] & (1 << image[r]) != 0;
                adj_before == adj_after
            });
            if consistent {
                image[p] = q as u8;
                self.extend_symmetry(order, depth + 1, image, used | (1 << q), out);
                image[p] = u8::MAX;
            }
        }
    }

    fn permute(&self, perm: &[u8], set: Bits) -> Bits {
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            let p = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= 1 << perm[p];
        }
        out
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Boards are never empty; present for API completeness.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Mask of all points.
    #[inline]
    pub fn full(&self) -> Bits {
        (1u32 << self.len()) - 1
    }

    /// Name of point `p` (e.g. `"d6"`).
    pub fn name(&self, p: u8) -> &'static str {
        self.names[p as usize]
    }

    /// Point with the given name.
    pub fn point(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|&n| n == name).map(|p| p as u8)
    }

    /// Point names in numbering order.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// Sizes of the `/`-separated groups of a position string's board field.
    pub fn group_sizes(&self) -> &[usize] {
        &self.group_sizes
    }

    /// Points adjacent to `p`.
    #[inline]
    pub fn adjacent(&self, p: u8) -> Bits {
        self.adjacency[p as usize]
    }

    /// The empty points a stone on `p` can slide to (the adjacent ones), or fly to (all of
    /// them); the same points are those a stone now on `p` can have come from. The solver's
    /// loops spell this out themselves (docs/DESIGN.md, "The sector graph").
    #[inline]
    pub(crate) fn step_targets(&self, p: u8, empty: Bits, flies: bool) -> Bits {
        if flies {
            empty
        } else {
            self.adjacent(p) & empty
        }
    }

    /// All mills as point sets.
    pub fn mills(&self) -> &[Bits] {
        &self.mills
    }

    /// The number of mills that `stones` form (every line of the board filled by them).
    #[inline]
    pub fn mill_count(&self, stones: Bits) -> u8 {
        self.mills().iter().filter(|&&m| stones & m == m).count() as u8
    }

    /// Does a stone on `p` stand in a mill made of `stones` (which must include `p`)?
    #[inline]
    pub fn in_mill(&self, stones: Bits, p: u8) -> bool {
        self.point_mills[p as usize]
            .iter()
            .any(|&m| m & !stones == 0)
    }

    /// How many mills made of `stones` pass through `p` (which must be in `stones`).
    #[inline]
    pub fn mills_at(&self, stones: Bits, p: u8) -> u32 {
        self.point_mills[p as usize]
            .iter()
            .filter(|&&m| m & !stones == 0)
            .count() as u32
    }

    /// The mills made of `stones` that pass through `p`, as point sets.
    pub fn mills_through(&self, stones: Bits, p: u8) -> impl Iterator<Item = Bits> + '_ {
        self.point_mills[p as usize]
            .iter()
            .copied()
            .filter(move |&m| m & !stones == 0)
    }

    /// The pairs of points that flank `p` on a mill line (`p` is the line's middle point),
    /// each as a two-point set: where an intervention capture looks.
    pub fn flanks(&self, p: u8) -> &[Bits] {
        &self.flanks[p as usize]
    }

    /// The stones of `stones` that stand in at least one mill.
    #[inline]
    pub fn mill_stones(&self, stones: Bits) -> Bits {
        self.mills
            .iter()
            .fold(0, |acc, &m| if stones & m == m { acc | m } else { acc })
    }

    /// Stones of `stones` that an opponent may remove after closing a mill: those outside
    /// mills, or all of them when every stone is in a mill (unless `from_mills` allows any).
    #[inline]
    pub fn removable(&self, stones: Bits, from_mills: bool) -> Bits {
        if from_mills {
            return stones;
        }
        let free = stones & !self.mill_stones(stones);
        if free == 0 { stones } else { free }
    }

    /// The symmetry group as point permutations (`perm[p]` is the image of `p`); identity first.
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// Apply symmetry number `sym` to a set of points.
    pub fn transform(&self, sym: usize, set: Bits) -> Bits {
        self.permute(&self.symmetries[sym], set)
    }
}

/// The boards millbase knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// The 24-point Nine Men's Morris board.
    Standard,
    /// The 24-point board with the four diagonals (Twelve Men's Morris).
    Diagonal,
    /// The 16-point Six Men's Morris board.
    Six,
    /// The 9-point Three Men's Morris board.
    Three,
}

impl BoardKind {
    /// The board, built once.
    pub fn board(self) -> &'static Board {
        static BOARDS: [OnceLock<Board>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let (slot, spec) = match self {
            BoardKind::Standard => (0, &STANDARD),
            BoardKind::Diagonal => (1, &DIAGONAL),
            BoardKind::Six => (2, &SIX),
            BoardKind::Three => (3, &THREE),
        };
        BOARDS[slot].get_or_init(|| Board::build(spec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(kind: BoardKind) -> &'static Board {
        kind.board()
    }

    #[test]
    fn standard_board_geometry() {
        let b = board(BoardKind::Standard);
        assert_eq!(b.len(), 24);
        assert_eq!(b.mills().len(), 16);
        assert_eq!(b.symmetries().len(), 16);
        let edges: u32 = (0..24).map(|p| b.adjacent(p).count_ones()).sum();
        assert_eq!(edges / 2, 32);
        let d2 = b.point("d2").unwrap();
        let expect = ["d1", "d3", "b2", "f2"]
            .iter()
            .fold(0, |m, n| m | 1 << b.point(n).unwrap());
        assert_eq!(b.adjacent(d2), expect);
    }

    #[test]
    fn other_boards() {
        let d = board(BoardKind::Diagonal);
        assert_eq!((d.mills().len(), d.symmetries().len()), (20, 16));
        let s = board(BoardKind::Six);
        assert_eq!(
            (s.len(), s.mills().len(), s.symmetries().len()),
            (16, 8, 16)
        );
        let t = board(BoardKind::Three);
        assert_eq!((t.len(), t.mills().len(), t.symmetries().len()), (9, 6, 8));
    }

    #[test]
    fn symmetries_form_a_group_preserving_geometry() {
        for kind in [
            BoardKind::Standard,
            BoardKind::Diagonal,
            BoardKind::Six,
            BoardKind::Three,
        ] {
            let b = board(kind);
            let syms = b.symmetries();
            assert_eq!(syms[0], (0..b.len() as u8).collect::<Vec<_>>());
            for s in syms {
                let composed: Vec<u8> = (0..b.len()).map(|p| s[s[p] as usize]).collect();
                assert!(syms.contains(&composed));
                for p in 0..b.len() as u8 {
                    assert_eq!(b.permute(s, b.adjacent(p)), b.adjacent(s[p as usize]));
                }
            }
        }
    }

    #[test]
    fn removable_respects_mills() {
        let b = board(BoardKind::Standard);
        let set = |names: &[&str]| names.iter().fold(0, |m, n| m | 1 << b.point(n).unwrap());
        let stones = set(&["a7", "d7", "g7", "b4"]);
        assert_eq!(b.removable(stones, false), set(&["b4"]));
        let all_in_mill = set(&["a7", "d7", "g7"]);
        assert_eq!(b.removable(all_in_mill, false), all_in_mill);
        assert_eq!(b.removable(stones, true), stones);
    }
}
