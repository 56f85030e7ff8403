//! Alpha-beta search where the tables end: iterative deepening, a transposition table, move
//! ordering (table move, removals, killer moves, history, mill threats), principal variation
//! search with late move reductions, null move pruning while both sides place, a quiescence
//! search over removals, and time control.
//!
//! Moves are searched in the combined convention (a move with its removal is one ply). At
//! every node below the root:
//!
//! 1. A counter of at least the N-move rule's N (the endgame rule's where it applies) is a
//!    draw (0); a position that stood before since the last placement or removal — on the
//!    search path or in the game — is a draw.
//! 2. A finished game ([`outcome`]: too few stones, a blocked side, a full board, as the
//!    rules say) scores a mate for the winner, 0 for a draw.
//! 3. A position whose sector is in the tables gets the table's value, exactly: a win in `n`
//!    plies at ply `p` from the root scores `MATE - p - n` (losses the negative), a draw 0.
//! 4. Otherwise the node is searched; at depth 0 the quiescence search plays removals only
//!    and stands pat on [`evaluate`](super::eval::evaluate).
//!
//! A move need not hand the turn to the opponent (a side may move again: `from-hand-again`,
//! a stalemate removal, Black moving first after placing): a child whose side to move is the
//! parent's is searched with the same window and its score taken as it is, not negated.
//!
//! Scores beyond [`DECIDED`] are decided games (`MATE - plies` from the root); the
//! transposition table stores them relative to the node.
//!
//! An iteration whose leaves were all decided (table values, finished games, the N-move rule)
//! and used no evaluation and no repetition is exact: deeper iterations cannot change it, and
//! the search stops there.

use super::eval::{evaluate, mill_threats};
use super::game::{DrawRules, counter_after};
use super::oracle::Oracle;
use super::tt::{Bound, TranspositionTable, hash};
use crate::game::movegen::{Convention, Outcome, legal_moves, outcome, play};
use crate::game::position::{Move, Position};
use crate::game::rules::{Bits, NO_SQUARE, Variant};
use crate::game::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Score of a game won right now (a finished game at the root).
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are decided games.
pub const DECIDED: i32 = MATE - 10_000;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;
/// Deepest ply (quiescence included).
const MAX_PLY: usize = 128;
/// Plies of removals the quiescence search plays at most.
const QUIESCENCE_PLIES: u32 = 4;
const INF: i32 = MATE + 1;
/// Null move pruning at nodes of at least this depth ...
const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// ... searching the pass this much shallower.
const NULL_MOVE_REDUCTION: i32 = 2;
/// Late move reductions: quiet moves from this index on (0-based, after the table move,
/// removals and killers) are searched one ply shallower first ...
const LMR_FIRST_MOVE: usize = 3;
/// ... at nodes of at least this depth.
const LMR_MIN_DEPTH: i32 = 3;

/// The score of a table value at `ply` plies from the root.
pub fn value_score(value: Value, ply: usize) -> i32 {
    match value {
        Value::Win(n) => MATE - ply as i32 - i32::from(n),
        Value::Loss(n) => -(MATE - ply as i32 - i32::from(n)),
        Value::Draw => 0,
    }
}

/// The decided value a score stands for (`None` for heuristic scores).
pub fn score_value(score: i32) -> Option<Value> {
    if score > DECIDED {
        Some(Value::Win((MATE - score) as u16))
    } else if score < -DECIDED {
        Some(Value::Loss((MATE + score) as u16))
    } else {
        None
    }
}

/// What to search and how long.
pub struct SearchInput<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The tables (`None`: search without tables).
    pub oracle: Option<&'a Oracle>,
    /// The draw rules.
    pub rules: DrawRules,
    /// The position to search (any, remove-pending included; not over).
    pub root: Position,
    /// The root's N-move counter.
    pub counter: u32,
    /// Positions at the start of each turn before the root, oldest first (for repetitions).
    pub history: &'a [Position],
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Set by another thread to stop the search.
    pub stop: &'a AtomicBool,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct SearchOutput {
    /// The best move (combined convention).
    pub best: Move,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the score is exact (see the module documentation).
    pub exact: bool,
    /// The expected line, best move first (combined convention).
    pub pv: Vec<Move>,
}

struct Searcher<'a> {
    v: &'a Variant,
    oracle: Option<&'a Oracle>,
    rules: DrawRules,
    tt: &'a mut TranspositionTable,
    /// Hashes of the positions at the start of each turn: the game's, then the search path's.
    path: Vec<u64>,
    nodes: u64,
    /// Evaluations and repetition draws in the current iteration.
    inexact: u64,
    aborted: bool,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    stop: &'a AtomicBool,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 25]; 25]>,
}

fn sq_index(sq: u8) -> usize {
    if sq == NO_SQUARE { 24 } else { sq as usize }
}

impl Searcher<'_> {
    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.max_nodes.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// Has the position with hash `h` stood since the last placement or removal? `counter`
    /// plies back at most; the last path entry is the node's parent.
    fn repeats(&self, h: u64, counter: u32) -> bool {
        let n = self.path.len();
        let back = (counter as usize).min(n);
        self.path[n - back..].contains(&h)
    }

    /// A node's score when it needs no search: limits reached, the N-move rule, a repetition,
    /// a finished game, a table value.
    fn decided(&mut self, pos: &Position, ply: usize, counter: u32, h: u64) -> Option<i32> {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.check_limits();
        }
        if self.aborted {
            return Some(0);
        }
        if !pos.pending_removal() && self.rules.limit(self.v, pos).draws_at(counter) {
            return Some(0);
        }
        if self.repeats(h, counter) {
            self.inexact += 1;
            return Some(0);
        }
        match outcome(self.v, pos) {
            Some(Outcome::Loss) => return Some(-(MATE - ply as i32)),
            Some(Outcome::Win) => return Some(MATE - ply as i32),
            Some(Outcome::Draw) => return Some(0),
            None => {}
        }
        if let Some(o) = self.oracle
            && !pos.pending_removal()
            && let Some(v) = o.sector_value(pos, counter)
        {
            return Some(value_score(v, ply));
        }
        if ply >= MAX_PLY - 1 {
            self.inexact += 1;
            return Some(evaluate(self.v, pos));
        }
        None
    }

    /// The legal moves of a node not decided, or its score if it has none.
    fn moves_at(&mut self, pos: &Position, ply: usize) -> Result<Vec<Move>, i32> {
        let moves = legal_moves(self.v, pos, Convention::Combined);
        if moves.is_empty() {
            // Not over by `outcome` yet without a move: cannot happen under the rules; a
            // loss, as a blocked side's.
            return Err(-(MATE - ply as i32));
        }
        Ok(moves)
    }

    /// Order moves: the table's move, removals (of stones threatening mills first), killers,
    /// then quiet moves by history and mill threats made or blocked.
    fn order(&self, pos: &Position, moves: &mut [Move], first: Option<Move>, ply: usize) {
        let us = pos.us();
        let them = pos.them();
        let their_threats = mill_threats(self.v, them, us);
        let our_threats = mill_threats(self.v, us, them);
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        let key = |mv: &Move| -> i32 {
            if Some(*mv) == first {
                return 2_000_000;
            }
            if mv.removes() {
                let in_line = their_threats != 0
                    && mill_threats(self.v, them & !(1 << mv.remove), us) != their_threats;
                return 1_000_000 + if in_line { 1_000 } else { 0 };
            }
            if Some(*mv) == killers[0] {
                return 900_000;
            }
            if Some(*mv) == killers[1] {
                return 899_000;
            }
            let mut k = self.history[sq_index(mv.from)][sq_index(mv.to)].min(500_000);
            if their_threats & (1 << mv.to) != 0 {
                k += 20_000;
            }
            if our_threats & (1 << mv.to) == 0 && mv.to != NO_SQUARE {
                let after =
                    (us & !(if mv.from == NO_SQUARE {
                        0
                    } else {
                        1 << mv.from
                    })) | 1 << mv.to;
                if mill_threats(self.v, after, them) != 0 {
                    k += 5_000;
                }
            }
            k
        };
        moves.sort_by_cached_key(|m| std::cmp::Reverse(key(m)));
    }

    /// The score of `child` (a successor of `pos`) for the side to move at `pos`, searched to
    /// `depth` within (alpha, beta) of that side.
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        pos: &Position,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        counter: u32,
    ) -> i32 {
        if child.to_move == pos.to_move {
            self.alphabeta(child, depth, alpha, beta, ply + 1, counter)
        } else {
            -self.alphabeta(child, depth, -beta, -alpha, ply + 1, counter)
        }
    }

    fn alphabeta(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        counter: u32,
    ) -> i32 {
        let h = hash(pos);
        if let Some(score) = self.decided(pos, ply, counter, h) {
            return score;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, counter, 0);
        }
        let hit = self.tt.probe(h);
        if let Some(hit) = hit
            && i32::from(hit.depth) >= depth
        {
            let s = from_tt(hit.score, ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                if s.abs() <= DECIDED {
                    // A stored heuristic score: this iteration is not exact.
                    self.inexact += 1;
                }
                return s;
            }
        }
        // Null move pruning in the placing phase (no zugzwang there: both sides still place):
        // if passing the turn still scores at least beta at a reduced depth, cut.
        if depth >= NULL_MOVE_MIN_DEPTH
            && beta - alpha == 1
            && beta.abs() < DECIDED
            && pos.in_hand[0] > 0
            && pos.in_hand[1] > 0
            && !pos.again
            && evaluate(self.v, pos) >= beta
        {
            let null = Position {
                to_move: pos.to_move.other(),
                ..*pos
            };
            self.path.push(h);
            let s = -self.alphabeta(
                &null,
                depth - 1 - NULL_MOVE_REDUCTION,
                -beta,
                -beta + 1,
                ply + 1,
                counter,
            );
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s > DECIDED { beta } else { s };
            }
        }
        let mut moves = match self.moves_at(pos, ply) {
            Ok(moves) => moves,
            Err(score) => return score,
        };
        let first = hit.and_then(|x| x.mv);
        // The table's move first; the others are ordered only if it does not cut (then with
        // the killers and history its search left).
        let lazy = match first.and_then(|f| moves.iter().position(|&m| m == f)) {
            Some(k) => {
                moves[..=k].rotate_right(1);
                true
            }
            None => {
                self.order(pos, &mut moves, None, ply);
                false
            }
        };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_mv = None;
        let us = pos.us();
        let them = pos.them();
        let their_threats = mill_threats(self.v, them, us);
        let our_threats = mill_threats(self.v, us, them);
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        self.path.push(h);
        for i in 0..moves.len() {
            if i == 1 && lazy {
                self.order(pos, &mut moves[1..], None, ply);
            }
            let mv = moves[i];
            let child = play(self.v, pos, mv);
            let c = counter_after(counter, pos, &child);
            let s = if i == 0 {
                self.child_score(pos, &child, depth - 1, alpha, beta, ply, c)
            } else {
                // Principal variation search: a null window around alpha first, late quiet
                // moves at a reduced depth; a move that beats alpha is searched again.
                let quiet = !mv.removes()
                    && Some(mv) != first
                    && !killers.contains(&Some(mv))
                    && mv.to != NO_SQUARE
                    && their_threats & (1 << mv.to) == 0
                    && !makes_threat(self.v, us, them, our_threats, mv);
                let r = if quiet && depth >= LMR_MIN_DEPTH && i >= LMR_FIRST_MOVE {
                    if depth >= 5 && i >= 2 * LMR_FIRST_MOVE + 2 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut s = self.child_score(pos, &child, depth - 1 - r, alpha, alpha + 1, ply, c);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child_score(pos, &child, depth - 1, alpha, alpha + 1, ply, c);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = self.child_score(pos, &child, depth - 1, alpha, beta, ply, c);
                }
                s
            };
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if s > best {
                best = s;
                best_mv = Some(mv);
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if !mv.removes() {
                            if let Some(k) = self.killers.get_mut(ply)
                                && k[0] != Some(mv)
                            {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let hist = &mut self.history[sq_index(mv.from)][sq_index(mv.to)];
                            *hist = hist.saturating_add(depth * depth);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(h, depth as u8, to_tt(best, ply), bound, best_mv);
        best
    }

    /// Stand pat on the evaluation, or play removals.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        counter: u32,
        qply: u32,
    ) -> i32 {
        self.inexact += 1;
        let stand = evaluate(self.v, pos);
        if stand >= beta || qply >= QUIESCENCE_PLIES {
            return stand;
        }
        // Moves only past the stand-pat cut (a position without a move is over by `outcome`).
        let moves = match self.moves_at(pos, ply) {
            Ok(moves) => moves,
            Err(score) => return score,
        };
        let mut best = stand;
        alpha = alpha.max(stand);
        let h = hash(pos);
        self.path.push(h);
        for &mv in moves.iter().filter(|m| m.removes()) {
            let child = play(self.v, pos, mv);
            let c = counter_after(counter, pos, &child);
            let hc = hash(&child);
            let s = if child.to_move == pos.to_move {
                match self.decided(&child, ply + 1, c, hc) {
                    Some(score) => score,
                    None => self.quiesce(&child, alpha, beta, ply + 1, c, qply + 1),
                }
            } else {
                match self.decided(&child, ply + 1, c, hc) {
                    Some(score) => -score,
                    None => -self.quiesce(&child, -beta, -alpha, ply + 1, c, qply + 1),
                }
            };
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        best
    }

    /// The expected line from the transposition table (legal moves only, no repetitions).
    fn pv(&self, root: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = play(self.v, root, first);
        let mut seen = vec![hash(root), hash(&pos)];
        while line.len() < max {
            let Some(mv) = self.tt.probe(hash(&pos)).and_then(|h| h.mv) else {
                break;
            };
            if !legal_moves(self.v, &pos, Convention::Combined).contains(&mv) {
                break;
            }
            pos = play(self.v, &pos, mv);
            let h = hash(&pos);
            if seen.contains(&h) {
                break;
            }
            seen.push(h);
            line.push(mv);
        }
        line
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > DECIDED {
        score + ply as i32
    } else if score < -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > DECIDED {
        score - ply as i32
    } else if score < -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

/// Does the quiet move `mv` give `us` a line with two stones and the third point empty that
/// it did not have (`our_threats`: the empty points of such lines before)?
fn makes_threat(v: &Variant, us: Bits, them: Bits, our_threats: Bits, mv: Move) -> bool {
    let from = if mv.from == NO_SQUARE {
        0
    } else {
        1 << mv.from
    };
    let after = (us & !from) | 1 << mv.to;
    mill_threats(v, after, them) & !our_threats != 0
}

/// Search `input.root` (which must have a legal move) by iterative deepening until the
/// deadline, the depth or node limit, a stop, or an exact result.
pub fn search(input: &SearchInput, tt: &mut TranspositionTable) -> SearchOutput {
    let v = input.variant;
    let root = input.root;
    let mut moves = legal_moves(v, &root, Convention::Combined);
    assert!(
        !moves.is_empty(),
        "search of a position without a legal move"
    );
    let mut s = Searcher {
        v,
        oracle: input.oracle,
        rules: input.rules,
        tt,
        path: input.history.iter().map(hash).collect(),
        nodes: 0,
        inexact: 0,
        aborted: false,
        deadline: input.deadline,
        max_nodes: input.max_nodes,
        stop: input.stop,
        killers: [[None; 2]; MAX_PLY],
        history: Box::new([[0; 25]; 25]),
    };
    s.tt.new_search();
    let root_hash = hash(&root);
    let first = s.tt.probe(root_hash).and_then(|h| h.mv);
    s.order(&root, &mut moves, first, 0);
    let mut out = SearchOutput {
        best: moves[0],
        score: 0,
        depth: 0,
        nodes: 0,
        exact: false,
        pv: vec![moves[0]],
    };
    let max_depth = input.max_depth.clamp(1, MAX_DEPTH);
    for depth in 1..=max_depth {
        s.inexact = 0;
        let mut alpha = -INF;
        let mut best: Option<(Move, i32)> = None;
        let mut scores: Vec<(Move, i32)> = Vec::with_capacity(moves.len());
        s.path.push(root_hash);
        for &mv in &moves {
            let child = play(v, &root, mv);
            let c = counter_after(input.counter, &root, &child);
            let sc = if child.to_move == root.to_move {
                s.alphabeta(&child, depth as i32 - 1, alpha, INF, 1, c)
            } else {
                -s.alphabeta(&child, depth as i32 - 1, -INF, -alpha, 1, c)
            };
            if s.aborted {
                break;
            }
            scores.push((mv, sc));
            if best.is_none_or(|(_, b)| sc > b) {
                best = Some((mv, sc));
                alpha = alpha.max(sc);
            }
        }
        s.path.pop();
        if let Some((mv, sc)) = best {
            // A partial iteration searched the previous best move first: its best is at
            // least as good as the previous iteration's choice.
            out.best = mv;
            out.score = sc;
        }
        if s.aborted {
            break;
        }
        out.depth = depth;
        out.exact = s.inexact == 0;
        // The line now, before the next iteration overwrites the table.
        out.pv = s.pv(&root, out.best, depth as usize);
        s.tt.store(
            root_hash,
            depth as u8,
            out.score,
            Bound::Exact,
            Some(out.best),
        );
        // Next iteration: the best move first, then by this iteration's scores.
        scores.sort_by_key(|&(_, sc)| std::cmp::Reverse(sc));
        let mut ordered: Vec<Move> = vec![out.best];
        ordered.extend(scores.iter().map(|&(m, _)| m).filter(|&m| m != out.best));
        ordered.extend(
            moves
                .iter()
                .copied()
                .filter(|m| !scores.iter().any(|(x, _)| x == m)),
        );
        moves = ordered;
        // A single legal move is searched on too: its score is the position's.
        if out.exact {
            break;
        }
    }
    out.nodes = s.nodes;
    if out.pv.first() != Some(&out.best) {
        // A partial iteration found a better move.
        out.pv = vec![out.best];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;

    fn run(fen: &str, depth: u32) -> SearchOutput {
        let v = Variant::standard();
        let root = parse_position(&v, fen).unwrap();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(1);
        search(
            &SearchInput {
                variant: &v,
                oracle: None,
                rules: DrawRules::default(),
                root,
                counter: 0,
                history: &[],
                deadline: None,
                max_depth: depth,
                max_nodes: None,
                stop: &stop,
            },
            &mut tt,
        )
    }

    #[test]
    fn finds_a_win_in_one() {
        // White d7, g7 and c4 (flying) against black's d1, a1 and b2: c4-a7 closes a7-d7-g7
        // and leaves black with two stones, a win in 1 ply.
        let out = run(
            "******O*/*****@**/OO**@@** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
            3,
        );
        assert_eq!(score_value(out.score), Some(Value::Win(1)), "{out:?}");
        let v = Variant::standard();
        assert_eq!(v.board().name(out.best.to), "a7");
        assert!(out.best.removes());
    }

    #[test]
    fn a_side_that_moves_twice_keeps_its_score() {
        // Da San Qi: Black places its last stone, then moves first (again). Its mill point g7
        // is marked while stones are in hand, so no placement wins; the slide g4-g7 after it
        // does (white has three stones): a win in 2 plies, both Black's.
        let v = Variant::by_name("da-san-qi").unwrap();
        let b = v.board();
        let set = |names: &[&str]| names.iter().fold(0, |a, n| a | 1 << b.point(n).unwrap());
        let root = Position {
            stones: [set(&["b2", "d2", "f2"]), set(&["a7", "d7", "g4"])],
            in_hand: [0, 1],
            to_move: crate::game::position::Color::Black,
            marks: set(&["g7"]),
            ..Position::start(&v)
        };
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(1);
        let out = search(
            &SearchInput {
                variant: &v,
                oracle: None,
                rules: DrawRules::of_variant(&v),
                root,
                counter: 0,
                history: &[],
                deadline: None,
                max_depth: 3,
                max_nodes: None,
                stop: &stop,
            },
            &mut tt,
        );
        assert_eq!(score_value(out.score), Some(Value::Win(2)), "{out:?}");
        assert!(out.best.is_place());
    }

    #[test]
    fn scores_round_trip() {
        for v in [Value::Win(7), Value::Loss(12), Value::Win(0)] {
            assert_eq!(score_value(value_score(v, 0)), Some(v));
        }
        assert_eq!(score_value(0), None);
        assert_eq!(from_tt(to_tt(MATE - 9, 4), 4), MATE - 9);
    }
}
