//! The sector graph: which sectors the moves of a sector lead to, which sectors are solved
//! together, what each needs solved before it, the order to solve them in, and which sectors a
//! game from the start position reaches.
//!
//! * **Nodes** are sectors ([`Sector`]): the stones on the board and in hand of the side to
//!   move and of its opponent. A sector is always seen from the side to move, so every move
//!   leads to a sector seen from the other side.
//! * **Edges** are the kinds of move ([`MoveSectors`]): a slide or fly that closes no mill
//!   (to the colour-swapped sector), a placement (one stone from hand to board), and either of
//!   them closing a mill and removing an opponent's stone. Placements and removals change the
//!   stone counts, so they only go "down" (fewer stones in hand or on the board); slides go
//!   back and forth between a sector and its colour-swapped partner.
//! * **Components** ([`component`]) are the sectors that move into each other and are solved
//!   together: `w-b` and `b-w` in the moving phase (or in Lasker Morris's placing phase, where
//!   stones may slide too), a single sector where no slide is possible (the standard placing
//!   phase) or where the partner is itself (`w-w`).
//! * **Exits** ([`exit_sectors`]) are the edges that leave a component; their targets are the
//!   component's **dependencies** ([`dependencies`]), solved before it.
//! * The **solving order** ([`solving_order`]) lists components dependencies first, each named
//!   by its smallest sector.
//! * **Reachability** ([`reachable_sectors`]): the sectors a game from the start position
//!   ([`start_sector`]) can reach, following [`successor_sectors`] (the edges that keep both
//!   sides alive and need an empty point).
//!
//! Solving ([`solve`](crate::solve)), generation, the plan, verification and the command line
//! all read the graph from here; the positions inside a sector are the business of the move
//! generators and of `reach` (which positions of a sector a game reaches).

use crate::game::rules::{MIN_STONES, Variant};
use crate::sector::index::Sector;
use std::collections::{BTreeSet, HashSet};

/// The sector of the variant's start position.
pub fn start_sector(v: &Variant) -> Sector {
    Sector::new(0, 0, v.stones, v.stones)
}

/// Is `s` a sector where the game is still on (both sides have three stones or more)?
pub fn is_live(v: &Variant, s: Sector) -> bool {
    s.fits(v) && s.w + s.wf >= MIN_STONES && s.b + s.bf >= MIN_STONES
}

/// Can the side to move in sector `s` slide (or fly) a stone?
pub fn can_slide(v: &Variant, s: Sector) -> bool {
    s.w > 0 && v.may_move(s.wf)
}

/// The sector each kind of move of `s` leads to (seen from the opponent, who moves next), as
/// far as the stone counts allow the move: `None` where `s` has no such move. The opponent may
/// be left with too few stones (a lost game), and the board may be full (no move at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSectors {
    /// A slide or fly that closes no mill: the colour-swapped sector.
    pub slide: Option<Sector>,
    /// A slide or fly that closes a mill and removes a stone.
    pub slide_removal: Option<Sector>,
    /// A placement that closes no mill.
    pub place: Option<Sector>,
    /// A placement that closes a mill and removes a stone.
    pub place_removal: Option<Sector>,
}

impl MoveSectors {
    /// The sectors of the moves of `s`.
    pub fn of(v: &Variant, s: Sector) -> MoveSectors {
        let slides = can_slide(v, s);
        let places = s.wf > 0;
        MoveSectors {
            slide: slides.then(|| s.swapped()),
            // A mill needs three stones of the mover, and a removal an opponent's stone.
            slide_removal: (slides && s.w >= 3 && s.b > 0)
                .then(|| Sector::new(s.b - 1, s.w, s.bf, s.wf)),
            place: places.then(|| Sector::new(s.b, s.w + 1, s.bf, s.wf - 1)),
            place_removal: (places && s.w + 1 >= 3 && s.b > 0)
                .then(|| Sector::new(s.b - 1, s.w + 1, s.bf, s.wf - 1)),
        }
    }

    /// The targets in a fixed order: placement, placement with removal, slide, slide with
    /// removal.
    pub fn iter(&self) -> impl Iterator<Item = Sector> {
        [
            self.place,
            self.place_removal,
            self.slide,
            self.slide_removal,
        ]
        .into_iter()
        .flatten()
    }
}

/// Where the moves of a sector lead, apart from moves inside its component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitSectors {
    /// A slide or fly that closes no mill, when it leaves the component (the opponent cannot
    /// slide back; only in sectors no standard game reaches).
    pub slide: Option<Sector>,
    /// A slide or fly that closes a mill and removes a stone (`None`: the opponent is left
    /// with too few stones, an immediate win).
    pub slide_removal: Option<Sector>,
    /// A placement that closes no mill.
    pub place: Option<Sector>,
    /// A placement that closes a mill and removes a stone.
    pub place_removal: Option<Sector>,
}

/// The sectors the moves of `s` can exit to (those a game can actually need).
pub fn exit_sectors(v: &Variant, s: Sector) -> ExitSectors {
    let m = MoveSectors::of(v, s);
    let alive = |sec: Sector| (sec.w + sec.wf >= MIN_STONES).then_some(sec);
    ExitSectors {
        slide: m.slide.filter(|t| !component(v, s).contains(t)),
        slide_removal: m.slide_removal.and_then(alive),
        place: m.place,
        place_removal: m.place_removal.and_then(alive),
    }
}

/// The sectors solved together with `s`: itself and its colour-swapped partner when slides
/// lead back and forth between them (the moving phase; Lasker's placing phase); `s` alone
/// when its moves all leave it (the standard placing phase).
pub fn component(v: &Variant, s: Sector) -> Vec<Sector> {
    let p = s.swapped();
    if p != s && can_slide(v, s) && can_slide(v, p) {
        vec![s, p]
    } else {
        vec![s]
    }
}

/// Is `s` solved alone in one pass over its exits: no move stays in it (it cannot slide,
/// so it is its own component) and its placements lead out of it?
pub fn is_exit_only(v: &Variant, s: Sector) -> bool {
    !can_slide(v, s) && exit_sectors(v, s).place.is_some()
}

/// The sectors whose tables the solver reads for the forward pass of `s`: those its slides,
/// slides with a removal, placements and placements with a removal lead to (`None`: no such
/// move, or the opponent has lost); a one-pass sector ([`is_exit_only`]) reads only the
/// placements'.
pub fn solver_reads(v: &Variant, s: Sector) -> [Option<Sector>; 4] {
    let e = exit_sectors(v, s);
    if is_exit_only(v, s) {
        [None, None, e.place, e.place_removal]
    } else {
        [e.slide, e.slide_removal, e.place, e.place_removal]
    }
}

/// The solved sectors that solving the component of `s` reads.
pub fn dependencies(v: &Variant, s: Sector) -> Vec<Sector> {
    let mut deps = Vec::new();
    for sec in component(v, s) {
        let e = exit_sectors(v, sec);
        for d in [e.slide, e.slide_removal, e.place, e.place_removal]
            .into_iter()
            .flatten()
        {
            if !deps.contains(&d) {
                deps.push(d);
            }
        }
    }
    deps
}

/// The components (each named by its first sector) needed to solve `targets`, in an order
/// where every component comes after the ones it reads.
pub fn solving_order(v: &Variant, targets: &[Sector]) -> Vec<Sector> {
    fn visit(v: &Variant, s: Sector, seen: &mut HashSet<Sector>, out: &mut Vec<Sector>) {
        let key = component(v, s)
            .into_iter()
            .min()
            .expect("a component has a sector");
        if !seen.insert(key) {
            return;
        }
        for d in dependencies(v, key) {
            visit(v, d, seen, out);
        }
        out.push(key);
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
    // Every move needs an empty point.
    if s.w + s.b >= v.board().len() as u8 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for t in MoveSectors::of(v, s).iter() {
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
                .flat_map(|(i, &first)| component(v, first).into_iter().map(move |s| (s, i)))
                .collect();
            for (i, &first) in order.iter().enumerate() {
                for d in dependencies(v, first) {
                    assert!(rank[&d] < i, "{}: {d} after {first}", v.name);
                }
            }
            // Every reachable sector is in some component of the order, once.
            for s in reachable_sectors(v) {
                assert!(rank.contains_key(&s), "{}: {s}", v.name);
            }
            assert_eq!(
                rank.len(),
                order.iter().map(|&f| component(v, f).len()).sum::<usize>()
            );
        }
    }

    #[test]
    fn moving_phase_pairs_w_b_with_b_w() {
        let v = Variant::standard();
        for w in 3..=9 {
            for b in 3..=9 {
                let s = Sector::moving(w, b);
                let c = component(&v, s);
                if w == b {
                    assert_eq!(c, vec![s]);
                } else {
                    assert_eq!(c, vec![s, Sector::moving(b, w)]);
                }
                // Slides stay inside; only removals leave.
                assert_eq!(exit_sectors(&v, s).slide, None);
            }
        }
        // The standard placing phase: each sector alone, left by every move.
        let start = start_sector(&v);
        assert_eq!(component(&v, start), vec![start]);
        assert_eq!(dependencies(&v, start), vec![Sector::new(0, 1, 9, 8)]);
    }

    #[test]
    fn successors_are_the_live_exits_and_slides() {
        for v in &VARIANTS {
            for s in reachable_sectors(v) {
                let e = exit_sectors(v, s);
                let exits: Vec<Sector> = [e.place, e.place_removal, e.slide, e.slide_removal]
                    .into_iter()
                    .flatten()
                    .collect();
                for t in successor_sectors(v, s) {
                    assert!(
                        exits.contains(&t) || component(v, s).contains(&t),
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
    fn standard_game_reaches_318_sectors() {
        let v = Variant::standard();
        assert_eq!(reachable_sectors(&v).len(), 318);
    }
}
