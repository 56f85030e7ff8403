//! Tables under the N-move rule: consistency with the tables without it, verification,
//! and the file round trip.

use millbase::format::{TableSet, WriteOptions, write_sector};
use millbase::sectors::moving_sectors_up_to;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::tables::ValueLookup;
use millbase::{NMoveRule, Sector, Value, Variant, VerifyOptions, verify_sector};
use std::collections::HashMap;
use std::sync::Arc;

/// Solve `targets` and their dependencies under `rule`.
fn solve_all(v: &Variant, targets: &[Sector], rule: NMoveRule) -> SolvedValues {
    let mut solved = SolvedValues::new();
    let options = SolveOptions {
        rule,
        ..SolveOptions::default()
    };
    for c in millbase::sectors::solving_order(v, targets) {
        for d in c.dependencies() {
            assert!(solved.contains_key(d), "{d} before {}", c.first());
        }
        for out in solve_component(v, &c, &solved, &options).unwrap() {
            solved.insert(out.sector, Arc::new(out.values));
        }
        assert!(c.sectors().iter().all(|s| solved.contains_key(s)));
    }
    solved
}

struct Lookup<'a>(&'a SolvedValues);

impl ValueLookup for Lookup<'_> {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.0.get(&sector).map(|v| v.as_slice())
    }
}

fn wdl(code: u16) -> Option<i8> {
    Value::decode(code).map(|v| match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    })
}

#[test]
fn with_a_long_rule_the_results_are_those_without_it() {
    let v = Variant::standard();
    let targets = moving_sectors_up_to(&v, 10);
    let free = solve_all(&v, &targets, NMoveRule::NONE);
    let rule = NMoveRule::new(1000).unwrap();
    let ruled = solve_all(&v, &targets, rule);
    for (s, values) in &free {
        let r = &ruled[s];
        assert_eq!(values.len(), r.len());
        let mut longest = 0;
        for (slot, (&a, &b)) in values.iter().zip(r.iter()).enumerate() {
            assert_eq!(wdl(a), wdl(b), "sector {s} slot {slot}");
            if let Some(Value::Win(d) | Value::Loss(d)) = Value::decode(b) {
                assert!(d >= 1, "sector {s} slot {slot}: DTR 0");
                longest = longest.max(d);
            }
        }
        assert!(longest <= rule.n(), "sector {s}: no win may be cursed");
    }
}

#[test]
fn tables_under_the_rule_verify_and_round_trip() {
    let v = Variant::standard();
    let targets = [Sector::moving(3, 5), Sector::moving(4, 4)];
    for n in [4, 20, 100] {
        let rule = NMoveRule::new(n).unwrap();
        let solved = solve_all(&v, &targets, rule);
        let dir = tempfile::tempdir().unwrap();
        let options = WriteOptions {
            rule,
            ..WriteOptions::default()
        };
        let mut cursed = HashMap::new();
        for (&s, values) in &solved {
            let check = VerifyOptions {
                rule,
                ..VerifyOptions::default()
            };
            let (checked, bad, report) = verify_sector(&v, s, &Lookup(&solved), &check);
            assert_eq!(bad, 0, "N = {n}, sector {s}: {report:?}");
            assert!(checked > 0);
            write_sector(dir.path(), &v, s, values, &options).unwrap();
            let beyond = values
                .iter()
                .filter_map(|&c| Value::decode(c))
                .filter(|v| v.plies().is_some_and(|d| d > n))
                .count();
            cursed.insert(s, beyond);
        }
        let set = TableSet::new(dir.path(), v);
        for (&s, values) in &solved {
            assert_eq!(
                &set.read_values(s).unwrap(),
                values.as_ref(),
                "N = {n}, {s}"
            );
        }
        assert_eq!(set.rule(), Some(rule));
        // With N = 4 some wins need more removal-free plies than the rule allows.
        if n == 4 {
            assert!(cursed.values().sum::<usize>() > 0);
        }
    }
}
