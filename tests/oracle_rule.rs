//! An independent brute-force oracle for values under the N-move rule: backward induction over
//! (position, counter) pairs, compared with the solver's tables at every counter.
//!
//! The rule (RULES.md, "Draw rules of play"), from first principles: the state of a game is a
//! position and a counter `c`, the plies since the last placement or removal. A move that
//! places or removes a stone (a mill-closing move and its removal are one ply) sets it to 0;
//! any other slide or fly adds 1. At the start of every turn, if `c >= N` the game is drawn,
//! before anything else (a blocked side then does not lose); otherwise a side with no legal move
//! loses, and a side left with fewer than three stones has lost.
//!
//! The solver stores one `Value` per position, meant for counter 0, whose distance is the DTR
//! `r`. The claim checked here: `NMoveRule::at_counter(stored, c)` is the exact value at every
//! counter `c` in `0..=N`. That is, `Win(r)` / `Loss(r)` exactly when `(p, c)` is won / lost
//! under the rule, with the same `r` at every counter where `p` is decided, namely
//! `r = N - (the largest counter at which p is decided)`; otherwise `CursedWin`, `BlessedLoss`
//! or `Draw` as `p` is won, lost or drawn without the rule.
//!
//! The oracle shares none of the solver's machinery (no un-moves, no `SectorIndex`, no
//! successor counters, no DTR arithmetic such as `NMoveRule::move_value`):
//!
//! - Positions are normalised with the side to move as White and reduced by the board's
//!   symmetries (`Board::symmetries` / `transform` of the rules engine, turned into byte tables
//!   in `tests/common/canonical.rs`): a position's key is the smallest image of (us, them), with
//!   the stones in hand. Every raw position of a sector is enumerated, the canonical ones are
//!   kept and their keys sorted; positions are found by binary search.
//! - Successors come only from `legal_moves` (combined convention) and `play`, colour-flipped
//!   and canonicalised. A move resets the counter if it places or removes a stone.
//! - Sectors are processed in groups (a moving sector with its colour-swapped partner, each
//!   placing sector alone), ordered by stones in hand and then on the board, so that resetting
//!   moves lead only into groups done before or win at once (the opponent is left with fewer
//!   than three stones), and the other moves stay in the group (asserted). Each position's
//!   successors are listed once (CSR arrays).
//! - Under the rule, backward induction over the counter: `V(., N)` = draw; for `c = N - 1` down
//!   to 0, `V(p, c)` is the best over the moves of the negated successor value: a resetting move
//!   reads `V(q, 0)` of an earlier group, any other move `V(q, c + 1)`; no move: loss. Two
//!   counter layers are kept, and each one is compared with the solver as it is computed.
//!   Placing positions only occur at counter 0 and are compared there (every move resets, so
//!   their value is the same at every counter below N and `r` comes out as 1).
//! - Without the rule (needed for cursed wins and blessed losses): the same sweep with the
//!   rule-free values of the exits, repeated from all draws until a layer equals the one before.
//!   The layers only gain decided positions, and the fixed point reached is the least one: the
//!   positions where a side can force a win in finitely many plies, i.e. the rule-free values.
//!   They are checked against the reference figures of RULES.md for 3-3, 3-4 and 4-3.
//!
//! The solver's `SectorIndex` is used only to look up its value of a position for the
//! comparison (and to check that the comparison covers every position the solver stores).

#[path = "common/canonical.rs"]
mod canonical;

use canonical::{Symmetries, k_sets, key_of, pair, position_of, sector_of};
use millbase::format::UNUSED;
use millbase::movegen::{Convention, legal_moves, play};
use millbase::notation::{PositionInfo, format_position_info};
use millbase::rules::Bits;
use millbase::sectors::{SectorIndex, solving_order, start_sector};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, NMoveRule, Position, RuleValue, Sector, Value, Variant};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// Values of a position (at some counter) for the side to move; the value of a move for the
/// side making it is the negated value of the position it leads to.
const WIN: i8 = 1;
const DRAW: i8 = 0;
const LOSS: i8 = -1;

/// The positions of a group with one side to move's stone set up to symmetry and the same
/// stones in hand: `keys[lo..hi]`, and the frame of that stone set ([`Symmetries::frame`]).
struct Block {
    group: usize,
    lo: usize,
    hi: usize,
    in_hand: [u8; 2],
    rep: Bits,
    mask: u32,
}

/// A successor by a move that resets the counter.
#[derive(Clone, Copy, Debug)]
enum Exit {
    /// The opponent is left with fewer than three stones: the mover has won.
    Won,
    /// Position `index` of group `group` (done before), at counter 0.
    To { group: u32, index: u32 },
}

/// Sectors solved together, with every position's successors.
struct Group {
    sectors: Vec<Sector>,
    /// Canonical keys in increasing order; position `i` of the group is `keys[i]`.
    keys: Vec<u64>,
    /// The opponent's stones of each key (for a compact binary search within a block).
    them: Vec<Bits>,
    /// Successors (in this group) by moves that do not reset the counter: those of position
    /// `i` are `internal[next[i]..next[i + 1]]`.
    next: Vec<usize>,
    internal: Vec<u32>,
    /// Successors by moves that reset the counter: `exits[exit_next[i]..exit_next[i + 1]]`.
    exit_next: Vec<usize>,
    exits: Vec<Exit>,
    /// Values without the rule.
    free: Vec<i8>,
    /// The longest DTR without the rule (plies up to a resetting move or a blocked side to move,
    /// the exits valued without the rule): the last sweep that changed the rule-free layer.
    free_dtr: u16,
}

impl Group {
    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Are these moving-phase sectors (counters other than 0 occur)?
    fn is_moving(&self) -> bool {
        self.sectors.iter().all(|s| s.wf == 0 && s.bf == 0)
    }

    /// Positions per sector.
    fn count(&self, s: Sector) -> usize {
        let probe = |key: &u64| sector_of(&position_of(*key)) == s;
        self.keys.par_iter().filter(|k| probe(k)).count()
    }

    /// The best value of each position over its resetting moves (`LOSS` if it has none), from
    /// the counter-0 values (`value(group, index)`) of the groups done before.
    fn exit_best(&self, value: impl Fn(usize, usize) -> i8 + Sync) -> Vec<i8> {
        (0..self.len())
            .into_par_iter()
            .map(|i| {
                self.exits[self.exit_next[i]..self.exit_next[i + 1]]
                    .iter()
                    .map(|&e| match e {
                        Exit::Won => WIN,
                        Exit::To { group, index } => -value(group as usize, index as usize),
                    })
                    .max()
                    .unwrap_or(LOSS)
            })
            .collect()
    }

    /// One counter level: `out[p]` = the best of `exit_best[p]` and the negated `prev` values of
    /// the internal successors (`prev`: the layer at the next counter, or the previous sweep).
    fn sweep(&self, exit_best: &[i8], prev: &[i8], out: &mut [i8]) {
        const CHUNK: usize = 4096;
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (k, o) in chunk.iter_mut().enumerate() {
                    let i = c * CHUNK + k;
                    let mut best = exit_best[i];
                    for &q in &self.internal[self.next[i]..self.next[i + 1]] {
                        if best == WIN {
                            break;
                        }
                        best = best.max(-prev[q as usize]);
                    }
                    *o = best;
                }
            });
    }
}

/// The oracle: every position of the groups, with its successors and rule-free value.
struct Oracle {
    v: Variant,
    syms: Symmetries,
    groups: Vec<Group>,
}

/// What comparing one group under one rule found.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// (position, counter) pairs compared.
    pairs: u64,
    /// Positions that are cursed wins / blessed losses at counter 0.
    cursed: u64,
    blessed: u64,
    /// (position, counter) pairs that are cursed wins / blessed losses.
    cursed_pairs: u64,
    blessed_pairs: u64,
    /// Positions decided at counter 0, and the longest DTR among them.
    decided: u64,
    longest: u16,
    /// Disagreements with the solver, and a description of the first few.
    mismatches: u64,
    examples: Vec<String>,
}

/// Counter of a position not decided at any counter so far.
const UNDECIDED: u16 = u16::MAX;

impl Oracle {
    /// Enumerate, link and solve without the rule the `groups` of sectors, in order.
    fn build(v: &Variant, groups: &[Vec<Sector>]) -> Oracle {
        let mut oracle = Oracle {
            v: *v,
            syms: Symmetries::new(v),
            groups: Vec::new(),
        };
        for sectors in groups {
            let t = Instant::now();
            let keys = oracle.enumerate(sectors);
            oracle.groups.push(Group {
                sectors: sectors.clone(),
                them: keys.iter().map(|&k| position_of(k).stones[1]).collect(),
                keys,
                next: Vec::new(),
                internal: Vec::new(),
                exit_next: Vec::new(),
                exits: Vec::new(),
                free: Vec::new(),
                free_dtr: 0,
            });
            oracle.link();
            oracle.solve_free();
            let g = oracle.groups.last().expect("just pushed");
            eprintln!(
                "{} oracle {sectors:?}: {} positions, {} internal and {} resetting moves, \
                 longest rule-free DTR {}, {:.1?}",
                v.name,
                g.len(),
                g.internal.len(),
                g.exits.len(),
                g.free_dtr,
                t.elapsed()
            );
        }
        oracle
    }

    /// The sorted canonical keys of the positions of `sectors`.
    fn enumerate(&self, sectors: &[Sector]) -> Vec<u64> {
        let n = self.v.board().len();
        let mut keys = Vec::new();
        for &s in sectors {
            assert!(s.w + s.wf >= 3 && s.b + s.bf >= 3, "{s}: the game is over");
            let them_sets = k_sets(n, s.b as usize);
            let found: Vec<u64> = k_sets(n, s.w as usize)
                .par_iter()
                .flat_map_iter(|&us| {
                    // Canonical: `us` is its smallest image, `them` its own smallest image
                    // under the symmetries that fix `us`.
                    let (rep, mask) = self.syms.frame(us);
                    them_sets
                        .iter()
                        .filter(move |&&them| {
                            rep == us && us & them == 0 && self.syms.smallest(mask, them) == them
                        })
                        .map(move |&them| key_of([s.wf, s.bf], pair(us, them)))
                })
                .collect();
            keys.extend(found);
        }
        keys.par_sort_unstable();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys are distinct");
        keys
    }

    /// The block of the normalised positions with the side to move's stones and the stones in
    /// hand of `pos` and as many opponent stones.
    fn block(&self, pos: &Position) -> Block {
        let s = sector_of(pos);
        let group = self.groups.iter().position(|g| g.sectors.contains(&s));
        let group = group.unwrap_or_else(|| panic!("no group holds sector {s}: {pos:?}"));
        let (rep, mask) = self.syms.frame(pos.stones[0]);
        let prefix = key_of(pos.in_hand, pair(rep, 0)) >> 24;
        let keys = &self.groups[group].keys;
        let lo = keys.partition_point(|&k| k >> 24 < prefix);
        let hi = keys.partition_point(|&k| k >> 24 <= prefix);
        let in_hand = pos.in_hand;
        Block {
            group,
            lo,
            hi,
            in_hand,
            rep,
            mask,
        }
    }

    /// The index in its group of the position of `block` with opponent stones `them`.
    fn find(&self, block: &Block, them: Bits) -> usize {
        let smallest = self.syms.smallest(block.mask, them);
        let i = self.groups[block.group].them[block.lo..block.hi].binary_search(&smallest);
        let key = key_of(block.in_hand, pair(block.rep, smallest));
        block.lo + i.unwrap_or_else(|_| panic!("{:?} is not a position", position_of(key)))
    }

    /// The group and index of a normalised position.
    fn locate(&self, pos: &Position) -> (usize, usize) {
        let block = self.block(pos);
        (block.group, self.find(&block, pos.stones[1]))
    }

    /// List the successors of the positions of the last group.
    fn link(&mut self) {
        let cur = self.groups.len() - 1;
        let v = &self.v;
        let keys = &self.groups[cur].keys;
        // Visit the positions by the opponent's stones up to symmetry: then consecutive
        // positions look their successors up in the same block, which stays in cache.
        let mut order: Vec<(Bits, u32)> = (0..keys.len())
            .into_par_iter()
            .map(|i| (self.syms.frame(position_of(keys[i]).stones[1]).0, i as u32))
            .collect();
        order.par_sort_unstable();
        let found: Vec<(Vec<u32>, Vec<Exit>)> = order
            .par_iter()
            .map(|&(_, i)| {
                let pos = position_of(keys[i as usize]);
                let (mut internal, mut exits) = (Vec::new(), Vec::new());
                // The moves that remove nothing leave the opponent's stones as they are: their
                // successors share one block.
                let mut block: Option<(Bits, u32, Block)> = None;
                for mv in legal_moves(v, &pos, Convention::Combined) {
                    let next = play(v, &pos, mv);
                    assert!(next.to_move == Color::Black && !next.pending_removal());
                    let next = next.color_flipped();
                    let resets = mv.is_place() || mv.removes();
                    if next.too_few(Color::White) {
                        assert!(mv.removes(), "{pos:?}: {mv:?}");
                        exits.push(Exit::Won);
                        continue;
                    }
                    if resets {
                        let (g, i) = self.locate(&next);
                        assert!(g < cur, "{pos:?}: {mv:?} resets into an unsolved group");
                        let (group, index) = (g as u32, i as u32);
                        exits.push(Exit::To { group, index });
                    } else {
                        let (us, count) = (next.stones[0], next.stones[1].count_ones());
                        if block.as_ref().is_none_or(|b| (b.0, b.1) != (us, count)) {
                            block = Some((us, count, self.block(&next)));
                        }
                        let b = &block.as_ref().expect("just set").2;
                        assert_eq!(
                            b.group, cur,
                            "{pos:?}: {mv:?} leaves the group without reset"
                        );
                        internal.push(self.find(b, next.stones[1]) as u32);
                    }
                }
                (internal, exits)
            })
            .collect();
        let mut lists = vec![(Vec::new(), Vec::new()); keys.len()];
        for (&(_, i), list) in order.iter().zip(found) {
            lists[i as usize] = list;
        }
        let g = &mut self.groups[cur];
        g.next = Vec::with_capacity(lists.len() + 1);
        g.exit_next = Vec::with_capacity(lists.len() + 1);
        g.next.push(0);
        g.exit_next.push(0);
        for (internal, exits) in lists {
            g.internal.extend(internal);
            g.exits.extend(exits);
            g.next.push(g.internal.len());
            g.exit_next.push(g.exits.len());
        }
    }

    /// The rule-free values of the last group: sweeps from all draws to the fixed point.
    fn solve_free(&mut self) {
        let cur = self.groups.len() - 1;
        let (done, rest) = self.groups.split_at_mut(cur);
        let g = &mut rest[0];
        let exit_best = g.exit_best(|group, index| done[group].free[index]);
        let mut layer = vec![DRAW; g.len()];
        let mut next = vec![DRAW; g.len()];
        for k in 1.. {
            g.sweep(&exit_best, &layer, &mut next);
            if next == layer {
                break;
            }
            std::mem::swap(&mut layer, &mut next);
            g.free_dtr = k;
        }
        g.free = layer;
    }

    /// The solver's stored value of every position of group `g`; asserts that the oracle's
    /// positions are exactly the solver's used slots (so every stored value is compared).
    fn solver_values(&self, g: &Group, solved: &SolvedValues) -> Vec<Value> {
        let v = &self.v;
        let indices: Vec<SectorIndex> = g.sectors.iter().map(|&s| SectorIndex::new(v, s)).collect();
        let slots: Vec<(usize, u64)> = g
            .keys
            .par_iter()
            .map(|&key| {
                let pos = position_of(key);
                let j = g.sectors.iter().position(|&s| s == sector_of(&pos));
                let j = j.expect("a sector of the group");
                (j, indices[j].slot(pos.stones[0], pos.stones[1]))
            })
            .collect();
        for (j, &s) in g.sectors.iter().enumerate() {
            let table = solved.get(&s).unwrap_or_else(|| panic!("solver lacks {s}"));
            let mut mine: Vec<u64> = slots.iter().filter(|x| x.0 == j).map(|x| x.1).collect();
            mine.sort_unstable();
            mine.dedup();
            let used = table.iter().filter(|&&c| c != UNUSED).count();
            assert_eq!(mine.len(), g.count(s), "{s}: two positions share a slot");
            assert_eq!(
                mine.len(),
                used,
                "{s}: the solver's positions are the oracle's"
            );
        }
        slots
            .par_iter()
            .map(|&(j, slot)| {
                let code = solved[&g.sectors[j]][slot as usize];
                Value::decode(code).expect("a used slot has a value")
            })
            .collect()
    }

    /// Solve every group under `rule` by backward induction over the counter, comparing every
    /// layer with the solver's `solved` values (under the same rule).
    fn check(&self, rule: NMoveRule, solved: &SolvedValues) -> Vec<Tally> {
        let n = rule.n();
        assert!(n > 0);
        let mut zero: Vec<Vec<i8>> = Vec::new(); // counter-0 values of the groups done
        let mut tallies = Vec::new();
        for g in &self.groups {
            let solver = self.solver_values(g, solved);
            let exit_best = g.exit_best(|group, index| zero[group][index]);
            let mut tally = Tally::default();
            let mut first = vec![UNDECIDED; g.len()];
            let mut layer = vec![DRAW; g.len()]; // counter n: drawn by the rule
            let mut next = vec![DRAW; g.len()];
            for c in (0..=n).rev() {
                if c < n {
                    g.sweep(&exit_best, &layer, &mut next);
                    std::mem::swap(&mut layer, &mut next);
                }
                first.par_iter_mut().zip(&layer).for_each(|(f, &x)| {
                    if x != DRAW && *f == UNDECIDED {
                        *f = c;
                    }
                });
                if g.is_moving() || c == 0 {
                    self.compare(g, rule, c, &layer, &first, &solver, &mut tally);
                }
            }
            tallies.push(tally);
            zero.push(layer);
        }
        tallies
    }

    /// Compare layer `c` (`layer`, with the counter at which each position was first decided,
    /// `first`) with the solver's stored values `solver`.
    #[allow(clippy::too_many_arguments)]
    fn compare(
        &self,
        g: &Group,
        rule: NMoveRule,
        c: u16,
        layer: &[i8],
        first: &[u16],
        solver: &[Value],
        tally: &mut Tally,
    ) {
        let n = rule.n();
        let expected = |i: usize| -> RuleValue {
            let free = g.free[i];
            match layer[i] {
                DRAW if free == WIN => RuleValue::CursedWin,
                DRAW if free == LOSS => RuleValue::BlessedLoss,
                DRAW => RuleValue::Draw,
                decided => {
                    // A win or loss under the rule is one without it (the same strategy).
                    let pos = position_of(g.keys[i]);
                    assert_eq!(
                        decided, free,
                        "N = {n}, counter {c}: {pos:?} without the rule"
                    );
                    let r = n - first[i];
                    if decided == WIN {
                        RuleValue::Win(r)
                    } else {
                        RuleValue::Loss(r)
                    }
                }
            }
        };
        let mismatch = |i: usize| expected(i) != rule.at_counter(solver[i], c as u32);
        // (mismatches, first mismatch, cursed, blessed, decided, longest DTR)
        type Sums = (u64, Option<usize>, u64, u64, u64, u16);
        let zero: Sums = (0, None, 0, 0, 0, 0);
        let (bad, first_bad, cursed, blessed, decided, longest) = (0..g.len())
            .into_par_iter()
            .map(|i| -> Sums {
                let e = expected(i);
                let bad = mismatch(i);
                (
                    u64::from(bad),
                    bad.then_some(i),
                    u64::from(e == RuleValue::CursedWin),
                    u64::from(e == RuleValue::BlessedLoss),
                    u64::from(e.distance().is_some()),
                    e.distance().unwrap_or(0),
                )
            })
            .reduce(
                || zero,
                |a, b| {
                    let first = match (a.1, b.1) {
                        (Some(x), Some(y)) => Some(x.min(y)),
                        (x, y) => x.or(y),
                    };
                    (
                        a.0 + b.0,
                        first,
                        a.2 + b.2,
                        a.3 + b.3,
                        a.4 + b.4,
                        a.5.max(b.5),
                    )
                },
            );
        tally.pairs += g.len() as u64;
        tally.cursed_pairs += cursed;
        tally.blessed_pairs += blessed;
        if c == 0 {
            (tally.cursed, tally.blessed) = (cursed, blessed);
            (tally.decided, tally.longest) = (decided, longest);
        }
        tally.mismatches += bad;
        if let Some(i) = first_bad.filter(|_| tally.examples.len() < 5) {
            let pos = position_of(g.keys[i]);
            let info = PositionInfo {
                counter: c as u32,
                full_move: 1,
            };
            tally.examples.push(format!(
                "{} N = {n}, sector {}, counter {c}: {} — oracle {:?}, solver stores {:?} \
                 (at this counter {:?})",
                self.v.name,
                sector_of(&pos),
                format_position_info(&self.v, &pos, info),
                expected(i),
                solver[i],
                rule.at_counter(solver[i], c as u32),
            ));
        }
    }
}

/// The sectors in the oracle's own order: by stones in hand, then on the board (a placement
/// lowers the first, a removal in the moving phase the second); a moving sector grouped with
/// its colour-swapped partner, each placing sector alone.
fn groups_in_order(sectors: &[Sector]) -> Vec<Vec<Sector>> {
    let mut sorted = sectors.to_vec();
    sorted.sort_by_key(|s| (s.wf + s.bf, s.w + s.b, *s));
    let mut groups: Vec<Vec<Sector>> = Vec::new();
    for &s in &sorted {
        if groups.iter().any(|g| g.contains(&s)) {
            continue;
        }
        let mut group = vec![s];
        if s.wf + s.bf == 0 && s.swapped() != s {
            assert!(sorted.contains(&s.swapped()), "{s} without its partner");
            group.push(s.swapped());
        }
        groups.push(group);
    }
    groups
}

/// Solve `targets` and everything they need with the solver under `rule`, in solving order.
fn solve_under(v: &Variant, targets: &[Sector], rule: NMoveRule) -> SolvedValues {
    let mut solved = SolvedValues::new();
    let options = SolveOptions {
        rule,
        ..SolveOptions::default()
    };
    for c in solving_order(v, targets) {
        for out in solve_component(v, &c, &solved, &options).unwrap() {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    solved
}

/// Check `oracle` against the solver (solving `targets` under each rule of `ns`): returns the
/// tallies by N and group, after asserting that nothing disagrees and that the counts of
/// cursed wins and blessed losses follow from the rule-free DTRs (see below).
fn check_rules(oracle: &Oracle, targets: &[Sector], ns: &[u16]) -> Vec<(u16, Vec<Tally>)> {
    let v = &oracle.v;
    let mut out = Vec::new();
    let (mut mismatches, mut examples) = (0, Vec::new());
    for &n in ns {
        let rule = NMoveRule::new(n).unwrap();
        let t = Instant::now();
        let solved = solve_under(v, targets, rule);
        let solver_time = t.elapsed();
        let t = Instant::now();
        let tallies = oracle.check(rule, &solved);
        eprintln!(
            "{} N = {n}: solver {solver_time:.1?}, oracle {:.1?}",
            v.name,
            t.elapsed()
        );
        // Derived, not observed: a group's position with rule-free DTR d > N is not decided
        // within N plies (the rule's exits are at most as decided as the rule-free ones): a
        // cursed win or blessed loss. And if N covers the rule-free DTRs of the group and of
        // every group before it, the rule changes no value at counter 0.
        let mut covered = true;
        for (g, tally) in oracle.groups.iter().zip(&tallies) {
            covered &= n >= g.free_dtr;
            let changed = tally.cursed + tally.blessed > 0;
            eprintln!(
                "  {:?}: {} pairs, {} decided at counter 0 (longest DTR {}), {} cursed wins, \
                 {} blessed losses at counter 0 ({} / {} over all counters), {} mismatches",
                g.sectors,
                tally.pairs,
                tally.decided,
                tally.longest,
                tally.cursed,
                tally.blessed,
                tally.cursed_pairs,
                tally.blessed_pairs,
                tally.mismatches
            );
            assert!(tally.pairs > 0);
            if n < g.free_dtr {
                assert!(
                    changed,
                    "N = {n} < rule-free DTR {} of {:?}",
                    g.free_dtr, g.sectors
                );
            }
            if covered {
                assert!(
                    !changed,
                    "N = {n} covers every rule-free DTR up to {:?}",
                    g.sectors
                );
                assert_eq!(tally.longest, g.free_dtr, "{:?}", g.sectors);
            }
            mismatches += tally.mismatches;
            examples.extend(tally.examples.iter().cloned());
        }
        out.push((n, tallies));
    }
    assert_eq!(
        mismatches,
        0,
        "oracle and solver disagree on {mismatches} (position, counter) pairs; first:\n{}",
        examples.join("\n")
    );
    out
}

/// Rule-free counts of a sector: (positions, wins, losses, draws).
fn free_counts(oracle: &Oracle, s: Sector) -> (usize, usize, usize, usize) {
    let g = oracle.groups.iter().find(|g| g.sectors.contains(&s));
    let g = g.expect("a group holds the sector");
    let mut c = (0, 0, 0, 0);
    for (&key, &value) in g.keys.iter().zip(&g.free) {
        if sector_of(&position_of(key)) == s {
            c.0 += 1;
            match value {
                WIN => c.1 += 1,
                LOSS => c.2 += 1,
                _ => c.3 += 1,
            }
        }
    }
    c
}

/// Sum of a field of the tallies.
fn total(results: &[(u16, Vec<Tally>)], f: impl Fn(&Tally) -> u64) -> u64 {
    results.iter().flat_map(|(_, t)| t).map(f).sum()
}

#[test]
fn standard_3_3_3_4_4_3_under_the_rule() {
    let v = Variant::standard();
    let t = Instant::now();
    let sectors = [
        Sector::moving(3, 3),
        Sector::moving(3, 4),
        Sector::moving(4, 3),
    ];
    let oracle = Oracle::build(&v, &groups_in_order(&sectors));
    // RULES.md: the reference figures (up to symmetry) without the rule.
    let expected = [
        (Sector::moving(3, 3), (169_626, 140_621, 28_736, 269)),
        (Sector::moving(3, 4), (760_398, 102_281, 0, 658_117)),
        (Sector::moving(4, 3), (760_398, 75_397, 3_095, 681_906)),
    ];
    for (s, counts) in expected {
        assert_eq!(free_counts(&oracle, s), counts, "{s} without the rule");
    }
    eprintln!("std oracle built: {:.1?}", t.elapsed());

    let ns = [1, 2, 3, 5, 12, 30];
    let results = check_rules(&oracle, &[Sector::moving(3, 4)], &ns);
    let positions: u64 = oracle.groups.iter().map(|g| g.len() as u64).sum();
    let pairs = total(&results, |t| t.pairs);
    let counters: u64 = ns.iter().map(|&n| n as u64 + 1).sum();
    assert_eq!(
        pairs,
        positions * counters,
        "every position at every counter"
    );
    // Small N draws some decided games (not only the derived assertions of check_rules).
    for (n, tallies) in &results {
        if *n <= 3 {
            for t in tallies {
                assert!(t.cursed > 0 && t.blessed > 0, "N = {n}: {t:?}");
            }
        }
    }
    eprintln!(
        "std: {pairs} (position, counter) pairs compared, {} cursed wins and {} blessed losses \
         at counter 0 over all N, {:.1?} in all",
        total(&results, |t| t.cursed),
        total(&results, |t| t.blessed),
        t.elapsed()
    );
}

#[test]
fn three_mens_morris_whole_game_under_the_rule() {
    let v = Variant::by_name("three").unwrap();
    let t = Instant::now();
    let start = start_sector(&v);
    let mut sectors: Vec<Sector> = solving_order(&v, &[start])
        .into_iter()
        .flat_map(|c| c.sectors().to_vec())
        .collect();
    sectors.sort();
    sectors.dedup();
    let groups = groups_in_order(&sectors);
    assert!(groups.iter().any(|g| g.contains(&start)));
    assert!(groups.iter().any(|g| g.contains(&Sector::moving(3, 3))));
    let oracle = Oracle::build(&v, &groups);
    // The whole game is a draw without the rule (tests/whole_games.rs, oracle_placing.rs).
    let (g, i) = oracle.locate(&Position::start(&v));
    assert_eq!(oracle.groups[g].free[i], DRAW);

    let ns = [1, 2, 3, 4, 6, 10, 30];
    let results = check_rules(&oracle, &[start], &ns);
    let moving: u64 = oracle
        .groups
        .iter()
        .filter(|g| g.is_moving())
        .map(|g| g.len() as u64)
        .sum();
    let placing: u64 = oracle
        .groups
        .iter()
        .filter(|g| !g.is_moving())
        .map(|g| g.len() as u64)
        .sum();
    assert!(moving > 0 && placing > 0);
    let pairs = total(&results, |t| t.pairs);
    let counters: u64 = ns.iter().map(|&n| n as u64 + 1).sum();
    assert_eq!(pairs, moving * counters + placing * ns.len() as u64);
    let cursed = total(&results, |t| t.cursed + t.blessed);
    assert!(cursed > 0, "some N draws some decided game");
    eprintln!(
        "three: {pairs} (position, counter) pairs compared ({moving} moving, {placing} placing \
         positions), {} cursed wins and {} blessed losses at counter 0 over all N, {:.1?} in all",
        total(&results, |t| t.cursed),
        total(&results, |t| t.blessed),
        t.elapsed()
    );
}
