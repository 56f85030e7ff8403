//! An independent oracle for the solver's placing phase: plain minimax and value iteration over
//! raw positions, compared with the solver on every position of whole games.
//!
//! Like `tests/oracle.rs` (which checks the moving-phase sectors 3-3, 3-4 and 4-3 of the
//! standard game), this oracle shares none of the solver's machinery: no symmetry reduction, no
//! solver index for the computation, no un-moves. It uses only the rules engine's forward
//! direction (`legal_moves` in the combined convention, `play`, `Position::color_flipped`) and
//! the `Value` type:
//!
//! - A position is normalised with the side to move as White: `stones = [us, them]`,
//!   `in_hand = [hand of the side to move, hand of the opponent]`. Its sector is
//!   `w-b-wf-bf` = (|us|, |them|, in_hand[0], in_hand[1]).
//! - Every placement of `w` and `b` stones on distinct points is a position of the sector
//!   (reachable or not), indexed densely by colex ranks written here ([`RawSector`]).
//! - A successor is `play(move).color_flipped()`: White to move again. A successor whose side
//!   to move has fewer than three stones (board plus hand) is `Loss(0)` for it; a position with
//!   no legal move is `Loss(0)` (std and three have no full-board draw rule; asserted).
//! - Placing sectors: with standard rules a side with stones in hand must place, so every move
//!   lowers the stones in hand by one and the sectors form layers by stones in hand. Layer
//!   `k` is evaluated by plain minimax over successors in layer `k - 1` ([`solve_placing`]).
//! - Moving-phase sectors (layer 0): value iteration by rounds ([`solve_moving`]) as in
//!   `tests/oracle.rs`: round `r` decides exactly the positions at distance `r` from the values
//!   after round `r - 1`; undecided at the fixpoint means draw. A round rescans an undecided
//!   position unless none of its successors can have changed in the previous round.
//!
//! Configurations: Three Men's Morris and the standard board with 3 stones a side (whole
//! games; their only moving sector is 3-3) and the standard board with 4 stones a side, whose
//! placing sectors are all computed here while the moving sectors 3-3, 3-4, 4-3 and 4-4 are
//! taken from the solver's tables as boundary values (3-3, 3-4 and 4-3 are checked
//! independently by `tests/oracle.rs`; 4-4 is not checked by an oracle).

use millbase::movegen::{Convention, Outcome, legal_moves, outcome, play};
use millbase::notation::format_position;
use millbase::plan::plan;
use millbase::rules::{Bits, BoardFull};
use millbase::sectors::{SectorIndex, reachable_sectors, start_sector};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, Position, Sector, Value, Variant};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The `k`-point sets of an `n`-point board in increasing numeric order, which for sets of
/// one size is colex order (Gosper's hack: the next larger number with the same bit count).
fn k_sets(n: usize, k: usize) -> Vec<Bits> {
    if k == 0 {
        return vec![0];
    }
    let mut out = Vec::new();
    let mut s: u64 = (1 << k) - 1;
    while s < 1 << n {
        out.push(s as Bits);
        let lowest = s & s.wrapping_neg();
        let ripple = s + lowest;
        s = (((ripple ^ s) >> 2) / lowest) | ripple;
    }
    out
}

/// Most points on a board.
const MAX_POINTS: usize = 24;

/// Binomial coefficients: `CHOOSE[i][j]` = C(i, j) for i, j ≤ 24 (Pascal's triangle).
const CHOOSE: [[usize; MAX_POINTS + 1]; MAX_POINTS + 1] = {
    let mut c = [[0; MAX_POINTS + 1]; MAX_POINTS + 1];
    let mut i = 0;
    while i <= MAX_POINTS {
        c[i][0] = 1;
        let mut j = 1;
        while j <= i {
            c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
            j += 1;
        }
        i += 1;
    }
    c
};

/// Raw dense indexing of the positions of one sector: `rank(us) * C(n, b) + rank(them)`, colex
/// ranks among the sets of the same size. Indices whose two sets overlap are not positions.
///
/// Passes visit the positions grouped by `them` (see [`RawSector::by_them`]): the successors of
/// a group all have our `them` as their `us`, so their values lie in one row of the successor
/// sector, which then stays in cache.
struct RawSector {
    sector: Sector,
    /// The `w`-point sets in colex order (unranking by table).
    us_sets: Vec<Bits>,
    /// The `b`-point sets in colex order.
    them_sets: Vec<Bits>,
}

impl RawSector {
    fn new(v: &Variant, sector: Sector) -> RawSector {
        let n = v.board().len();
        assert!(n <= MAX_POINTS);
        let raw = RawSector {
            sector,
            us_sets: k_sets(n, sector.w as usize),
            them_sets: k_sets(n, sector.b as usize),
        };
        for (sets, k) in [(&raw.us_sets, sector.w), (&raw.them_sets, sector.b)] {
            assert_eq!(sets.len(), CHOOSE[n][k as usize]);
            for (i, &s) in sets.iter().enumerate() {
                assert_eq!(s.count_ones(), k as u32);
                assert_eq!(raw.rank(s), i, "colex rank of {s:#x}");
            }
        }
        raw
    }

    /// Colex rank of a set among the sets of its size: the sum of C(p_i, i) over its points
    /// p_1 < p_2 < ... (i from 1).
    fn rank(&self, mut set: Bits) -> usize {
        let mut rank = 0;
        let mut i = 1;
        while set != 0 {
            rank += CHOOSE[set.trailing_zeros() as usize][i];
            set &= set - 1;
            i += 1;
        }
        rank
    }

    fn len(&self) -> usize {
        self.us_sets.len() * self.them_sets.len()
    }

    fn index_of_ranks(&self, us_rank: usize, them_rank: usize) -> usize {
        us_rank * self.them_sets.len() + them_rank
    }

    fn index(&self, us: Bits, them: Bits) -> usize {
        self.index_of_ranks(self.rank(us), self.rank(them))
    }

    /// `f(index, position)` for every position, in parallel, visited grouped by `them`; the
    /// results that are `Some`, with their indices.
    fn by_them<T: Send>(&self, f: impl Fn(usize, Position) -> Option<T> + Sync) -> Vec<(usize, T)> {
        let f = &f;
        (0..self.them_sets.len())
            .into_par_iter()
            .flat_map_iter(|t| {
                (0..self.us_sets.len()).filter_map(move |u| {
                    let i = self.index_of_ranks(u, t);
                    self.position(i).and_then(|pos| f(i, pos)).map(|x| (i, x))
                })
            })
            .collect()
    }

    /// The position at index `i`, White to move, or `None` if the two sets overlap.
    fn position(&self, i: usize) -> Option<Position> {
        let us = self.us_sets[i / self.them_sets.len()];
        let them = self.them_sets[i % self.them_sets.len()];
        (us & them == 0).then_some(Position::new(
            [us, them],
            [self.sector.wf, self.sector.bf],
            Color::White,
        ))
    }
}

/// The sector of a normalised position (White to move).
fn sector_of(pos: &Position) -> Sector {
    assert!(pos.to_move == Color::White && !pos.pending_removal());
    Sector::new(
        pos.stones[0].count_ones() as u8,
        pos.stones[1].count_ones() as u8,
        pos.in_hand[0],
        pos.in_hand[1],
    )
}

/// Has the side to move (White) fewer than three stones on board and in hand?
fn has_lost(pos: &Position) -> bool {
    pos.stones[0].count_ones() + (pos.in_hand[0] as u32) < 3
}

/// The successors of a normalised position, normalised: one per legal move (a move and its
/// removal are one ply), colours flipped so that the new side to move is White.
fn successors(v: &Variant, pos: &Position) -> Vec<Position> {
    let next: Vec<Position> = legal_moves(v, pos, Convention::Combined)
        .into_iter()
        .map(|mv| {
            let next = play(v, pos, mv);
            assert!(next.to_move == Color::Black && !next.pending_removal());
            next.color_flipped()
        })
        .collect();
    if next.is_empty() {
        // No legal move: a loss, as movegen agrees (no full-board draw in these variants).
        assert_eq!(outcome(v, pos), Some(Outcome::Loss), "{pos:?}");
    }
    next
}

/// Oracle values of one sector by raw index: `None` for indices that are not positions.
struct Table {
    raw: RawSector,
    values: Vec<Option<Value>>,
}

/// Where the values of a sector come from.
enum Source<'a> {
    /// The oracle's own table.
    Oracle(Table),
    /// The solver's table (standard board with 4 stones only: the moving phase as boundary
    /// values).
    Solver(SectorIndex, &'a [u16]),
}

/// Values known for successors, by sector (a handful: a linear search is fastest).
#[derive(Default)]
struct Known<'a>(Vec<(Sector, Source<'a>)>);

impl<'a> Known<'a> {
    fn insert(&mut self, s: Sector, source: Source<'a>) {
        assert!(!self.contains(s), "{s} twice");
        self.0.push((s, source));
    }

    fn contains(&self, s: Sector) -> bool {
        self.0.iter().any(|(t, _)| *t == s)
    }

    /// The value of a normalised successor for its side to move.
    fn value(&self, pos: &Position) -> Value {
        if has_lost(pos) {
            return Value::Loss(0);
        }
        let s = sector_of(pos);
        let (us, them) = (pos.stones[0], pos.stones[1]);
        match self.0.iter().find(|(t, _)| *t == s) {
            Some((_, Source::Oracle(t))) => {
                t.values[t.raw.index(us, them)].expect("a position has a value")
            }
            Some((_, Source::Solver(index, values))) => {
                Value::decode(values[index.slot(us, them) as usize]).expect("solver value")
            }
            None => panic!("successor in sector {s} without values: {pos:?}"),
        }
    }

    /// The longest distance of a known value.
    fn max_plies(&self) -> u16 {
        let plies = |values: &mut dyn Iterator<Item = Option<Value>>| {
            values.flatten().filter_map(Value::plies).max().unwrap_or(0)
        };
        self.0
            .iter()
            .map(|(_, source)| match source {
                Source::Oracle(t) => plies(&mut t.values.iter().copied()),
                Source::Solver(_, values) => plies(&mut values.iter().map(|&c| Value::decode(c))),
            })
            .max()
            .unwrap_or(0)
    }
}

/// Plain minimax: the value for the side to move given its successors' values (each for the
/// opponent). The fastest win, else a draw, else the slowest loss; no move: `Loss(0)`.
fn best(succ: impl Iterator<Item = Value>) -> Value {
    let mut fastest_win: Option<u16> = None;
    let mut draw = false;
    let mut slowest_loss: u16 = 0;
    for value in succ {
        match value {
            Value::Loss(k) => fastest_win = Some(fastest_win.map_or(k + 1, |n| n.min(k + 1))),
            Value::Draw => draw = true,
            Value::Win(k) => slowest_loss = slowest_loss.max(k + 1),
        }
    }
    match (fastest_win, draw) {
        (Some(n), _) => Value::Win(n),
        (None, true) => Value::Draw,
        (None, false) => Value::Loss(slowest_loss),
    }
}

/// A placing sector: every move is a placement into the layer with one stone fewer in hand,
/// whose values `known` holds.
fn solve_placing(v: &Variant, s: Sector, known: &Known) -> Table {
    assert!(s.wf > 0 && !v.move_while_placing, "{s}: placements only");
    let raw = RawSector::new(v, s);
    let mut values = vec![None; raw.len()];
    for (i, value) in raw.by_them(|_, pos| {
        let succ = successors(v, &pos).into_iter().map(|next| {
            let t = sector_of(&next);
            assert_eq!(t.wf + t.bf + 1, s.wf + s.bf, "{pos:?}: a placement");
            known.value(&next)
        });
        Some(best(succ))
    }) {
        values[i] = Some(value);
    }
    Table { raw, values }
}

/// A successor during value iteration.
enum Successor {
    /// In the component being solved: which sector and index.
    Internal(usize, usize),
    /// Outside it (a lost game or a sector solved before): a final value.
    Fixed(Value),
}

/// Value iteration over a component of moving-phase sectors (closed under the moves that
/// remove nothing; removals lead to `known` sectors or end the game). Jacobi rounds: round `r`
/// reads the values after round `r - 1` and decides the undecided positions at distance `r`:
/// `Win(r)` if the fastest successor loss is `Loss(r - 1)`, `Loss(r)` if every successor is a
/// win and the slowest is `Win(r - 1)` (no move: `Loss(0)`). Undecided at the fixpoint: draw.
fn solve_moving(v: &Variant, component: &[Sector], known: &Known) -> Vec<Table> {
    let raws: Vec<RawSector> = component.iter().map(|&s| RawSector::new(v, s)).collect();
    let mut values: Vec<Vec<Option<Value>>> = raws.iter().map(|r| vec![None; r.len()]).collect();
    let classify = |next: &Position| -> Successor {
        let t = sector_of(next);
        match component.iter().position(|&s| s == t) {
            Some(j) if !has_lost(next) => {
                Successor::Internal(j, raws[j].index(next.stones[0], next.stones[1]))
            }
            _ => Successor::Fixed(known.value(next)),
        }
    };
    // The longest distance of a fixed successor (Loss(0) for a lost game).
    let max_fixed = known.max_plies();
    // The sector holding the internal successors of sector j.
    let partner = |j: usize| {
        let p = component.iter().position(|&s| s == component[j].swapped());
        p.expect("a component holds the swapped sectors")
    };
    // Per sector, per `us` set (by rank): was a position with that `us` decided last round?
    let mut changed: Vec<Vec<bool>> = raws.iter().map(|r| vec![true; r.us_sets.len()]).collect();
    for (j, raw) in raws.iter().enumerate() {
        assert!(
            raws[partner(j)].us_sets == raw.them_sets,
            "ranks of `them` index `changed`"
        );
    }
    for r in 0u16.. {
        let started = Instant::now();
        let scanned = AtomicUsize::new(0);
        let decided: Vec<Vec<(usize, Value)>> = raws
            .iter()
            .enumerate()
            .map(|(j, raw)| {
                raw.by_them(|i, pos| {
                    if values[j][i].is_some() {
                        return None;
                    }
                    // A decision in round r needs a successor at distance r - 1. The internal
                    // successors of (us, them) have `them` as their `us` (asserted below): if
                    // none of those was decided last round and no fixed successor can be at
                    // distance r - 1, nothing has changed for this position since its last scan.
                    let them_rank = i % raw.them_sets.len();
                    if r > max_fixed + 1 && !changed[partner(j)][them_rank] {
                        return None;
                    }
                    scanned.fetch_add(1, Relaxed);
                    let mut fastest_win: Option<u16> = None;
                    let mut all_wins = true;
                    let mut loss_at = 0;
                    for next in successors(v, &pos) {
                        let value = match classify(&next) {
                            Successor::Internal(k, i) => {
                                assert_eq!(k, partner(j), "an internal move");
                                assert_eq!(next.stones[0], pos.stones[1], "an internal move");
                                values[k][i]
                            }
                            Successor::Fixed(value) => Some(value),
                        };
                        match value {
                            Some(Value::Loss(k)) => {
                                fastest_win = Some(fastest_win.map_or(k + 1, |n| n.min(k + 1)))
                            }
                            Some(Value::Win(k)) => loss_at = loss_at.max(k + 1),
                            Some(Value::Draw) | None => all_wins = false,
                        }
                    }
                    let value = match fastest_win {
                        Some(n) => {
                            assert!(n >= r, "missed Win({n}) of {pos:?}");
                            Value::Win(n)
                        }
                        None if all_wins => {
                            assert!(loss_at >= r, "missed Loss({loss_at}) of {pos:?}");
                            Value::Loss(loss_at)
                        }
                        None => return None,
                    };
                    (value.plies() == Some(r)).then_some(value)
                })
            })
            .collect();
        let count: usize = decided.iter().map(Vec::len).sum();
        for ((values, decided), (changed, raw)) in values
            .iter_mut()
            .zip(decided)
            .zip(changed.iter_mut().zip(&raws))
        {
            changed.fill(false);
            for (i, value) in decided {
                values[i] = Some(value);
                changed[i / raw.them_sets.len()] = true;
            }
        }
        eprintln!(
            "{} oracle {component:?} round {r}: {} scanned, {count} decided, {:.1?}",
            v.name,
            scanned.into_inner(),
            started.elapsed()
        );
        // Round r + 1 needs a successor at distance exactly r: none can appear any more.
        if count == 0 && r > max_fixed {
            break;
        }
    }
    raws.into_iter()
        .zip(values)
        .map(|(raw, mut values)| {
            for (i, value) in values.iter_mut().enumerate() {
                if raw.position(i).is_some() && value.is_none() {
                    *value = Some(Value::Draw);
                }
            }
            Table { raw, values }
        })
        .collect()
}

/// Solve the whole game with the solver, as `tests/whole_games.rs` does.
fn solver_values(v: &Variant) -> SolvedValues {
    let mut solved = SolvedValues::new();
    for entry in plan(v, &[]) {
        for out in solve_component(v, &entry.component, &solved, &SolveOptions::default()).unwrap()
        {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    solved
}

/// Compare every position of an oracle table with the solver: the number of positions, the
/// number of mismatches and a description of the first one.
fn compare(v: &Variant, table: &Table, solved: &SolvedValues) -> (usize, usize, Option<String>) {
    let s = table.raw.sector;
    let index = SectorIndex::new(v, s);
    let solver = solved
        .get(&s)
        .unwrap_or_else(|| panic!("{}: the solver has no sector {s}", v.name));
    let mismatch = |i: usize| -> Option<String> {
        let pos = table.raw.position(i)?;
        let oracle = table.values[i].expect("a position has a value");
        let theirs = Value::decode(solver[index.slot(pos.stones[0], pos.stones[1]) as usize]);
        (theirs != Some(oracle)).then(|| {
            format!(
                "{} sector {s}, us {:#08x} them {:#08x} ({}): oracle {oracle:?}, solver {theirs:?}",
                v.name,
                pos.stones[0],
                pos.stones[1],
                format_position(v, &pos)
            )
        })
    };
    let positions = (0..table.raw.len())
        .into_par_iter()
        .filter(|&i| table.raw.position(i).is_some())
        .count();
    let count = (0..table.raw.len())
        .into_par_iter()
        .filter(|&i| mismatch(i).is_some())
        .count();
    let first = (count > 0)
        .then(|| {
            (0..table.raw.len())
                .into_par_iter()
                .find_map_first(mismatch)
        })
        .flatten();
    (positions, count, first)
}

/// Counts of one sector: positions, wins, wins in 1, losses, draws.
fn counts(table: &Table) -> [usize; 5] {
    let mut c = [0; 5];
    for value in table.values.iter().flatten() {
        c[0] += 1;
        match value {
            Value::Win(n) => {
                c[1] += 1;
                c[2] += usize::from(*n == 1);
            }
            Value::Loss(_) => c[3] += 1,
            Value::Draw => c[4] += 1,
        }
    }
    c
}

/// What checking one configuration found.
struct Report {
    /// Positions compared with the solver.
    positions: usize,
    /// The start position's value (oracle and solver agree).
    start: Value,
    /// The oracle's tables of the moving phase, if it computed them.
    moving: Vec<Table>,
}

/// Solve `v` with the solver and with the oracle, and compare every position of every
/// reachable sector the oracle computes: all of them if `oracle_moving`, else only those with
/// stones in hand (the moving phase is then taken from the solver).
fn check(v: &Variant, oracle_moving: bool) -> Report {
    assert_eq!(v.board_full, BoardFull::WhiteLoses, "no full-board draws");
    assert!(!v.move_while_placing, "placing sectors must form layers");
    let t = Instant::now();
    let solved = solver_values(v);
    eprintln!("{}: solver {:.1?}", v.name, t.elapsed());

    // Reachable sectors by stones in hand (layer); layer 0 is the moving phase.
    let mut layers: BTreeMap<u8, Vec<Sector>> = BTreeMap::new();
    for s in reachable_sectors(v) {
        layers.entry(s.wf + s.bf).or_default().push(s);
    }
    let start = start_sector(v);
    assert_eq!(layers.keys().last(), Some(&(start.wf + start.bf)));

    let mut positions = 0;
    let mut mismatches = 0;
    let mut first: Option<String> = None;
    let mut record = |table: &Table| {
        let t = Instant::now();
        let (n, bad, example) = compare(v, table, &solved);
        eprintln!(
            "{} sector {}: {n} positions, {bad} mismatches ({:.1?})",
            v.name,
            table.raw.sector,
            t.elapsed()
        );
        positions += n;
        mismatches += bad;
        if first.is_none() {
            first = example;
        }
    };

    let mut known = Known::default();
    let mut moving = Vec::new();
    let moving_sectors = layers.remove(&0).unwrap_or_default();
    if oracle_moving {
        // Components {w-b, b-w} in order of stones on the board: removals lead to fewer.
        let mut todo = moving_sectors.clone();
        todo.sort_by_key(|s| s.w + s.b);
        for s in todo {
            if known.contains(s) {
                continue;
            }
            let component: Vec<Sector> = if s == s.swapped() {
                vec![s]
            } else {
                vec![s, s.swapped()]
            };
            let t = Instant::now();
            for table in solve_moving(v, &component, &known) {
                record(&table);
                known.insert(table.raw.sector, Source::Oracle(table));
            }
            eprintln!("{} oracle {component:?}: {:.1?}", v.name, t.elapsed());
        }
    } else {
        // Boundary values from the solver (3-3, 3-4 and 4-3 are checked by tests/oracle.rs).
        for &s in &moving_sectors {
            known.insert(
                s,
                Source::Solver(SectorIndex::new(v, s), solved[&s].as_slice()),
            );
        }
    }
    for (&layer, sectors) in &layers {
        let t = Instant::now();
        let mut next = Known::default();
        for &s in sectors {
            let table = solve_placing(v, s, &known);
            record(&table);
            next.insert(s, Source::Oracle(table));
        }
        eprintln!(
            "{} oracle layer {layer} {sectors:?}: {:.1?}",
            v.name,
            t.elapsed()
        );
        // Keep the moving phase for the caller; later layers read only this one.
        let previous = std::mem::replace(&mut known, next);
        if layer == 1 {
            moving.extend(
                previous
                    .0
                    .into_iter()
                    .filter_map(|(_, source)| match source {
                        Source::Oracle(table) => Some(table),
                        Source::Solver(..) => None,
                    }),
            );
        }
    }
    assert_eq!(
        mismatches,
        0,
        "{}: oracle and solver disagree on {mismatches} positions; first: {}",
        v.name,
        first.unwrap_or_default()
    );

    let empty = Position::start(v);
    let oracle_start = known.value(&empty);
    let solver_start =
        Value::decode(solved[&start][SectorIndex::new(v, start).slot(0, 0) as usize]);
    eprintln!(
        "{}: start position: oracle {oracle_start:?}, solver {solver_start:?}; {positions} \
         positions compared",
        v.name
    );
    assert_eq!(
        solver_start,
        Some(oracle_start),
        "{}: start position",
        v.name
    );
    moving.sort_by_key(|t| t.raw.sector);
    Report {
        positions,
        start: oracle_start,
        moving,
    }
}

#[test]
fn three_mens_morris_whole_game() {
    let v = Variant::by_name("three").unwrap();
    let report = check(&v, true);
    // C(9, w) * C(9 - w, b) over the 7 reachable sectors.
    assert_eq!(report.positions, 4030);
    assert_eq!(report.start, Value::Draw);
}

#[test]
fn standard_board_three_stones_whole_game() {
    let v = Variant {
        name: "std3",
        stones: 3,
        ..Variant::standard()
    };
    let report = check(&v, true);
    assert_eq!(report.positions, 3_187_365);
    // White, moving first, wins: the oracle's value, which the solver reproduces.
    assert_eq!(report.start, Value::Win(23));
    // RULES.md: the raw 3-3 figures of the standard game (the same sector).
    let [t33] = &report.moving[..] else {
        panic!("the moving phase is 3-3 alone")
    };
    assert_eq!(t33.raw.sector, Sector::moving(3, 3));
    assert_eq!(
        counts(t33),
        [2_691_920, 2_232_160, 1_056_096, 455_648, 4_112]
    );
}

#[test]
fn standard_board_four_stones_placing_phase() {
    let v = Variant {
        name: "std4",
        stones: 4,
        ..Variant::standard()
    };
    let report = check(&v, false);
    assert_eq!(report.positions, 21_329_489);
    assert_eq!(report.start, Value::Draw);
}
