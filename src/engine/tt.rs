//! Position hashing (Zobrist keys) and the search's transposition table.

use crate::game::position::{Move, Position};

/// SplitMix64 step, for the fixed Zobrist keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Keys: 2 colours × 24 points, 2 colours × 13 hand counts, side to move, remove pending.
struct Keys {
    stones: [[u64; 24]; 2],
    hand: [[u64; 13]; 2],
    black: u64,
    pending: u64,
}

const KEYS: Keys = {
    let mut state = 0x6d69_6c6c_6261_7365u64; // "millbase"
    let mut stones = [[0u64; 24]; 2];
    let mut hand = [[0u64; 13]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 24 {
            let (s, k) = splitmix(state);
            state = s;
            stones[c][p] = k;
            p += 1;
        }
        let mut h = 0;
        while h < 13 {
            let (s, k) = splitmix(state);
            state = s;
            hand[c][h] = k;
            h += 1;
        }
        c += 1;
    }
    let (s, black) = splitmix(state);
    let (_, pending) = splitmix(s);
    Keys {
        stones,
        hand,
        black,
        pending,
    }
};

/// A 64-bit hash of a position (stones, stones in hand, side to move, removal pending, and
/// the state some rule options add: removals of both sides, `again`, marks, used mills, the
/// last mill slide — mixed in only when present, so that the standard game's hashes stay).
pub fn hash(pos: &Position) -> u64 {
    let mut h = 0u64;
    for c in 0..2 {
        let mut set = pos.stones[c];
        while set != 0 {
            h ^= KEYS.stones[c][set.trailing_zeros() as usize];
            set &= set - 1;
        }
        h ^= KEYS.hand[c][(pos.in_hand[c] as usize).min(12)];
    }
    if pos.to_move == crate::game::position::Color::Black {
        h ^= KEYS.black;
    }
    if pos.pending_removal() {
        h ^= KEYS.pending;
    }
    if pos.has_extra_state() {
        h ^= extra_hash(pos);
    }
    h
}

/// A hash of the rule options' state of a position (see [`hash`]).
fn extra_hash(pos: &Position) -> u64 {
    let words = [
        u64::from(pos.removals[0] as u8)
            | u64::from(pos.removals[1] as u8) << 8
            | u64::from(pos.again) << 16
            | u64::from(pos.adjacent_removal) << 17
            | u64::from(pos.last_mill_slide[0].0) << 24
            | u64::from(pos.last_mill_slide[0].1) << 32
            | u64::from(pos.last_mill_slide[1].0) << 40
            | u64::from(pos.last_mill_slide[1].1) << 48,
        u64::from(pos.marks),
        u64::from(pos.used_mill_points[0]) | u64::from(pos.used_mill_points[1]) << 32,
    ];
    let mut state = 0x7275_6c65_7374_6174u64; // "rulestat"
    let mut h = 0;
    for w in words {
        let (s, k) = splitmix(state ^ w);
        state = s;
        h ^= k;
    }
    h
}

/// What a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least the score (a beta cut-off).
    Lower,
    /// At most the score (no move reached alpha).
    Upper,
}

/// One entry.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u32,
    depth: u8,
    /// 0: empty, 1: exact, 2: lower, 3: upper.
    bound: u8,
    /// The search that wrote it.
    generation: u8,
}

/// A stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The depth searched.
    pub depth: u8,
    /// The score (node-relative; see the search for mate scores).
    pub score: i32,
    /// What the score is.
    pub bound: Bound,
    /// The best move found, if any.
    pub mv: Option<Move>,
}

/// The move in 25 bits; the further removals of a move that closes several mills are not kept
/// (the unpacked move then matches no legal move and is not tried first).
fn pack(mv: Move) -> u32 {
    1 << 24 | (mv.from as u32) << 16 | (mv.to as u32) << 8 | mv.remove as u32
}

fn unpack(x: u32) -> Option<Move> {
    (x & 1 << 24 != 0).then_some(Move {
        from: (x >> 16) as u8,
        to: (x >> 8) as u8,
        remove: x as u8,
        more: [crate::game::rules::NO_SQUARE; 2],
    })
}

/// A fixed-size hash table of search results in buckets of two entries: the first keeps the
/// deepest result of the current search (replaced by deeper ones, and by anything once a
/// new search has begun), the second takes whatever does not go into the first.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    /// The current search's number (entries keep the number of the search that wrote them).
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (a power of two number of entries, at least 1024).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let n = (bytes / std::mem::size_of::<Entry>()).next_power_of_two() / 2;
        TranspositionTable {
            entries: vec![Entry::default(); n.max(1024)],
            generation: 0,
        }
    }

    /// Size in MiB (rounded down).
    #[cfg(test)]
    pub fn megabytes(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Entry>()) >> 20
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// A new search begins: older results stay readable but give way to new ones.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1) & !1
    }

    /// The stored result of the position with hash `key`.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        let e = self.entries[i..i + 2]
            .iter()
            .find(|e| e.bound != 0 && e.key == key)?;
        Some(Hit {
            depth: e.depth,
            score: e.score,
            bound: match e.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            mv: unpack(e.mv),
        })
    }

    /// Store a result.
    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, mv: Option<Move>) {
        let i = self.bucket(key);
        let [first, second] = [self.entries[i], self.entries[i + 1]];
        let same = if first.key == key && first.bound != 0 {
            Some(i)
        } else if second.key == key && second.bound != 0 {
            Some(i + 1)
        } else {
            None
        };
        if let Some(j) = same
            && self.entries[j].depth > depth
            && self.entries[j].generation == self.generation
        {
            return;
        }
        let old_mv = same.map_or(0, |j| self.entries[j].mv);
        let slot = match same {
            Some(j) => j,
            None if first.bound == 0
                || first.generation != self.generation
                || depth >= first.depth =>
            {
                // The deep slot's old content moves to the other slot.
                self.entries[i + 1] = first;
                i
            }
            None => i + 1,
        };
        self.entries[slot] = Entry {
            key,
            score,
            mv: mv.map_or(old_mv, pack),
            depth,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            generation: self.generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{NO_SQUARE, Variant};

    #[test]
    fn hashes_tell_positions_apart() {
        let v = Variant::standard();
        let start = Position::start(&v);
        let mut black = start;
        black.to_move = crate::game::position::Color::Black;
        assert_ne!(hash(&start), hash(&black));
        let mut placed = start;
        placed.stones[0] = 1;
        placed.in_hand[0] = 8;
        assert_ne!(hash(&start), hash(&placed));
        assert_eq!(hash(&placed), hash(&{ placed }));
        for mv in [
            Move::place(3),
            Move::slide(1, 2).with_removal(23),
            Move::removal(7),
        ] {
            assert_eq!(unpack(pack(mv)), Some(mv));
        }
        assert_eq!(unpack(0), None);
        assert_eq!(Move::place(3).from, NO_SQUARE);
    }

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.megabytes() <= 1);
        tt.store(42, 3, -17, Bound::Lower, Some(Move::place(5)));
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.depth, hit.score, hit.bound), (3, -17, Bound::Lower));
        assert_eq!(hit.mv, Some(Move::place(5)));
        // A shallower result of the same position does not replace a deeper one.
        tt.store(42, 2, 5, Bound::Exact, None);
        assert_eq!(tt.probe(42).unwrap().depth, 3);
        tt.store(42, 4, 5, Bound::Exact, None);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.depth, hit.mv), (4, Some(Move::place(5))));
        assert!(tt.probe(43).is_none());
        // Two positions of one bucket are both kept.
        let n = tt.entries.len() as u64;
        tt.store(42 + n, 1, 9, Bound::Upper, None);
        assert_eq!(tt.probe(42).unwrap().depth, 4);
        assert_eq!(tt.probe(42 + n).unwrap().score, 9);
        // In a new search, a shallower result replaces the old deep one.
        tt.new_search();
        tt.store(42, 1, 0, Bound::Exact, None);
        assert_eq!(tt.probe(42).unwrap().depth, 1);
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
