//! Sectors and their symmetry-reduced dense indexing.
//!
//! A position of a sector is a pair of point sets: the side to move's stones (`us`) and the
//! opponent's (`them`). The slot of a position is
//! `orbit(us) * C(n - w, b) + rank(them among the empty points)`, after mapping the position
//! by the symmetry that takes `us` to its orbit representative. When the representative has a
//! non-trivial stabilizer, `them` is mapped by each stabilizing symmetry too and the smallest
//! rank is taken; the other ranks of such an orbit are unused slots. Every position therefore
//! has exactly one slot, and symmetric positions share it. Both directions need only table
//! look-ups, `pext`/`pdep` and binomial sums.

use crate::game::position::Position;
use crate::game::rules::{Bits, Board, BoardKind, Variant};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Stones on board and in hand of both sides, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Stones on the board of the side to move.
    pub w: u8,
    /// Stones on the board of the opponent.
    pub b: u8,
    /// Stones in hand of the side to move.
    pub wf: u8,
    /// Stones in hand of the opponent.
    pub bf: u8,
}

impl Sector {
    /// A sector from its four counts.
    pub const fn new(w: u8, b: u8, wf: u8, bf: u8) -> Sector {
        Sector { w, b, wf, bf }
    }

    /// The sector of `pos`, seen from its side to move (for a remove-pending position, the
    /// sector it is in before the removal).
    pub fn of_position(pos: &Position) -> Sector {
        let me = pos.to_move;
        Sector::new(
            pos.on_board(me),
            pos.on_board(me.other()),
            pos.in_hand[me.index()],
            pos.in_hand[me.other().index()],
        )
    }

    /// A moving-phase sector (nothing in hand).
    pub const fn moving(w: u8, b: u8) -> Sector {
        Sector::new(w, b, 0, 0)
    }

    /// The same stones seen from the other side.
    pub fn swapped(self) -> Sector {
        Sector::new(self.b, self.w, self.bf, self.wf)
    }

    /// Is this a moving-phase sector?
    pub fn is_moving(self) -> bool {
        self.wf == 0 && self.bf == 0
    }

    /// Can the sector hold positions of `variant` (counts within the board and the stones)?
    pub fn fits(self, variant: &Variant) -> bool {
        let n = variant.board().len() as u32;
        self.w as u32 + self.b as u32 <= n
            && self.w + self.wf <= variant.stones
            && self.b + self.bf <= variant.stones
    }

    /// File name stem, e.g. `3-3-0-0`.
    pub fn file_stem(self) -> String {
        format!("{}-{}-{}-{}", self.w, self.b, self.wf, self.bf)
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}-{}", self.w, self.b, self.wf, self.bf)
    }
}

/// Error for a malformed sector name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectorParseError(pub String);

impl fmt::Display for SectorParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad sector '{}': expected w-b or w-b-wf-bf with small numbers, e.g. 3-3 or 8-7-1-1",
            self.0
        )
    }
}

impl std::error::Error for SectorParseError {}

impl FromStr for Sector {
    type Err = SectorParseError;

    fn from_str(s: &str) -> Result<Sector, SectorParseError> {
        let err = || SectorParseError(s.to_string());
        let nums: Vec<u8> = s
            .split('-')
            .map(|p| p.parse::<u8>().map_err(|_| err()))
            .collect::<Result<_, _>>()?;
        match nums[..] {
            [w, b] if w <= 24 && b <= 24 => Ok(Sector::moving(w, b)),
            [w, b, wf, bf] if w <= 24 && b <= 24 && wf <= 24 && bf <= 24 => {
                Ok(Sector::new(w, b, wf, bf))
            }
            _ => Err(err()),
        }
    }
}

/// Binomial coefficients C(n, k) for n, k ≤ 24.
struct Binomials([[u32; 26]; 26]);

static BINOMIALS: Binomials = {
    let mut t = [[0u32; 26]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    Binomials(t)
};

/// C(n, k).
#[inline]
pub fn binomial(n: u32, k: u32) -> u32 {
    if k > n {
        0
    } else {
        BINOMIALS.0[n as usize][k as usize]
    }
}

/// Colexicographic rank of a set among the sets of the same size: the sum of C(p_i, i) over
/// its points p_1 < p_2 < ..., computed from three byte-wise partial sums.
#[inline]
pub fn colex_rank(set: Bits) -> u32 {
    let t = &RANK_TABLES.0;
    let b0 = (set & 0xff) as usize;
    let b1 = ((set >> 8) & 0xff) as usize;
    let b2 = ((set >> 16) & 0xff) as usize;
    let c0 = b0.count_ones() as usize;
    let c1 = c0 + b1.count_ones() as usize;
    t[0][0][b0] + t[1][c0][b1] + t[2][c1][b2]
}

/// `RANK_TABLES.0[chunk][before][byte]`: the part of a colex rank contributed by the points of
/// `byte` at bit offset `8 * chunk` when `before` points lie below it.
struct RankTables([[[u32; 256]; 17]; 3]);

static RANK_TABLES: RankTables = {
    let mut t = [[[0u32; 256]; 17]; 3];
    let mut chunk = 0;
    while chunk < 3 {
        let mut before = 0;
        while before < 17 {
            let mut byte = 0;
            while byte < 256 {
                let mut sum = 0;
                let mut i = before;
                let mut bit = 0;
                while bit < 8 {
                    if byte & (1 << bit) != 0 {
                        i += 1;
                        sum += BINOMIALS.0[chunk * 8 + bit][i];
                    }
                    bit += 1;
                }
                t[chunk][before][byte] = sum;
                byte += 1;
            }
            before += 1;
        }
        chunk += 1;
    }
    RankTables(t)
};

/// The `k`-element set with colexicographic rank `rank`.
pub fn colex_unrank(mut rank: u32, k: u32) -> Bits {
    let mut set = 0;
    let mut p = 25usize;
    for i in (1..=k as usize).rev() {
        p -= 1;
        while BINOMIALS.0[p][i] > rank {
            p -= 1;
        }
        rank -= BINOMIALS.0[p][i];
        set |= 1 << p;
    }
    set
}

/// Every `k`-element subset of `0..m`, in colexicographic order (index = colex rank); built
/// once per (m, k) and shared. Unranking by table look-up is what makes decoding a slot cheap.
pub fn combinations(m: u32, k: u32) -> &'static [Bits] {
    static TABLES: OnceLock<Vec<OnceLock<Vec<Bits>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| (0..25 * 25).map(|_| OnceLock::new()).collect());
    tables[(m * 25 + k) as usize].get_or_init(|| {
        let mut set: Bits = if k == 0 { 0 } else { (1 << k) - 1 };
        (0..binomial(m, k))
            .map(|_| {
                let cur = set;
                set = next_combination(set);
                cur
            })
            .collect()
    })
}

/// Parallel bit extract: the bits of `x` selected by `mask`, packed to the bottom.
#[inline]
pub fn pext(x: Bits, mask: Bits) -> Bits {
    #[cfg(target_feature = "bmi2")]
    unsafe {
        std::arch::x86_64::_pext_u32(x, mask)
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        let (mut out, mut bit, mut m) = (0, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// Parallel bit deposit: the low bits of `x` spread to the positions set in `mask`.
#[inline]
pub fn pdep(x: Bits, mask: Bits) -> Bits {
    #[cfg(target_feature = "bmi2")]
    unsafe {
        std::arch::x86_64::_pdep_u32(x, mask)
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        let (mut out, mut bit, mut m) = (0, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & (1 << bit) != 0 {
                out |= low;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// Fast application of a board's symmetries to point sets (three byte look-ups each).
pub struct SymmetryTables {
    lut: Vec<[[Bits; 256]; 3]>,
    /// `compose[a][b]`: the symmetry "apply `b`, then `a`".
    compose: Vec<[u8; 16]>,
}

impl SymmetryTables {
    fn build(board: &Board) -> SymmetryTables {
        let syms = board.symmetries();
        assert!(
            syms.len() <= 16,
            "symmetry groups of at most 16 elements are supported"
        );
        let lut = syms
            .iter()
            .map(|perm| {
                let mut t = [[0; 256]; 3];
                for (chunk, table) in t.iter_mut().enumerate() {
                    for (byte, entry) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let p = chunk * 8 + bit;
                            if byte & (1 << bit) != 0 && p < perm.len() {
                                *entry |= 1 << perm[p];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        let compose = syms
            .iter()
            .map(|a| {
                let mut row = [0u8; 16];
                for (bi, b) in syms.iter().enumerate() {
                    let ab: Vec<u8> = b.iter().map(|&p| a[p as usize]).collect();
                    row[bi] = syms.iter().position(|s| *s == ab).unwrap() as u8;
                }
                row
            })
            .collect();
        SymmetryTables { lut, compose }
    }

    /// Image of `set` under symmetry `sym`.
    #[inline]
    pub fn apply(&self, sym: usize, set: Bits) -> Bits {
        let t = &self.lut[sym];
        t[0][(set & 0xff) as usize]
            | t[1][((set >> 8) & 0xff) as usize]
            | t[2][(set >> 16) as usize]
    }

    /// The symmetry "apply `b`, then `a`".
    #[inline]
    pub fn compose(&self, a: usize, b: usize) -> usize {
        self.compose[a][b] as usize
    }

    /// The images of `set` under every symmetry (unused entries repeat `set`).
    #[inline]
    pub fn images(&self, set: Bits) -> [Bits; 16] {
        let mut out = [set; 16];
        for (s, img) in out.iter_mut().enumerate().take(self.len()) {
            *img = self.apply(s, set);
        }
        out
    }

    /// Number of symmetries.
    pub fn len(&self) -> usize {
        self.lut.len()
    }

    /// Never empty (the identity is always there).
    pub fn is_empty(&self) -> bool {
        self.lut.is_empty()
    }

    /// Is the image of `set` under some symmetry of `mask` (a bit mask, such as a stabilizer)
    /// smaller than `set`? Visiting only sets for which this is false visits each orbit under
    /// the masked symmetries once.
    #[inline]
    pub fn has_smaller_image(&self, mut mask: u16, set: Bits) -> bool {
        while mask != 0 {
            let sym = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if self.apply(sym, set) < set {
                return true;
            }
        }
        false
    }
}

/// The orbits of `k`-point sets of a board under its symmetry group.
pub struct SetOrbits {
    /// Number of points in each set.
    pub k: u32,
    /// Orbit representatives (the numerically smallest member), in increasing order.
    reps: Vec<Bits>,
    /// Per orbit: the non-identity symmetries fixing its representative, as a bit mask.
    stabilizers: Vec<u16>,
    /// Per set (by colex rank): orbit number << 4 | symmetry taking the set to its representative.
    canon: Vec<u32>,
}

impl SetOrbits {
    fn build(board: &Board, syms: &SymmetryTables, k: u32) -> SetOrbits {
        let n = board.len() as u32;
        let count = binomial(n, k) as usize;
        let mut canon = Vec::with_capacity(count);
        let mut reps = Vec::new();
        let mut stabilizers = Vec::new();
        let mut set: Bits = if k == 0 { 0 } else { (1 << k) - 1 };
        for _ in 0..count {
            let (mut best, mut best_sym) = (set, 0usize);
            for s in 1..syms.len() {
                let img = syms.apply(s, set);
                if img < best {
                    best = img;
                    best_sym = s;
                }
            }
            if best == set {
                let mut stab = 0u16;
                for s in 1..syms.len() {
                    if syms.apply(s, set) == set {
                        stab |= 1 << s;
                    }
                }
                canon.push(((reps.len() as u32) << 4) | best_sym as u32);
                reps.push(set);
                stabilizers.push(stab);
            } else {
                let orbit = canon[colex_rank(best) as usize] >> 4;
                canon.push((orbit << 4) | best_sym as u32);
            }
            set = next_combination(set);
        }
        SetOrbits {
            k,
            reps,
            stabilizers,
            canon,
        }
    }

    /// Number of orbits.
    pub fn len(&self) -> usize {
        self.reps.len()
    }

    /// Never empty.
    pub fn is_empty(&self) -> bool {
        self.reps.is_empty()
    }

    /// Orbit number and the symmetry that maps `set` (of size `k`) to the representative.
    #[inline]
    pub fn canonical(&self, set: Bits) -> (u32, usize) {
        let c = self.canon[colex_rank(set) as usize];
        (c >> 4, (c & 15) as usize)
    }

    /// Representative of orbit `orbit`.
    #[inline]
    pub fn rep(&self, orbit: u32) -> Bits {
        self.reps[orbit as usize]
    }

    /// Non-identity symmetries fixing the representative of `orbit` (bit mask).
    #[inline]
    pub fn stabilizer(&self, orbit: u32) -> u16 {
        self.stabilizers[orbit as usize]
    }
}

/// Next set with the same number of points in numeric (= colex) order (Gosper's hack).
#[inline]
pub fn next_combination(set: Bits) -> Bits {
    if set == 0 {
        return 0;
    }
    let c = set & set.wrapping_neg();
    let r = set + c;
    (((r ^ set) >> 2) / c) | r
}

/// Per-board index tables, built once and shared.
pub struct BoardTables {
    /// The board.
    pub board: &'static Board,
    /// Symmetry look-up tables.
    pub syms: SymmetryTables,
    orbits: Vec<OnceLock<SetOrbits>>,
}

impl BoardTables {
    /// The tables of a board kind.
    pub fn of(kind: BoardKind) -> &'static BoardTables {
        static TABLES: [OnceLock<BoardTables>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let slot = kind as usize;
        TABLES[slot].get_or_init(|| {
            let board = kind.board();
            BoardTables {
                board,
                syms: SymmetryTables::build(board),
                orbits: (0..=board.len()).map(|_| OnceLock::new()).collect(),
            }
        })
    }

    /// Orbits of `k`-point sets.
    pub fn orbits(&self, k: u32) -> &SetOrbits {
        self.orbits[k as usize].get_or_init(|| SetOrbits::build(self.board, &self.syms, k))
    }
}

/// The side to move's stones of a position, canonicalised: see [`SectorIndex::frame`].
#[derive(Clone, Copy, Debug)]
pub struct UsFrame {
    /// Orbit of the stone set.
    pub orbit: u32,
    /// Symmetry taking the stone set to its representative.
    pub sym: usize,
    rep: Bits,
    stab: u16,
}

/// The dense index of one sector.
pub struct SectorIndex {
    /// The sector.
    pub sector: Sector,
    /// Board tables.
    pub tables: &'static BoardTables,
    /// Orbits of the side to move's stone sets.
    pub us_orbits: &'static SetOrbits,
    /// Number of opponent sets per orbit: C(n - w, b).
    pub per_orbit: u32,
    /// The opponent's sets by rank ([`combinations`] of b among n - w points).
    them_by_rank: &'static [Bits],
    full: Bits,
}

impl SectorIndex {
    /// The index of `sector` in `variant`.
    pub fn new(variant: &Variant, sector: Sector) -> SectorIndex {
        let tables = BoardTables::of(variant.board_kind);
        let n = tables.board.len() as u32;
        assert!(
            sector.fits(variant),
            "sector {sector} does not fit {variant}"
        );
        SectorIndex {
            sector,
            tables,
            us_orbits: tables.orbits(sector.w as u32),
            per_orbit: binomial(n - sector.w as u32, sector.b as u32),
            them_by_rank: combinations(n - sector.w as u32, sector.b as u32),
            full: tables.board.full(),
        }
    }

    /// Number of slots (used and unused).
    pub fn slots(&self) -> u64 {
        self.us_orbits.len() as u64 * self.per_orbit as u64
    }

    /// Rank of `them` (already mapped into the representative's frame) among the empty points
    /// of representative `rep`, minimised over the stabilizer `stab`.
    #[inline]
    pub fn opponent_rank(&self, rep: Bits, stab: u16, them: Bits) -> u32 {
        let empty = self.full & !rep;
        let mut rank = colex_rank(pext(them, empty));
        let mut s = stab;
        while s != 0 {
            let sym = s.trailing_zeros() as usize;
            s &= s - 1;
            rank = rank.min(colex_rank(pext(self.tables.syms.apply(sym, them), empty)));
        }
        rank
    }

    /// Slot of the position (`us`, `them`).
    #[inline]
    pub fn slot(&self, us: Bits, them: Bits) -> u64 {
        let (orbit, sym) = self.us_orbits.canonical(us);
        let rep = self.us_orbits.rep(orbit);
        let mapped = self.tables.syms.apply(sym, them);
        let rank = self.opponent_rank(rep, self.us_orbits.stabilizer(orbit), mapped);
        orbit as u64 * self.per_orbit as u64 + rank as u64
    }

    /// The part of a slot computation that depends only on the side to move's stones, for
    /// computing the slots of many positions that share them ([`SectorIndex::slot_in_frame`]).
    #[inline]
    pub fn frame(&self, us: Bits) -> UsFrame {
        let (orbit, sym) = self.us_orbits.canonical(us);
        UsFrame {
            orbit,
            sym,
            rep: self.us_orbits.rep(orbit),
            stab: self.us_orbits.stabilizer(orbit),
        }
    }

    /// Slot of the position (`us`, `them`) where `frame` is `self.frame(us)` and `mapped` is
    /// `them` mapped by the frame's symmetry (`tables.syms.apply(frame.sym, them)`).
    #[inline]
    pub fn slot_in_frame(&self, frame: &UsFrame, mapped: Bits) -> u64 {
        let rank = self.opponent_rank(frame.rep, frame.stab, mapped);
        frame.orbit as u64 * self.per_orbit as u64 + rank as u64
    }

    /// Slot of the position (`us`, `them`) given the images of `them` under every symmetry
    /// (`images`): cheaper when many positions share `them`.
    #[inline]
    pub fn slot_from_images(&self, us: Bits, them_images: &[Bits; 16]) -> u64 {
        let (orbit, sym) = self.us_orbits.canonical(us);
        let empty = self.full & !self.us_orbits.rep(orbit);
        let mut rank = colex_rank(pext(them_images[sym], empty));
        let mut stab = self.us_orbits.stabilizer(orbit);
        while stab != 0 {
            let t = stab.trailing_zeros() as usize;
            stab &= stab - 1;
            let img = them_images[self.tables.syms.compose(t, sym)];
            rank = rank.min(colex_rank(pext(img, empty)));
        }
        orbit as u64 * self.per_orbit as u64 + rank as u64
    }

    /// The position of a used slot without checking that it is used (for slots known to be
    /// canonical, such as those the solver decided).
    #[inline]
    pub fn position_of_used(&self, slot: u64) -> (Bits, Bits) {
        let orbit = (slot / self.per_orbit as u64) as u32;
        let rank = (slot % self.per_orbit as u64) as u32;
        let rep = self.us_orbits.rep(orbit);
        (
            rep,
            pdep(self.them_by_rank[rank as usize], self.full & !rep),
        )
    }

    /// The canonical position of a slot, or `None` for an unused slot.
    pub fn position(&self, slot: u64) -> Option<(Bits, Bits)> {
        if slot >= self.slots() {
            return None;
        }
        let orbit = (slot / self.per_orbit as u64) as u32;
        let rank = (slot % self.per_orbit as u64) as u32;
        let rep = self.us_orbits.rep(orbit);
        let them = pdep(self.them_by_rank[rank as usize], self.full & !rep);
        let stab = self.us_orbits.stabilizer(orbit);
        if stab != 0 && self.opponent_rank(rep, stab, them) != rank {
            return None;
        }
        Some((rep, them))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_counts_of_standard_board() {
        let t = BoardTables::of(BoardKind::Standard);
        let expect = [
            1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880, 124124, 157668, 170854,
        ];
        for (k, &n) in expect.iter().enumerate() {
            assert_eq!(t.orbits(k as u32).len(), n, "k = {k}");
        }
    }

    #[test]
    fn sets_without_a_smaller_image_are_one_per_orbit() {
        let t = BoardTables::of(BoardKind::Standard);
        let all = (((1u32 << t.syms.len()) - 1) & !1) as u16; // every symmetry but the identity
        for k in [3, 5, 8] {
            let smallest = combinations(24, k)
                .iter()
                .filter(|&&set| !t.syms.has_smaller_image(all, set))
                .count();
            assert_eq!(smallest, t.orbits(k).len(), "k = {k}");
        }
    }

    #[test]
    fn colex_rank_matches_binomial_sum() {
        let mut set: Bits = 0b1011;
        for _ in 0..5000 {
            let mut expect = 0;
            for (i, p) in (0..24).filter(|p| set & 1 << p != 0).enumerate() {
                expect += binomial(p, i as u32 + 1);
            }
            assert_eq!(colex_rank(set), expect);
            set = next_combination(set).wrapping_mul(3) & 0xFF_FFFF | 1;
        }
    }

    #[test]
    fn combination_tables_are_in_colex_order() {
        for (m, k) in [(24, 3), (21, 7), (16, 8), (9, 0), (5, 5)] {
            let t = combinations(m, k);
            assert_eq!(t.len() as u32, binomial(m, k));
            for (r, &set) in t.iter().enumerate() {
                assert_eq!(set.count_ones(), k);
                assert_eq!(colex_rank(set), r as u32);
                assert_eq!(colex_unrank(r as u32, k), set);
            }
        }
    }

    #[test]
    fn colex_round_trip() {
        for k in 0..=5 {
            for r in 0..binomial(24, k) {
                let s = colex_unrank(r, k);
                assert_eq!(s.count_ones(), k);
                assert_eq!(colex_rank(s), r);
            }
        }
    }

    #[test]
    fn sector_3_3_has_169626_positions() {
        let v = Variant::standard();
        let idx = SectorIndex::new(&v, Sector::moving(3, 3));
        let used = (0..idx.slots())
            .filter(|&s| idx.position(s).is_some())
            .count();
        assert_eq!(used, 169_626);
        assert_eq!(idx.slots(), 158 * 1330);
    }

    #[test]
    fn every_position_maps_to_a_slot_shared_by_its_images() {
        let v = Variant::standard();
        let idx = SectorIndex::new(&v, Sector::moving(3, 4));
        let syms = &idx.tables.syms;
        let mut us: Bits = 0b111;
        let mut checked = 0;
        while us < 1 << 24 {
            let mut them = pdep(0b1111, !us & 0xFF_FFFF);
            for _ in 0..40 {
                let slot = idx.slot(us, them);
                let (cu, ct) = idx.position(slot).expect("slot of a position is used");
                assert_eq!(idx.slot(cu, ct), slot);
                for s in 0..syms.len() {
                    let (u, t) = (syms.apply(s, us), syms.apply(s, them));
                    assert_eq!(idx.slot(u, t), slot);
                    assert_eq!(idx.slot_from_images(u, &syms.images(t)), slot);
                }
                checked += 1;
                let next = pext(them, !us & 0xFF_FFFF);
                them = pdep(next_combination(next), !us & 0xFF_FFFF);
            }
            us = next_combination(us);
            for _ in 0..50 {
                us = next_combination(us);
            }
        }
        assert!(checked > 1000);
    }
}
