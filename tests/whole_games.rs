//! Whole games of the small variants, solved from the empty board and checked position by
//! position with the forward verifier.

use millbase::plan::plan;
use millbase::sectors::start_sector;
use millbase::solver::{SectorStats, SolveOptions, SolvedValues, solve_component};
use millbase::tables::ValueLookup;
use millbase::{Sector, Value, Variant, VerifyOptions, verify_sector};
use std::sync::Arc;

struct Lookup<'a>(&'a SolvedValues);

impl ValueLookup for Lookup<'_> {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.0.get(&sector).map(|v| v.as_slice())
    }
}

fn solve_all(v: &Variant) -> SolvedValues {
    let mut solved = SolvedValues::new();
    for entry in plan(v, &[]) {
        for out in solve_component(v, &entry.component, &solved, &SolveOptions::default()).unwrap()
        {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    solved
}

fn check_all(v: &Variant, solved: &SolvedValues) -> u64 {
    let mut checked = 0;
    for &s in solved.keys() {
        let (n, bad, report) = verify_sector(v, s, &Lookup(solved), &VerifyOptions::default());
        assert_eq!(bad, 0, "{} sector {s}: {report:?}", v.name);
        checked += n;
    }
    checked
}

#[test]
fn three_mens_morris_whole_game() {
    let v = Variant::by_name("three").unwrap();
    let solved = solve_all(&v);
    let positions: u64 = solved.values().map(|x| SectorStats::of(x).positions).sum();
    assert_eq!(positions, check_all(&v, &solved));
    assert_eq!(solved.len(), 7);
    assert_eq!(positions, 564);
    assert_eq!(
        Value::decode(solved[&start_sector(&v)][0]),
        Some(Value::Draw)
    );
}

#[test]
fn six_mens_morris_whole_game() {
    let v = Variant::by_name("six").unwrap();
    let solved = solve_all(&v);
    let positions: u64 = solved.values().map(|x| SectorStats::of(x).positions).sum();
    assert_eq!(positions, check_all(&v, &solved));
    assert_eq!(solved.len(), 77);
    assert_eq!(positions, 3_101_821);
    assert_eq!(
        Value::decode(solved[&start_sector(&v)][0]),
        Some(Value::Draw)
    );
}
