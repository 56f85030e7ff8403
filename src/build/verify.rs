//! Independent forward verification: re-derive each stored value from the stored values of
//! its successors, using the plain move rules (no un-moves, no counters).

use crate::game::movegen::{Convention, Outcome, legal_moves, outcome, play, settle};
use crate::game::position::{Color, Position};
use crate::game::rules::{Bits, BoardFull, NO_SQUARE, Stalemate, Variant, for_each_removal_set};
use crate::game::value::{NMoveRule, UNUSED, Value, best_of};
use crate::sector::graph::{
    MAX_TAKEN, MoveSectors, can_slide, full_board_mover, is_full_board, is_live, removal_ply,
};
use crate::sector::index::{Sector, SectorIndex, UsFrame, combinations, pdep};
use crate::sector::reach::ReachFilter;
use crate::solve::barred::{NO_BAR, PlayOut, StoredValues};
use crate::table::Wdl;
use rayon::prelude::*;
use std::collections::HashMap;

/// Values of a sector and of every sector its moves lead to.
pub trait ValueLookup: Sync {
    /// Stored value codes of `sector` by slot, or `None` if that sector is unavailable.
    fn values(&self, sector: Sector) -> Option<&[u16]>;

    /// Are the values win/draw/loss only (read from WDL files without distances)? Then
    /// [`verify_sector`] compares only the win/draw/loss of each value.
    fn wdl_only(&self) -> bool {
        false
    }
}

/// A disagreement found by [`verify_sector`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The stored value differs from the one its successors give.
    Value {
        /// The slot.
        slot: u64,
        /// What the file says.
        stored: Option<Value>,
        /// What the successors say.
        derived: Value,
    },
    /// A successor's sector is not available.
    MissingSector(Sector),
    /// A used slot holds the unused marker, or an unused slot holds a value.
    Usage(u64),
}

/// A sector the moves of the verified sector lead to, ready for look-ups.
enum Successor<'a> {
    /// Too few stones would be left: the side to move there has lost.
    Lost,
    /// The sector's index and stored values, and whether the mover moves again there (its
    /// values are then the mover's, its positions seen from the mover).
    Table(SectorIndex, &'a [u16], bool),
    /// The sector's values are not available (or have the wrong size).
    Missing(Sector),
}

impl<'a> Successor<'a> {
    /// The successor `sector` of a move of the sector `moves` are of (a placement if
    /// `placed`, one that takes stones if `taking`).
    fn new(
        v: &Variant,
        moves: &MoveSectors,
        sector: Sector,
        (placed, taking): (bool, bool),
        lookup: &'a dyn ValueLookup,
    ) -> Successor<'a> {
        if taking && !moves.leaves_opponent(sector, placed) {
            return Successor::Lost;
        }
        let again = moves.again(placed, taking);
        let index = SectorIndex::new(v, sector);
        match lookup.values(sector) {
            Some(values) if values.len() as u64 == index.slots() => {
                Successor::Table(index, values, again)
            }
            _ => Successor::Missing(sector),
        }
    }

    /// The value, for the opponent of the mover, of the position reached with the opponent's
    /// stones `us` and the mover's `them`: the stored value, or when the mover moves again,
    /// the mover's stored value turned round (a win in `n` for the mover is a loss in `n` for
    /// the opponent), so that every move's value for the mover follows the same way.
    fn value(&self, us: Bits, them: Bits) -> Result<Value, Mismatch> {
        match self {
            Successor::Lost => Ok(Value::Loss(0)),
            Successor::Table(index, values, false) => {
                let slot = index.slot(us, them);
                Value::decode(values[slot as usize]).ok_or(Mismatch::Usage(slot))
            }
            Successor::Table(index, values, true) => {
                let slot = index.slot(them, us);
                let value = Value::decode(values[slot as usize]).ok_or(Mismatch::Usage(slot))?;
                Ok(match value {
                    Value::Win(n) => Value::Loss(n),
                    Value::Loss(n) => Value::Win(n),
                    Value::Draw => Value::Draw,
                })
            }
            Successor::Missing(sector) => Err(Mismatch::MissingSector(*sector)),
        }
    }

    /// The part of the slot computation shared by the positions of this sector whose side to
    /// move has the stones `us` (`None` unless this is a table seen from the opponent).
    fn frame(&self, us: Bits) -> Option<UsFrame> {
        match self {
            Successor::Table(index, _, false) => Some(index.frame(us)),
            _ => None,
        }
    }

    /// [`Successor::value`] with `frame` = `self.frame(us)`.
    #[inline]
    fn value_in(&self, frame: Option<&UsFrame>, us: Bits, them: Bits) -> Result<Value, Mismatch> {
        match (self, frame) {
            (Successor::Table(index, values, false), Some(f)) => {
                let slot = index.slot_in_frame(f, index.tables.syms.apply(f.sym, them));
                Value::decode(values[slot as usize]).ok_or(Mismatch::Usage(slot))
            }
            _ => self.value(us, them),
        }
    }
}

/// How [`verify_sector`] checks a sector.
#[derive(Clone, Copy)]
pub struct VerifyOptions<'a> {
    /// The N-move rule the tables were solved under (none by default).
    pub rule: NMoveRule,
    /// At most this many mismatches are returned (those of the smallest slots; 5 by
    /// default); all of them are counted.
    pub max_report: usize,
    /// Called with units of work done (the sector's slots in all); by default nothing is
    /// reported.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

/// Reports nothing: the default [`VerifyOptions::progress`].
fn no_progress(_: u64) {}

impl Default for VerifyOptions<'_> {
    fn default() -> Self {
        VerifyOptions {
            rule: NMoveRule::NONE,
            max_report: 5,
            progress: &no_progress,
        }
    }
}

impl std::fmt::Debug for VerifyOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyOptions")
            .field("rule", &self.rule)
            .field("max_report", &self.max_report)
            .finish_non_exhaustive()
    }
}

/// Re-derive every value of `sector` of tables solved under `options.rule` (each sector's
/// values under the rule in force there, [`NMoveRule::with_stones`]; only its
/// win/draw/loss when the lookup is [`ValueLookup::wdl_only`]; then, under a rule, without
/// the DTRs that decide which wins and losses the counter turns into draws one ply later,
/// the check is that the stored win/draw/loss lies within the bounds the successors allow);
/// returns the number of positions checked, the number of mismatches, and up to
/// `options.max_report` of them.
///
/// Positions are visited by the opponent's stone set (orbit representatives; with a
/// symmetric set, only the smallest image of the mover's set under its stabilizer), so that
/// the successors of consecutive positions lie in a few blocks of the sectors they lead to;
/// every successor's slot is still computed in full from its stone sets.
pub fn verify_sector(
    v: &Variant,
    sector: Sector,
    lookup: &dyn ValueLookup,
    options: &VerifyOptions<'_>,
) -> (u64, u64, Vec<Mismatch>) {
    let VerifyOptions {
        rule,
        max_report,
        progress,
    } = *options;
    let index = SectorIndex::new(v, sector);
    let slots = index.slots();
    let stored = match lookup.values(sector) {
        Some(values) if values.len() as u64 == slots => values,
        _ => return (0, 1, vec![Mismatch::MissingSector(sector)]),
    };
    let board = v.board();
    let full = board.full();
    let s = sector;
    let syms = &index.tables.syms;
    let can_slide = can_slide(v, s);
    // The sector each kind of move leads to; a kind of move `s` does not have is never
    // looked up (a mill needs three stones, a removal an opponent's stone).
    let moves = MoveSectors::of(v, s);
    let successor = |placed: bool, taking: bool| {
        move |t: Option<Sector>| {
            t.map_or(Successor::Lost, |t| {
                Successor::new(v, &moves, t, (placed, taking), lookup)
            })
        }
    };
    // The rule in force here and in each sector a move leads to (the variant's lower endgame
    // N while a side has three stones on the board): a move that resets the counter is
    // decided in one turn when its successor is decided under the successor's rule.
    let own = rule.with_stones(v, [s.w, s.b]);
    let rule_of = |t: Option<Sector>| t.map_or(own, |t| rule.with_stones(v, [t.w, t.b]));
    let (slide_rule, place_rule) = (rule_of(moves.slide), rule_of(moves.place));
    let taking_rules = |taking: &[Option<Sector>; MAX_TAKEN]| taking.map(rule_of);
    let (slide_taking_rules, place_taking_rules) = (
        taking_rules(&moves.slide_taking),
        taking_rules(&moves.place_taking),
    );
    let slide = successor(false, false)(moves.slide);
    let slide_taking = moves.slide_taking.map(successor(false, true));
    let place = successor(true, false)(moves.place);
    let place_taking = moves.place_taking.map(successor(true, true));
    // Under `placing-mill=from-hand` a placement's mill takes from the opponent's hand while
    // it holds stones: its board stays as it is.
    let hand_taking = v.removes_from_hand() && s.bf > 0;
    // A blocked side's removals: the table is read only where both sides keep three stones
    // or more (the referee decides the others, `removals_by_referee`), seen from the side to
    // move there as it is stored.
    // A full board's removals too (each sector they may lead to).
    let after_removals: Vec<Successor<'_>> = std::iter::once(moves.blocked)
        .chain(moves.full_board)
        .flatten()
        .filter(|&t| is_live(v, t))
        .map(|t| {
            let index = SectorIndex::new(v, t);
            match lookup.values(t) {
                Some(values) if values.len() as u64 == index.slots() => {
                    Successor::Table(index, values, false)
                }
                _ => Successor::Missing(t),
            }
        })
        .collect();
    // Under `repeated-mills=restricted` a mill-closing slide leads to a position with a bar:
    // played out over the sectors below (their values are needed then).
    let below = v
        .repeated_mills_restricted
        .then(|| LookupBelow::new(v, &moves, lookup));
    let general = !v.one_removal_per_mill() || below.is_some();
    let wdl_only = lookup.wdl_only();
    let them_orbits = index.tables.orbits(s.b as u32);
    let reach = ReachFilter::new(v, sector);
    let m = board.len() as u32 - s.b as u32;
    let us_sets = combinations(m, s.w as u32);
    let orbit_count = them_orbits.len() as u64;
    // Unused slots must hold the unused marker (used ones are checked below).
    let unused_wrong: Vec<u64> = (0..slots)
        .into_par_iter()
        .filter(|&slot| stored[slot as usize] != UNUSED && index.position(slot).is_none())
        .collect();
    let usage: (u64, u64, Vec<Mismatch>) = (
        0,
        unused_wrong.len() as u64,
        unused_wrong
            .into_iter()
            .take(max_report)
            .map(Mismatch::Usage)
            .collect(),
    );
    let visited: Vec<(u64, u64, Vec<Mismatch>)> = (0..them_orbits.len() as u32)
        .into_par_iter()
        .map(|orbit| {
            let them = them_orbits.rep(orbit);
            let them_stab = them_orbits.stabilizer(orbit);
            let free = full & !them;
            let removable = board.removable(them, v.remove_from_mills);
            // Moves without a removal leave `them` to move: their slots share its frame.
            let (slide_frame, place_frame) = (slide.frame(them), place.frame(them));
            let (mut checked, mut bad, mut report) = (0u64, 0u64, Vec::new());
            let mut note = |m: Mismatch, bad: &mut u64| {
                *bad += 1;
                keep_smallest(&mut report, m, max_report);
            };
            let mut succ = Vec::new();
            let mut batch: Vec<(Bits, u64)> = Vec::with_capacity(BATCH);
            for chunk in us_sets.chunks(BATCH) {
                // The positions' own slots are scattered (the index orders them by the mover's
                // stones): computing a batch of them first, with a prefetch of each value,
                // lets the memory accesses overlap.
                batch.clear();
                for &combo in chunk {
                    let us = pdep(combo, free);
                    if !syms.has_smaller_image(them_stab, us) {
                        let slot = index.slot(us, them);
                        crate::sys::memory::prefetch(&stored[slot as usize]);
                        batch.push((us, slot));
                    }
                }
                for &(us, slot) in &batch {
                    let code = stored[slot as usize];
                    if code == UNUSED && reach.is_some_and(|f| f.unreachable(us, them)) {
                        // A position no game reaches, stored as "don't care".
                        continue;
                    }
                    checked += 1;
                    succ.clear();
                    let mut failure = None;
                    let empty = free & !us;
                    let mut visit = |from: u8, moved: Bits, to: u8, placed: bool| {
                        let (plain, frame, taking, taking_sectors) = if placed {
                            (&place, &place_frame, &place_taking, &moves.place_taking)
                        } else {
                            (&slide, &slide_frame, &slide_taking, &moves.slide_taking)
                        };
                        let (plain_rule, taking_rules) = if placed {
                            (place_rule, &place_taking_rules)
                        } else {
                            (slide_rule, &slide_taking_rules)
                        };
                        // Each move's value for the side making it, from its successor's
                        // value under the rule there: placements and removals reset the
                        // N-move counter.
                        let mut push =
                            |value: Result<Value, Mismatch>, next: NMoveRule, resets| match value {
                                Ok(val) => {
                                    let mine = own.move_value_into(next, val.encode(), resets);
                                    succ.push((mine, resets));
                                }
                                Err(m) => failure = Some(m),
                            };
                        if general {
                            // Captures and several removals: the successor's sector follows
                            // the number of stones taken; every choice of the removals.
                            let a = v.arrival(board, moved, to, them, placed);
                            let bar = below
                                .as_ref()
                                .filter(|_| !placed && board.in_mill(moved, to));
                            if let (true, Some(below)) = (a.taken() > 0, bar) {
                                let next = taking_rules[a.taken() as usize - 1];
                                let Some(t) = taking_sectors[a.taken() as usize - 1]
                                    .filter(|&t| moves.leaves_opponent(t, false))
                                else {
                                    push(Ok(Value::Loss(0)), next, true);
                                    return;
                                };
                                let from_mills = v.remove_from_mills;
                                for_each_removal_set(
                                    board,
                                    from_mills,
                                    a.them,
                                    a.removals,
                                    &mut |left| {
                                        let play_out = PlayOut {
                                            v,
                                            rule,
                                            stored: below,
                                        };
                                        let value = play_out
                                            .value(t, left, moved, NO_BAR, (from, to))
                                            .map_err(Mismatch::MissingSector);
                                        push(value, next, true);
                                        false
                                    },
                                );
                            } else if a.taken() > 0 {
                                let t = &taking[a.taken() as usize - 1];
                                let next = taking_rules[a.taken() as usize - 1];
                                let from_mills = v.remove_from_mills;
                                for_each_removal_set(
                                    board,
                                    from_mills,
                                    a.them,
                                    a.removals,
                                    &mut |left| {
                                        push(t.value(left, moved), next, true);
                                        false
                                    },
                                );
                            } else {
                                let value = plain.value_in(frame.as_ref(), them, moved);
                                push(value, plain_rule, placed);
                            }
                        } else if placed && hand_taking && board.in_mill(moved, to) {
                            push(taking[0].value(them, moved), taking_rules[0], true);
                        } else if them != 0 && board.in_mill(moved, to) {
                            let mut r = removable;
                            while r != 0 {
                                let p = r.trailing_zeros();
                                r &= r - 1;
                                let value = taking[0].value(them & !(1 << p), moved);
                                push(value, taking_rules[0], true);
                            }
                        } else {
                            let value = plain.value_in(frame.as_ref(), them, moved);
                            push(value, plain_rule, placed);
                        }
                    };
                    if can_slide {
                        let flies = v.flies(s.w, s.wf);
                        let mut from_set = us;
                        while from_set != 0 {
                            let from = from_set.trailing_zeros();
                            from_set &= from_set - 1;
                            let mut targets = board.step_targets(from as u8, empty, flies);
                            while targets != 0 {
                                let to = targets.trailing_zeros();
                                targets &= targets - 1;
                                visit(from as u8, us & !(1 << from) | 1 << to, to as u8, false);
                            }
                        }
                    }
                    if s.wf > 0 {
                        let mut targets = empty;
                        while targets != 0 {
                            let to = targets.trailing_zeros();
                            targets &= targets - 1;
                            visit(NO_SQUARE, us | 1 << to, to as u8, true);
                        }
                    }
                    if let Some(m) = failure {
                        note(m, &mut bad);
                        continue;
                    }
                    let no_move = if empty == 0
                        && v.board_full == BoardFull::WhiteLoses
                        && v.moving_first == Color::Black
                    {
                        // Placing filled the board and Black, who placed last, is to move:
                        // White has lost.
                        Value::Win(0)
                    } else if (empty == 0 && v.board_full == BoardFull::Draw)
                        // A full board follows `board-full` alone (`white-loses`: White, to
                        // move, has lost also under `stalemate=draw`).
                        || (empty != 0 && v.stalemate == Stalemate::Draw)
                    {
                        Value::Draw
                    } else {
                        own.blocked()
                    };
                    let no_move = match succ.is_empty() {
                        true => {
                            let after = &after_removals;
                            match blocked_by_referee(v, rule, s, (us, them), after, &slide) {
                                Some(Ok(value)) => value,
                                Some(Err(m)) => {
                                    note(m, &mut bad);
                                    continue;
                                }
                                None => no_move,
                            }
                        }
                        false => no_move,
                    };
                    let derived = best_of(succ.iter().map(|&(v, _)| v), no_move);
                    let stored = Value::decode(code);
                    let agrees = if wdl_only && own.is_active() {
                        let (low, high) = wdl_bounds(&succ, no_move);
                        stored.is_some_and(|v| (low..=high).contains(&rank(Wdl::of(v))))
                    } else if wdl_only {
                        stored.map(Wdl::of) == Some(Wdl::of(derived))
                    } else {
                        stored == Some(derived)
                    };
                    if !agrees {
                        note(
                            Mismatch::Value {
                                slot,
                                stored,
                                derived,
                            },
                            &mut bad,
                        );
                    }
                }
            }
            let o = orbit as u64;
            progress(slots * (o + 1) / orbit_count - slots * o / orbit_count);
            (checked, bad, report)
        })
        .collect();
    let mut total = (0, 0, Vec::new());
    for (c, b, r) in std::iter::once(usage).chain(visited) {
        total.0 += c;
        total.1 += b;
        for m in r {
            keep_smallest(&mut total.2, m, max_report);
        }
    }
    total.2.sort_by_key(Mismatch::slot);
    total.2.truncate(max_report);
    total
}

/// The value of the position (`us` to move, `them`) of sector `s` whose side to move has no
/// stone move, when the `stalemate` option gives it removals, as the referee plays them:
/// the position is settled ([`settle`]: the blocked side's removals start), every removal
/// ([`legal_moves`]) is played ([`play`]) until a turn starts (no removal pending, or the
/// removals a blocked side starts its turn with), whose value is stored in `after` (the
/// sector [`MoveSectors::blocked`]). Each removal is a ply that resets the N-move counter
/// ([`removal_ply`]), under the rule in force before and after it (`rule`: the tables' rule,
/// [`NMoveRule::with_stones`]). Under `stalemate=pass` the settled position has the opponent
/// to move at the same stones: its value stored in `slide` (the sector a slide leads to, seen
/// from the opponent), turned round, at the same distance (the pass is no ply and leaves the
/// counter as it is); both sides blocked: the referee's outcome, a draw. `None` when the
/// settled position has no removal pending and the same side to move (the rules make it a
/// loss or a draw).
fn blocked_by_referee(
    v: &Variant,
    rule: NMoveRule,
    s: Sector,
    (us, them): (Bits, Bits),
    after: &[Successor<'_>],
    slide: &Successor<'_>,
) -> Option<Result<Value, Mismatch>> {
    // The colours: a full board's side to move is the one the tables hold there (its rules
    // may tell the colours apart); elsewhere the rules are the same for both.
    let mover = match is_full_board(v, s) {
        true => full_board_mover(v),
        false => Color::White,
    };
    let stones = match mover {
        Color::White => [us, them],
        Color::Black => [them, us],
    };
    let start = settle(v, &Position::new(stones, [s.wf, s.bf], mover));
    if start.pending_removal() {
        // The referee may start with the other colour removing (the same position).
        let value = removals_by_referee(v, rule, &start, after, &mut HashMap::new());
        return Some(value.map(|x| match start.to_move == mover {
            true => x,
            false => x.for_other_side(),
        }));
    }
    if is_full_board(v, s) {
        // The full board ends the game (`white-loses`, `draw`): the rules' value.
        return None;
    }
    if start.to_move != Color::White {
        return Some(slide.value(them, us).map(|value| match value {
            Value::Win(n) => Value::Loss(n),
            Value::Loss(n) => Value::Win(n),
            Value::Draw => Value::Draw,
        }));
    }
    match outcome(v, &start) {
        Some(Outcome::Draw) if v.stalemate == Stalemate::Pass => Some(Ok(Value::Draw)),
        _ => None,
    }
}

/// The value of `pos`, a position with a removal pending that the referee reached from a
/// blocked side's position ([`blocked_by_referee`]). `known` holds the values found so far:
/// the same stones are left by removals in several orders (El Filja's full board with six
/// removals a side has 665,280 orders of each side's removals, and far fewer positions).
fn removals_by_referee(
    v: &Variant,
    rule: NMoveRule,
    pos: &Position,
    after: &[Successor<'_>],
    known: &mut HashMap<Position, Value>,
) -> Result<Value, Mismatch> {
    if let Some(&value) = known.get(pos) {
        return Ok(value);
    }
    let mut values = Vec::new();
    for mv in legal_moves(v, pos, Convention::Combined) {
        let next = play(v, pos, mv);
        let me = next.to_move;
        let value = if next.too_few(me) {
            Value::Loss(0)
        } else if next.too_few(me.other()) {
            Value::Win(0)
        } else if starts_turn(v, &next) {
            let sector = Sector::of_position(&next);
            let table = after.iter().find(|t| match t {
                Successor::Table(index, _, _) => index.sector == sector,
                _ => false,
            });
            match table {
                Some(table) => table.value(next.us(), next.them())?,
                None => return Err(Mismatch::MissingSector(sector)),
            }
        } else {
            removals_by_referee(v, rule, &next, after, known)?
        };
        let in_force = |p: &Position| {
            let t = Sector::of_position(p);
            rule.with_stones(v, [t.w, t.b])
        };
        values.push(removal_ply(
            in_force(pos),
            in_force(&next),
            value,
            me == pos.to_move,
        ));
    }
    let value = best_of(values.into_iter(), Value::Loss(0));
    known.insert(*pos, value);
    Ok(value)
}

/// Does a turn start at `p`: no removal pending, or the removals the referee starts the turn
/// of a blocked side with (the position settles to itself)?
fn starts_turn(v: &Variant, p: &Position) -> bool {
    if !p.pending_removal() {
        return true;
    }
    let mut plain = *p;
    plain.removals = [0, 0];
    plain.again = false;
    plain.adjacent_removal = false;
    settle(v, &plain) == *p
}

/// The stored values of the sectors below a verified sector that its mill-closing slides
/// lead to and what those lead to, for playing out positions with a bar
/// (`repeated-mills=restricted`).
struct LookupBelow<'a> {
    tables: HashMap<Sector, (SectorIndex, &'a [u16])>,
}

impl<'a> LookupBelow<'a> {
    fn new(v: &Variant, moves: &MoveSectors, lookup: &'a dyn ValueLookup) -> LookupBelow<'a> {
        let mut tables = HashMap::new();
        let mut stack: Vec<Sector> = moves.taking().collect();
        while let Some(t) = stack.pop() {
            if !is_live(v, t) || tables.contains_key(&t) {
                continue;
            }
            let index = SectorIndex::new(v, t);
            if let Some(values) = lookup.values(t).filter(|x| x.len() as u64 == index.slots()) {
                tables.insert(t, (index, values));
                stack.extend(MoveSectors::of(v, t).iter());
            }
        }
        LookupBelow { tables }
    }
}

impl StoredValues for LookupBelow<'_> {
    fn code(&self, s: Sector, us: Bits, them: Bits) -> Option<u16> {
        let (index, values) = self.tables.get(&s)?;
        Some(values[index.slot(us, them) as usize])
    }
}

/// Positions whose own values [`verify_sector`] gathers at a time.
const BATCH: usize = 64;

/// Rank of a win/draw/loss: 1, 0, −1.
fn rank(w: Wdl) -> i8 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// Under an N-move rule, from WDL files alone: the lowest and highest rank the position can
/// have at counter 0, given each move's value from its successor's value at counter 0 and
/// whether the move resets the counter (`moves`), or `no_move` without moves. A resetting
/// move's value is exact; any other move reaches its successor at counter 1, where a win or a
/// loss may already be a draw (its DTR is unknown here), so it is worth its value or a draw.
fn wdl_bounds(moves: &[(Value, bool)], no_move: Value) -> (i8, i8) {
    if moves.is_empty() {
        let r = rank(Wdl::of(no_move));
        return (r, r);
    }
    moves.iter().fold((-1, -1), |(low, high), &(v, resets)| {
        let r = rank(Wdl::of(v));
        if resets {
            (low.max(r), high.max(r))
        } else {
            (low.max(r.min(0)), high.max(r.max(0)))
        }
    })
}

/// Add `m` to `report`, keeping only the `max` mismatches of the smallest slots (so that the
/// report does not depend on the order of the visit).
fn keep_smallest(report: &mut Vec<Mismatch>, m: Mismatch, max: usize) {
    report.push(m);
    if report.len() > 2 * max.max(1) {
        report.sort_by_key(Mismatch::slot);
        report.truncate(max);
    }
}

impl Mismatch {
    /// The slot concerned (0 for a missing sector, reported first).
    fn slot(&self) -> u64 {
        match *self {
            Mismatch::Value { slot, .. } | Mismatch::Usage(slot) => slot,
            Mismatch::MissingSector(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::{Outcome, outcome};
    use crate::sector::graph::Component;
    use crate::solve::{SolveOptions, solve_component};

    /// Solved values of one sector, for [`verify_sector`].
    struct One(Sector, Vec<u16>);

    impl ValueLookup for One {
        fn values(&self, sector: Sector) -> Option<&[u16]> {
            (sector == self.0).then_some(self.1.as_slice())
        }
    }

    #[test]
    fn a_board_filled_by_placing_follows_board_full_also_under_stalemate_draw() {
        // Twelve Men's Morris fills the board (12 stones each on 24 points): the full board's
        // sector has no move. The referee's outcome (White to move, as after Black's last
        // placement) decides it: `white-loses` before `stalemate=draw`.
        for (full, want) in [("white-loses", Outcome::Loss), ("draw", Outcome::Draw)] {
            let rules = ["stalemate=draw", &format!("board-full={full}")];
            let v = Variant::from_rules("twelve-mens-morris", &rules).unwrap();
            let s = Sector::moving(12, 12);
            let c = Component::of(&v, s);
            // No move leaves the sector: its exit tables are never read.
            let unread = |d: Sector| {
                let slots = SectorIndex::new(&v, d).slots() as usize;
                Ok::<_, crate::solve::SolveError>(std::sync::Arc::new(vec![UNUSED; slots]))
            };
            let solved = solve_component(&v, &c, &unread, &SolveOptions::default())
                .unwrap()
                .remove(0);
            let index = SectorIndex::new(&v, s);
            let mut used = 0;
            for slot in 0..index.slots() {
                let Some((us, them)) = index.position(slot) else {
                    continue;
                };
                let pos = Position::new([us, them], [0, 0], Color::White);
                assert_eq!(outcome(&v, &pos), Some(want), "{full}");
                let expected = match want {
                    Outcome::Loss => Value::Loss(0),
                    _ => Value::Draw,
                };
                let got = Value::decode(solved.values[slot as usize]);
                assert_eq!(got, Some(expected), "{full}: slot {slot}");
                used += 1;
            }
            assert!(used > 100_000, "{used}");
            let lookup = One(s, solved.values);
            let (checked, bad, _) = verify_sector(&v, s, &lookup, &VerifyOptions::default());
            assert_eq!((checked, bad), (used, 0), "{full}");
        }
    }

    #[test]
    fn wdl_bounds_under_a_rule() {
        let (w, d, l) = (Value::Win(3), Value::Draw, Value::Loss(4));
        // A resetting move is exact; any other is worth its value or a draw.
        assert_eq!(wdl_bounds(&[(w, true)], l), (1, 1));
        assert_eq!(wdl_bounds(&[(w, false)], l), (0, 1));
        assert_eq!(wdl_bounds(&[(l, false), (l, true)], w), (-1, 0));
        assert_eq!(wdl_bounds(&[(l, true), (d, true)], w), (0, 0));
        assert_eq!(wdl_bounds(&[(l, true)], w), (-1, -1));
        // No move: the blocked value.
        assert_eq!(wdl_bounds(&[], l), (-1, -1));
    }
}
