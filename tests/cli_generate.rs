//! `generate` and `stats` from the command line: figures, resume after kill -9, bad input.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn millbase() -> Command {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = millbase().args(args).output().expect("run millbase");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn generate_then_stats_json_gives_reference_figures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["generate", "--quiet", "--dir", d, "3-4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3-4-0-0 + 4-3-0-0: 1520796 positions"),
        "{out}"
    );
    let (code, out, _) = run(&["stats", "--dir", d, "--json"]);
    assert_eq!(code, 0);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = |name: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["sector"] == name)
            .cloned()
            .unwrap()
    };
    let r33 = row("3-3-0-0");
    assert_eq!(r33["positions"], 169_626);
    assert_eq!(r33["wins"], 140_621);
    assert_eq!(r33["losses"], 28_736);
    assert_eq!(r33["draws"], 269);
    assert_eq!(r33["max_win"], 25);
    assert_eq!(r33["max_loss"], 26);
    let r34 = row("3-4-0-0");
    assert_eq!(r34["max_loss"], serde_json::Value::Null);
    assert_eq!(r34["draws"], 658_117);
    assert_eq!(row("4-3-0-0")["losses"], 3_095);
}

fn mtime(p: &Path) -> std::time::SystemTime {
    std::fs::metadata(p).unwrap().modified().unwrap()
}

#[test]
fn generation_resumes_after_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // 3-6 needs 3-3, 3-4/4-3, 3-5/5-3 and 3-6/6-3: seconds of work in several files.
    let mut child = millbase()
        .args(["generate", "--quiet", "--dir", d, "3-6"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let first = dir.path().join("3-3-0-0.mbw");
    let last = dir.path().join("6-3-0-0.mbw");
    let t = Instant::now();
    while !first.exists() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(
        first.exists(),
        "the first sector was written before the kill"
    );
    assert!(!last.exists(), "the kill came before the end");
    let kept = mtime(&first);
    let (code, out, err) = run(&["generate", "--quiet", "--dir", d, "3-6"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3-3-0-0: already solved, kept"), "{out}");
    assert!(out.contains("3-6-0-0 + 6-3-0-0: "), "{out}");
    assert_eq!(mtime(&first), kept, "finished sectors are not rewritten");
    // Everything is there and readable; a third run does nothing.
    let (code, out, _) = run(&["generate", "--quiet", "--dir", d, "3-6"]);
    assert_eq!(code, 0);
    assert!(out.contains("0 sectors solved"), "{out}");
    let (code, out, _) = run(&["stats", "--dir", d, "--json"]);
    assert_eq!(code, 0);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 7);
}

#[test]
fn bad_sectors_and_damaged_tables_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for bad in ["3-x", "10-3", "2-3", "3-3-1"] {
        let (code, _, err) = run(&["generate", "--quiet", "--dir", d, bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.starts_with("millbase: error: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, _, _) = run(&["generate", "--quiet", "--dir", d, "3-3"]);
    assert_eq!(code, 0);
    let file = dir.path().join("3-3-0-0.mbw");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let (code, _, err) = run(&["stats", "--dir", d]);
    assert_eq!(code, 2);
    assert!(
        err.contains("3-3-0-0.mbw") && err.contains("checksum"),
        "{err}"
    );
    std::fs::write(&file, &bytes[..500]).unwrap();
    let (code, _, err) = run(&["stats", "--dir", d]);
    assert_eq!(code, 2);
    assert!(
        err.contains("3-3-0-0.mbw") && err.contains("truncated"),
        "{err}"
    );
    // A damaged table is solved again by generate.
    let (code, out, _) = run(&["generate", "--quiet", "--dir", d, "3-3"]);
    assert_eq!(code, 0);
    assert!(out.contains("3-3-0-0: 169626 positions"), "{out}");
}

/// The figures of `millbase plan --json` for `sectors`: (sectors, positions, estimated time as
/// the one-line figures write it).
fn planned(sectors: &[&str]) -> (u64, u64, String) {
    let mut args = vec!["plan", "--json"];
    args.extend_from_slice(sectors);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let plan: serde_json::Value = serde_json::from_str(&out).unwrap();
    let count: u64 = plan["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["sectors"].as_array().unwrap().len() as u64)
        .sum();
    let secs = plan["estimated_seconds"].as_f64().unwrap();
    let time = if secs < 3600.0 {
        format!("{:.1} min", secs / 60.0)
    } else {
        format!("{:.2} h", secs / 3600.0)
    };
    (count, plan["total_positions"].as_u64().unwrap(), time)
}

#[test]
fn a_long_solve_is_announced_with_its_figures_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("tables");
    let d = d.to_str().unwrap();
    // The moving phase: 49 sectors, 8,904,593,601 positions, about 36 minutes on 2 cores.
    let (sectors, positions, time) = planned(&["9-9"]);
    assert_eq!((sectors, positions), (49, 8_904_593_601));
    let line = format!(
        "to solve in {d}: 49 sectors, 8904593601 positions; estimated {time} on 2 cores, \
         peak memory "
    );
    // --dry-run prints the line and solves nothing (not even the directory is made).
    let (code, out, err) = run(&["generate", "--dry-run", "--dir", d, "9-9"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&line) && out.contains(", disk "), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(!Path::new(d).exists());

    // A real run prints the same line first, before solving: read it, then stop the run.
    let mut child = millbase()
        .args(["generate", "--quiet", "--dir", d, "9-9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        first, out,
        "the announcement of the run is the dry run's line"
    );
}

#[test]
fn a_short_solve_is_not_announced_and_present_sectors_are_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Under a minute: no announcement, the run's lines only; one sector, in the singular.
    let (code, out, err) = run(&["generate", "--quiet", "--dir", d, "3-3"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("to solve"), "{out}");
    assert!(
        out.starts_with("3-3-0-0: 169626 positions in ") && out.contains(" positions/s"),
        "{out}"
    );
    assert!(
        out.contains("done: 1 sector solved (169626 positions) in "),
        "{out}"
    );
    // What is on disk is not counted again: 3-4 needs 3-3 (present) and 3-4 + 4-3.
    let (code, out, _) = run(&["generate", "--dry-run", "--dir", d, "3-4"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!(
            "to solve in {d}: 2 sectors, 1520796 positions; estimated "
        )),
        "{out}"
    );
    let (code, out, _) = run(&["generate", "--dry-run", "--dir", d, "3-3"]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("to solve in {d}: nothing\n"));
    // --no-deps counts the named components only.
    let (code, out, _) = run(&["generate", "--dry-run", "--no-deps", "--dir", d, "3-5"]);
    assert_eq!(code, 0);
    assert!(out.contains(": 2 sectors, "), "{out}");
}
