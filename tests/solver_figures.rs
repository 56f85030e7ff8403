//! The reference figures of RULES.md, reproduced by the solver.

use millbase::sectors::Component;
use millbase::solver::{SectorStats, SolveOptions, SolvedValues, solve_component};
use millbase::{Sector, Variant};
use std::sync::Arc;

fn solve(v: &Variant, sectors: &[Sector]) -> SolvedValues {
    let mut solved = SolvedValues::new();
    for &s in sectors {
        if solved.contains_key(&s) {
            continue;
        }
        for out in
            solve_component(v, &Component::of(v, s), &solved, &SolveOptions::default()).unwrap()
        {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    solved
}

#[test]
fn standard_3_3_3_4_4_3_figures() {
    let v = Variant::standard();
    let solved = solve(&v, &[Sector::moving(3, 3), Sector::moving(3, 4)]);
    let stats = |w, b| SectorStats::of(&solved[&Sector::moving(w, b)]);
    let s33 = stats(3, 3);
    assert_eq!(
        (
            s33.positions,
            s33.wins,
            s33.losses,
            s33.draws,
            s33.max_win,
            s33.max_loss
        ),
        (169_626, 140_621, 28_736, 269, 25, Some(26))
    );
    let s34 = stats(3, 4);
    assert_eq!(
        (
            s34.positions,
            s34.wins,
            s34.losses,
            s34.draws,
            s34.max_win,
            s34.max_loss
        ),
        (760_398, 102_281, 0, 658_117, 33, None)
    );
    let s43 = stats(4, 3);
    assert_eq!(
        (
            s43.positions,
            s43.wins,
            s43.losses,
            s43.draws,
            s43.max_win,
            s43.max_loss
        ),
        (760_398, 75_397, 3_095, 681_906, 1, Some(32))
    );
}
