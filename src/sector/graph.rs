//! The sector graph: which sectors the moves of a sector lead to, which sectors are solved
//! together, what each needs solved before it, the order to solve them in, and which sectors a
//! game from the start position reaches.
//!
//! * **Nodes** are sectors ([`Sector`]): the stones on the board and in hand of the side to
//!   move and of its opponent. A sector is always seen from the side to move, so every move
//!   leads to a sector seen from the other side — except, under `moving-first=black`, the
//!   placement that ends placing: Black places the last stone and moves first, so that move
//!   leads to a moving-phase sector seen from the same side ([`places_again`]).
//! * **Edges** are the kinds of move ([`MoveSectors`]): a slide or fly that closes no mill
//!   (to the colour-swapped sector), a placement (one stone from hand to board), either of
//!   them closing a mill and removing an opponent's stone, and the removals of a blocked side
//!   under the `stalemate` options that remove stones ([`MoveSectors::blocked`], the one edge
//!   that may keep the side to move). Placements and removals change the stone counts, so
//!   they only go "down" (fewer stones in hand or on the board); slides go back and forth
//!   between a sector and its colour-swapped partner.
//! * **Components** ([`Component`]) are the sectors that move into each other and are solved
//!   together: `w-b` and `b-w` in the moving phase (or in Lasker Morris's placing phase, where
//!   stones may slide too), a single sector where no slide is possible (the standard placing
//!   phase) or where the partner is itself (`w-w`).
//! * **Exits** ([`exit_sectors`]) are the edges that leave a component; their targets are the
//!   component's **dependencies** ([`Component::dependencies`]), solved before it.
//! * The **solving order** ([`solving_order`]) lists components dependencies first, each named
//!   by its smallest sector ([`Component::first`]).
//! * **Reachability** ([`reachable_sectors`]): the sectors a game from the start position
//!   ([`start_sector`]) can reach, following [`successor_sectors`] (the edges that keep both
//!   sides alive and need an empty point).
//!
//! Solving ([`solve`](crate::solve)), generation, the plan, verification and the command line
//! all read the graph from here; the positions inside a sector are the business of the move
//! generators and of `reach` (which positions of a sector a game reaches).

use crate::game::position::Color;
use crate::game::rules::{Bits, BoardKind, MIN_STONES, PlacingMill, Stalemate, Variant};
use crate::game::value::{NMoveRule, Value};
use crate::sector::index::Sector;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

/// The sector of the variant's start position.
pub fn start_sector(v: &Variant) -> Sector {
    Sector::new(0, 0, v.stones, v.stones)
}

/// Is `s` a sector where the game is still on (both sides have three stones or more)?
pub fn is_live(v: &Variant, s: Sector) -> bool {
    s.fits(v) && s.w + s.wf >= MIN_STONES && s.b + s.bf >= MIN_STONES
}

/// Do the positions of sector `s` follow the placing phase's rules: stones in hand, or a
/// board filled by placing (every point taken)?
pub fn follows_placing_rules(v: &Variant, s: Sector) -> bool {
    s.wf > 0 || s.bf > 0 || (s.w + s.b) as usize == v.board().len()
}

/// The options of `v` that the tables of sector `s` do not follow yet, as `key=value`
/// ([`Variant::unsupported_by_tables`], and for the placing phase
/// [`Variant::unsupported_in_placing`]); empty where its tables can be solved and read.
pub fn unsupported_in(v: &Variant, s: Sector) -> Vec<String> {
    let mut out = v.unsupported_by_tables();
    if follows_placing_rules(v, s) {
        out.extend(v.unsupported_in_placing());
    }
    out
}

/// Does a placement in sector `s` end the placing phase and leave its mover to move again?
/// Under `moving-first=black`, when the side to move holds the last stone in hand (one, the
/// opponent none): Black moves first when placing ends, and in a game from the start Black
/// places the last stone (every turn of the placing phase is one placement, White's first,
/// so White to move holds as many stones in hand as Black, Black one more than White). The
/// tables of the placing phase are therefore solved with Black to move in the sectors `w-b-1-0`
/// (a position with White to move and one stone in hand against none does not occur in play;
/// a probe refuses it). Where a side may slide instead of placing (`move-while-placing`) the
/// hands do not tell who places last, and these tables are refused
/// ([`Variant::unsupported_in_placing`]).
pub fn places_again(v: &Variant, s: Sector) -> bool {
    v.moving_first == Color::Black && s.wf == 1 && s.bf == 0
}

/// Can the side to move in sector `s` slide (or fly) a stone?
pub fn can_slide(v: &Variant, s: Sector) -> bool {
    s.w > 0 && v.may_move(s.wf)
}

/// The most stones one move can take from the opponent under any rules millbase knows (three
/// mills and two intervention captures of two stones each): the length of the per-count
/// arrays of [`MoveSectors`] and [`ExitSectors`].
pub const MAX_TAKEN: usize = 8;

/// Sectors by the number of stones a move takes: `[k - 1]` is where a move taking `k`
/// stones (captures and removals) leads.
pub type ByTaken = [Option<Sector>; MAX_TAKEN];

/// The sector each kind of move of `s` leads to (seen from the opponent, who moves next, or
/// for placements seen from the mover when [`MoveSectors::place_again`], and for
/// [`MoveSectors::blocked`] under `stalemate=remove-and-move` and `both-remove` from the
/// blocked side), as far as the stone counts allow the move: `None` where `s` has no such
/// move. The opponent may be left with too few stones (a lost game,
/// [`MoveSectors::leaves_opponent`]), and the board may be full (no move at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSectors {
    /// A slide or fly that takes nothing: the colour-swapped sector.
    pub slide: Option<Sector>,
    /// A slide or fly that takes stones (closes a mill and removes, or captures), by the
    /// number taken; under the standard rules only `[0]` (one removal).
    pub slide_taking: ByTaken,
    /// A placement that takes nothing.
    pub place: Option<Sector>,
    /// A placement that takes stones, by the number taken.
    pub place_taking: ByTaken,
    /// Where a side to move that has no stone move goes under the `stalemate` options that
    /// remove stones ([`blocked_exit`]): `remove-and-move` to one opponent stone fewer with
    /// the *same* side to move (it moves again), `remove-and-pass` to one opponent stone fewer
    /// with the opponent to move (as a removing slide), `both-remove` to one stone fewer of
    /// each with the same side to move. `None` under the other options, or where the side to
    /// move always has a stone move.
    pub blocked: Option<Sector>,
    /// Where the removals that a board filled by placing starts lead ([`full_board_exits`]),
    /// in the sectors of this one (every point taken, nothing in hand).
    pub full_board: FullExits,
    /// The placements end placing and their mover moves again ([`places_again`]): `place`
    /// and `place_taking` are seen from the mover (its stones first), not from the opponent.
    pub place_again: bool,
    /// The placements that take stones leave their mover to move again
    /// (`placing-mill=from-hand-again`): `place_taking` is seen from the mover.
    pub taking_again: bool,
}

/// The sector the removals of a blocked side lead to ([`MoveSectors::blocked`]) and who is to
/// move there, by the `stalemate` option: `None` unless the side to move of `s` can be left
/// without a stone move (it slides without flying, nothing in hand, and the board is not full:
/// a full board at the end of placing follows `board-full`) and the option removes stones.
pub fn blocked_exit(v: &Variant, s: Sector) -> Option<BlockedExit> {
    let slides_only = s.wf == 0 && s.w > 0 && !v.flies(s.w, s.wf);
    if !slides_only || s.b == 0 || (s.w + s.b) as usize >= v.board().len() {
        return None;
    }
    let (to, same) = match v.stalemate {
        Stalemate::RemoveAndMove => (Sector::new(s.w, s.b - 1, s.wf, s.bf), true),
        Stalemate::RemoveAndPass => (Sector::new(s.b - 1, s.w, s.bf, s.wf), false),
        Stalemate::BothRemove => (Sector::new(s.w - 1, s.b - 1, s.wf, s.bf), true),
        Stalemate::Loss | Stalemate::Draw | Stalemate::Pass => return None,
    };
    Some(BlockedExit { to, same })
}

/// Where the removals of a blocked side lead ([`blocked_exit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockedExit {
    /// The sector after the removals, seen from the side to move there (one or both sides
    /// may be left with too few stones: a finished game).
    pub to: Sector,
    /// The blocked side is to move there (`remove-and-move`, `both-remove`): its value is the
    /// successor's, not negated.
    pub same: bool,
}

/// Is `s` the sector of a board filled by placing: every point taken, nothing in hand? Its
/// positions have no stone move; `board-full` (or `placing-mill=by-mill-counts`) says what
/// follows.
pub fn is_full_board(v: &Variant, s: Sector) -> bool {
    s.wf == 0 && s.bf == 0 && (s.w + s.b) as usize == v.board().len()
}

/// The colour to move in the positions of a full-board sector as the tables hold them (the
/// sector's first side): the side to move after the last placement of a game from the start,
/// the `moving-first` colour (Black places last; under `moving-first=black` it moves again,
/// [`places_again`]).
pub fn full_board_mover(v: &Variant) -> Color {
    v.moving_first
}

/// The most sectors the removals of a board filled by placing can lead to
/// ([`full_board_exits`]).
pub const MAX_FULL_EXITS: usize = 24;

/// The sectors the removals of a board filled by placing lead to ([`full_board_exits`]).
pub type FullExits = [Option<Sector>; MAX_FULL_EXITS];

/// Where the removals that a board filled by placing starts lead
/// ([`Variant::full_board_removals`]), for every number of mills each colour can have on it:
/// the sectors after them, each seen from its side to move (the side after the last remover),
/// each once. Empty unless `s` is a full board ([`is_full_board`]) whose rules remove.
pub fn full_board_exits(v: &Variant, s: Sector) -> FullExits {
    let mut out: FullExits = [None; MAX_FULL_EXITS];
    if !is_full_board(v, s) {
        return out;
    }
    let most = max_mills(v, s.w.max(s.b));
    let mut k = 0;
    for white in 0..=most {
        for black in 0..=most {
            let Some(after) = full_board_after(v, s, [white, black]) else {
                continue;
            };
            if !out[..k].contains(&Some(after.sector)) {
                assert!(
                    k < MAX_FULL_EXITS,
                    "{}: too many full-board exits",
                    v.label()
                );
                out[k] = Some(after.sector);
                k += 1;
            }
        }
    }
    out
}

/// What the removals of a board filled by placing do in full-board sector `s` when the
/// colours have `mills` mills (`[white, black]`): who removes how many of whose stones, and
/// the sector after them. `None` when the full board ends the game.
pub fn full_board_after(v: &Variant, s: Sector, mills: [u8; 2]) -> Option<FullBoardAfter> {
    let mover = full_board_mover(v);
    let start = v.full_board_removals(mills, mover)?;
    let first = start.first;
    let second = first.other();
    // Stones each colour loses: the opponent's removals, and its own removals of its own.
    let count = |c: Color| start.removals[c.index()];
    let lost = |c: Color| (count(c.other()).max(0) + (-count(c)).max(0)) as u8;
    let last = if count(second) != 0 { second } else { first };
    let next = last.other();
    // The sector's first side is the mover's colour.
    let stones = |c: Color| match c == mover {
        true => s.w,
        false => s.b,
    };
    let left = |c: Color| stones(c).saturating_sub(lost(c));
    let sector = Sector::moving(left(next), left(next.other()));
    Some(FullBoardAfter {
        removals: start.removals,
        first,
        next,
        sector,
    })
}

/// The removals of a board filled by placing and where they lead ([`full_board_after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullBoardAfter {
    /// Stones each colour removes (`[white, black]`; negative: of its own).
    pub removals: [i8; 2],
    /// The colour that removes first.
    pub first: Color,
    /// The colour to move after the removals.
    pub next: Color,
    /// The sector after the removals, seen from `next`.
    pub sector: Sector,
}

/// The most mills `n` stones can form on the board of `v` (every set of `n` points tried once
/// per board and count, then remembered).
fn max_mills(v: &Variant, n: u8) -> u8 {
    static CACHE: OnceLock<Mutex<HashMap<(BoardKind, u8), u8>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (v.board_kind, n);
    if let Some(&m) = cache.lock().expect("the cache").get(&key) {
        return m;
    }
    let board = v.board();
    let points = board.len() as u32;
    let mut best = 0;
    if n as u32 <= points && n > 0 {
        let mut set: Bits = (1 << n) - 1;
        while set < 1 << points {
            best = best.max(board.mill_count(set));
            // The next set of `n` points (Gosper's hack).
            let low = set & set.wrapping_neg();
            let ripple = set + low;
            set = (((ripple ^ set) >> 2) / low) | ripple;
        }
    }
    cache.lock().expect("the cache").insert(key, best);
    best
}

/// The value of a blocked side's removal (or of its opponent's reply under `both-remove`) for
/// the side making it, from the value `next` of the position after it for the side to move
/// there, who is the remover if `same` (not negated then). A removal is a ply that resets the
/// N-move counter, as [`NMoveRule::move_value`] values a resetting move: the turn of a blocked
/// side starts like any other, drawn when the counter has reached N (the check comes before
/// everything else, docs/NMOVE.md), so under a rule it is decided with DTR 1 when `next` is
/// decided at counter 0, and cursed or blessed (distance `N + 1`) when `next` is. `rule` is
/// the rule in force before the removal, `next_rule` after it ([`NMoveRule::move_value_into`]:
/// an endgame rule may hold on one side only).
#[inline]
pub fn removal_ply(rule: NMoveRule, next_rule: NMoveRule, next: Value, same: bool) -> Value {
    let theirs = match (next, same) {
        (Value::Win(k), true) => Value::Loss(k),
        (Value::Loss(k), true) => Value::Win(k),
        (v, _) => v,
    };
    rule.move_value_into(next_rule, theirs.encode(), true)
}

impl MoveSectors {
    /// The sectors of the moves of `s`.
    pub fn of(v: &Variant, s: Sector) -> MoveSectors {
        let slides = can_slide(v, s);
        let places = s.wf > 0;
        let again = places && places_again(v, s);
        let taking_again = places && v.placing_mill == PlacingMill::FromHandAgain;
        // Under `placing-mill=from-hand` a placement's removals take from the opponent's hand
        // while it has stones there, then from the board.
        let from_hand = v.removes_from_hand();
        let most = (v.max_taken() as usize).min(MAX_TAKEN);
        // The sector after a move leaving the mover `w_after` stones on the board and the
        // opponent `k` fewer, seen from the side to move next.
        let after = |w_after: u8, k: u8, placed: bool| {
            let hand_k = if placed && from_hand { k.min(s.bf) } else { 0 };
            let (them, them_hand) = (s.b - (k - hand_k), s.bf - hand_k);
            let us_hand = s.wf - (w_after - s.w);
            if placed && (again || (k > 0 && taking_again)) {
                Sector::new(w_after, them, us_hand, them_hand)
            } else {
                Sector::new(them, w_after, them_hand, us_hand)
            }
        };
        // Taking needs an opponent's stone (on the board, or in hand for a placement under
        // `from-hand`) and a mill (three stones of the mover) or a capture.
        let taking = |moves: bool, w_after: u8, placed: bool| {
            let mut out: ByTaken = [None; MAX_TAKEN];
            let stones = match placed && from_hand {
                true => s.b + s.bf,
                false => s.b,
            };
            if moves && (w_after >= 3 || !v.takes_one_at_most()) {
                for k in 1..=most.min(stones as usize) {
                    out[k - 1] = Some(after(w_after, k as u8, placed));
                }
            }
            out
        };
        MoveSectors {
            slide: slides.then(|| s.swapped()),
            slide_taking: taking(slides, s.w, false),
            place: places.then(|| after(s.w + 1, 0, true)),
            // Under `placing-mill=by-mill-counts` a placement removes nothing.
            place_taking: taking(
                places && v.placing_mill != PlacingMill::ByMillCounts,
                s.w + 1,
                true,
            ),
            place_again: again,
            taking_again,
            blocked: blocked_exit(v, s).map(|b| b.to),
            full_board: full_board_exits(v, s),
        }
    }

    /// Does the mover move again after a move to one of these targets (a placement if
    /// `placed`, one that takes stones if `taking`): is the target seen from the mover?
    pub fn again(&self, placed: bool, taking: bool) -> bool {
        placed && (self.place_again || (taking && self.taking_again))
    }

    /// Is the opponent left with three stones or more (on the board and in hand) after a move
    /// taking stones to `t`, one of these targets (a placement's if `placed`)? Otherwise the
    /// mover has won.
    pub fn leaves_opponent(&self, t: Sector, placed: bool) -> bool {
        let (on_board, in_hand) = if self.again(placed, true) {
            (t.b, t.bf)
        } else {
            (t.w, t.wf)
        };
        on_board + in_hand >= MIN_STONES
    }

    /// A slide or fly that closes a mill and removes one stone (the standard game's only
    /// taking slide).
    pub fn slide_removal(&self) -> Option<Sector> {
        self.slide_taking[0]
    }

    /// A placement that closes a mill and removes one stone.
    pub fn place_removal(&self) -> Option<Sector> {
        self.place_taking[0]
    }

    /// Every sector a move taking stones leads to (placements first).
    pub fn taking(&self) -> impl Iterator<Item = Sector> + '_ {
        self.place_taking
            .iter()
            .chain(&self.slide_taking)
            .flatten()
            .copied()
    }

    /// The targets in a fixed order: placement, placements taking 1, 2, ... stones, slide,
    /// slides taking 1, 2, ... stones, a blocked side's removals, a full board's removals.
    pub fn iter(&self) -> impl Iterator<Item = Sector> + '_ {
        std::iter::once(self.place)
            .chain(self.place_taking)
            .chain(std::iter::once(self.slide))
            .chain(self.slide_taking)
            .chain(std::iter::once(self.blocked))
            .chain(self.full_board)
            .flatten()
    }
}

/// Where the moves of a sector lead, apart from moves inside its component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExitSectors {
    /// A slide or fly that takes nothing, when it leaves the component (the opponent cannot
    /// slide back; only in sectors no standard game reaches).
    pub slide: Option<Sector>,
    /// A slide or fly that takes stones, by the number taken (`None`: no such move, or the
    /// opponent is left with too few stones, an immediate win).
    pub slide_taking: ByTaken,
    /// A placement that takes nothing.
    pub place: Option<Sector>,
    /// A placement that takes stones, by the number taken.
    pub place_taking: ByTaken,
    /// A blocked side's removals ([`MoveSectors::blocked`]; `None` also where they finish the
    /// game: a side left with too few stones).
    pub blocked: Option<Sector>,
    /// A board filled by placing: where its removals lead ([`MoveSectors::full_board`];
    /// `None` also where they finish the game).
    pub full_board: FullExits,
    /// The placements end placing and their mover moves again ([`places_again`]): `place`
    /// and `place_taking` are seen from the mover, and their values are the mover's.
    pub place_again: bool,
    /// The placements taking stones leave their mover to move again
    /// ([`MoveSectors::taking_again`]): `place_taking` is seen from the mover.
    pub taking_again: bool,
}

impl ExitSectors {
    /// The targets in the order the solver reads them: slide, slides taking 1, 2, ...
    /// stones, placement, placements taking 1, 2, ... stones, a blocked side's removals, a
    /// full board's removals (`None`: no such move, or the game is over); [`EXIT_KINDS`] of
    /// them.
    pub fn targets(&self) -> [Option<Sector>; EXIT_KINDS] {
        let mut out = [None; EXIT_KINDS];
        out[0] = self.slide;
        out[1..=MAX_TAKEN].copy_from_slice(&self.slide_taking);
        out[MAX_TAKEN + 1] = self.place;
        out[MAX_TAKEN + 2..2 * MAX_TAKEN + 2].copy_from_slice(&self.place_taking);
        out[BLOCKED_EXIT] = self.blocked;
        out[FULL_BOARD_EXITS..].copy_from_slice(&self.full_board);
        out
    }
}

/// The number of kinds of exit ([`ExitSectors::targets`]).
pub const EXIT_KINDS: usize = 2 * MAX_TAKEN + 3 + MAX_FULL_EXITS;

/// The place of a blocked side's removals in [`ExitSectors::targets`].
pub const BLOCKED_EXIT: usize = 2 * MAX_TAKEN + 2;

/// The place of a full board's removals in [`ExitSectors::targets`] (the rest of the array).
pub const FULL_BOARD_EXITS: usize = BLOCKED_EXIT + 1;

/// The sectors the moves of `s` can exit to (those a game can actually need).
pub fn exit_sectors(v: &Variant, s: Sector) -> ExitSectors {
    let m = MoveSectors::of(v, s);
    let alive = |placed: bool| move |t: Option<Sector>| t.filter(|&t| m.leaves_opponent(t, placed));
    ExitSectors {
        slide: m.slide.filter(|t| !together(v, s).contains(t)),
        slide_taking: m.slide_taking.map(alive(false)),
        place: m.place,
        place_taking: m.place_taking.map(alive(true)),
        place_again: m.place_again,
        taking_again: m.taking_again,
        blocked: m.blocked.filter(|t| is_live(v, *t)),
        full_board: m.full_board.map(|t| t.filter(|&t| is_live(v, t))),
    }
}

/// The sectors solved together with `s`: itself and its colour-swapped partner when slides
/// lead back and forth between them, else `s` alone.
fn together(v: &Variant, s: Sector) -> Vec<Sector> {
    let p = s.swapped();
    if p != s && can_slide(v, s) && can_slide(v, p) {
        vec![s, p]
    } else {
        vec![s]
    }
}

/// The unit the solver works on: the sectors that move into each other and are solved
/// together, with where their moves leave them.
///
/// A component is a sector and its colour-swapped partner when slides lead back and forth
/// between them (the moving phase, e.g. 4-5-0-0 + 5-4-0-0; Lasker's placing phase), or a
/// sector alone when its moves all leave it (the standard placing phase) or its partner is
/// itself (`w-w`). It is named by its smallest sector ([`Component::first`]): the plan's
/// lines, the lock file of a table directory. Built once ([`Component::of`]) and handed to
/// the solver, generation, the plan and the lock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    /// The sectors, smallest first.
    sectors: Vec<Sector>,
    /// Per sector (in the order of `sectors`): the sectors its moves exit to.
    exits: Vec<ExitSectors>,
    /// The sectors the exits lead to, each once, in the order of the sectors and their exits.
    dependencies: Vec<Sector>,
    /// Solved in one pass over its exits ([`Component::is_exit_only`]).
    exit_only: bool,
}

impl Component {
    /// The component that holds sector `s`.
    pub fn of(v: &Variant, s: Sector) -> Component {
        let mut sectors = together(v, s);
        sectors.sort_unstable();
        let exits: Vec<ExitSectors> = sectors.iter().map(|&t| exit_sectors(v, t)).collect();
        let mut dependencies = Vec::new();
        for d in exits.iter().flat_map(ExitSectors::targets).flatten() {
            if !dependencies.contains(&d) {
                dependencies.push(d);
            }
        }
        // No move stays in a sector that cannot slide: it is its own component.
        let exit_only = !can_slide(v, sectors[0]) && exits[0].place.is_some();
        Component {
            sectors,
            exits,
            dependencies,
            exit_only,
        }
    }

    /// Its smallest sector, which names it.
    pub fn first(&self) -> Sector {
        self.sectors[0]
    }

    /// Its sectors (one or two), smallest first.
    pub fn sectors(&self) -> &[Sector] {
        &self.sectors
    }

    /// The solved sectors that solving it reads: the targets of its sectors' exits, each
    /// once (sectors solved before it).
    pub fn dependencies(&self) -> &[Sector] {
        &self.dependencies
    }

    /// Where the moves of each of its sectors leave it, in the order of
    /// [`Component::sectors`]: the tables the solver reads for that sector's forward pass.
    pub(crate) fn exits(&self) -> &[ExitSectors] {
        &self.exits
    }

    /// Is it solved in one pass over its exits: a sector alone where no move stays (it
    /// cannot slide) and whose placements lead out of it?
    pub fn is_exit_only(&self) -> bool {
        self.exit_only
    }
}

/// The components needed to solve `targets`, in an order where every component comes after
/// the ones it reads.
pub fn solving_order(v: &Variant, targets: &[Sector]) -> Vec<Component> {
    fn visit(v: &Variant, s: Sector, seen: &mut HashSet<Sector>, out: &mut Vec<Component>) {
        let c = Component::of(v, s);
        if !seen.insert(c.first()) {
            return;
        }
        for &d in c.dependencies() {
            visit(v, d, seen, out);
        }
        out.push(c);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &t in targets {
        visit(v, t, &mut seen, &mut out);
    }
    out
}

/// Every moving-phase sector of `v` with `w + b <= max_total` stones.
pub fn moving_sectors_up_to(v: &Variant, max_total: u8) -> Vec<Sector> {
    let mut out = Vec::new();
    for w in 3..=v.stones {
        for b in 3..=v.stones {
            let s = Sector::moving(w, b);
            if w + b <= max_total && s.fits(v) {
                out.push(s);
            }
        }
    }
    out
}

/// The sectors one move from `s` can lead to (terminal outcomes left out).
pub fn successor_sectors(v: &Variant, s: Sector) -> Vec<Sector> {
    let moves = MoveSectors::of(v, s);
    // Every move needs an empty point; a board filled by placing starts removals.
    if s.w + s.b >= v.board().len() as u8 {
        let live = moves.full_board.into_iter().flatten();
        return live.filter(|&t| is_live(v, t)).collect();
    }
    let mut out = Vec::new();
    for t in moves.iter() {
        if is_live(v, t) && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Every sector a game from the start position can reach, in increasing order.
pub fn reachable_sectors(v: &Variant) -> Vec<Sector> {
    let mut seen = HashSet::new();
    let mut stack = vec![start_sector(v)];
    seen.insert(start_sector(v));
    while let Some(s) = stack.pop() {
        for t in successor_sectors(v, s) {
            if seen.insert(t) {
                stack.push(t);
            }
        }
    }
    let sorted: BTreeSet<Sector> = seen.into_iter().collect();
    sorted.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::VARIANTS;
    use std::collections::HashMap;

    #[test]
    fn dependencies_come_first_in_solving_order() {
        for v in &VARIANTS {
            let order = solving_order(v, &reachable_sectors(v));
            let rank: HashMap<Sector, usize> = order
                .iter()
                .enumerate()
                .flat_map(|(i, c)| c.sectors().iter().map(move |&s| (s, i)))
                .collect();
            for (i, c) in order.iter().enumerate() {
                for d in c.dependencies() {
                    assert!(rank[d] < i, "{}: {d} after {}", v.name, c.first());
                }
                // Named by its smallest sector; the same component from each of its sectors.
                assert_eq!(c.first(), *c.sectors().iter().min().unwrap());
                for &s in c.sectors() {
                    assert_eq!(&Component::of(v, s), c);
                }
            }
            // Every reachable sector is in some component of the order, once.
            for s in reachable_sectors(v) {
                assert!(rank.contains_key(&s), "{}: {s}", v.name);
            }
            assert_eq!(
                rank.len(),
                order.iter().map(|c| c.sectors().len()).sum::<usize>()
            );
        }
    }

    #[test]
    fn moving_phase_pairs_w_b_with_b_w() {
        let v = Variant::standard();
        for w in 3..=9 {
            for b in 3..=9 {
                let s = Sector::moving(w, b);
                let c = Component::of(&v, s);
                if w == b {
                    assert_eq!(c.sectors(), [s]);
                } else {
                    let (low, high) = (s.min(s.swapped()), s.max(s.swapped()));
                    assert_eq!(c.sectors(), [low, high]);
                }
                assert!(!c.is_exit_only());
                // Slides stay inside; only removals leave.
                assert_eq!(exit_sectors(&v, s).slide, None);
            }
        }
        // The standard placing phase: each sector alone, left by every move.
        let start = start_sector(&v);
        let c = Component::of(&v, start);
        assert_eq!(c.sectors(), [start]);
        assert_eq!(c.dependencies(), [Sector::new(0, 1, 9, 8)]);
        assert!(c.is_exit_only());
    }

    #[test]
    fn successors_are_the_live_exits_and_slides() {
        for v in &VARIANTS {
            for s in reachable_sectors(v) {
                let exits: Vec<Sector> =
                    exit_sectors(v, s).targets().into_iter().flatten().collect();
                for t in successor_sectors(v, s) {
                    assert!(
                        exits.contains(&t) || Component::of(v, s).sectors().contains(&t),
                        "{}: {s} -> {t}",
                        v.name
                    );
                }
            }
        }
    }

    #[test]
    fn standard_game_reaches_every_moving_sector() {
        let v = Variant::standard();
        let all = reachable_sectors(&v);
        for w in 3..=9 {
            for b in 3..=9 {
                assert!(all.contains(&Sector::moving(w, b)), "{w}-{b}");
            }
        }
        assert!(all.contains(&start_sector(&v)));
        // White to move always holds as many stones in hand as black; black one more.
        for s in &all {
            assert!(s.wf == s.bf || s.wf == s.bf + 1, "{s}");
        }
    }

    #[test]
    fn black_moving_first_keeps_the_mover_after_the_last_placement() {
        let six = Variant::by_name("six").unwrap();
        let v = Variant::from_rules("six", &["moving-first=black"]).unwrap();
        // Black places its last stone (one in hand, White none) and moves again: the
        // placement leads to the moving phase seen from Black.
        let m = MoveSectors::of(&v, Sector::new(4, 6, 1, 0));
        assert!(m.place_again);
        assert_eq!(m.place, Some(Sector::moving(5, 6)));
        assert_eq!(m.place_removal(), Some(Sector::moving(5, 5)));
        assert!(m.leaves_opponent(Sector::moving(5, 5), true));
        let white = MoveSectors::of(&six, Sector::new(4, 6, 1, 0));
        assert!(!white.place_again);
        assert_eq!(white.place, Some(Sector::moving(6, 5)));
        assert_eq!(white.place_removal(), Some(Sector::moving(5, 5)));
        // A removal that leaves White two stones wins at once: no exit table.
        let e = exit_sectors(&v, Sector::new(2, 3, 1, 0));
        assert!(e.place_again);
        assert_eq!(e.place, Some(Sector::moving(3, 3)));
        assert_eq!(e.place_taking[0], None);
        // Other placements hand the move over as before.
        for s in [Sector::new(4, 4, 1, 1), Sector::new(3, 3, 2, 1)] {
            assert_eq!(MoveSectors::of(&v, s), MoveSectors::of(&six, s));
        }
        // The same sectors are reachable (both sides of a moving sector are, by slides), each
        // in the same component.
        assert_eq!(reachable_sectors(&v), reachable_sectors(&six));
        for s in reachable_sectors(&v) {
            assert_eq!(
                Component::of(&v, s).sectors(),
                Component::of(&six, s).sectors()
            );
        }
    }

    #[test]
    fn standard_game_reaches_318_sectors() {
        let v = Variant::standard();
        assert_eq!(reachable_sectors(&v).len(), 318);
    }
}
