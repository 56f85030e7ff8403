//! Cluster workflow: `generate --no-deps` workers and `plan --emit snakemake`, run by a real
//! Snakemake (`.ci/run` installs it from PyPI when missing), giving the same bytes as
//! `generate`.

mod common;

use common::{generate, millbase};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The moving sectors of std with w + b <= 10, solved by `generate` (its default set) once
/// for all tests of this file.
fn reference() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        generate(dir.path(), &[], &[]);
        dir
    })
    .path()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The file names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Copy the table files of these sectors from the reference into `dir`.
fn copy_tables(dir: &Path, sectors: &[&str]) {
    for sector in sectors {
        for ext in ["mbw", "mbd"] {
            let name = format!("{sector}.{ext}");
            std::fs::copy(reference().join(&name), dir.join(&name)).unwrap();
        }
    }
}

/// Every file of `dir` is a table with the same bytes as in `expected`, and `expected` has
/// no table that `dir` lacks.
fn assert_same_tables(dir: &Path, expected: &Path) {
    let ours = names(dir);
    assert_eq!(ours, names(expected), "the same files");
    for name in ours {
        let a = std::fs::read(dir.join(&name)).unwrap();
        let b = std::fs::read(expected.join(&name)).unwrap();
        assert!(a == b, "{name} differs from generate's");
    }
}

/// The component lines of a run that solved something ("4-4-0-0: 3225597 positions in ...").
fn solved_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.contains(" positions in "))
        .map(|l| l.split(':').next().unwrap())
        .collect()
}

#[test]
fn no_deps_refuses_to_start_without_its_dependencies_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_tables(dir.path(), &["4-4-0-0"]); // 3-5 is missing
    std::fs::write(dir.path().join("5-3-0-0.mbw"), b"not a table").unwrap();
    let no_deps_4_5 = || {
        millbase(&[
            "generate",
            "--quiet",
            "--no-deps",
            "--dir",
            s(dir.path()),
            "4-5",
        ])
    };
    let (code, out, err) = no_deps_4_5();
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.starts_with(&format!(
            "millbase: error: 1 dependency is not solved in {} (solve 3-5-0-0 first",
            dir.path().display()
        )),
        "{err}"
    );
    assert!(err.contains("3-5-0-0.mbw: no such file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Nothing was written: no table of 4-5, no lock file.
    assert_eq!(
        names(dir.path()),
        ["4-4-0-0.mbd", "4-4-0-0.mbw", "5-3-0-0.mbw"]
    );

    // A damaged dependency is named with what is wrong with it.
    copy_tables(dir.path(), &["3-5-0-0"]);
    let mut bytes = std::fs::read(dir.path().join("4-4-0-0.mbd")).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(dir.path().join("4-4-0-0.mbd"), bytes).unwrap();
    let (code, _, err) = no_deps_4_5();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("(solve 4-4-0-0 first"), "{err}");
    assert!(err.contains("4-4-0-0.mbd"), "{err}");
}

#[test]
fn no_deps_solves_exactly_the_named_components() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tables(d, &["4-4-0-0", "3-5-0-0", "5-3-0-0", "3-6-0-0", "6-3-0-0"]);
    // 4-5 + 5-4 reads 4-4 and 3-5; 4-6 + 6-4 reads 5-4 (solved in this run) and 3-6.
    let (code, out, err) = millbase(&[
        "generate",
        "--quiet",
        "--no-deps",
        "--dir",
        s(d),
        "6-4",
        "4-5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        solved_lines(&out),
        ["4-5-0-0 + 5-4-0-0", "4-6-0-0 + 6-4-0-0"],
        "{out}"
    );
    for name in names(d) {
        let ours = std::fs::read(d.join(&name)).unwrap();
        assert!(
            ours == std::fs::read(reference().join(&name)).unwrap(),
            "{name}"
        );
    }
    assert_eq!(names(d).len(), 18);
    // Run again: kept, not solved.
    let (code, out, _) = millbase(&["generate", "--quiet", "--no-deps", "--dir", s(d), "4-6"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("4-6-0-0 + 6-4-0-0: already solved, kept\n"),
        "{out}"
    );
}

fn worker(dir: &Path, sector: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_millbase"));
    c.args(["generate", "--quiet", "--no-deps", "--dir", s(dir), sector])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn two_workers_on_one_component_solve_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tables(d, &["5-4-0-0", "4-5-0-0", "3-6-0-0", "6-3-0-0"]);
    let a = worker(d, "4-6").spawn().unwrap();
    let b = worker(d, "6-4").spawn().unwrap();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let text = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let (ta, tb) = (text(&a), text(&b));
    assert!(a.status.success() && b.status.success(), "{ta}{tb}");
    let mut solved = solved_lines(&ta);
    solved.extend(solved_lines(&tb));
    assert_eq!(solved, ["4-6-0-0 + 6-4-0-0"], "solved once:\n{ta}\n{tb}");
    // The other one waited and kept it, or came after and found it complete.
    let other = if solved_lines(&ta).is_empty() {
        &ta
    } else {
        &tb
    };
    assert!(
        other.contains("4-6-0-0 + 6-4-0-0: solved by another process meanwhile, kept")
            || other.contains("4-6-0-0 + 6-4-0-0: already solved, kept"),
        "{other}"
    );
    for name in ["4-6-0-0.mbw", "4-6-0-0.mbd", "6-4-0-0.mbw", "6-4-0-0.mbd"] {
        let ours = std::fs::read(d.join(name)).unwrap();
        assert!(
            ours == std::fs::read(reference().join(name)).unwrap(),
            "{name}"
        );
    }
    assert_eq!(names(d).len(), 12, "no lock or temporary file left");
}

#[test]
fn a_worker_killed_while_solving_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tables(d, &["5-4-0-0", "4-5-0-0", "3-6-0-0", "6-3-0-0"]);
    let before = names(d);
    let mut child = worker(d, "4-6").spawn().unwrap();
    // Wait until it holds the component's lock (it is solving), then kill -9 it.
    let lock = d.join("4-6-0-0.lock");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !lock.exists() {
        assert!(Instant::now() < deadline, "the worker never took the lock");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the worker ended early"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed before it finished");
    // The dependencies are untouched and no table of 4-6 + 6-4 claims to be complete.
    for name in &before {
        let ours = std::fs::read(d.join(name)).unwrap();
        assert!(
            ours == std::fs::read(reference().join(name)).unwrap(),
            "{name}"
        );
    }
    // The next worker takes the stale lock, removes leftovers and solves the component.
    let out = worker(d, "4-6").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(solved_lines(&text), ["4-6-0-0 + 6-4-0-0"], "{text}");
    let mut expected = before.clone();
    expected.extend(["4-6-0-0.mbd", "4-6-0-0.mbw", "6-4-0-0.mbd", "6-4-0-0.mbw"].map(String::from));
    expected.sort();
    assert_eq!(names(d), expected, "no lock or temporary file left");
    for name in expected {
        let ours = std::fs::read(d.join(&name)).unwrap();
        assert!(
            ours == std::fs::read(reference().join(&name)).unwrap(),
            "{name}"
        );
    }
}

/// The Snakemake program: `snakemake` on the PATH, or in the virtual environment that
/// `.ci/run` makes when there is none (`/opt/snakemake-venv`, or under `~/.cache`).
fn snakemake() -> Command {
    let home = std::env::var("HOME").unwrap_or_default();
    let candidates = [
        PathBuf::from("snakemake"),
        PathBuf::from("/opt/snakemake-venv/bin/snakemake"),
        Path::new(&home).join(".cache/millbase/snakemake-venv/bin/snakemake"),
    ];
    let found = candidates.into_iter().find(|program| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(program) = found else {
        panic!(
            "snakemake is not installed: `pip install snakemake` (.ci/run installs it into \
             /opt/snakemake-venv when it is missing)"
        )
    };
    Command::new(program)
}

/// Write the workflow of `plan --emit snakemake` (plus `plan_args`) into `work`, solving into
/// `work/tables`, and run it with `snakemake --cores 2`.
fn run_workflow(work: &Path, plan_args: &[&str]) -> PathBuf {
    let mut args = vec!["plan", "--emit", "snakemake", "--dir", "tables"];
    args.extend_from_slice(plan_args);
    let (code, snakefile, err) = millbase(&args);
    assert_eq!(code, 0, "{err}");
    std::fs::write(work.join("Snakefile"), &snakefile).unwrap();
    let out = snakemake()
        .args(["--cores", "2", "--quiet", "all"])
        .current_dir(work)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "snakemake failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    work.join("tables")
}

#[test]
fn snakemake_solves_six_mens_morris_as_generate_does() {
    let work = tempfile::tempdir().unwrap();
    let tables = run_workflow(work.path(), &["--variant", "six"]);
    let expected = tempfile::tempdir().unwrap();
    generate(expected.path(), &["--variant", "six", "--all"], &[]);
    assert_eq!(names(&tables).len(), 2 * 77);
    assert_same_tables(&tables, expected.path());
    // Each job's log says what it solved.
    let log = std::fs::read_to_string(work.path().join("logs/six/4-4-0-0.log")).unwrap();
    assert!(log.starts_with("4-4-0-0: "), "{log}");
    // A second run has nothing to do.
    let out = snakemake()
        .args(["--cores", "2", "--dry-run", "all"])
        .current_dir(work.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Nothing to be done"), "{text}");
}

#[test]
fn snakemake_solves_the_std_moving_phase_up_to_10_stones_as_generate_does() {
    let work = tempfile::tempdir().unwrap();
    // The components of the w + b = 10 sectors and everything they read: the default set of
    // `generate`.
    let tables = run_workflow(work.path(), &["3-7", "4-6", "5-5"]);
    assert_eq!(names(&tables).len(), 2 * 15);
    assert_same_tables(&tables, reference());
}

#[test]
fn the_workflow_passes_the_n_move_rule_to_every_job() {
    let work = tempfile::tempdir().unwrap();
    let tables = run_workflow(work.path(), &["--n-move-rule", "10", "3-4"]);
    let expected = tempfile::tempdir().unwrap();
    generate(expected.path(), &["--n-move-rule", "10"], &["3-4"]);
    assert_same_tables(&tables, expected.path());
    let (code, out, err) = millbase(&["stats", "--json", "--dir", s(&tables)]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["n_move_rule"] == 10), "{out}");
}
