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
