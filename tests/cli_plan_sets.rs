//! Integration tests of `millbase plan` under every named rule set (issue 26): the plan works
//! for each, marks the tables refused under its rules and says why, and `plan --rule-sets`
//! gives one line per set whose figures agree with `plan --variant` and `generate --dry-run`.

use serde_json::Value;
use std::process::{Command, Output};

/// Run `millbase` with `args`.
fn millbase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase")
}

/// Run and expect success; return standard output.
fn ok(args: &[&str]) -> String {
    let out = millbase(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run and expect a usage error (exit 2) whose message contains every fragment.
fn fails(args: &[&str], fragments: &[&str]) {
    let out = millbase(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: {f:?} not in {err}");
    }
}

/// Run and parse standard output as JSON.
fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// The names `rules --list` prints, first word of each line.
fn set_names() -> Vec<String> {
    ok(&["rules", "--list"])
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// A sector's name "w-b-wf-bf" as numbers.
fn sector(name: &str) -> [u32; 4] {
    let n: Vec<u32> = name.split('-').map(|x| x.parse().unwrap()).collect();
    [n[0], n[1], n[2], n[3]]
}

/// Does a sector follow the placing phase's rules: stones in hand, or a full board of
/// `points`?
fn placing(name: &str, points: u32) -> bool {
    let [w, b, wf, bf] = sector(name);
    wf > 0 || bf > 0 || w + b == points
}

/// The strings of a JSON array.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// What `rules --variant NAME --json` says about a set's tables: (options refusing every
/// table, options refusing the placing phase's), each empty when supported.
fn rules_refusals(name: &str) -> (Vec<String>, Vec<String>) {
    let r = json(&["rules", "--variant", name, "--json"]);
    let list = |v: &Value| {
        if v == "supported" {
            Vec::new()
        } else {
            strings(v)
        }
    };
    let all = list(&r["tables"]);
    let placing: Vec<String> = list(&r["placing_tables"])
        .into_iter()
        .filter(|x| !all.contains(x))
        .collect();
    (all, placing)
}

/// The sum of the components' positions in a `plan --json` document, and the number of
/// sectors.
fn plan_sums(plan: &Value) -> (u64, usize) {
    let components = plan["components"].as_array().unwrap();
    let positions = components
        .iter()
        .flat_map(|c| c["positions"].as_array().unwrap())
        .map(|p| p.as_u64().unwrap())
        .sum();
    let sectors = components
        .iter()
        .map(|c| c["sectors"].as_array().unwrap().len())
        .sum();
    (positions, sectors)
}

#[test]
fn plan_works_for_every_named_set_and_names_what_rules_refuses() {
    let names = set_names();
    assert_eq!(names.len(), 18, "{names:?}");
    for name in &names {
        let plan = json(&["plan", "--variant", name, "--json"]);
        let (positions, sectors) = plan_sums(&plan);
        assert!(positions > 0, "{name}");
        assert_eq!(plan["total_positions"].as_u64(), Some(positions), "{name}");
        let (all, placing_only) = rules_refusals(name);
        let refused = &plan["refused"];
        if !all.is_empty() {
            assert_eq!(plan["tables"], "none", "{name}");
            assert_eq!(refused["scope"], "all", "{name}");
            assert_eq!(strings(&refused["rules"]), all, "{name}");
        } else if !placing_only.is_empty() {
            assert_eq!(plan["tables"], "moving phase only", "{name}");
            assert_eq!(refused["scope"], "placing", "{name}");
            assert_eq!(strings(&refused["rules"]), placing_only, "{name}");
        } else {
            assert_eq!(plan["tables"], "supported", "{name}");
            assert!(refused.is_null(), "{name}: {refused}");
        }
        if !refused.is_null() {
            // Every option refused has its reason; refused and allowed parts add up.
            for r in strings(&refused["rules"]) {
                assert!(
                    refused["reasons"][&r]
                        .as_str()
                        .is_some_and(|s| s.len() > 10),
                    "{name}: {r}"
                );
            }
            let part = |k: &str, f: &str| refused[k][f].as_u64().unwrap();
            assert_eq!(
                part("refused", "positions") + part("allowed", "positions"),
                positions,
                "{name}"
            );
            assert_eq!(
                (part("refused", "sectors") + part("allowed", "sectors")) as usize,
                sectors,
                "{name}"
            );
        }
        // The table prints the same total and marks refused components.
        let text = ok(&["plan", "--variant", name]);
        let total = text.lines().find(|l| l.starts_with("total:")).unwrap();
        assert!(
            total.contains(&format!(" {positions} positions")),
            "{total}"
        );
        assert_eq!(text.contains("refused:"), !refused.is_null(), "{name}");
    }
}

#[test]
fn placing_tables_refused_under_marks_are_marked_with_the_option() {
    let plan = json(&["plan", "--variant", "cham-gonu", "--json"]);
    assert_eq!(plan["tables"], "moving phase only");
    let refused = &plan["refused"];
    assert_eq!(refused["scope"], "placing");
    assert_eq!(strings(&refused["rules"]), ["placing-mill=mark"]);
    assert!(refused["reasons"]["placing-mill=mark"].is_string());
    // Marks are not stones: the refused sectors' figures are approximate.
    assert_eq!(refused["approximate"], true);
    // A component is refused exactly when a sector of it has stones in hand or fills the
    // 24 points of the board; the parts add the components' own figures.
    let (mut refused_pos, mut allowed_pos, mut refused_components) = (0, 0, 0);
    let (mut refused_sectors, mut allowed_sectors) = (0u64, 0u64);
    for c in plan["components"].as_array().unwrap() {
        let names = strings(&c["sectors"]);
        let pos: u64 = c["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum();
        if names.iter().any(|s| placing(s, 24)) {
            assert_eq!(strings(&c["refused"]), ["placing-mill=mark"], "{names:?}");
            refused_pos += pos;
            refused_sectors += names.len() as u64;
            refused_components += 1;
        } else {
            assert_eq!(c["refused"], Value::Array(Vec::new()), "{names:?}");
            allowed_pos += pos;
            allowed_sectors += names.len() as u64;
        }
    }
    assert!(refused_pos > 0 && allowed_pos > 0);
    assert_eq!(refused["refused"]["positions"].as_u64(), Some(refused_pos));
    assert_eq!(refused["allowed"]["positions"].as_u64(), Some(allowed_pos));
    assert_eq!(
        refused["refused"]["sectors"].as_u64(),
        Some(refused_sectors)
    );
    assert_eq!(
        refused["allowed"]["sectors"].as_u64(),
        Some(allowed_sectors)
    );
    // The table: one starred row per refused component, the option and what can be made.
    let text = ok(&["plan", "--variant", "cham-gonu"]);
    let starred = text
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.ends_with('*'))
        })
        .count();
    assert_eq!(starred, refused_components);
    let line = text
        .lines()
        .find(|l| l.starts_with("refused: the placing phase's tables"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("placing-mill=mark"), "{line}");
    assert!(
        line.contains(&format!(
            "{refused_sectors} sectors, {refused_pos} positions"
        )),
        "{line}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("tables that can be made: ")
                && l.contains(&format!("{allowed_pos} positions"))),
        "{text}"
    );
    assert!(text.contains("standard game's solve rates"), "{text}");
    // A plan of moving-phase sectors alone refuses nothing.
    let moving = json(&["plan", "--variant", "cham-gonu", "--json", "5-5"]);
    assert!(moving["refused"].is_null());
    assert_eq!(moving["tables"], "supported");
    // The workflow's jobs would be refused by generate, so --emit refuses, as generate does.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let emit = [
        "plan",
        "--emit",
        "snakemake",
        "--dir",
        d,
        "--variant",
        "cham-gonu",
    ];
    fails(&emit, &["tables of the placing phase", "placing-mill=mark"]);
    let mut moving_emit = emit.to_vec();
    moving_emit.push("5-5");
    assert!(ok(&moving_emit).contains("rule "));
}

#[test]
fn one_time_mill_plans_the_game_but_refuses_every_table() {
    let plan = json(&["plan", "--variant", "one-time-mill", "--json"]);
    assert_eq!(plan["tables"], "none");
    let refused = &plan["refused"];
    assert_eq!(refused["scope"], "all");
    assert_eq!(strings(&refused["rules"]), ["one-time-mill=on"]);
    assert_eq!(refused["approximate"], false);
    let components = plan["components"].as_array().unwrap();
    assert!(!components.is_empty());
    for c in components {
        assert_eq!(strings(&c["refused"]), ["one-time-mill=on"]);
    }
    assert_eq!(refused["allowed"]["sectors"], 0);
    assert_eq!(refused["refused"]["positions"], plan["total_positions"]);
    let text = ok(&["plan", "--variant", "one-time-mill"]);
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("total:"))
        .collect();
    assert_eq!(rows.len(), components.len());
    assert!(
        rows.iter()
            .all(|l| l.split_whitespace().next().unwrap().ends_with('*'))
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("refused: no tables under these rules"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("one-time-mill=on"), "{line}");
    assert!(!text.contains("tables that can be made"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    fails(
        &[
            "plan",
            "--emit",
            "snakemake",
            "--dir",
            d,
            "--variant",
            "one-time-mill",
        ],
        &[
            "tables are not available for these rules yet",
            "one-time-mill=on",
        ],
    );
    // The standard game's plan refuses nothing and needs no note on its rates.
    let std = ok(&["plan"]);
    assert!(
        !std.contains("refused") && !std.contains("solve rates"),
        "{std}"
    );
}

/// The figures `generate --dry-run --variant NAME` prints for the default set in an empty
/// directory: (sectors, positions).
fn dry_run(name: &str, dir: &str) -> (u64, u64) {
    let out = ok(&["generate", "--dry-run", "--variant", name, "--dir", dir]);
    // "to solve in DIR: 15 sectors, 156345815 positions; estimated ..."
    let figures = out.split(": ").nth(1).unwrap().split("; ").next().unwrap();
    let numbers: Vec<u64> = figures
        .split(", ")
        .map(|f| f.split(' ').next().unwrap().parse().unwrap())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn rule_sets_gives_one_entry_per_set_agreeing_with_plan_and_generate() {
    let names = set_names();
    let sets = json(&["plan", "--rule-sets", "--json"]);
    let sets = sets.as_array().unwrap();
    let listed: Vec<&str> = sets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(listed, names);
    let dir = tempfile::tempdir().unwrap();
    let rules_list = json(&["rules", "--list", "--json"]);
    for (s, r) in sets.iter().zip(rules_list.as_array().unwrap()) {
        let name = s["name"].as_str().unwrap();
        assert_eq!(r["name"], name);
        let whole = &s["whole_game"];
        let default = &s["default_set"];
        for f in [whole, default] {
            assert!(f["positions"].as_u64().unwrap() > 0, "{name}");
            assert!(f["sectors"].as_u64().unwrap() > 0, "{name}");
            assert!(f["estimated_seconds"].as_f64().unwrap() >= 0.0, "{name}");
            assert!(f["estimated_disk_bytes"].as_u64().is_some(), "{name}");
            assert!(
                f["estimated_peak_memory_bytes"].as_u64().is_some(),
                "{name}"
            );
        }
        assert!(
            whole["positions"].as_u64() > default["positions"].as_u64(),
            "{name}"
        );
        // The whole game is plan --variant's total.
        let plan = json(&["plan", "--variant", name, "--json"]);
        assert_eq!(whole["positions"], plan["total_positions"], "{name}");
        assert_eq!(
            whole["estimated_seconds"], plan["estimated_seconds"],
            "{name}"
        );
        assert_eq!(s["tables"], plan["tables"], "{name}");
        assert_eq!(s["refused"], plan["refused"], "{name}");
        // Its tables as `rules --list --json` words them.
        match (
            r["tables"] == "supported",
            r["placing_tables"] == "supported",
        ) {
            (true, true) => assert_eq!(s["tables"], "supported", "{name}"),
            (true, false) => assert_eq!(s["tables"], "moving phase only", "{name}"),
            _ => assert_eq!(s["tables"], "none", "{name}"),
        }
        // The default set is what generate would solve, and refused only with every table.
        if s["tables"] == "none" {
            assert_eq!(s["default_set_refused"]["scope"], "all", "{name}");
        } else {
            assert!(s["default_set_refused"].is_null(), "{name}");
            let d = dir.path().join(name);
            let (sectors, positions) = dry_run(name, d.to_str().unwrap());
            assert_eq!(default["sectors"].as_u64(), Some(sectors), "{name}");
            assert_eq!(default["positions"].as_u64(), Some(positions), "{name}");
        }
        // Aliases name their set and carry its figures.
        let same = s["same_as"].as_str();
        assert_eq!(same.is_some(), r["variant"] != name, "{name}");
        // No N-move rule limit: tables follow a lower endgame N-move rule.
        assert!(s.get("n_move_rule_at_most").is_none(), "{name}");
    }
    let by_name = |n: &str| sets.iter().find(|s| s["name"] == n).unwrap();
    assert_eq!(by_name("nine-mens-morris")["same_as"], "std");
    assert_eq!(
        by_name("nine-mens-morris")["whole_game"],
        by_name("std")["whole_game"]
    );
    // Morabaraba's workflow under the 100-move rule (above its endgame N of 10) is emitted.
    let d = dir.path().join("mora");
    let d = d.to_str().unwrap();
    let emit = [
        "plan",
        "--emit",
        "snakemake",
        "--dir",
        d,
        "--variant",
        "morabaraba",
    ];
    let flow = ok(&[&emit[..], &["--n-move-rule", "100", "3-3"]].concat());
    assert!(
        flow.contains("rule ") && flow.contains("--n-move-rule 100"),
        "{flow}"
    );
    // The table: a header, one line per set in the same order, then the notes.
    let text = ok(&["plan", "--rule-sets"]);
    let lines: Vec<&str> = text.lines().collect();
    for (i, name) in names.iter().enumerate() {
        let line = lines[i + 1];
        assert_eq!(
            line.split_whitespace().next(),
            Some(name.as_str()),
            "{line}"
        );
        let positions = sets[i]["whole_game"]["positions"].to_string();
        assert!(line.contains(&format!(" {positions} ")), "{line}");
    }
    assert!(text.contains("standard game's solve rates"), "{text}");
    assert!(text.contains("  one-time-mill=on: "), "{text}");
    assert!(text.contains("  placing-mill=mark: "), "{text}");
    // A list of every set takes no rules.
    fails(
        &["plan", "--rule-sets", "--variant", "dooz"],
        &["--variant"],
    );
}
