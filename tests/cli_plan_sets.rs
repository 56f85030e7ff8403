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

/// `n` choose `k`.
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// The sector name of a position, seen from the side to move ("w-b-wf-bf").
fn sector_name(p: &millbase::Position) -> String {
    let (me, opp) = (p.to_move.index(), 1 - p.to_move.index());
    format!(
        "{}-{}-{}-{}",
        p.stones[me].count_ones(),
        p.stones[opp].count_ones(),
        p.in_hand[me],
        p.in_hand[opp]
    )
}

/// The marks seen in the placing positions of `games` random games under `v` (the library's
/// referee, removals within the move), by sector: every count seen.
fn marks_seen(
    v: &millbase::Variant,
    games: usize,
) -> std::collections::HashMap<String, std::collections::BTreeSet<u32>> {
    use millbase::movegen::{Convention, legal_moves, outcome, play};
    let mut seen: std::collections::HashMap<String, std::collections::BTreeSet<u32>> =
        Default::default();
    let mut seed = 0x0123_4567_89ab_cdefu64;
    for _ in 0..games {
        let mut p = millbase::Position::start(v);
        while p.in_hand != [0, 0] && outcome(v, &p).is_none() {
            seen.entry(sector_name(&p))
                .or_default()
                .insert(p.marks.count_ones());
            let moves = legal_moves(v, &p, Convention::Combined);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p = play(v, &p, moves[(seed % moves.len() as u64) as usize]);
        }
    }
    seen
}

/// Orbits under the board's symmetries of the placements of `w` and `b` stones and `k`
/// marks on `v`'s board, by enumerating every placement and keeping its least image.
fn orbits_by_enumeration(v: &millbase::Variant, w: usize, b: usize, k: usize) -> u64 {
    let board = v.board();
    let n = board.len();
    let mut least_images = std::collections::HashSet::new();
    // Every placement as a kind per point (0 empty, 1 and 2 the stones, 3 a mark).
    let mut kinds = vec![0u8; n];
    fn go(
        kinds: &mut [u8],
        left: [usize; 3],
        from: usize,
        kind: usize,
        out: &mut dyn FnMut(&[u8]),
    ) {
        if kind == 3 {
            return out(kinds);
        }
        if left[kind] == 0 {
            return go(kinds, left, 0, kind + 1, out);
        }
        for p in from..kinds.len() {
            if kinds[p] == 0 {
                kinds[p] = kind as u8 + 1;
                let mut l = left;
                l[kind] -= 1;
                go(kinds, l, p + 1, kind, out);
                kinds[p] = 0;
            }
        }
    }
    go(&mut kinds, [w, b, k], 0, 0, &mut |ks| {
        let least = board
            .symmetries()
            .iter()
            .map(|perm| {
                let mut image = [0u8; 24];
                for (p, &kind) in ks.iter().enumerate() {
                    image[perm[p] as usize] = kind;
                }
                image
            })
            .min()
            .unwrap();
        least_images.insert(least);
    });
    least_images.len() as u64
}

/// A component of `plan --json` under marks: its sectors, and per sector the range of its
/// marks, its positions and its positions with marks.
type Marked = (Vec<String>, Vec<[u64; 2]>, Vec<u64>, Vec<u64>);

/// The components of a `plan --json` document under marks.
fn marked_components(plan: &Value) -> Vec<Marked> {
    let numbers = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap_or_else(|| panic!("not an array: {v}"))
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    plan["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let marks = c["marks"]
                .as_array()
                .unwrap_or_else(|| panic!("no marks: {c}"))
                .iter()
                .map(|r| {
                    let r = numbers(r);
                    [r[0], r[1]]
                })
                .collect();
            (
                strings(&c["sectors"]),
                marks,
                numbers(&c["positions"]),
                numbers(&c["positions_with_marks"]),
            )
        })
        .collect()
}

#[test]
fn marks_are_counted_as_the_referee_makes_them_and_their_figures_cited_where_refused() {
    // Six Men's Morris under marks: small enough to count a sector by enumeration.
    let v = millbase::Variant::from_rules("six", &["placing-mill=mark"]).unwrap();
    let args = [
        "plan",
        "--variant",
        "six",
        "--rule",
        "placing-mill=mark",
        "--json",
    ];
    let plan = json(&args);
    let components = marked_components(&plan);
    let mut by_sector = std::collections::HashMap::new();
    for (sectors, marks, positions, with_marks) in &components {
        for (i, s) in sectors.iter().enumerate() {
            by_sector.insert(s.clone(), (marks[i], positions[i], with_marks[i]));
        }
    }
    // The referee's games: every placing sector they reach has the one count of marks the
    // plan gives it.
    let seen = marks_seen(&v, 3000);
    assert!(seen.values().any(|k| k.iter().any(|&k| k >= 2)));
    for (s, ks) in &seen {
        let [w, b, ..] = sector(s);
        if w + b == 0 {
            continue;
        }
        let Some((marks, ..)) = by_sector.get(s) else {
            // A sector where a side is left with fewer than three stones: the game is over.
            continue;
        };
        assert_eq!(ks.len(), 1, "{s}: {ks:?}");
        let k = *ks.iter().next().unwrap() as u64;
        assert_eq!(*marks, [k, k], "{s}");
    }
    // Without stones in hand there are no marks and nothing changes.
    for (s, (marks, positions, with_marks)) in &by_sector {
        let [_, _, wf, bf] = sector(s);
        if wf == 0 && bf == 0 {
            assert_eq!(*marks, [0, 0], "{s}");
            assert_eq!(positions, with_marks, "{s}");
        }
    }
    // The cheapest sector with a mark to enumerate: its positions with marks are the orbits
    // of its stones and marks together.
    let (name, (marks, _, with_marks)) = by_sector
        .iter()
        .filter(|(_, (m, ..))| m[0] >= 1)
        .min_by_key(|(s, (m, ..))| {
            let [w, b, ..] = sector(s);
            let (w, b) = (w as u64, b as u64);
            choose(16, w) * choose(16 - w, b) * choose(16 - w - b, m[0])
        })
        .unwrap();
    let [w, b, ..] = sector(name);
    assert_eq!(
        *with_marks,
        orbits_by_enumeration(&v, w as usize, b as usize, marks[0] as usize),
        "{name}"
    );
    // The totals: the whole game and its placing phase with marks, and the reason cites
    // them. Six fits this machine, and the plan says so.
    let m = &plan["marks"];
    let whole: u64 = components.iter().flat_map(|c| c.3.iter()).sum();
    let placing_sum: u64 = components
        .iter()
        .filter(|c| c.0.iter().any(|s| placing(s, 16)))
        .flat_map(|c| c.3.iter())
        .sum();
    assert_eq!(m["whole_game"]["positions"].as_u64(), Some(whole));
    assert_eq!(m["placing"]["positions"].as_u64(), Some(placing_sum));
    assert!(whole > plan["total_positions"].as_u64().unwrap());
    assert_eq!(m["fits"], true);
    let reason = plan["refused"]["reasons"]["placing-mill=mark"]
        .as_str()
        .unwrap();
    assert_eq!(m["reason"], reason);
    assert!(
        reason.contains(&format!("would hold {placing_sum} positions"))
            && reason.contains("would fit this machine")
            && !reason.contains("beyond"),
        "{reason}"
    );
    let text = ok(&args[..args.len() - 1]);
    assert!(
        text.contains(&format!("would hold {placing_sum} positions")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "whole game:    {}",
            m["whole_game"]["text"].as_str().unwrap()
        )),
        "{text}"
    );
}

#[test]
fn marks_put_the_placing_phase_of_the_24_point_sets_beyond_this_machine() {
    let list = json(&["rules", "--list", "--json"]);
    let sets = json(&["plan", "--rule-sets", "--json"]);
    for (r, s) in list
        .as_array()
        .unwrap()
        .iter()
        .zip(sets.as_array().unwrap())
    {
        let name = r["name"].as_str().unwrap();
        assert_eq!(s["name"], name);
        let marks = r["changes"]["placing-mill"] == "mark";
        assert_eq!(!s["marks"].is_null(), marks, "{name}");
        if !marks {
            continue;
        }
        let rules = json(&["rules", "--variant", name, "--json"]);
        let plan = json(&["plan", "--variant", name, "--json"]);
        assert_eq!(s["marks"], plan["marks"], "{name}");
        let stones: u64 = rules["rules"]["stones"].as_str().unwrap().parse().unwrap();
        let m = &plan["marks"];
        let phase = &m["placing"];
        let positions = phase["positions"].as_u64().unwrap();
        // Every sector's positions with marks lie between its raw placements of stones and
        // marks and a sixteenth of them (the orbits under the 16 symmetries).
        let mut placing_sum = 0;
        for (sectors, marks, _, with_marks) in marked_components(&plan) {
            for (i, s) in sectors.iter().enumerate() {
                let [w, b, wf, bf] = sector(s).map(u64::from);
                let k = marks[i][0];
                assert_eq!(marks[i][1], k, "{name} {s}");
                // The stones taken while placing: those placed less those on the board
                // (no marks once the hands are empty).
                let taken = if wf + bf == 0 {
                    0
                } else {
                    2 * stones - wf - bf - w - b
                };
                assert_eq!(k, taken, "{name} {s}");
                let raw = choose(24, w) * choose(24 - w, b) * choose(24 - w - b, k);
                assert!(
                    with_marks[i] <= raw && with_marks[i] * 16 >= raw,
                    "{name} {s}"
                );
                if placing(s, 24) {
                    placing_sum += with_marks[i];
                }
            }
        }
        // Sectors of placing components all follow the placing rules here.
        assert_eq!(positions, placing_sum, "{name}");
        let seconds = phase["estimated_seconds"].as_f64().unwrap();
        let memory = phase["estimated_peak_memory_bytes"].as_u64().unwrap();
        assert!(seconds > 3.0 * 3600.0 || memory > 24_000_000_000, "{name}");
        assert_eq!(m["fits"], false, "{name}");
        let reason = plan["refused"]["reasons"]["placing-mill=mark"]
            .as_str()
            .unwrap();
        assert!(
            reason.starts_with(&format!(
                "marks are state: the placing phase would hold {positions} positions"
            )) && reason.contains("beyond this machine (24 GB, a session of 3 h"),
            "{name}: {reason}"
        );
        let text = ok(&["plan", "--variant", name]);
        let line = text
            .lines()
            .find(|l| l.starts_with("refused: the placing phase's tables"))
            .unwrap();
        assert!(line.contains(reason), "{line}");
    }
    let text = ok(&["plan", "--rule-sets"]);
    assert!(text.contains("with marks as state"), "{text}");
    for name in ["cham-gonu", "zhi-qi", "cheng-san-qi", "da-san-qi"] {
        let s = sets
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap();
        let positions = s["marks"]["whole_game"]["positions"].to_string();
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(name)
                && l.contains(&format!(" {positions} "))
                && l.ends_with(" no")),
            "{name}: {text}"
        );
    }
}

#[test]
fn calibrate_measures_both_rule_sets_on_the_same_sectors_and_scales_the_times() {
    let at_std = json(&["plan", "--variant", "mul-mulan", "--json"]);
    assert!(at_std["calibration"].is_null());
    let plan = json(&["plan", "--variant", "mul-mulan", "--calibrate=7", "--json"]);
    let c = &plan["calibration"];
    assert_eq!(c["stones"], 7);
    let components = c["components"].as_array().unwrap();
    // 3-3, then 3-4 with 4-3: 169,626 and 2 x 760,398 positions (docs/RULES.md), under
    // both rules (the diagonals keep the board's symmetries).
    let names: Vec<Vec<String>> = components.iter().map(|c| strings(&c["sectors"])).collect();
    assert_eq!(names, [vec!["3-3-0-0"], vec!["3-4-0-0", "4-3-0-0"]], "{c}");
    let per_position = |c: &Value, side: &str| {
        c[side]["cpu_seconds"].as_f64().unwrap() / c[side]["positions"].as_f64().unwrap()
    };
    // Under std, 3-3 has 140,621 wins and 28,736 losses, 3-4 102,281 wins, 4-3 75,397 wins
    // and 3,095 losses (docs/RULES.md).
    let std_decided = [140_621 + 28_736, 102_281 + 75_397 + 3_095];
    let (mut cpu, mut positions_sum) = ([0.0; 2], 0);
    for (i, (x, positions)) in components.iter().zip([169_626u64, 2 * 760_398]).enumerate() {
        for (j, side) in ["asked", "standard"].into_iter().enumerate() {
            assert_eq!(x[side]["positions"].as_u64(), Some(positions), "{x}");
            let time = x[side]["cpu_seconds"].as_f64().unwrap();
            assert!(
                time > 0.0 && x[side]["repeats"].as_u64().unwrap() >= 1,
                "{x}"
            );
            assert!(x[side]["decided"].as_u64().unwrap() <= positions, "{x}");
            cpu[j] += time;
        }
        assert_eq!(
            x["standard"]["decided"].as_u64(),
            Some(std_decided[i]),
            "{x}"
        );
        positions_sum += positions;
        let ratio = per_position(x, "asked") / per_position(x, "standard");
        assert!(
            (x["ratio"].as_f64().unwrap() - ratio).abs() < 1e-9 * ratio,
            "{x}"
        );
    }
    // The factor: CPU time per position over both components, and every time is
    // multiplied by it. Every component up to 7 stones has a side with three stones.
    let ratio = c["ratio"].as_f64().unwrap();
    let expected = (cpu[0] / positions_sum as f64) / (cpu[1] / positions_sum as f64);
    assert!(
        (ratio - expected).abs() < 1e-9 * expected,
        "{ratio} {expected}"
    );
    assert!(c["ratio_without_three_stone_side"].is_null());
    let close = |a: &Value, b: &Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!(
            (a - b * ratio).abs() <= 1e-9 * a.abs().max(1e-9),
            "{a} {b} x {ratio}"
        );
    };
    close(&plan["estimated_seconds"], &at_std["estimated_seconds"]);
    for (x, y) in plan["components"]
        .as_array()
        .unwrap()
        .iter()
        .zip(at_std["components"].as_array().unwrap())
    {
        close(&x["estimated_seconds"], &y["estimated_seconds"]);
        assert_eq!(x["estimated_memory_bytes"], y["estimated_memory_bytes"]);
    }
    assert_eq!(plan["total_positions"], at_std["total_positions"]);
    assert!(
        plan["estimates"]
            .as_str()
            .unwrap()
            .contains("multiplied by")
    );
    // Rules that no table follows have nothing to measure; sizes are from 6 stones.
    fails(
        &["plan", "--variant", "one-time-mill", "--calibrate"],
        &["--calibrate", "one-time-mill=on"],
    );
    fails(&["plan", "--calibrate=5"], &["5"]);
    fails(&["plan", "--rule-sets", "--calibrate"], &["--calibrate"]);
}
