//! The solving plan of whole games: the components a set of targets needs (from the sector
//! graph, `graph`), in solving order, with their exact sizes.

use crate::graph::{component, dependencies, reachable_sectors, solver_reads, solving_order};
use crate::index::{BoardTables, Sector, SectorIndex};
use crate::rules::Variant;

/// Number of positions of a sector up to symmetry (orbits of stone placements), counted
/// exactly with Burnside's lemma over the board's symmetry group.
pub fn positions_up_to_symmetry(v: &Variant, s: Sector) -> u64 {
    let tables = BoardTables::of(v.board_kind);
    let board = tables.board;
    let (w, b) = (s.w as usize, s.b as usize);
    let mut total: u128 = 0;
    for perm in board.symmetries() {
        // Cycle lengths of the permutation.
        let mut seen = vec![false; perm.len()];
        let mut cycles = Vec::new();
        for start in 0..perm.len() {
            if seen[start] {
                continue;
            }
            let (mut p, mut len) = (start, 0);
            while !seen[p] {
                seen[p] = true;
                p = perm[p] as usize;
                len += 1;
            }
            cycles.push(len);
        }
        // Fixed placements: each cycle is empty, all ours, or all theirs.
        let mut ways = vec![vec![0u128; b + 1]; w + 1];
        ways[0][0] = 1;
        for &len in &cycles {
            for i in (0..=w).rev() {
                for j in (0..=b).rev() {
                    let mut add = 0;
                    if i >= len {
                        add += ways[i - len][j];
                    }
                    if j >= len {
                        add += ways[i][j - len];
                    }
                    ways[i][j] += add;
                }
            }
        }
        total += ways[w][b];
    }
    (total / board.symmetries().len() as u128) as u64
}

/// Slots of the exit tables the solver holds at once while solving the component `sectors`:
/// it reads one component sector's exits for that sector's forward pass only, so the largest
/// such set counts, not all dependencies together.
pub fn largest_exit_slots(v: &Variant, sectors: &[Sector]) -> u64 {
    sectors
        .iter()
        .map(|&s| {
            solver_reads(v, s)
                .into_iter()
                .flatten()
                .map(|t| SectorIndex::new(v, t).slots())
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0)
}

/// One entry of a solving plan.
#[derive(Clone, Debug)]
pub struct PlanEntry {
    /// The component's sectors (solved together).
    pub sectors: Vec<Sector>,
    /// Positions up to symmetry, per sector.
    pub positions: Vec<u64>,
    /// Index slots (used and unused), per sector.
    pub slots: Vec<u64>,
    /// Sectors read while solving it.
    pub dependencies: Vec<Sector>,
}

/// The components needed for `targets` (all reachable sectors if empty) in solving order.
pub fn plan(v: &Variant, targets: &[Sector]) -> Vec<PlanEntry> {
    let targets = if targets.is_empty() {
        reachable_sectors(v)
    } else {
        targets.to_vec()
    };
    solving_order(v, &targets)
        .into_iter()
        .map(|first| {
            let sectors = component(v, first);
            PlanEntry {
                positions: sectors
                    .iter()
                    .map(|&s| positions_up_to_symmetry(v, s))
                    .collect(),
                slots: sectors
                    .iter()
                    .map(|&s| SectorIndex::new(v, s).slots())
                    .collect(),
                dependencies: dependencies(v, first),
                sectors,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burnside_counts_match_reference() {
        let v = Variant::standard();
        assert_eq!(positions_up_to_symmetry(&v, Sector::moving(3, 3)), 169_626);
        assert_eq!(positions_up_to_symmetry(&v, Sector::moving(3, 4)), 760_398);
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(8, 8)),
            591_726_690
        );
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(7, 8)),
            525_979_400
        );
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(9, 9)),
            409_106_740
        );
        let moving: u64 = (3..=9)
            .flat_map(|w| (3..=9).map(move |b| Sector::moving(w, b)))
            .map(|s| positions_up_to_symmetry(&v, s))
            .sum();
        assert_eq!(moving, 8_904_593_601);
    }
}
