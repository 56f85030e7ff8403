//! An independent oracle for the solver under every named rule set whose tables exist: plain
//! value iteration over raw moving-phase positions, its moves from the naive referee
//! (tests/common/naive_rules.rs), compared with every value the solver stores, without and
//! with the N-move rule.
//!
//! What the oracle shares with millbase: the point numbering (`Board::names`, through the
//! naive referee's `Rules::of`), the `Position` record (to build the referee's `St` by
//! `St::from_pos`) and the `Value` / `RuleValue` / `NMoveRule::at_counter` types to compare.
//! Nothing of millbase's move generator, sector graph, index or solver: the solver's values
//! come from `solve_component` over `solving_order`, and are looked up through `SectorIndex`
//! only for the comparison.
//!
//! - **States.** A state is the start of a turn: the stones of the side to move (`us`) and of
//!   its opponent (`them`), nothing in hand, and under `repeated-mills=restricted` the bar of
//!   each side (the slide that closed its last mill, `St::last`), as the referee keeps them.
//!   A sector `a-b` (the side to move has `a` stones, its opponent `b`) holds every raw
//!   position without a bar in a dense index of colex ranks written here (no symmetry
//!   reduction: every raw position is its own state), and the states with a bar that play
//!   reaches, found by exploring from the sectors with more stones down (a bar is set only by
//!   a move that closes a mill, which takes a stone).
//! - **Moves.** A turn is the referee's stone move followed by the removals it gives (split
//!   convention, expanded here until the other side is to move), from `St::moves` and
//!   `St::play`; a turn that leaves the opponent with fewer than three stones wins at once. A
//!   turn *resets* the N-move counter when it takes a stone (a removal or a capture): the
//!   stones on the board went down. `St::outcome` says which states are blocked and what that
//!   means (`stalemate=loss` or `draw`).
//! - **Blocked sides that remove.** Under `stalemate=remove-and-move`, `remove-and-pass` and
//!   `both-remove` the referee starts a blocked side's turn with removals pending: a state is
//!   the referee's start of a turn at its stones and bars (`Oracle::start`, made by `St::play`
//!   itself), and such a turn is one removal (`St::moves`), after which the side to move may be
//!   the same (it moves again: its value is the successor's, not negated) or the opponent,
//!   whose reply under both-remove is a state of its own (the middle of the turn). Every
//!   removal is a ply and resets the counter; the blocked side's turn is drawn when it starts
//!   with the counter at N, as every turn (docs/NMOVE.md: the check comes before everything
//!   else; the reply of both-remove comes at counter 0).
//! - **A blocked side that passes.** Under `stalemate=pass` the referee passes a blocked
//!   side's turn inside `St::play` (no ply, the counter as it is): a quiet turn after which the
//!   opponent passes leads to the mover's own state at the new stones (its value, not negated,
//!   one ply on), and the state of the blocked side (`PASSES`), which no turn reaches, takes
//!   its opponent's value at the same stones turned round, at the same distance and first
//!   counter; both blocked: drawn (`St::outcome`).
//! - **Values without the rule.** Jacobi rounds: round `r` decides exactly the states at
//!   distance `r` from the values after round `r - 1` (`Win(r)`: a move to a state lost in
//!   `r - 1`; `Loss(r)`: every move to a won state, the slowest won in `r - 1`). A round
//!   rescans a state only if one of its successors was decided in the round before or an
//!   exit's distance says so; skipping a state that should have been decided is caught when
//!   it is next scanned (asserted). Undecided at the end: draws.
//! - **Values under the rule.** Backward induction over the counter as in tests/oracle_rule.rs:
//!   `V(., N)` = draw; `V(p, c)` the best over the moves of the negated successor value at
//!   `c + 1`, or at counter 0 for a move that resets (sectors below are done first). Each
//!   layer is checked to keep the decisions of the layer above (monotone in the counter) and
//!   to decide only as the game without the rule does, so a state's values at all counters are
//!   its result and the largest counter `f` at which it is decided: the value at counter `c`
//!   is `Win(N - f)` / `Loss(N - f)` for `c <= f`, otherwise a cursed win, blessed loss or
//!   draw as without the rule. That is what `NMoveRule::at_counter` must give from the stored
//!   value, at every counter `0..=N` (docs/NMOVE.md).
//! - **Endgame N-move rule.** A set whose `endgame-n-move-rule` is below N (Morabaraba: 10
//!   under 100) draws at that lower N while either side has exactly three stones on the
//!   board (`n_in_force`, from the set's rule text): the layers of such a sector start from
//!   the draw at its own N, and a turn that takes a stone reads the value at counter 0 of the
//!   state it reaches under that state's N. The stored values are read under the N in force
//!   in their sector.
//! - **Bars.** The tables store the states without a bar; the solver plays the others out.
//!   The oracle keeps them as states of their own and compares the stored values with its
//!   values of the states without a bar.
//!
//! Sets whose moving phase the referee plays alike (the same `Rules` fields that it reads with
//! both hands empty: geometry, fly, remove-from-mills, multiple-removals, stalemate,
//! repeated-mills, capture) share one oracle; the solver runs for each set and is compared
//! with it. Sets whose `unsupported_by_tables()` is not empty are skipped (one-time-mill).
//!
//! Cost: the referee plays a few million moves a second here, and a 3-3 sector of a flying
//! set on 24 points has 2.7 million positions with 54 moves each (about a minute of CPU per
//! set), so the CI test covers the six and three boards, the options the tables follow on the
//! six board up to 5-4 (bars that matter need five stones sliding), and the 3-3 sector of one
//! of the five 24-point groups that do not fly, a different one each day, and the six board
//! up to 4-4 under an endgame N-move rule of 4 (N = 6 and 10); the ignored test covers every
//! named set up to 3-4 / 4-3 under N = 0, 6 and 100 (Morabaraba's endgame N of 10 there).

#[path = "common/naive_rules.rs"]
mod naive;

use millbase::format::UNUSED;
use millbase::rules::{NO_SQUARE, RULE_SETS, VARIANTS};
use millbase::sectors::{SectorIndex, solving_order};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, NMoveRule, Position, RuleValue, Sector, Value, Variant};
use naive::{Cell, Mv, Out, Rules, St};
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// Values of a state at a counter under the rule, for its side to move.
const WIN: i8 = 1;
const DRAW: i8 = 0;
const LOSS: i8 = -1;

/// What a state is (per dense slot; extras are always states).
const NOT_A_STATE: u8 = 0;
const NORMAL: u8 = 1;
const BLOCKED_LOSS: u8 = 2;
const BLOCKED_DRAW: u8 = 3;
/// A turn of removals that starts with the removal pending (a blocked side's under the
/// `stalemate` options that remove, or its opponent's reply under `both-remove`).
const REMOVING: u8 = 4;
/// A blocked side under `stalemate=pass` whose opponent can move: the referee passes its turn
/// at once, so no turn reaches this state; its value is the opponent's at the same stones
/// turned round, at the same distance (set after its component is solved).
const PASSES: u8 = 5;

/// A general successor: `WON` (the opponent is left with fewer than three stones), or a state
/// `index` of sector `id` (bits 32..48), with bit 63 set when the turn resets the counter and
/// bit 62 when the same side is to move there (a blocked side that removed and moves again).
const WON: u64 = u64::MAX;
const RESETS: u64 = 1 << 63;
const SAME: u64 = 1 << 62;

/// An undecided state in the rounds without the rule: its index, the position of an
/// undecided internal successor at its last scan (`NO_WATCH`: none), and the rounds in which
/// its exits can decide it ([`Oracle::exit_rounds`]).
type Pending = (u32, u16, (u16, u16));

/// No undecided quiet successor watched.
const NO_WATCH: u16 = u16::MAX;

/// A state's first counter at which it is decided under the rule: none yet.
const UNDECIDED: u16 = u16::MAX;

/// A bar: the slide `(from, to)` that closed a side's last mill.
type Bar = Option<(u8, u8)>;

/// A state with bars: stones of the side to move and of its opponent, their bars (side to
/// move first), and the removals pending in the middle of a turn (side to move first; `[0,
/// 0]` at the start of a turn, which the referee settles from the stones and bars: see
/// [`Oracle::start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    us: u32,
    them: u32,
    bars: [Bar; 2],
    pending: [i8; 2],
}

/// Does a state have a successor where the mover moves again at once after a quiet turn (the
/// opponent, blocked, passed under `stalemate=pass`)? Such a successor lies in the state's own
/// sector, so the rescans driven by the partner's changes do not see it: rescanned always.
fn passed_to(general: &[u64]) -> bool {
    general
        .iter()
        .any(|&g| g != WON && g & SAME != 0 && g & RESETS == 0)
}

/// The sector id of `a-b` (side to move `a` stones).
fn sector_id(a: usize, b: usize) -> usize {
    a * 32 + b
}

/// The N of the N-move rule in force in a state whose sides have `a` and `b` stones on the
/// board, under tables solved under the N-move rule `n` of a set whose
/// `endgame-n-move-rule` is `endgame` (../shared/RULES.md: "a lower N that applies while
/// either side has exactly 3 stones on the board"; 0: off).
fn n_in_force(n: u16, endgame: u16, a: usize, b: usize) -> u16 {
    if n > 0 && endgame > 0 && endgame < n && (a == 3 || b == 3) {
        endgame
    } else {
        n
    }
}

/// A set's `endgame-n-move-rule`, read from its rules as text.
fn endgame_of(v: &Variant) -> u16 {
    v.rule("endgame-n-move-rule").unwrap().parse().unwrap()
}

/// Binomial coefficients and the point sets of each size in colex order (increasing numbers).
struct Sets {
    choose: [[u32; 25]; 25],
    by_size: Vec<Vec<u32>>,
}

impl Sets {
    fn new(n: usize, max: usize) -> Sets {
        let mut choose = [[0u32; 25]; 25];
        for i in 0..25 {
            choose[i][0] = 1;
            for k in 1..=i {
                choose[i][k] = choose[i - 1][k - 1] + choose[i - 1][k];
            }
        }
        let by_size: Vec<Vec<u32>> = (0..=max)
            .map(|k| {
                (0u32..1 << n)
                    .filter(|s| s.count_ones() as usize == k)
                    .collect()
            })
            .collect();
        let sets = Sets { choose, by_size };
        for (k, list) in sets.by_size.iter().enumerate() {
            assert_eq!(list.len() as u32, sets.choose[n][k]);
            for (i, &s) in list.iter().enumerate().step_by(97) {
                assert_eq!(sets.rank(s) as usize, i, "colex rank of {s:#x}");
            }
        }
        sets
    }

    /// Colex rank among the sets of the same size: the sum of C(p_i, i) over the points
    /// p_1 < p_2 < ... (i from 1).
    fn rank(&self, mut set: u32) -> u32 {
        let (mut rank, mut i) = (0, 1);
        while set != 0 {
            rank += self.choose[set.trailing_zeros() as usize][i];
            set &= set - 1;
            i += 1;
        }
        rank
    }
}

/// Successors of some states, as built: per state its kind, its quiet successors (dense
/// states only: the rank of the mover's new stones in the partner's block of our `them`) and
/// its general ones.
#[derive(Default)]
struct Links {
    kind: Vec<u8>,
    qnext: Vec<u32>,
    quiet: Vec<u16>,
    gnext: Vec<u32>,
    general: Vec<u64>,
    /// General successors that are states with a bar, to be numbered: (position in
    /// `general`, sector id, key).
    pending: Vec<(u32, usize, Key)>,
}

impl Links {
    fn new() -> Links {
        Links {
            qnext: vec![0],
            gnext: vec![0],
            ..Links::default()
        }
    }

    fn quiet_of(&self, i: usize) -> &[u16] {
        &self.quiet[self.qnext[i] as usize..self.qnext[i + 1] as usize]
    }

    fn general_of(&self, i: usize) -> &[u64] {
        &self.general[self.gnext[i] as usize..self.gnext[i + 1] as usize]
    }

    /// Append the states of `other`.
    fn extend(&mut self, other: Links) {
        let (q0, g0) = (self.quiet.len() as u32, self.general.len() as u32);
        self.kind.extend(other.kind);
        self.qnext.extend(other.qnext[1..].iter().map(|x| x + q0));
        self.quiet.extend(other.quiet);
        self.gnext.extend(other.gnext[1..].iter().map(|x| x + g0));
        self.general.extend(other.general);
        self.pending
            .extend(other.pending.into_iter().map(|(p, s, k)| (p + g0, s, k)));
    }
}

/// The states of a sector and their values.
struct SectorStates {
    a: usize,
    b: usize,
    /// `sets(b).len()`: dense index = rank(us) * nb + rank(them).
    nb: usize,
    dense: usize,
    /// States with a bar: local index `dense + i`.
    extras: Vec<Key>,
    extra_ids: HashMap<Key, u32>,
    /// Successors of the dense states, by block (the side to move's stone set), and of the
    /// extras.
    blocks: Vec<Links>,
    extra_links: Links,
    /// Values without the rule (`None`: undecided, a draw once solved).
    free: Vec<Option<Value>>,
    /// Under the rule being checked: the N in force in the sector ([`n_in_force`]), the value
    /// at counter 0 and the largest counter at which the state is decided.
    n_rule: u16,
    ruled: Vec<i8>,
    first: Vec<u16>,
}

impl SectorStates {
    fn len(&self) -> usize {
        self.dense + self.extras.len()
    }

    fn kind(&self, i: usize) -> u8 {
        if i < self.dense {
            self.blocks[i / self.nb].kind[i % self.nb]
        } else {
            self.extra_links.kind[i - self.dense]
        }
    }
}

/// What the oracle saw, for the report and to show that the options came into play.
#[derive(Clone, Debug, Default)]
struct Census {
    states: u64,
    bar_states: u64,
    blocked_loss: u64,
    blocked_draw: u64,
    /// States where a blocked side's turn starts with removals pending (`stalemate`
    /// remove-and-move, remove-and-pass, both-remove), and states in the middle of such a
    /// turn (the opponent's removal under both-remove).
    blocked_removing: u64,
    mid_turn: u64,
    /// Turns after which the same side is to move (a blocked side that removed moves again),
    /// into a game going on.
    same_side: u64,
    /// Turns from the middle of a turn (both-remove's second removal) into a game going on.
    from_mid_turn: u64,
    /// Blocked sides whose turn passes (`stalemate=pass`, the opponent can move), and quiet
    /// turns after which the opponent passes (the mover moves again at once).
    passes: u64,
    passed_to: u64,
    /// Turns that take k stones and leave a game going (`takes[k]`), and turns that win.
    takes: [u64; 6],
    wins_at_once: u64,
    /// Bar states whose value differs from the same stones without bars.
    bars_that_matter: u64,
}

/// The oracle for one moving-phase rule set (the referee's rules) over the sectors below some
/// targets.
struct Oracle {
    r: Rules,
    sets: Sets,
    /// Sectors by id (`sector_id`).
    sectors: Vec<Option<SectorStates>>,
    /// Components (one sector, or a sector and its colour-swapped partner), from the top down.
    comps: Vec<Vec<usize>>,
    census: Census,
}

impl Oracle {
    /// Explore from the `targets` (moving sectors `a-b`) down, then solve without the rule.
    fn build(r: Rules, targets: &[(usize, usize)]) -> Oracle {
        let max = targets.iter().map(|&(a, b)| a.max(b)).max().unwrap();
        let mut o = Oracle {
            sets: Sets::new(r.n, max),
            r,
            sectors: (0..32 * 32).map(|_| None).collect(),
            comps: Vec::new(),
            census: Census::default(),
        };
        for &(a, b) in targets {
            o.ensure(a, b);
            o.ensure(b, a);
        }
        // Top down: a component's states with a bar come only from the components above.
        let mut done = vec![false; 32 * 32];
        loop {
            let next = (0..o.sectors.len())
                .filter(|&id| o.sectors[id].is_some() && !done[id])
                .max_by_key(|&id| {
                    let s = o.sectors[id].as_ref().unwrap();
                    (s.a + s.b, id)
                });
            let Some(id) = next else { break };
            let s = o.sectors[id].as_ref().unwrap();
            let (a, b) = (s.a, s.b);
            o.ensure(b, a);
            let comp = if a == b {
                vec![id]
            } else {
                vec![id, sector_id(b, a)]
            };
            for &c in &comp {
                done[c] = true;
            }
            let t = Instant::now();
            o.link(&comp);
            eprintln!("  linked {}: {:.1?}", o.comp_name(&comp), t.elapsed());
            o.comps.push(comp);
        }
        for k in (0..o.comps.len()).rev() {
            let t = Instant::now();
            let rounds = o.solve_free(k);
            eprintln!(
                "  solved {} without the rule: {rounds} rounds, {:.1?}",
                o.comp_name(&o.comps[k]),
                t.elapsed()
            );
        }
        o.count();
        o
    }

    fn comp_name(&self, comp: &[usize]) -> String {
        let names: Vec<String> = comp
            .iter()
            .map(|&id| {
                let s = self.sector(id);
                format!("{}-{}", s.a, s.b)
            })
            .collect();
        names.join("+")
    }

    fn sector(&self, id: usize) -> &SectorStates {
        self.sectors[id].as_ref().expect("a sector of the oracle")
    }

    /// Create sector `a-b` if it is not there yet.
    fn ensure(&mut self, a: usize, b: usize) {
        let id = sector_id(a, b);
        if self.sectors[id].is_some() {
            return;
        }
        assert!(a >= 3 && b >= 3, "{a}-{b}: the game is over");
        assert!(a + b < self.r.n, "{a}-{b}: the board could be full");
        assert!(
            a.max(b) < self.sets.by_size.len(),
            "{a}-{b} above the targets"
        );
        let nb = self.sets.by_size[b].len();
        assert!(self.sets.by_size[a].len() <= 1 << 16, "ranks fit 16 bits");
        self.sectors[id] = Some(SectorStates {
            a,
            b,
            nb,
            dense: self.sets.by_size[a].len() * nb,
            extras: Vec::new(),
            extra_ids: HashMap::new(),
            blocks: Vec::new(),
            extra_links: Links::new(),
            free: Vec::new(),
            n_rule: 0,
            ruled: Vec::new(),
            first: Vec::new(),
        });
    }

    /// The referee's state of `key`, the side to move as White: the start of its turn
    /// ([`Oracle::start`]), or the middle of a turn as the referee left it (removals pending).
    fn st(&self, key: &Key) -> St {
        if key.pending == [0, 0] {
            return self.start(key, 0);
        }
        let mut pos = Position::new([key.us, key.them], [0, 0], Color::White);
        let slide = |bar: Bar| bar.unwrap_or((NO_SQUARE, NO_SQUARE));
        pos.last_mill_slide = [slide(key.bars[0]), slide(key.bars[1])];
        pos.removals = key.pending;
        St::from_pos(&self.r, &pos)
    }

    /// The referee's start of the turn of the side to move of `key` (colour `side`: 0 White,
    /// 1 Black) at its stones and bars: what `St::play` leaves after the opponent's last
    /// action. The referee starts a turn inside `play` (a blocked side's removals begin, or
    /// under `stalemate=pass` the turn passes), so the state is made by playing one: the
    /// opponent, with one more stone on an empty point and one of its own stones to remove (a
    /// negative removal, as El Filja's end of placing), removes that stone.
    fn start(&self, key: &Key, side: usize) -> St {
        let empty = ((1u32 << self.r.n) - 1) & !(key.us | key.them);
        let q = empty.trailing_zeros() as usize;
        assert!(q < self.r.n, "an empty point");
        let mut stones = [key.us, key.them | 1 << q];
        let slide = |bar: Bar| bar.unwrap_or((NO_SQUARE, NO_SQUARE));
        let mut bars = [slide(key.bars[0]), slide(key.bars[1])];
        let mut removals = [0, -1];
        let opponent = match side {
            0 => Color::Black,
            _ => {
                stones.swap(0, 1);
                bars.swap(0, 1);
                removals.swap(0, 1);
                Color::White
            }
        };
        let mut pos = Position::new(stones, [0, 0], opponent);
        pos.last_mill_slide = bars;
        pos.removals = removals;
        let (t, _) = St::from_pos(&self.r, &pos).play(&self.r, Mv::Remove(q));
        for p in 0..self.r.n {
            let want = match (key.us >> p & 1, key.them >> p & 1) {
                (1, _) => Cell::Stone(side),
                (_, 1) => Cell::Stone(1 - side),
                _ => Cell::Empty,
            };
            assert_eq!(t.cell[p], want, "the stones of {key:?}");
        }
        t
    }

    /// The key of the referee's state `t` at the start of a turn or in the middle of one (the
    /// side to move first).
    fn key_of(&self, t: &St) -> Key {
        assert_eq!(t.hand, [0, 0]);
        let me = t.to_move;
        let (mut us, mut them) = (0, 0);
        for p in 0..self.r.n {
            match t.cell[p] {
                Cell::Stone(s) if s == me => us |= 1 << p,
                Cell::Stone(_) => them |= 1 << p,
                Cell::Empty => {}
                Cell::Mark => panic!("a mark in the moving phase"),
            }
        }
        let bar = |b: Option<(usize, usize)>| b.map(|(f, t)| (f as u8, t as u8));
        let plain = Key {
            us,
            them,
            bars: [bar(t.last[me]), bar(t.last[1 - me])],
            pending: [0, 0],
        };
        if t.rem == [0, 0] {
            assert!(!t.again && !t.adjacent);
            return plain;
        }
        if *t == self.start(&plain, me) {
            return plain;
        }
        // The middle of a turn: only the opponent's reply of both-remove is one.
        assert!(!t.again && !t.adjacent, "in the middle of a turn: {t:?}");
        Key {
            pending: [t.rem[me], t.rem[1 - me]],
            ..plain
        }
    }

    /// The ends of the turns the side to move of `st` can play: its stone moves, each with
    /// every sequence of the removals it gives, or, when its turn starts with a removal
    /// pending (a blocked side's, or the opponent's reply to it), one removal. `None` when the
    /// opponent is left with fewer than three stones; otherwise the state reached: the other
    /// side to move, or the same after a blocked side's removal that lets it move again.
    fn turns(&self, st: &St) -> Vec<Option<St>> {
        let r = &self.r;
        let me = st.to_move;
        let removing = st.rem[me] != 0;
        let mut out = Vec::new();
        let mut todo = vec![st.clone()];
        while let Some(s) = todo.pop() {
            for mv in s.moves(r) {
                let (t, _) = s.play(r, mv);
                if t.too_few(r, 0) || t.too_few(r, 1) {
                    assert!(t.too_few(r, 1 - me) && !t.too_few(r, me));
                    assert_eq!(t.outcome(r), Some(Out::Loss), "the loser is to move");
                    out.push(None);
                } else if !removing && t.to_move == me && t.rem[me] > 0 && !t.adjacent {
                    // The removals of the mills the stone move closed.
                    todo.push(t);
                } else {
                    let passed = self.r.blocked == naive::Blocked::Pass;
                    assert!(
                        t.to_move != me || removing || passed,
                        "the same side moves again"
                    );
                    out.push(Some(t));
                }
            }
        }
        out
    }

    /// Add state `key` and its successors to `links` (`dense`: a state without a bar, whose
    /// quiet successors go to `quiet` as ranks in the partner's block of our `them`).
    fn add_state(&self, key: &Key, dense: bool, links: &mut Links, census: &mut Census) {
        let r = &self.r;
        let st = self.st(key);
        let me = st.to_move;
        let stones = (key.us | key.them).count_ones();
        if key.pending == [0, 0] && me != 0 {
            // The referee passed the turn of the side to move of `key` (White in `st`).
            assert!(dense, "a pass with a bar: {key:?}");
            census.states += 1;
            census.passes += 1;
            links.kind.push(PASSES);
            links.qnext.push(links.quiet.len() as u32);
            links.gnext.push(links.general.len() as u32);
            return;
        }
        let turns = self.turns(&st);
        // The referee's outcome is `None` exactly when the side to move has a move (asserted
        // where it has none; `turns` plays only legal moves of a game going on).
        let kind = match turns.is_empty() {
            false if st.rem[me] != 0 => REMOVING,
            false => NORMAL,
            true => match st.outcome(r) {
                Some(Out::Loss) => BLOCKED_LOSS,
                Some(Out::Draw) => BLOCKED_DRAW,
                other => panic!("{key:?}: no move, outcome {other:?}"),
            },
        };
        census.states += 1;
        census.blocked_loss += u64::from(kind == BLOCKED_LOSS);
        census.blocked_draw += u64::from(kind == BLOCKED_DRAW);
        census.blocked_removing += u64::from(kind == REMOVING && key.pending == [0, 0]);
        links.kind.push(kind);
        for t in turns {
            let Some(t) = t else {
                census.wins_at_once += 1;
                links.general.push(WON);
                continue;
            };
            let next = self.key_of(&t);
            let same = t.to_move == me;
            let (mover, other) = match same {
                true => (next.us, next.them),
                false => (next.them, next.us),
            };
            if kind == REMOVING {
                assert_eq!(mover & !key.us, 0, "the mover's stones moved in a removal");
            }
            assert_eq!(other & !key.them, 0, "the opponent's stones moved");
            let (a, b) = (next.us.count_ones(), next.them.count_ones());
            let taken = stones - (a + b);
            let quiet = taken == 0;
            // The opponent, blocked, passed: a quiet turn after which the mover moves again,
            // in its own sector (a general successor, as it is not in the partner's block).
            let passed = quiet && same;
            if passed {
                assert!(kind == NORMAL && self.r.blocked == naive::Blocked::Pass);
                assert_eq!(next.them, key.them, "a pass moved the opponent's stones");
                census.passed_to += 1;
            } else if quiet {
                assert!(!same && kind != REMOVING, "a quiet turn of removals");
                assert_eq!(
                    next.us, key.them,
                    "a quiet move changed the opponent's stones"
                );
            } else {
                census.takes[taken as usize] += 1;
                census.same_side += u64::from(same);
                census.from_mid_turn += u64::from(key.pending != [0, 0]);
            }
            let id = sector_id(a as usize, b as usize);
            let flag = if quiet { 0 } else { RESETS } | if same { SAME } else { 0 };
            if next.bars == [None, None] && next.pending == [0, 0] {
                if quiet && dense && !passed {
                    links.quiet.push(self.sets.rank(next.them) as u16);
                } else {
                    let index = self.sets.rank(next.us) as u64
                        * self.sets.by_size[b as usize].len() as u64
                        + self.sets.rank(next.them) as u64;
                    links.general.push(flag | (id as u64) << 32 | index);
                }
            } else {
                assert!(
                    self.r.restricted || next.pending != [0, 0],
                    "a bar without repeated-mills=restricted"
                );
                links.pending.push((links.general.len() as u32, id, next));
                links.general.push(flag | (id as u64) << 32);
            }
        }
        links.qnext.push(links.quiet.len() as u32);
        links.gnext.push(links.general.len() as u32);
    }

    /// Number the states with a bar that `links` leads to (creating their sectors), returning
    /// the new ones of the component `comp` (to be linked in turn).
    fn number_pending(&mut self, links: &mut Links, comp: &[usize]) -> Vec<(usize, Key)> {
        let mut new = Vec::new();
        for (at, id, key) in std::mem::take(&mut links.pending) {
            let (a, b) = (key.us.count_ones() as usize, key.them.count_ones() as usize);
            self.ensure(a, b);
            let s = self.sectors[id].as_mut().unwrap();
            let next = s.dense + s.extras.len();
            let index = *s.extra_ids.entry(key).or_insert_with(|| {
                s.extras.push(key);
                if comp.contains(&id) {
                    new.push((id, key));
                }
                next as u32
            });
            links.general[at as usize] |= index as u64;
        }
        for w in links.general.iter() {
            if *w != WON {
                let id = (*w >> 32 & 0xFFFF) as usize;
                if self.sectors[id].is_none() {
                    self.ensure(id / 32, id % 32);
                }
            }
        }
        new
    }

    /// Build the successors of every state of component `comp`.
    fn link(&mut self, comp: &[usize]) {
        let mut census = Census::default();
        for &id in comp {
            let s = self.sector(id);
            let (a, b) = (s.a, s.b);
            let them_sets = &self.sets.by_size[b];
            let mut blocks: Vec<(Links, Census)> = self.sets.by_size[a]
                .par_iter()
                .map(|&us| {
                    let mut links = Links::new();
                    let mut census = Census::default();
                    for &them in them_sets {
                        if us & them != 0 {
                            links.kind.push(NOT_A_STATE);
                            links.qnext.push(links.quiet.len() as u32);
                            links.gnext.push(links.general.len() as u32);
                            continue;
                        }
                        let key = Key {
                            us,
                            them,
                            bars: [None, None],
                            pending: [0, 0],
                        };
                        self.add_state(&key, true, &mut links, &mut census);
                    }
                    links.quiet.shrink_to_fit();
                    links.general.shrink_to_fit();
                    (links, census)
                })
                .collect();
            for (links, c) in blocks.iter_mut() {
                census.add(c);
                let new = self.number_pending(links, comp);
                assert!(
                    new.is_empty(),
                    "a quiet move from a state without bars set one"
                );
            }
            self.sectors[id].as_mut().unwrap().blocks = blocks.into_iter().map(|b| b.0).collect();
        }
        // States with a bar: those the components above lead to, and those they lead to here.
        let mut todo: Vec<(usize, Key)> = comp
            .iter()
            .flat_map(|&id| self.sector(id).extras.iter().map(move |&k| (id, k)))
            .collect();
        while !todo.is_empty() {
            let results: Vec<(usize, Links, Census)> = todo
                .par_chunks(4096)
                .flat_map_iter(|chunk| {
                    let mut out: Vec<(usize, Links, Census)> = Vec::new();
                    for &(id, key) in chunk {
                        if out.last().is_none_or(|x| x.0 != id) {
                            out.push((id, Links::new(), Census::default()));
                        }
                        let (_, links, census) = out.last_mut().unwrap();
                        match key.pending {
                            [0, 0] => census.bar_states += 1,
                            _ => census.mid_turn += 1,
                        }
                        self.add_state(&key, false, links, census);
                    }
                    out
                })
                .collect();
            todo.clear();
            for (id, mut links, c) in results {
                census.add(&c);
                todo.extend(self.number_pending(&mut links, comp));
                self.sectors[id].as_mut().unwrap().extra_links.extend(links);
            }
        }
        for &id in comp {
            let s = self.sector(id);
            assert_eq!(s.extra_links.kind.len(), s.extras.len());
        }
        self.census.add(&census);
    }

    /// The value without the rule of general successor `g` for the opponent of the side
    /// that moves to it (its side to move's value, negated when that is the same side).
    fn free_of(&self, g: u64) -> Option<Value> {
        if g == WON {
            return Some(Value::Loss(0));
        }
        let s = self.sector((g >> 32 & 0xFFFF) as usize);
        let value = s.free[(g & 0xFFFF_FFFF) as usize];
        match g & SAME {
            0 => value,
            _ => value.map(|v| match v {
                Value::Win(d) => Value::Loss(d),
                Value::Loss(d) => Value::Win(d),
                Value::Draw => Value::Draw,
            }),
        }
    }

    /// Round `r` for an undecided state: its value if it is decided at distance `r`, from the
    /// values of its successors after round `r - 1` (its quiet successors' values `quiet`),
    /// and the position in `quiet` of the first undecided one (`NO_WATCH`: none).
    fn scan(
        &self,
        r: u16,
        quiet: impl Iterator<Item = Option<Value>>,
        general: &[u64],
    ) -> (Option<Value>, u16) {
        let mut all_won = true;
        let mut slowest = 0;
        let mut watch = NO_WATCH;
        let general = general.iter().map(|&g| (NO_WATCH, self.free_of(g)));
        for (k, next) in quiet.enumerate().map(|(k, v)| (k as u16, v)).chain(general) {
            match next {
                Some(Value::Loss(d)) if d + 1 == r => return (Some(Value::Win(r)), watch),
                Some(Value::Loss(d)) => {
                    assert!(d + 1 > r, "a win in {} missed in round {r}", d + 1);
                    all_won = false;
                }
                Some(Value::Win(d)) => slowest = slowest.max(d),
                Some(Value::Draw) => all_won = false,
                None => {
                    all_won = false;
                    if watch == NO_WATCH {
                        watch = k;
                    }
                }
            }
        }
        if all_won {
            assert!(
                slowest + 1 >= r,
                "a loss in {} missed in round {r}",
                slowest + 1
            );
            ((slowest + 1 == r).then_some(Value::Loss(r)), watch)
        } else {
            (None, watch)
        }
    }

    /// The rounds in which the exits (general successors that reset the counter, whose values
    /// are final) of a state can decide it: a win through a lost exit, and a loss when every exit is won.
    fn exit_rounds(&self, general: &[u64]) -> (u16, u16) {
        let mut win = u16::MAX;
        let mut loss = 0;
        let mut all_won = true;
        for &g in general.iter().filter(|&&g| g == WON || g & RESETS != 0) {
            match self.free_of(g) {
                Some(Value::Loss(k)) => {
                    win = win.min(k + 1);
                    all_won = false;
                }
                Some(Value::Win(k)) => loss = loss.max(k + 1),
                _ => all_won = false,
            }
        }
        (win, if all_won { loss } else { u16::MAX })
    }

    /// Set the values of the states of component `comp` whose side passes ([`PASSES`]) from
    /// their opponent's at the same stones (in the partner sector): without the rule (`free`)
    /// and, with `rule`, at counter 0 and the first counter decided (`layers`: per comp
    /// sector, the values at counter 0 and those first counters).
    fn pass_values(&mut self, comp: &[usize], mut layers: Option<&mut [(Vec<i8>, Vec<u16>)]>) {
        for (j, &id) in comp.iter().enumerate() {
            let pj = comp.len() - 1 - j;
            let s = self.sector(id);
            let p = self.sector(comp[pj]);
            let opponent = |i: usize| (i % s.nb) * p.nb + i / s.nb;
            let passing: Vec<usize> = (0..s.dense).filter(|&i| s.kind(i) == PASSES).collect();
            let free: Vec<Option<Value>> = passing
                .iter()
                .map(|&i| {
                    p.free[opponent(i)].map(|v| match v {
                        Value::Win(d) => Value::Loss(d),
                        Value::Loss(d) => Value::Win(d),
                        Value::Draw => Value::Draw,
                    })
                })
                .collect();
            if let Some(layers) = layers.as_deref_mut() {
                for &i in &passing {
                    let (x, f) = (layers[pj].0[opponent(i)], layers[pj].1[opponent(i)]);
                    layers[j].0[i] = -x;
                    layers[j].1[i] = f;
                }
            }
            let s = self.sectors[id].as_mut().unwrap();
            for (&i, v) in passing.iter().zip(free) {
                s.free[i] = v;
            }
        }
    }

    /// Solve component `k` without the rule (its exits solved); returns the rounds.
    fn solve_free(&mut self, k: usize) -> u16 {
        let comp = self.comps[k].clone();
        for &id in &comp {
            let s = self.sectors[id].as_mut().unwrap();
            let mut free = vec![None; s.len()];
            for (i, f) in free.iter_mut().enumerate() {
                *f = match s.kind(i) {
                    BLOCKED_LOSS => Some(Value::Loss(0)),
                    BLOCKED_DRAW | NOT_A_STATE => Some(Value::Draw),
                    _ => None,
                };
            }
            s.free = free;
        }
        let partner = |j: usize| comp.len() - 1 - j;
        // Per comp sector: its undecided states, each with the position of an undecided
        // internal successor at its last scan (`NO_WATCH`: none), and the rounds in which its
        // exits can decide it.
        let mut pending: Vec<Vec<Pending>> = comp
            .iter()
            .map(|&id| {
                let s = self.sector(id);
                (0..s.len())
                    .into_par_iter()
                    .filter(|&i| s.free[i].is_none() && s.kind(i) != PASSES)
                    .map(|i| (i as u32, NO_WATCH, self.exit_rounds(self.general(s, i))))
                    .collect()
            })
            .collect();
        let last_trigger = pending
            .iter()
            .flatten()
            .flat_map(|&(_, _, (w, l))| [w, l])
            .filter(|&x| x != u16::MAX)
            .max()
            .unwrap_or(0);
        // Per comp sector: were states without a bar decided / lost in the last round, by
        // block (the side to move's stones), and states with a bar at all?
        let flags = |id: usize| vec![true; self.sector(id).blocks.len() + 1];
        let mut changed: Vec<Vec<bool>> = comp.iter().map(|&id| flags(id)).collect();
        let mut lost: Vec<Vec<bool>> = comp.iter().map(|&id| flags(id)).collect();
        let mut r = 1u16;
        loop {
            let mut decided: Vec<Vec<(usize, Value)>> = Vec::new();
            for (j, &id) in comp.iter().enumerate() {
                let s = self.sector(id);
                let p = self.sector(comp[partner(j)]);
                let (changed, lost) = (&changed[partner(j)], &lost[partner(j)]);
                let xb = p.blocks.len(); // the flag of the partner's states with a bar
                // A round-r decision needs a successor decided in round r - 1: a win one that
                // was lost then, a loss every one decided (the watched one, or with none
                // watched any that changed); or an exit's round. The internal successors of a
                // state lie in the partner's block of our `them`, or have a bar.
                let found: Vec<(usize, Value)> = pending[j]
                    .par_iter_mut()
                    .filter_map(|(i, watch, (w, l))| {
                        let i = *i as usize;
                        let (quiet, general, t) = if i < s.dense {
                            let links = &s.blocks[i / s.nb];
                            let t = i % s.nb;
                            (links.quiet_of(t), links.general_of(t), t)
                        } else {
                            let e = i - s.dense;
                            let t = self.sets.rank(s.extras[e].them) as usize;
                            (&[][..], s.extra_links.general_of(e), t)
                        };
                        let base = t * p.nb;
                        let needed = r == 1
                            || passed_to(general)
                            || *w == r
                            || *l == r
                            || lost[t]
                            || lost[xb]
                            || match *watch {
                                NO_WATCH => changed[t] || changed[xb],
                                k if (k as usize) < quiet.len() => {
                                    p.free[base + quiet[k as usize] as usize].is_some()
                                }
                                k => self.free_of(general[k as usize - quiet.len()]).is_some(),
                            };
                        if !needed {
                            return None;
                        }
                        let values = quiet.iter().map(|&q| p.free[base + q as usize]);
                        let (v, k) = self.scan(r, values, general);
                        *watch = k;
                        Some((i, v?))
                    })
                    .collect();
                decided.push(found);
            }
            let count: usize = decided.iter().map(Vec::len).sum();
            for (j, (&id, found)) in comp.iter().zip(decided).enumerate() {
                let s = self.sectors[id].as_mut().unwrap();
                changed[j].fill(false);
                lost[j].fill(false);
                let xb = s.blocks.len();
                for (i, v) in found {
                    s.free[i] = Some(v);
                    let b = if i < s.dense { i / s.nb } else { xb };
                    changed[j][b] = true;
                    lost[j][b] |= matches!(v, Value::Loss(_));
                }
                let s = self.sector(id);
                pending[j].retain(|x| s.free[x.0 as usize].is_none());
            }
            if count == 0 && r > last_trigger {
                // Undecided: drawn.
                for &id in &comp {
                    let s = self.sectors[id].as_mut().unwrap();
                    for f in s.free.iter_mut().filter(|f| f.is_none()) {
                        *f = Some(Value::Draw);
                    }
                }
                self.pass_values(&comp, None);
                return r;
            }
            r += 1;
        }
    }

    /// The general successors of state `i` of sector `s`.
    fn general<'a>(&self, s: &'a SectorStates, i: usize) -> &'a [u64] {
        if i < s.dense {
            s.blocks[i / s.nb].general_of(i % s.nb)
        } else {
            s.extra_links.general_of(i - s.dense)
        }
    }

    /// Tally the values and what the bars change.
    fn count(&mut self) {
        let mut matter = 0;
        for s in self.sectors.iter().flatten() {
            for (e, key) in s.extras.iter().enumerate() {
                if key.pending != [0, 0] {
                    continue; // the middle of a turn, not a state with a bar
                }
                let plain =
                    self.sets.rank(key.us) as usize * s.nb + self.sets.rank(key.them) as usize;
                if s.free[s.dense + e] != s.free[plain] {
                    matter += 1;
                }
            }
        }
        self.census.bars_that_matter = matter;
    }

    /// Solve every component under the N-move rule `n` with the endgame N-move rule `endgame`
    /// (bottom up; each component under the N in force there, [`n_in_force`]), keeping each
    /// state's value at counter 0 and the largest counter at which it is decided. Asserts that
    /// every layer keeps the decisions of the layer above and decides only as the game
    /// without the rule.
    fn solve_rule(&mut self, n: u16, endgame: u16) {
        assert!(n > 0);
        for k in (0..self.comps.len()).rev() {
            let comp = self.comps[k].clone();
            // A component's sectors have the same stones on the board (colours swapped), so
            // the same N; a turn that resets the counter leads to counter 0 under the N of
            // the sector it reaches, whose values at counter 0 are solved (`ruled`).
            let first_sector = self.sector(comp[0]);
            let n = n_in_force(n, endgame, first_sector.a, first_sector.b);
            for &id in &comp {
                self.sectors[id].as_mut().unwrap().n_rule = n;
            }
            let partner = |j: usize| comp.len() - 1 - j;
            let pos = |id: usize| comp.iter().position(|&c| c == id);
            // Layers at counter c + 1 (`above`) and c (`layer`); counter n: drawn.
            let mut above: Vec<Vec<i8>> = comp
                .iter()
                .map(|&id| vec![DRAW; self.sector(id).len()])
                .collect();
            let mut first: Vec<Vec<u16>> = comp
                .iter()
                .map(|&id| vec![UNDECIDED; self.sector(id).len()])
                .collect();
            let mut changed: Vec<Vec<bool>> = comp
                .iter()
                .map(|&id| vec![true; self.sector(id).blocks.len()])
                .collect();
            for c in (0..n).rev() {
                let value_of = |g: u64, above: &Vec<Vec<i8>>| -> i8 {
                    if g == WON {
                        return LOSS;
                    }
                    let id = (g >> 32 & 0xFFFF) as usize;
                    let i = (g & 0xFFFF_FFFF) as usize;
                    let x = if g & RESETS != 0 {
                        self.sector(id).ruled[i]
                    } else {
                        above[pos(id).expect("a quiet move stays in the component")][i]
                    };
                    // The side to move there is the same: its value is ours, not negated.
                    if g & SAME != 0 { -x } else { x }
                };
                let best = |kind: u8, quiet: &mut dyn Iterator<Item = i8>, general: &[u64]| -> i8 {
                    match kind {
                        BLOCKED_LOSS => return LOSS,
                        // A side that passes: set from its opponent's value (`pass_values`).
                        BLOCKED_DRAW | NOT_A_STATE | PASSES => return DRAW,
                        _ => {}
                    }
                    let mut best = LOSS;
                    for x in quiet.chain(general.iter().map(|&g| value_of(g, &above))) {
                        best = best.max(-x);
                        if best == WIN {
                            break;
                        }
                    }
                    best
                };
                let mut layer: Vec<Vec<i8>> = Vec::new();
                for (j, &id) in comp.iter().enumerate() {
                    let s = self.sector(id);
                    let pj = partner(j);
                    let flags = &changed[pj];
                    let prev = &above[j];
                    let pa = &above[pj];
                    let pnb = self.sector(comp[pj]).nb;
                    let mut out: Vec<i8> = s
                        .blocks
                        .par_iter()
                        .enumerate()
                        .flat_map_iter(|(u, links)| {
                            (0..s.nb).map(move |t| {
                                let i = u * s.nb + t;
                                if c + 1 < n && !flags[t] && !passed_to(links.general_of(t)) {
                                    return prev[i];
                                }
                                let base = t * pnb;
                                let mut quiet =
                                    links.quiet_of(t).iter().map(|&q| pa[base + q as usize]);
                                best(links.kind[t], &mut quiet, links.general_of(t))
                            })
                        })
                        .collect();
                    let extras = &s.extra_links;
                    out.extend(
                        (0..s.extras.len())
                            .into_par_iter()
                            .map(|e| {
                                best(
                                    extras.kind[e],
                                    &mut std::iter::empty(),
                                    extras.general_of(e),
                                )
                            })
                            .collect::<Vec<_>>(),
                    );
                    layer.push(out);
                }
                let mut any = false;
                for (j, &id) in comp.iter().enumerate() {
                    let s = self.sector(id);
                    let flags = &mut changed[j];
                    flags.fill(false);
                    for (i, (&x, &y)) in layer[j].iter().zip(&above[j]).enumerate() {
                        if x == y {
                            continue;
                        }
                        assert_eq!(y, DRAW, "counter {c}: a decided state changed below");
                        let free = s.free[i].unwrap_or(Value::Draw);
                        let sign = match free {
                            Value::Win(_) => WIN,
                            Value::Loss(_) => LOSS,
                            Value::Draw => DRAW,
                        };
                        assert_eq!(x, sign, "decided under the rule, not so without it");
                        first[j][i] = c;
                        any = true;
                        if i < s.dense {
                            flags[i / s.nb] = true;
                        }
                    }
                }
                above = layer;
                if !any {
                    break; // every lower layer is this one
                }
            }
            let mut layers: Vec<(Vec<i8>, Vec<u16>)> = above.into_iter().zip(first).collect();
            self.pass_values(&comp, Some(&mut layers));
            for (&id, (ruled, first)) in comp.iter().zip(layers) {
                let s = self.sectors[id].as_mut().unwrap();
                s.ruled = ruled;
                s.first = first;
            }
        }
    }

    /// Every sector, as `Sector`s.
    fn scope(&self) -> BTreeSet<Sector> {
        self.sectors
            .iter()
            .flatten()
            .map(|s| Sector::moving(s.a as u8, s.b as u8))
            .collect()
    }
}

impl Census {
    fn add(&mut self, o: &Census) {
        self.states += o.states;
        self.bar_states += o.bar_states;
        self.blocked_removing += o.blocked_removing;
        self.mid_turn += o.mid_turn;
        self.same_side += o.same_side;
        self.from_mid_turn += o.from_mid_turn;
        self.blocked_loss += o.blocked_loss;
        self.blocked_draw += o.blocked_draw;
        self.passes += o.passes;
        self.passed_to += o.passed_to;
        for (a, b) in self.takes.iter_mut().zip(&o.takes) {
            *a += b;
        }
        self.wins_at_once += o.wins_at_once;
    }
}

/// Solve `targets` and what they need with the solver under `rule`, in solving order.
fn solve_all(v: &Variant, targets: &[Sector], rule: NMoveRule) -> SolvedValues {
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

/// What comparing one set under one rule found.
#[derive(Default)]
struct Tally {
    /// Positions compared (each raw position without a bar), and (position, counter) pairs.
    positions: u64,
    pairs: u64,
    wins: u64,
    losses: u64,
    cursed: u64,
    blessed: u64,
    longest: u16,
    mismatches: u64,
    examples: Vec<String>,
}

impl Tally {
    /// Add the counts of `other` and at most `examples` of its examples.
    fn add(&mut self, other: Tally, examples: usize) {
        self.positions += other.positions;
        self.pairs += other.pairs;
        self.wins += other.wins;
        self.losses += other.losses;
        self.cursed += other.cursed;
        self.blessed += other.blessed;
        self.longest = self.longest.max(other.longest);
        self.mismatches += other.mismatches;
        self.examples
            .extend(other.examples.into_iter().take(examples));
    }
}

/// Compare every stored value of `v` solved under `n` (0: no rule) with the oracle (solved
/// under the same rule and `v`'s endgame N-move rule): every raw position without a bar at
/// every counter `0..=N`, N the rule in force in its sector ([`n_in_force`]: above it every
/// counter draws alike), the stored value read under that N. Asserts that the positions
/// compared hit exactly the slots the solver uses.
fn compare(o: &Oracle, v: &Variant, targets: &[Sector], n: u16) -> Tally {
    let rule = NMoveRule::new(n).unwrap();
    let solved = solve_all(v, targets, rule);
    let scope: BTreeSet<Sector> = solved.keys().copied().collect();
    assert_eq!(
        scope,
        o.scope(),
        "{}: the solver's sectors are the oracle's",
        v.name
    );
    let mut tally = Tally::default();
    for s in o.sectors.iter().flatten() {
        let sector = Sector::moving(s.a as u8, s.b as u8);
        let index = &SectorIndex::new(v, sector);
        let table = &solved[&sector];
        // The N in force here, as the oracle was solved (0: no rule).
        let n = if n == 0 { 0 } else { s.n_rule };
        assert_eq!(n, n_in_force(rule.n(), endgame_of(v), s.a, s.b), "{sector}");
        let rule = NMoveRule::new(n).unwrap();
        let them_sets = &o.sets.by_size[s.b];
        // Per dense state: the slot (u32::MAX: not a state).
        let slots: Vec<u32> = o.sets.by_size[s.a]
            .par_iter()
            .flat_map_iter(|&us| {
                them_sets.iter().map(move |&them| match us & them {
                    0 => index.slot(us, them) as u32,
                    _ => u32::MAX,
                })
            })
            .collect();
        let mut hit = vec![false; table.len()];
        for &slot in &slots {
            if slot != u32::MAX {
                hit[slot as usize] = true;
            }
        }
        for (slot, (&h, &code)) in hit.iter().zip(table.iter()).enumerate() {
            assert_eq!(
                h,
                code != UNUSED,
                "{} {sector} slot {slot}: used iff a position",
                v.name
            );
        }
        let expected = |i: usize, c: u16| -> RuleValue {
            let free = s.free[i].unwrap_or(Value::Draw);
            if n == 0 {
                return match free {
                    Value::Win(d) => RuleValue::Win(d),
                    Value::Loss(d) => RuleValue::Loss(d),
                    Value::Draw => RuleValue::Draw,
                };
            }
            let f = s.first[i];
            if f != UNDECIDED && c <= f {
                return match s.ruled[i] {
                    WIN => RuleValue::Win(n - f),
                    _ => RuleValue::Loss(n - f),
                };
            }
            match free {
                Value::Win(_) => RuleValue::CursedWin,
                Value::Loss(_) => RuleValue::BlessedLoss,
                Value::Draw => RuleValue::Draw,
            }
        };
        let part = slots
            .par_iter()
            .enumerate()
            .filter(|x| *x.1 != u32::MAX)
            .fold(Tally::default, |mut t, (i, &slot)| {
                let stored = Value::decode(table[slot as usize]).expect("a used slot");
                t.positions += 1;
                let bad = (0..=n).find(|&c| {
                    let theirs = if n == 0 {
                        rule.at_counter(stored, 0)
                    } else {
                        rule.at_counter(stored, c as u32)
                    };
                    expected(i, c) != theirs
                });
                t.pairs += n as u64 + 1;
                match expected(i, 0) {
                    RuleValue::Win(d) => {
                        t.wins += 1;
                        t.longest = t.longest.max(d);
                    }
                    RuleValue::Loss(d) => {
                        t.losses += 1;
                        t.longest = t.longest.max(d);
                    }
                    RuleValue::CursedWin => t.cursed += 1,
                    RuleValue::BlessedLoss => t.blessed += 1,
                    RuleValue::Draw => {}
                }
                if let Some(c) = bad {
                    t.mismatches += 1;
                    if t.examples.len() < 3 {
                        let us = o.sets.by_size[s.a][i / s.nb];
                        let them = them_sets[i % s.nb];
                        let pos = Position::new([us, them], [0, 0], Color::White);
                        t.examples.push(format!(
                            "{} N = {n}, sector {sector}, counter {c}: {} — oracle {:?}, \
                             solver stores {stored:?} ({:?} at this counter)",
                            v.name,
                            millbase::notation::format_position(v, &pos),
                            expected(i, c),
                            rule.at_counter(stored, c as u32),
                        ));
                    }
                }
                t
            })
            .reduce(Tally::default, |mut a, b| {
                a.add(b, usize::MAX);
                a
            });
        tally.add(part, 3);
    }
    tally
}

/// The rules of the referee that decide its moving phase (both hands empty, the board never
/// full): the sets with the same are one game there.
fn moving_rules(r: &Rules) -> String {
    format!(
        "{} {:?} {:?} fly {:?} always {} multiple {} blocked {:?} restricted {} intervention {} \
         one-time {}",
        r.n,
        r.mills,
        r.adj,
        r.fly,
        r.always,
        r.multiple,
        r.blocked,
        r.restricted,
        r.intervention,
        r.one_time
    )
}

/// Every named set the tables follow (`VARIANTS`, then `RULE_SETS`, each name once), after
/// asserting that the only one skipped is one-time-mill.
fn named_sets() -> Vec<Variant> {
    let mut all: Vec<(&str, Variant)> = VARIANTS.iter().map(|v| (v.name, *v)).collect();
    all.extend(RULE_SETS.iter().map(|s| (s.name, s.variant)));
    let skipped: Vec<&str> = all
        .iter()
        .filter(|(_, v)| !v.unsupported_by_tables().is_empty())
        .map(|x| x.0)
        .collect();
    assert_eq!(skipped, ["one-time-mill"]);
    all.into_iter()
        .filter(|(_, v)| v.unsupported_by_tables().is_empty())
        .map(|(name, v)| Variant { name, ..v })
        .collect()
}

/// One case: sets that share the referee's moving phase, the sectors to go up to, the N-move
/// rules to check.
struct Case {
    sets: Vec<Variant>,
    targets: Vec<(usize, usize)>,
    ns: Vec<u16>,
}

/// Run the cases: build each oracle, compare every set of it under every rule; returns the
/// censuses (by case) after asserting that nothing disagrees.
fn run(cases: &[Case]) -> Vec<Census> {
    let mut censuses = Vec::new();
    let mut failures = Vec::new();
    for case in cases {
        let t = Instant::now();
        let r = Rules::of(&case.sets[0]);
        let key = moving_rules(&r);
        for v in &case.sets {
            assert_eq!(moving_rules(&Rules::of(v)), key, "{} plays alike", v.name);
        }
        let names: Vec<&str> = case.sets.iter().map(|v| v.name).collect();
        eprintln!("{names:?} up to {:?}:", case.targets);
        let mut o = Oracle::build(r, &case.targets);
        eprintln!("  oracle built: {:?}, {:.1?}", o.census, t.elapsed());
        let targets: Vec<Sector> = case
            .targets
            .iter()
            .map(|&(a, b)| Sector::moving(a as u8, b as u8))
            .collect();
        for &n in &case.ns {
            let t = Instant::now();
            // The oracle under the rule once per endgame N-move rule in force among the sets.
            let mut solved_for = None;
            let mut sets: Vec<&Variant> = case.sets.iter().collect();
            sets.sort_by_key(|v| n_in_force(n, endgame_of(v), 3, 3));
            for v in sets {
                let endgame = n_in_force(n, endgame_of(v), 3, 3);
                if n > 0 && solved_for != Some(endgame) {
                    o.solve_rule(n, endgame);
                    solved_for = Some(endgame);
                }
                let tally = compare(&o, v, &targets, n);
                eprintln!(
                    "  {} N = {n} ({endgame} with three stones): {} positions, {} (position, \
                     counter) pairs, {} wins, {} losses (longest {}), {} cursed wins, {} \
                     blessed losses, {} mismatches",
                    v.name,
                    tally.positions,
                    tally.pairs,
                    tally.wins,
                    tally.losses,
                    tally.longest,
                    tally.cursed,
                    tally.blessed,
                    tally.mismatches
                );
                assert!(tally.positions > 0 && tally.wins > 0);
                failures.extend(tally.examples);
            }
            eprintln!("  N = {n}: {:.1?}", t.elapsed());
        }
        censuses.push(o.census.clone());
        eprintln!("  {names:?}: {:.1?} in all", t.elapsed());
    }
    assert!(
        failures.is_empty(),
        "oracle and solver disagree:\n{}",
        failures.join("\n")
    );
    censuses
}

/// The named sets grouped by the referee's moving phase, in the order of `named_sets`.
fn named_groups() -> Vec<Vec<Variant>> {
    let mut groups: Vec<(String, Vec<Variant>)> = Vec::new();
    for v in named_sets() {
        let key = moving_rules(&Rules::of(&v));
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(v),
            None => groups.push((key, vec![v])),
        }
    }
    groups.into_iter().map(|g| g.1).collect()
}

/// A variant of `name` with `rules` on top.
fn with(name: &str, rules: &[&str]) -> Variant {
    Variant::from_rules(name, rules).unwrap()
}

/// The 24-point groups that do not fly, for the CI test's 3-3 of the day.
fn rotating_groups() -> Vec<Vec<Variant>> {
    named_groups()
        .into_iter()
        .filter(|g| {
            let r = Rules::of(&g[0]);
            r.n == 24 && r.fly.is_none()
        })
        .collect()
}

/// The named sets at 3-3 and beyond where it is cheap; every option the tables follow on the
/// six board (bars that matter, two-stone captures, stalemate=draw, and the stalemate options
/// that remove: remove-and-move and remove-and-pass up to 3-4, both-remove up to 4-4, the
/// least where a blocked side removes and the game goes on); and the 3-3 sector of one
/// of the 24-point groups that do not fly, a different one each day (`ORACLE_SET=name` picks
/// the group of that set instead, flying or not; the ignored test below does them all).
#[test]
fn named_sets_and_the_options_the_tables_follow() {
    let t = Instant::now();
    let groups = named_groups();
    let group_of = |name: &str| -> Vec<Variant> {
        let g = groups.iter().find(|g| g.iter().any(|v| v.name == name));
        g.unwrap_or_else(|| panic!("no named set {name}")).clone()
    };
    let day = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 86_400;
    let rotating = rotating_groups();
    assert_eq!(rotating.len(), 5);
    let today = match std::env::var("ORACLE_SET") {
        Ok(name) => group_of(&name),
        Err(_) => rotating[day as usize % rotating.len()].clone(),
    };
    let names: Vec<&str> = today.iter().map(|v| v.name).collect();
    eprintln!("the day's group at 3-3: {names:?} (ORACLE_SET=name picks another)");
    let cases = [
        Case {
            sets: group_of("six"),
            targets: vec![(3, 4)],
            ns: vec![0, 6],
        },
        Case {
            sets: group_of("three"),
            targets: vec![(3, 3)],
            ns: vec![0, 1, 6],
        },
        Case {
            sets: vec![with(
                "six",
                &[
                    "repeated-mills=restricted",
                    "capture=intervention",
                    "stalemate=draw",
                ],
            )],
            targets: vec![(5, 4)],
            ns: vec![0, 6],
        },
        Case {
            sets: today,
            targets: vec![(3, 3)],
            ns: vec![0, 6],
        },
        Case {
            sets: vec![with("six", &["stalemate=remove-and-move"])],
            targets: vec![(3, 4)],
            ns: vec![0, 1, 6],
        },
        Case {
            sets: vec![with("six", &["stalemate=remove-and-pass"])],
            targets: vec![(3, 4)],
            ns: vec![0, 1, 6],
        },
        Case {
            sets: vec![with("six", &["stalemate=both-remove"])],
            targets: vec![(4, 4)],
            ns: vec![0, 1, 6],
        },
        // An endgame N-move rule below N (as Morabaraba's 10 under 100): N = 4 in the sectors
        // where a side has three stones, N (6, 10) in 4-4, whose removals lead into them.
        Case {
            sets: vec![with("six", &["endgame-n-move-rule=4"])],
            targets: vec![(4, 4)],
            ns: vec![6, 10],
        },
    ];
    let census = run(&cases);
    // The options came into play: blocked sides lose on the six board and draw under
    // stalemate=draw; positions with a bar (five stones sliding) whose value the bar changes;
    // captures of two stones into a game going on.
    assert!(census[0].blocked_loss > 0, "{:?}", census[0]);
    let c = &census[2];
    assert!(c.bar_states > 0 && c.bars_that_matter > 0, "{c:?}");
    assert!(c.takes[2] > 0 && c.blocked_draw > 0, "{c:?}");
    // A blocked side removes: and moves again (the same side to move after the removal),
    // and passes, or both sides remove (a state in the middle of the turn, from which the
    // opponent's removal leads into a game going on).
    let [and_move, and_pass, both] = [&census[4], &census[5], &census[6]];
    assert!(
        and_move.blocked_removing > 0 && and_move.same_side > 0,
        "{and_move:?}"
    );
    assert!(
        and_pass.blocked_removing > 0 && and_pass.same_side == 0,
        "{and_pass:?}"
    );
    assert!(
        both.blocked_removing > 0 && both.from_mid_turn > 0,
        "{both:?}"
    );
    for c in [and_move, and_pass, both] {
        assert_eq!(c.blocked_loss + c.blocked_draw, 0, "{c:?}");
    }
    eprintln!("{:.1?} in all", t.elapsed());
}

/// Every named set up to 3-4 / 4-3 (three: 3-3) without the rule and under N = 6 and 100 (for
/// Morabaraba its endgame N of 10 there, every sector having a side with three stones), on the
/// six board multiple removals with captures up to 5-5, and each stalemate option that removes
/// with bars and captures up to 5-4. Slow (about a quarter of an hour on two cores):
/// `cargo test --release --test oracle_rule_sets -- --ignored` (`ORACLE_SET=name`: only the
/// group of that set).
#[test]
#[ignore]
fn every_named_set_up_to_3_4() {
    let t = Instant::now();
    let mut cases: Vec<Case> = named_groups()
        .into_iter()
        .map(|sets| {
            let three = Rules::of(&sets[0]).n == 9;
            let top = if three { 3 } else { 4 };
            // N = 100: Morabaraba's sectors (a side has three stones in each) follow its
            // endgame N of 10.
            Case {
                sets,
                targets: vec![(3, top)],
                ns: vec![0, 6, 100],
            }
        })
        .collect();
    cases.push(Case {
        sets: vec![with(
            "six",
            &["multiple-removals=on", "capture=intervention"],
        )],
        targets: vec![(5, 5)],
        ns: vec![0, 6],
    });
    // A blocked side that removes, with bars (one may block the side, and a removal may
    // bring one back) and captures.
    for stalemate in ["remove-and-move", "remove-and-pass", "both-remove"] {
        cases.push(Case {
            sets: vec![with(
                "six",
                &[
                    &format!("stalemate={stalemate}"),
                    "repeated-mills=restricted",
                    "capture=intervention",
                ],
            )],
            targets: vec![(5, 4)],
            ns: vec![0, 6],
        });
    }
    // `ORACLE_SET=name`: only the group of that set.
    let only = std::env::var("ORACLE_SET").ok();
    if let Some(name) = &only {
        cases.retain(|c| c.sets.iter().any(|v| v.name == name));
        assert!(!cases.is_empty(), "no named set {name}");
    }
    let census = run(&cases);
    if only.is_none() {
        let last = &census[census.len() - 4];
        assert!(last.takes[2] > 0 && last.takes[3] > 0, "{last:?}");
        for c in &census[census.len() - 3..] {
            assert!(c.blocked_removing > 0 && c.bars_that_matter > 0, "{c:?}");
        }
    }
    eprintln!("{:.1?} in all", t.elapsed());
}

/// What the tables refuse: one-time-mill, with or without an N-move rule, before anything
/// is written; every other named set is accepted.
#[test]
fn tables_refuse_one_time_mill() {
    use millbase::tables::check_rules;
    use millbase::{GenerateError, GenerateOptions, generate};
    let targets = [Sector::moving(3, 4)];
    for v in named_sets() {
        assert!(check_rules(&v, &targets, false).is_ok(), "{}", v.name);
    }
    let otm = Variant::by_name("one-time-mill").unwrap();
    assert!(matches!(
        check_rules(&otm, &targets, false),
        Err(GenerateError::UnsupportedRules { placing: None, .. })
    ));
    let dir = tempfile::tempdir().unwrap();
    let three = [Sector::moving(3, 3)];
    for n in [0, 100] {
        let options = GenerateOptions {
            rule: NMoveRule::new(n).unwrap(),
            ..GenerateOptions::default()
        };
        let at = dir.path().join(format!("otm{n}"));
        let refused = generate(&otm, &at, &three, &options);
        assert!(
            matches!(&refused, Err(GenerateError::UnsupportedRules { rules, .. })
                if rules[0].starts_with("one-time-mill")),
            "N = {n}: {refused:?}"
        );
        assert!(!at.exists(), "refused before the directory is made");
    }
}

/// Stored values of solved sectors, for `verify_sector`.
struct Lookup(SolvedValues);

impl millbase::tables::ValueLookup for Lookup {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.0.get(&sector).map(|v| v.as_slice())
    }
}

/// Under the stalemate options that remove, on the six board without and with an N-move rule:
/// `verify_sector` re-derives every stored value (and flags a wrong value stored at a blocked
/// side's position), and the probe answers a blocked side's position (settled: its removals
/// pending) as stored, with the best of its removals (played by the referee, the side to move
/// after one perhaps the same) giving that value at counters 0, 1 and N (drawn there, as any
/// turn that starts at N). The values themselves are the oracle's business
/// (`named_sets_and_the_options_the_tables_follow`); this checks that verify and the probe
/// follow the solver.
#[test]
fn verify_and_probe_follow_a_blocked_sides_removals() {
    use millbase::movegen::settle;
    use millbase::{GenerateOptions, Tablebase, VerifyOptions, generate, verify_sector};
    let dir = tempfile::tempdir().unwrap();
    for (option, top) in [
        ("remove-and-move", (3, 4)),
        ("remove-and-pass", (3, 4)),
        ("both-remove", (4, 4)),
    ] {
        let v = with("six", &[&format!("stalemate={option}")]);
        let targets = [Sector::moving(top.0, top.1)];
        for n in [0u16, 6] {
            let rule = NMoveRule::new(n).unwrap();
            let solved = Lookup(solve_all(&v, &targets, rule));
            let options = VerifyOptions {
                rule,
                ..VerifyOptions::default()
            };
            let at = dir.path().join(format!("{option}-{n}"));
            let generated = GenerateOptions {
                rule,
                ..GenerateOptions::default()
            };
            generate(&v, &at, &targets, &generated).unwrap();
            let tb = Tablebase::open(&at, v).unwrap();
            let mut blocked = 0;
            let mut decided_at_0 = 0;
            for (&sector, values) in &solved.0 {
                let (checked, bad, report) = verify_sector(&v, sector, &solved, &options);
                assert!(
                    checked > 0 && bad == 0,
                    "{option} N = {n} {sector}: {report:?}"
                );
                let index = SectorIndex::new(&v, sector);
                let mut blocked_here = 0;
                for slot in 0..index.slots() {
                    let Some((us, them)) = index.position(slot) else {
                        continue;
                    };
                    let pos = Position::new([us, them], [0, 0], Color::White);
                    let start = settle(&v, &pos);
                    if !start.pending_removal() {
                        continue;
                    }
                    blocked += 1;
                    let stored = Value::decode(values[slot as usize]).unwrap();
                    assert_eq!(tb.value(&start).unwrap(), stored, "{option} N = {n}");
                    if n == 0 {
                        let best = tb.move_values(&start).unwrap()[0].value;
                        assert_eq!(best, stored, "{option}: the best removal");
                    }
                    for c in [0, 1, u32::from(n)] {
                        let value = tb.value_at(&start, c).unwrap();
                        assert_eq!(value, rule.at_counter(stored, c), "{option} N = {n}");
                        let best = tb.move_values_at(&start, c).unwrap()[0].value;
                        assert_eq!(best, value, "{option} N = {n}, counter {c}");
                    }
                    let decided = |c| {
                        let value = tb.value_at(&start, c).unwrap();
                        matches!(value, RuleValue::Win(_) | RuleValue::Loss(_))
                    };
                    if n > 0 && decided(0) {
                        // The blocked side's turn starts like any other: drawn at N.
                        assert!(!decided(u32::from(n)), "{option} N = {n}");
                        decided_at_0 += 1;
                    }
                    if blocked_here > 0 {
                        continue;
                    }
                    blocked_here += 1;
                    // A wrong value there is found (at one position of each sector).
                    let mut wrong = (*solved.0[&sector]).clone();
                    wrong[slot as usize] = match stored {
                        Value::Draw => Value::Win(1),
                        _ => Value::Draw,
                    }
                    .encode();
                    let mut corrupt = SolvedValues::new();
                    corrupt.clone_from(&solved.0);
                    corrupt.insert(sector, Arc::new(wrong));
                    let all = VerifyOptions {
                        max_report: usize::MAX,
                        ..options
                    };
                    let (_, _, report) = verify_sector(&v, sector, &Lookup(corrupt), &all);
                    assert!(
                        report.iter().any(|m| matches!(m,
                            millbase::tables::Mismatch::Value { slot: s, .. } if *s == slot)),
                        "{option} N = {n}: a wrong value at a blocked side, {report:?}"
                    );
                }
            }
            eprintln!("{option} N = {n}: {blocked} blocked positions, {decided_at_0} decided");
            assert!(blocked > 0);
            assert!(n == 0 || decided_at_0 > 0);
        }
    }
}

/// Under `stalemate=pass`, on the six board up to 4-4 without and with an N-move rule (6):
/// `verify_sector` re-derives every stored value, and flags a blocked side's stored value whose
/// distance is one off; the probe answers a blocked side's position (settled: the opponent to
/// move) with the blocked side's stored value turned round at counters 0, 1 and N, and its best
/// move gives that value. The values themselves are the oracle's business (`stalemate_pass`).
#[test]
fn verify_and_probe_follow_a_pass() {
    use millbase::movegen::settle;
    use millbase::{GenerateOptions, Tablebase, VerifyOptions, generate, verify_sector};
    let dir = tempfile::tempdir().unwrap();
    let v = with("six", &["stalemate=pass"]);
    let targets = [Sector::moving(4, 4)];
    let turned = |x: Value| match x {
        Value::Win(d) => Value::Loss(d),
        Value::Loss(d) => Value::Win(d),
        Value::Draw => Value::Draw,
    };
    for n in [0u16, 6] {
        let rule = NMoveRule::new(n).unwrap();
        let solved = Lookup(solve_all(&v, &targets, rule));
        let options = VerifyOptions {
            rule,
            ..VerifyOptions::default()
        };
        let at = dir.path().join(format!("pass-{n}"));
        let generated = GenerateOptions {
            rule,
            ..GenerateOptions::default()
        };
        generate(&v, &at, &targets, &generated).unwrap();
        let tb = Tablebase::open(&at, v).unwrap();
        let (mut passes, mut flagged) = (0, 0);
        for (&sector, values) in &solved.0 {
            let (checked, bad, report) = verify_sector(&v, sector, &solved, &options);
            assert!(checked > 0 && bad == 0, "N = {n} {sector}: {report:?}");
            let index = SectorIndex::new(&v, sector);
            for slot in 0..index.slots() {
                let Some((us, them)) = index.position(slot) else {
                    continue;
                };
                let pos = Position::new([us, them], [0, 0], Color::White);
                let start = settle(&v, &pos);
                if start.to_move == Color::White {
                    continue;
                }
                passes += 1;
                let stored = Value::decode(values[slot as usize]).unwrap();
                for c in [0, 1, u32::from(n)] {
                    let value = tb.value_at(&start, c).unwrap();
                    let want = rule.at_counter(turned(stored), c);
                    assert_eq!(value, want, "N = {n} {sector} slot {slot}, counter {c}");
                    let best = tb.move_values_at(&start, c).unwrap()[0].value;
                    assert_eq!(best, value, "N = {n}, counter {c}");
                }
                if flagged >= 20 || stored == Value::Draw {
                    continue;
                }
                // A distance one off there is found.
                flagged += 1;
                let mut wrong = (*solved.0[&sector]).clone();
                wrong[slot as usize] = match stored {
                    Value::Win(d) => Value::Win(d + 1),
                    Value::Loss(d) => Value::Loss(d + 1),
                    Value::Draw => unreachable!(),
                }
                .encode();
                let mut corrupt = SolvedValues::new();
                corrupt.clone_from(&solved.0);
                corrupt.insert(sector, Arc::new(wrong));
                let all = VerifyOptions {
                    max_report: usize::MAX,
                    ..options
                };
                let (_, _, report) = verify_sector(&v, sector, &Lookup(corrupt), &all);
                assert!(
                    report.iter().any(|m| matches!(m,
                        millbase::tables::Mismatch::Value { slot: s, .. } if *s == slot)),
                    "N = {n}: a distance one off at a blocked side, {report:?}"
                );
            }
        }
        eprintln!("pass N = {n}: {passes} blocked positions that pass, {flagged} corrupted");
        assert!(passes > 0 && flagged > 0);
    }
}

/// A blocked side's removals where the endgame N-move rule (4 here) holds on one side of them
/// only: removal turns from 4-4 (N = 10) into sectors where a side has three stones, on the
/// six board, for each stalemate option that removes (census: some blocked side removes).
/// Valuing them under one rule for both sides gives 8 to 222 mismatches.
#[test]
fn blocked_removals_across_the_endgame_rule() {
    let t = Instant::now();
    let cases: Vec<Case> = ["remove-and-move", "remove-and-pass", "both-remove"]
        .iter()
        .map(|stalemate| Case {
            sets: vec![with(
                "six",
                &[&format!("stalemate={stalemate}"), "endgame-n-move-rule=4"],
            )],
            targets: vec![(4, 4)],
            ns: vec![10],
        })
        .collect();
    for c in run(&cases) {
        assert!(c.blocked_removing > 0, "{c:?}");
    }
    eprintln!("{:.1?} in all", t.elapsed());
}

/// `stalemate=pass` on the six board: a blocked side's turn passes (no ply, the counter as it
/// is) to the opponent at the same stones, both blocked: drawn. Up to 5-4 without the rule and
/// with N = 6, and up to 4-4 across an endgame N-move rule of 4 (N = 10). Census: blocked sides
/// pass, and quiet turns leave the opponent passing.
#[test]
fn stalemate_pass() {
    let t = Instant::now();
    let cases = [
        Case {
            sets: vec![with("six", &["stalemate=pass"])],
            targets: vec![(5, 4)],
            ns: vec![0, 6],
        },
        Case {
            sets: vec![with("six", &["stalemate=pass", "endgame-n-move-rule=4"])],
            targets: vec![(4, 4)],
            ns: vec![10],
        },
    ];
    for c in run(&cases) {
        assert!(c.passes > 0 && c.passed_to > 0, "{c:?}");
    }
    eprintln!("{:.1?} in all", t.elapsed());
}

/// `stalemate=pass` wider: the six board up to 5-5 under N = 0, 6 and 100, and with captures
/// and multiple removals (a taking turn after which the opponent passes) up to 5-4. Measured:
/// 133 s (2 min CPU) here, `cargo test --release --test oracle_rule_sets stalemate_pass_wider
/// -- --ignored`.
#[test]
#[ignore]
fn stalemate_pass_wider() {
    let t = Instant::now();
    let cases = [
        Case {
            sets: vec![with("six", &["stalemate=pass"])],
            targets: vec![(5, 5)],
            ns: vec![0, 6, 100],
        },
        Case {
            sets: vec![with(
                "six",
                &[
                    "stalemate=pass",
                    "multiple-removals=on",
                    "capture=intervention",
                ],
            )],
            targets: vec![(5, 4)],
            ns: vec![0, 6],
        },
    ];
    for c in run(&cases) {
        assert!(c.passes > 0 && c.passed_to > 0, "{c:?}");
    }
    eprintln!("{:.1?} in all", t.elapsed());
}
