//! Tests of the solver: staged loading of the dependencies agrees with a map of solved
//! values and holds one sector's exit tables at a time; missing and bad dependencies.

use super::*;
use crate::sector::graph::{exit_sectors, solving_order};
use std::sync::{Mutex, Weak};

/// Solve `targets` and what they need twice, from a map and from a loader that hands out
/// fresh copies and watches them: the values agree, each forward pass loads exactly its
/// sector's exit targets, and no table of an earlier pass is alive when the next loads.
fn staged_agrees(v: &Variant, targets: &[Sector]) {
    let mut solved = SolvedValues::new();
    for c in solving_order(v, targets) {
        let first = c.first();
        let sectors = c.sectors();
        let batches: Vec<Vec<Sector>> = sectors
            .iter()
            .map(|&s| {
                let e = exit_sectors(v, s);
                let exit_only = sectors.len() == 1 && !can_slide(v, s) && e.place.is_some();
                if exit_only {
                    assert!(e.slide.is_none() && e.slide_taking.iter().all(Option::is_none));
                }
                e.targets().into_iter().flatten().collect()
            })
            .collect();
        let loads: Mutex<Vec<(Sector, Weak<Vec<u16>>)>> = Mutex::new(Vec::new());
        let load = |d: Sector| -> Result<Arc<Vec<u16>>, SolveError> {
            let values = Arc::new(
                solved
                    .get(&d)
                    .ok_or(SolveError::MissingDependency(d))?
                    .as_ref()
                    .clone(),
            );
            let mut loads = loads.lock().unwrap();
            let mut live: Vec<Sector> = loads
                .iter()
                .filter(|(_, w)| w.strong_count() > 0)
                .map(|&(s, _)| s)
                .collect();
            live.push(d);
            assert!(
                batches.iter().any(|b| live.iter().all(|s| b.contains(s))),
                "{first}: {live:?} loaded together"
            );
            loads.push((d, Arc::downgrade(&values)));
            Ok(values)
        };
        let staged = solve_component(v, &c, &load, &SolveOptions::default()).unwrap();
        let loads = loads.into_inner().unwrap();
        assert!(loads.iter().all(|(_, w)| w.strong_count() == 0), "{first}");
        let loaded: Vec<Sector> = loads.iter().map(|&(s, _)| s).collect();
        assert_eq!(loaded, batches.concat(), "{first}");
        let mapped = solve_component(v, &c, &solved, &SolveOptions::default()).unwrap();
        for (a, b) in staged.iter().zip(&mapped) {
            assert_eq!((a.sector, &a.values), (b.sector, &b.values));
        }
        for out in mapped {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
}

#[test]
fn staged_loading_matches_and_holds_one_sector_at_a_time() {
    // Std's moving phase up to 4-4 (exits from both sectors of a component), Three Men's
    // Morris whole (one-pass placing sectors), Lasker's placing with slides.
    staged_agrees(&Variant::standard(), &[Sector::new(4, 4, 0, 0)]);
    let three = Variant::by_name("three").unwrap();
    staged_agrees(&three, &[crate::sector::graph::start_sector(&three)]);
    let lasker = Variant::by_name("lasker").unwrap();
    staged_agrees(&lasker, &[Sector::new(3, 3, 1, 1)]);
}

#[test]
fn staged_loading_reports_missing_and_bad_dependencies() {
    let v = Variant::standard();
    let c = Component::of(&v, Sector::new(4, 4, 0, 0));
    let options = SolveOptions::default();
    let missing = solve_component(&v, &c, &SolvedValues::new(), &options);
    assert!(
        matches!(missing, Err(SolveError::MissingDependency(d)) if d == Sector::new(3, 4, 0, 0))
    );
    let short = |_: Sector| Ok::<_, SolveError>(Arc::new(vec![0u16; 3]));
    let bad = solve_component(&v, &c, &short, &options);
    assert!(matches!(bad, Err(SolveError::BadDependency(d)) if d == Sector::new(3, 4, 0, 0)));
}
