//! An independent oracle for a board filled by placing and the last placements before it, under
//! every `board-full` option and `placing-mill=by-mill-counts` (El Filja), by the naive referee
//! (tests/common/naive_rules.rs) with every position's true colours, compared with the solver's
//! tables of the full-board sector and the last placing sector, without and with an N-move rule,
//! with the forward verifier, and (but for El Filja) with the
//! probe of full boards over tables written from those values, which plays the removals out.
//!
//! The moving phase below is not solved (hours of work): every moving sector these two sectors'
//! components read gets made-up values ([`made_up`], a hash of the sector and the slot: wins and
//! losses at various distances, draws), the same for the solver and the oracle. The oracle then
//! values a state by plain recursion over the referee's moves ([`BoardFullOracle`]): the
//! removals a full board starts (each its own ply, resetting the N-move counter), then the
//! made-up value of the moving position they lead to. A full board is played into by
//! Black's last placement of one of its stones that closes no mill; a full board where every
//! Black stone would close one (a game reaches it only with a removal pending) is skipped.
//!
//! In CI: the removals a full board starts, by the referee and by the move generator (no
//! solving); Twelve Men's Morris as is (`board-full=white-loses`) and with `board-full=draw` (the
//! harness checked against rules the solver has long followed), Dooz (`mover-removes`), and
//! Twelve Men's Morris with `white-then-black` and `black-then-white`, each also with Black
//! moving first. Ignored: El Filja, whose full board removes up to six stones a side, into
//! moving sectors of 4.3 billion slots in all (made up sparsely, see [`made_up`]), and whose
//! full-board sector takes the solver over a billion look-ups. (A smaller board that
//! placing fills, Six Men's Morris with 8 stones, is not a variant millbase plays.)

#[path = "common/naive_rules.rs"]
mod naive;

use millbase::format::{DRAW, UNUSED, WriteOptions, write_sector};
use millbase::notation::format_position;
use millbase::rules::Bits;
use millbase::sectors::{Component, SectorIndex};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::tables::ValueLookup;
use millbase::{
    Color, NMoveRule, Position, Sector, Tablebase, Value, Variant, VerifyOptions, verify_sector,
};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// The N-move rules compared at once: none (`NS[0] = 0`) and a small N, below some of the
/// made-up distances and above others (cursed wins and blessed losses).
const NS: [u16; 2] = [0, 6];

/// A position's values for its side to move, under each rule of [`NS`].
type Values = [Value; NS.len()];

/// Made-up tables of more slots than this are sparse ([`made_up`]).
const DENSE_SLOTS: u64 = 50_000_000;

/// Slots per block of a sparse made-up table: one block in [`SPARSE`] holds made-up values,
/// the others draws (a page of zeros, which an untouched allocation reads without memory).
const BLOCK: usize = 1 << 12;

/// One block in `SPARSE` of a sparse made-up table holds made-up values.
const SPARSE: usize = 16;

/// The made-up value of slot `slot` of moving sector `s`: a hash of both, a win in 1 to 20
/// plies, a loss in 1 to 20 (never 0: tables under an N-move rule hold no loss in 0, and
/// [`probe_full_boards`] writes them), or a draw; in a sparse table (`sparse`, a sector of more than
/// [`DENSE_SLOTS`] slots) a draw outside one block of slots in [`SPARSE`].
fn made_up(s: Sector, slot: u64, sparse: bool) -> Value {
    if sparse && !(slot as usize / BLOCK).is_multiple_of(SPARSE) {
        return Value::Draw;
    }
    let seed = u64::from(s.w) << 8 | u64::from(s.b);
    let h = (slot ^ seed << 40).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    let k = (h % 20) as u16;
    match h % 3 {
        0 => Value::Win(k + 1),
        1 => Value::Loss(k + 1),
        _ => Value::Draw,
    }
}

/// Is the made-up table of sector `index` sparse ([`made_up`])?
fn sparse(index: &SectorIndex) -> bool {
    index.slots() > DENSE_SLOTS
}

/// The table of made-up values of moving sector `s` ([`made_up`]; `UNUSED` for unused slots,
/// except in the blocks of draws of a sparse table, which are never written: the solver and
/// the verifier read used slots only).
fn made_up_table(v: &Variant, s: Sector) -> Arc<Vec<u16>> {
    let index = SectorIndex::new(v, s);
    let sparse = sparse(&index);
    let per_orbit = u64::from(index.per_orbit);
    // Zeros (draws) from an allocation that takes memory only where written.
    let mut values = vec![DRAW; index.slots() as usize];
    values
        .par_chunks_mut(BLOCK)
        .enumerate()
        .filter(|(block, _)| !sparse || block.is_multiple_of(SPARSE))
        .for_each(|(block, chunk)| {
            let first = (block * BLOCK) as u64;
            for (i, value) in chunk.iter_mut().enumerate() {
                let slot = first + i as u64;
                // Only a representative fixed by a symmetry has unused slots.
                let fixed = index.us_orbits.stabilizer((slot / per_orbit) as u32) != 0;
                *value = if fixed && index.position(slot).is_none() {
                    UNUSED
                } else {
                    made_up(s, slot, sparse).encode()
                };
            }
        });
    Arc::new(values)
}

/// Solved values as the forward verifier reads them.
struct Lookup<'a>(&'a SolvedValues);

impl ValueLookup for Lookup<'_> {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.0.get(&sector).map(|v| v.as_slice())
    }
}

/// Mismatches the forward verifier finds in `sectors` of `solved` (under `rule`).
fn verify_mismatches(v: &Variant, solved: &SolvedValues, sectors: &[Sector], rule: u16) -> u64 {
    let options = VerifyOptions {
        rule: NMoveRule::new(rule).unwrap(),
        ..VerifyOptions::default()
    };
    sectors
        .iter()
        .map(|&s| verify_sector(v, s, &Lookup(solved), &options).1)
        .sum()
}

/// The sector of a board filled by placing (`stones` a side, nothing in hand), seen from the
/// side that moves first when placing ends.
fn full_sector(v: &Variant) -> Sector {
    assert_eq!(
        2 * v.stones as usize,
        v.board().len(),
        "placing fills the board"
    );
    Sector::moving(v.stones, v.stones)
}

/// The sector of the last placement, as in a game from the start: Black (White placed first)
/// to place its last stone on the one empty point.
fn last_sector(v: &Variant) -> Sector {
    Sector::new(v.stones - 1, v.stones, 1, 0)
}

/// The solver's tables, under each rule of [`NS`], of the full-board sector and then of the
/// last placing sector, from made-up values of every moving sector their components read
/// (shared by the rules), with the forward verifier's check of both; and the made-up sectors.
fn solve_with_made_up_moving(v: &Variant) -> ([SolvedValues; NS.len()], Vec<Sector>) {
    assert!(
        v.unsupported_in_placing().is_empty(),
        "{}: the solver refuses {:?}",
        v.label(),
        v.unsupported_in_placing()
    );
    let (full, last) = (full_sector(v), last_sector(v));
    let t = Instant::now();
    let mut made: BTreeMap<Sector, Arc<Vec<u16>>> = BTreeMap::new();
    for s in [full, last] {
        for &d in Component::of(v, s).dependencies() {
            if d != full && !made.contains_key(&d) {
                assert!(d.is_moving(), "{}: {s} reads placing sector {d}", v.label());
                made.insert(d, made_up_table(v, d));
            }
        }
    }
    let slots: usize = made.values().map(|t| t.len()).sum();
    eprintln!(
        "{}: made-up sectors {:?} ({slots} slots), {:.1?}",
        v.label(),
        made.keys()
            .map(|s| format!("{}-{}", s.w, s.b))
            .collect::<Vec<_>>(),
        t.elapsed()
    );
    let solved = std::array::from_fn(|i| {
        let t = Instant::now();
        let options = SolveOptions {
            rule: NMoveRule::new(NS[i]).unwrap(),
            ..SolveOptions::default()
        };
        let mut map: SolvedValues = made.iter().map(|(&s, t)| (s, t.clone())).collect();
        for s in [full, last] {
            let component = Component::of(v, s);
            for out in solve_component(v, &component, &map, &options).unwrap() {
                map.insert(out.sector, Arc::new(out.values));
            }
        }
        eprintln!(
            "{}: solved under N = {}: {:.1?}",
            v.label(),
            NS[i],
            t.elapsed()
        );
        let t = Instant::now();
        let bad = verify_mismatches(v, &map, &[full, last], NS[i]);
        eprintln!("{}: verified, {:.1?}", v.label(), t.elapsed());
        assert_eq!(
            bad,
            0,
            "{}: forward verifier under N = {}",
            v.label(),
            NS[i]
        );
        map
    });
    (solved, made.into_keys().collect())
}

/// The value of a move for its mover from the values `next` of the state it leads to for the
/// side to move there (`same`: the mover), under each rule of [`NS`]: one ply more, or under
/// an N-move rule, for a move that resets the counter (a placement or a removal), a decided
/// value within N plies (distance at most N) is decided in 1 and one beyond N (cursed or
/// blessed) in N + 1.
fn turn_values(next: Values, same: bool, resets: bool) -> Values {
    std::array::from_fn(|i| {
        let n = NS[i];
        let (won, k) = match next[i] {
            Value::Draw => return Value::Draw,
            Value::Win(k) => (true, k),
            Value::Loss(k) => (false, k),
        };
        let plies = if n == 0 || !resets {
            k + 1
        } else if k <= n {
            1
        } else {
            n + 1
        };
        if won == same {
            Value::Win(plies)
        } else {
            Value::Loss(plies)
        }
    })
}

/// The fastest win, else a draw, else the slowest loss, under each rule.
fn best(moves: &[Values]) -> Values {
    assert!(!moves.is_empty(), "a state without a move");
    std::array::from_fn(|i| {
        moves
            .iter()
            .map(|m| m[i])
            .max_by_key(|v| v.preference())
            .unwrap()
    })
}

/// The key of a referee state in a memo: the stones of each side, the side to move and the
/// removals pending.
type StateKey = ([Bits; 2], usize, [i8; 2]);

/// The oracle: the naive referee's states valued by plain recursion down to the made-up
/// moving phase.
///
/// - **A state with a removal pending** for its side to move (the removals a full board
///   starts): the best over its removals of the value of the next state for the remover
///   (negated unless the remover is to move again), one ply more; every removal resets the
///   N-move counter.
/// - **A turn starting in the moving phase**: the made-up value of the position, in the sector
///   of the side to move's stones and the opponent's.
/// - **A full board without removals** (`white-loses`, `draw`): the referee's outcome (a
///   loss under an N-move rule at distance 1, as for a blocked side).
/// - **A side with fewer than three stones**: the game is over.
/// - **A last placement**: one ply, with the removals of the mill it closes (one move in the
///   database's convention), then the value of the state it leads to as above.
struct BoardFullOracle {
    v: Variant,
    r: naive::Rules,
    /// The indexes of the made-up moving sectors, and whether their tables are sparse.
    moving: HashMap<Sector, (SectorIndex, bool)>,
}

impl BoardFullOracle {
    fn new(v: &Variant, made_up: &[Sector]) -> BoardFullOracle {
        let r = naive::Rules::of(v);
        assert_eq!(r.blocked, naive::Blocked::Loss, "a blocked side loses");
        BoardFullOracle {
            v: *v,
            r,
            moving: made_up
                .iter()
                .map(|&s| {
                    let index = SectorIndex::new(v, s);
                    let sparse = sparse(&index);
                    (s, (index, sparse))
                })
                .collect(),
        }
    }

    /// The stones of each side of `t`.
    fn stones(&self, t: &naive::St) -> [Bits; 2] {
        let mut stones = [0 as Bits; 2];
        for p in 0..self.r.n {
            if let naive::Cell::Stone(side) = t.cell[p] {
                stones[side] |= 1 << p;
            }
        }
        stones
    }

    /// The values of state `t` for its side to move (see [`BoardFullOracle`]); `memo` holds
    /// those of the states with removals pending met so far.
    fn state_values(&self, t: &naive::St, memo: &mut HashMap<StateKey, Values>) -> Values {
        let r = &self.r;
        let me = t.to_move;
        if t.too_few(r, me) {
            return [Value::Loss(0); NS.len()];
        }
        assert!(!t.too_few(r, 1 - me), "the winner to move: {t:?}");
        let stones = self.stones(t);
        if t.rem[me] != 0 {
            let key = (stones, me, t.rem);
            if let Some(&values) = memo.get(&key) {
                return values;
            }
            let moves: Vec<Values> = t
                .moves(r)
                .into_iter()
                .map(|mv| {
                    assert!(matches!(mv, naive::Mv::Remove(_)));
                    let (next, _) = t.play(r, mv);
                    turn_values(self.state_values(&next, memo), next.to_move == me, true)
                })
                .collect();
            let values = best(&moves);
            memo.insert(key, values);
            return values;
        }
        assert_eq!(t.rem, [0, 0], "a removal pending for the side not to move");
        assert_eq!(t.hand, [0, 0], "a placing state after the last placement");
        if t.board_full(r) {
            // The side to move loses at the start of its turn, under an N-move rule only if
            // the turn starts below N: distance 1 (docs/NMOVE.md), like a blocked side.
            return std::array::from_fn(|i| match t.outcome(r) {
                Some(naive::Out::Win) => Value::Win(0),
                Some(naive::Out::Loss) => Value::Loss(u16::from(NS[i] > 0)),
                Some(naive::Out::Draw) => Value::Draw,
                None => panic!("a full board with a move: {t:?}"),
            });
        }
        let (us, them) = (stones[me], stones[1 - me]);
        let s = Sector::moving(us.count_ones() as u8, them.count_ones() as u8);
        let (index, sparse) = self.moving.get(&s).unwrap_or_else(|| {
            panic!(
                "{}: the referee reaches moving sector {s}, which the solver does not read: {}",
                self.v.label(),
                format_position(&self.v, &t.to_pos(r))
            )
        });
        [made_up(s, index.slot(us, them), *sparse); NS.len()]
    }

    /// The state where Black, to move with one stone in hand, is about to fill the board of
    /// White's stones `white` and Black's `black` (every point but one).
    fn before_last(&self, white: Bits, black: Bits) -> naive::St {
        let pos = Position::new([white, black], [0, 1], Color::Black);
        naive::St::from_pos(&self.r, &pos)
    }

    /// The values of every last placement of `st` for its mover (Black): the placement with
    /// the removals of the mill it closes, one ply, then the state it leads to.
    fn last_placements(&self, st: &naive::St) -> Vec<Values> {
        let r = &self.r;
        let me = st.to_move;
        let mut out = Vec::new();
        let mut memo = HashMap::new();
        for mv in st.moves(r) {
            assert!(matches!(mv, naive::Mv::Place(_)));
            let (t, _) = st.play(r, mv);
            let mut ends = vec![t];
            if st.mill_removals(r, mv) > 0 {
                // The mill's removals belong to the placement's ply.
                let mut todo = std::mem::take(&mut ends);
                while let Some(s) = todo.pop() {
                    let over = s.too_few(r, 0) || s.too_few(r, 1);
                    if !over && s.to_move == me && s.rem[me] > 0 {
                        todo.extend(s.moves(r).into_iter().map(|m| s.play(r, m).0));
                    } else {
                        ends.push(s);
                    }
                }
            }
            for end in ends {
                let next = self.state_values(&end, &mut memo);
                out.push(turn_values(next, end.to_move == me, true));
            }
        }
        out
    }

    /// The full board (`us`, the side moving first when placing ends, and `them`) as Black's
    /// last placement leaves it: the referee's state after it, or `None` where every
    /// placement of a Black stone would close a mill that removes (a full board no game
    /// reaches without a removal pending after the placement).
    fn filled(&self, us: Bits, them: Bits) -> Option<naive::St> {
        let (white, black) = match self.v.moving_first {
            Color::White => (us, them),
            Color::Black => (them, us),
        };
        (0..self.r.n)
            .filter(|&p| black >> p & 1 == 1)
            .find_map(|p| {
                let st = self.before_last(white, black & !(1 << p));
                let mv = naive::Mv::Place(p);
                (st.mill_removals(&self.r, mv) == 0).then(|| st.play(&self.r, mv).0)
            })
    }
}

/// The removals pending after the last placement (White's, Black's; negative: of its own
/// stones) and the side removing first (0 White, 1 Black).
type Removals = ([i8; 2], usize);

/// What the comparison met, to assert that the sample has variety.
#[derive(Debug, Default)]
struct Tally {
    /// Full boards compared.
    full: usize,
    /// Full boards not compared: no last placement reaches them without a removal.
    skipped: usize,
    /// Full-board values under N = 0: wins, draws, losses.
    full_values: [usize; 3],
    /// The removals pending after the last placement, and how often.
    removals: BTreeMap<Removals, usize>,
    /// Last placements compared that fill the board.
    filling: usize,
    /// Last placements compared that close a mill (and remove: the board does not fill).
    milling: usize,
    /// Last-placement values under N = 0: wins, draws, losses.
    last_values: [usize; 3],
}

/// The index of a value's kind in the tallies: win 0, draw 1, loss 2.
fn kind(v: Value) -> usize {
    match v {
        Value::Win(_) => 0,
        Value::Draw => 1,
        Value::Loss(_) => 2,
    }
}

/// Compare every `full_step`-th full board and every `last_step`-th last placement of `v`
/// with the solver's tables under each rule of [`NS`], panicking on the first mismatch.
fn compare(v: &Variant, full_step: usize, last_step: usize) -> Tally {
    compare_and_probe(v, full_step, last_step, None)
}

/// [`compare`], and where `probe_step` is given, the probe's value of every `probe_step`-th
/// full board against the oracle's ([`probe_full_boards`]).
fn compare_and_probe(
    v: &Variant,
    full_step: usize,
    last_step: usize,
    probe_step: Option<usize>,
) -> Tally {
    let t = Instant::now();
    let (solved, made_up) = solve_with_made_up_moving(v);
    let oracle = BoardFullOracle::new(v, &made_up);
    let (full, last) = (full_sector(v), last_sector(v));
    if let Some(step) = probe_step {
        probe_full_boards(v, &solved, &oracle, step);
    }
    let mut tally = Tally::default();
    let stored = |s: Sector, slot: u64| -> Vec<Option<Value>> {
        solved
            .iter()
            .map(|m| Value::decode(m[&s][slot as usize]))
            .collect()
    };

    let t_full = Instant::now();
    let index = SectorIndex::new(v, full);
    let slots: Vec<u64> = (0..index.slots()).step_by(full_step).collect();
    let results: Vec<Option<(Value, Removals)>> = slots
        .par_iter()
        .filter_map(|&slot| {
            let (us, them) = index.position(slot)?;
            let Some(st) = oracle.filled(us, them) else {
                return Some(None);
            };
            let mut values = oracle.state_values(&st, &mut HashMap::new());
            if st.to_move != v.moving_first.index() {
                // The table holds the value for the side moving first when placing ends.
                values = values.map(Value::for_other_side);
            }
            let got = stored(full, slot);
            let want: Vec<Option<Value>> = values.iter().map(|&x| Some(x)).collect();
            assert_eq!(
                got,
                want,
                "{}: full board {} (removals {:?}, {} to remove first), solver against oracle \
                 under N = {NS:?}",
                v.label(),
                format_position(
                    v,
                    &Position::new(
                        match v.moving_first {
                            Color::White => [us, them],
                            Color::Black => [them, us],
                        },
                        [0, 0],
                        v.moving_first
                    )
                ),
                st.rem,
                ["White", "Black"][st.to_move],
            );
            Some(Some((values[0], (st.rem, st.to_move))))
        })
        .collect();
    for r in results {
        match r {
            None => tally.skipped += 1,
            Some((value, rem)) => {
                tally.full += 1;
                tally.full_values[kind(value)] += 1;
                *tally.removals.entry(rem).or_default() += 1;
            }
        }
    }
    let full_time = t_full.elapsed();

    let t_last = Instant::now();
    let index = SectorIndex::new(v, last);
    let slots: Vec<u64> = (0..index.slots()).step_by(last_step).collect();
    let results: Vec<(bool, Value)> = slots
        .par_iter()
        .filter_map(|&slot| {
            let (us, them) = index.position(slot)?;
            // Black is to place: `us` are Black's stones.
            let st = oracle.before_last(them, us);
            let moves = oracle.last_placements(&st);
            let want = best(&moves);
            let mills = st
                .moves(&oracle.r)
                .into_iter()
                .any(|mv| st.mill_removals(&oracle.r, mv) > 0);
            let got = stored(last, slot);
            assert_eq!(
                got,
                want.iter().map(|&x| Some(x)).collect::<Vec<_>>(),
                "{}: last placement {}, solver against oracle under N = {NS:?}",
                v.label(),
                format_position(v, &st.to_pos(&oracle.r)),
            );
            Some((mills, want[0]))
        })
        .collect();
    for (mills, value) in results {
        if mills {
            tally.milling += 1;
        } else {
            tally.filling += 1;
        }
        tally.last_values[kind(value)] += 1;
    }
    eprintln!(
        "{}: {tally:?}; full boards {full_time:.1?}, last placements {:.1?}, all {:.1?}",
        v.label(),
        t_last.elapsed(),
        t.elapsed()
    );
    assert!(tally.full > 0 && tally.filling > 0);
    // A placement never removes under `by-mill-counts`; otherwise some last placements close
    // a mill.
    let by_counts = oracle.r.placing_mill == naive::PlacingMill::ByMillCounts;
    assert_eq!(tally.milling == 0, by_counts, "{tally:?}");
    tally
}

/// The probe (`Tablebase::value`) of every `step`-th full board with the side moving first to
/// move and no removal started, over the tables written from `solved` under each rule of
/// [`NS`]: it plays the removals out from the tables after them, and must give the oracle's
/// value.
fn probe_full_boards(
    v: &Variant,
    solved: &[SolvedValues; NS.len()],
    oracle: &BoardFullOracle,
    step: usize,
) {
    let t = Instant::now();
    let index = SectorIndex::new(v, full_sector(v));
    for (i, map) in solved.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let rule = NMoveRule::new(NS[i]).unwrap();
        let options = WriteOptions {
            level: 1,
            distance_level: 1,
            rule,
            ..WriteOptions::default()
        };
        for (&s, values) in map {
            write_sector(dir.path(), v, s, values, &options).unwrap();
        }
        let tb = Tablebase::open(dir.path(), *v).unwrap();
        let mut probed = 0;
        for slot in (0..index.slots()).step_by(step) {
            let Some((us, them)) = index.position(slot) else {
                continue;
            };
            let Some(st) = oracle.filled(us, them) else {
                continue;
            };
            let mut want = oracle.state_values(&st, &mut HashMap::new())[i];
            if st.to_move != v.moving_first.index() {
                want = want.for_other_side();
            }
            let stones = match v.moving_first {
                Color::White => [us, them],
                Color::Black => [them, us],
            };
            let pos = Position::new(stones, [0, 0], v.moving_first);
            assert_eq!(
                tb.value(&pos).unwrap(),
                want,
                "{}: probe of the full board {} under N = {}",
                v.label(),
                format_position(v, &pos),
                NS[i]
            );
            probed += 1;
        }
        assert!(probed > 0);
        eprintln!(
            "{}: probed {probed} full boards under N = {}",
            v.label(),
            NS[i]
        );
    }
    eprintln!("{}: probes {:.1?}", v.label(), t.elapsed());
}

/// Twelve Men's Morris with `board-full` set to `rule` (and Black moving first when placing
/// ends if `black_first`).
fn twelve(rule: &str, black_first: bool) -> Variant {
    let v = Variant::by_name("twelve-mens-morris")
        .unwrap()
        .with_rule("board-full", rule)
        .unwrap();
    if black_first {
        v.with_rule("moving-first", "black").unwrap()
    } else {
        v
    }
}

/// The checks of a `board-full` option that removes stones, with variety asserted: the full
/// boards' values and the last placements' are of two kinds at least (win, draw, loss).
fn removing(v: &Variant, full_step: usize, last_step: usize, probe_step: Option<usize>) -> Tally {
    let tally = compare_and_probe(v, full_step, last_step, probe_step);
    let kinds = |counts: [usize; 3]| counts.iter().filter(|&&c| c > 0).count();
    assert!(kinds(tally.full_values) >= 2, "{tally:?}");
    assert!(kinds(tally.last_values) >= 2, "{tally:?}");
    tally
}

/// [`removing`] for Twelve Men's Morris and Dooz, with the probe of every 31st full board:
/// the full boards' values hold wins and losses, and so do the last placements; the removals
/// pending after the last placement (White's, Black's) and the side removing first, `first`.
fn removing_twelve(v: &Variant, removals: [i8; 2], first: Color) {
    let tally = removing(v, 3, 11, Some(31));
    assert!(
        tally.full_values[0] > 0 && tally.full_values[2] > 0,
        "{tally:?}"
    );
    assert!(
        tally.last_values[0] > 0 && tally.last_values[2] > 0,
        "{tally:?}"
    );
    let seen: Vec<_> = tally.removals.keys().copied().collect();
    assert_eq!(seen, [(removals, first.index())]);
}

#[test]
fn twelve_white_loses_full_board_and_last_placements() {
    let v = twelve("white-loses", false);
    let tally = compare(&v, 1, 3);
    // White, to move on the full board, has lost; Black's placement that fills it wins in 1.
    assert_eq!(tally.full_values, [0, 0, tally.full]);
    assert_eq!(tally.removals.keys().collect::<Vec<_>>(), [&([0, 0], 0)]);
    assert!(tally.last_values[0] >= tally.filling);
}

#[test]
fn twelve_board_full_draw_full_board_and_last_placements() {
    let v = twelve("draw", false);
    let tally = compare(&v, 1, 3);
    assert_eq!(tally.full_values, [0, tally.full, 0]);
}

#[test]
fn dooz_full_board_mover_removes() {
    // White, moving first when placing ends, removes one Black stone.
    let v = Variant::by_name("dooz").unwrap();
    removing_twelve(&v, [1, 0], Color::White);
}

#[test]
fn twelve_full_board_white_then_black() {
    removing_twelve(&twelve("white-then-black", false), [1, 1], Color::White);
}

#[test]
fn twelve_full_board_black_then_white() {
    removing_twelve(&twelve("black-then-white", false), [1, 1], Color::Black);
}

#[test]
fn twelve_full_board_white_then_black_black_moving_first() {
    removing_twelve(&twelve("white-then-black", true), [1, 1], Color::White);
}

#[test]
fn twelve_full_board_black_then_white_black_moving_first() {
    removing_twelve(&twelve("black-then-white", true), [1, 1], Color::Black);
}

/// The removals a full board starts, by the naive referee (after Black's last placement) and
/// by the library's move generator (`settle` of the full board with the side moving first
/// when placing ends to move), at every 7th full board of every rule set of this file: the
/// same removals pending and the same side to remove first. Needs no solving.
#[test]
fn referee_and_movegen_agree_on_the_removals_of_a_full_board() {
    let mut variants = vec![
        twelve("white-loses", false),
        twelve("draw", false),
        Variant::by_name("dooz").unwrap(),
        Variant::by_name("el-filja").unwrap(),
    ];
    for rule in ["white-then-black", "black-then-white"] {
        variants.push(twelve(rule, false));
        variants.push(twelve(rule, true));
    }
    for v in &variants {
        let oracle = BoardFullOracle::new(v, &[]);
        let index = SectorIndex::new(v, full_sector(v));
        let mut patterns: BTreeMap<Removals, usize> = BTreeMap::new();
        for slot in (0..index.slots()).step_by(7) {
            let Some((us, them)) = index.position(slot) else {
                continue;
            };
            let Some(st) = oracle.filled(us, them) else {
                continue;
            };
            let stones = match v.moving_first {
                Color::White => [us, them],
                Color::Black => [them, us],
            };
            let pos = Position::new(stones, [0, 0], v.moving_first);
            let settled = millbase::movegen::settle(v, &pos);
            assert_eq!(
                (settled.removals, settled.to_move.index()),
                (st.rem, st.to_move),
                "{}: {}",
                v.label(),
                format_position(v, &pos)
            );
            *patterns.entry((st.rem, st.to_move)).or_default() += 1;
        }
        eprintln!("{}: {patterns:?}", v.label());
        assert!(!patterns.is_empty());
    }
}

/// El Filja (24 points without diagonals, by-mill-counts, stones in mills removable, no
/// flying): every 211th full board and every 1999th last placement.
#[test]
#[ignore = "20 minutes on 2 cores, 1.3 GB: El Filja's full board removes up to six stones a side"]
fn el_filja_full_board_by_mill_counts() {
    let v = Variant::by_name("el-filja").unwrap();
    let tally = removing(&v, 211, 1999, None);
    // Placing never removes: every full board is reached. White, removing first, has the
    // worse of it: the full boards hold losses and draws.
    assert_eq!(tally.skipped, 0);
    assert!(
        tally.full_values[1] > 0 && tally.full_values[2] > 0,
        "{tally:?}"
    );
    // Full boards of many mill counts, from none (each side removes one of its own stones)
    // to four or more a side.
    let removals: Vec<[i8; 2]> = tally.removals.keys().map(|k| k.0).collect();
    assert!(removals.len() >= 10, "{removals:?}");
    assert!(
        removals.contains(&[-1, -1]) && removals.contains(&[4, 4]),
        "{removals:?}"
    );
    assert!(
        tally.removals.keys().all(|k| k.1 == 0),
        "White removes first"
    );
}
