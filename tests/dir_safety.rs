//! Issues 29.4, 30.2, 30.3, 30.6: a table directory after an interruption, a full disk, a
//! command of another variant and a stale lock holds finished tables only, and the tables of
//! another variant are never overwritten.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// Far more than any of these runs takes, even on a loaded machine; a hang is caught.
const TIMEOUT: Duration = Duration::from_secs(600);

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn millbase() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_millbase"));
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Collect a child's output, killing it (and failing) after [`TIMEOUT`].
fn finish(child: Child) -> Out {
    let end = common::finish_within(child, TIMEOUT, "millbase");
    Out {
        code: end.code,
        stdout: end.stdout,
        stderr: end.stderr,
    }
}

fn run(args: &[&str]) -> Out {
    finish(millbase().args(args).spawn().expect("run millbase"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// The names and contents of the files in `dir`, sorted by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// The entries of `dir` that are not table files: locks, temporary and scratch files.
fn leftovers(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| !(n.ends_with(".mbw") || n.ends_with(".mbd")))
        .collect()
}

/// Start `generate` with `args`, wait until `ready` holds for its directory (it is then
/// solving a component), send `signal` and return what it did.
fn interrupt(dir: &Path, args: &[&str], ready: impl Fn(&[String]) -> bool, signal: i32) -> Out {
    let mut child = millbase()
        .args(["generate", "--quiet", "--dir", s(dir)])
        .args(args)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !ready(&names(dir)) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("generate ended ({status}) before it could be interrupted");
        }
        assert!(start.elapsed() < TIMEOUT, "generate never got there");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill(2) with the id of our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    finish(child)
}

#[test]
fn sigint_and_sigterm_leave_finished_tables_only_and_a_rerun_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A lock of a component after 3-3: taken once 3-3 is written (or found complete) and
    // its line printed.
    let locked = |names: &[String]| {
        names
            .iter()
            .any(|n| n.ends_with(".lock") && n != "3-3-0-0.lock")
    };
    // Ctrl-C while a later component is being solved.
    let out = interrupt(
        d,
        &["4-5"],
        |n| {
            n.iter()
                .any(|n| n.ends_with(".lock") && n != "3-3-0-0.lock")
        },
        libc::SIGINT,
    );
    assert_eq!(out.code, Some(130), "{}", out.stderr);
    assert!(out.stderr.contains("stopped by SIGINT"), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("3-3-0-0: 169626 positions in "),
        "{}",
        out.stdout
    );
    assert_eq!(leftovers(d), Vec::<String>::new());
    assert_eq!(names(d), ["3-3-0-0.mbd", "3-3-0-0.mbw"]);
    // SIGTERM on the resumed run, cells in scratch files, while a component is solved.
    let out = interrupt(d, &["--max-memory", "1", "4-5"], locked, libc::SIGTERM);
    assert_eq!(out.code, Some(143), "{}", out.stderr);
    assert!(out.stderr.contains("stopped by SIGTERM"), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("3-3-0-0: already solved, kept\n"),
        "{}",
        out.stdout
    );
    assert_eq!(leftovers(d), Vec::<String>::new());
    // A rerun keeps what is done and solves the rest.
    let out = run(&["generate", "--quiet", "--dir", s(d), "4-5"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.starts_with("3-3-0-0: already solved, kept\n"));
    assert!(
        out.stdout
            .contains("4-5-0-0 + 5-4-0-0: 20620992 positions in "),
        "{}",
        out.stdout
    );
    assert_eq!(leftovers(d), Vec::<String>::new());
    assert_eq!(names(d).len(), 16);
    let std = millbase::Variant::standard();
    for name in names(d) {
        let sector: millbase::Sector = name.split('.').next().unwrap().parse().unwrap();
        assert!(
            millbase::format::sector_is_complete(d, &std, sector),
            "{name}"
        );
    }
}

/// The one error line of a failed `generate --max-memory 1 4-4` in `dir`, with only the
/// tables of 3-3 (which needs no scratch file) left in it.
fn check_scratch_failure(out: &Out, dir: &Path, why: &str) {
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", out.stderr);
    assert!(lines[0].starts_with("millbase: error: "), "{}", lines[0]);
    assert!(
        lines[0].contains(&format!(
            "cannot make a scratch file for the solver's cells in {}: ",
            dir.display()
        )),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("MiB needed: "), "{}", lines[0]);
    assert!(lines[0].contains(why), "{}", lines[0]);
    assert_eq!(names(dir), ["3-3-0-0.mbd", "3-3-0-0.mbw"]);
}

#[test]
fn a_scratch_file_beyond_the_file_size_limit_is_an_error_naming_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut cmd = millbase();
    cmd.args([
        "generate",
        "--quiet",
        "--max-memory",
        "1",
        "--dir",
        s(d),
        "4-4",
    ]);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            // 256 KiB: the tables of 3-3 fit, the cells of 3-4 (3.6 MiB) do not.
            let limit = libc::rlimit {
                rlim_cur: 256 << 10,
                rlim_max: 256 << 10,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = finish(cmd.spawn().unwrap());
    check_scratch_failure(&out, d, "File too large");
}

/// A small tmpfs mounted for the test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_for_the_scratch_file_is_an_error_naming_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("small");
    std::fs::create_dir(&d).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs", s(&d)])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|st| st.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here (not root, or no permission to mount)");
        return;
    }
    let _tmpfs = Tmpfs(d.clone());
    let out = run(&[
        "generate",
        "--quiet",
        "--max-memory",
        "1",
        "--dir",
        s(&d),
        "4-4",
    ]);
    check_scratch_failure(&out, &d, "No space left on device");
}

/// `generate` of `variant` into a fresh directory.
fn tables(variant: &str, sector: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "generate",
        "--quiet",
        "--variant",
        variant,
        "--dir",
        s(dir.path()),
        sector,
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    dir
}

/// `args` exits with status 2 and one error line naming `named`, and leaves `dir` as it was.
fn assert_refused(args: &[&str], named: &str, dir: &Path, before: &[(String, Vec<u8>)]) {
    let out = run(args);
    assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {}", out.stderr);
    assert!(lines[0].starts_with("millbase: error: "), "{}", lines[0]);
    assert!(lines[0].contains(named), "{args:?}: {}", lines[0]);
    assert!(
        contents(dir) == before,
        "{args:?} changed {}",
        dir.display()
    );
}

#[test]
fn a_directory_of_another_variant_is_refused_and_left_as_it_was() {
    let six = tables("six", "3-4");
    let (x, xs) = (six.path(), s(six.path()));
    let before = contents(x);
    assert_eq!(before.len(), 6);
    let named = format!(
        "{}: table of variant 'six', expected 'std'",
        x.join("3-3-0-0.mbw").display()
    );
    let std_tables = tables("std", "3-4");
    let st = s(std_tables.path());
    for args in [
        &["generate", "--quiet", "--dir", xs, "3-4"][..],
        &["generate", "--quiet", "--dir", xs, "--no-deps", "4-4"],
        &[
            "generate",
            "--quiet",
            "--max-memory",
            "1",
            "--dir",
            xs,
            "4-4",
        ],
        &["compact", "--quiet", "--dir", st, xs],
        &["probe", "--dir", xs, "start"],
        &["pv", "--dir", xs, "start"],
        &["probe", "--batch", "--dir", xs],
        &["serve", "--port", "0", "--dir", xs],
    ] {
        assert_refused(args, &named, x, &before);
    }
    // The other way round: six's commands on std's tables; compact names its source.
    let out = run(&["compact", "--quiet", "--variant", "six", "--dir", st, xs]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("3-3-0-0.mbw: table of variant 'std', expected 'six'"),
        "{}",
        out.stderr
    );
    assert!(contents(x) == before);
    let out = run(&["serve", "--variant", "six", "--port", "0", "--dir", st]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("expected 'six'") && out.stderr.contains("--variant std"));
    // uci says so at start on standard error and goes on (the GUI may change TableDir).
    let mut child = millbase()
        .args(["uci", "--dir", xs])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        b"uci\nisready\nposition startpos\ngo depth 1\nquit\n",
    )
    .unwrap();
    drop(child.stdin.take());
    let out = finish(child);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with(&format!("millbase uci: warning: {named}")),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("bestmove "), "{}", out.stdout);
    // The tables' own variant still works there.
    let out = run(&[
        "generate",
        "--quiet",
        "--variant",
        "six",
        "--dir",
        xs,
        "3-4",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // (Its start position needs tables not made here: the error is that one.)
    let out = run(&["probe", "--variant", "six", "--dir", xs, "start"]);
    assert!(
        out.stderr.contains("0-0-6-6.mbw: no such file") && !out.stderr.contains("another variant"),
        "{}",
        out.stderr
    );
    assert!(contents(x) == before);
}

#[test]
fn a_directory_of_another_n_move_rule_is_refused_as_a_usage_error_and_left_as_it_was() {
    let plain = tables("std", "3-3");
    let (x, xs) = (plain.path(), s(plain.path()));
    let before = contents(x);
    assert_eq!(before.len(), 2);
    let named = format!(
        "{}: solved under no N-move rule, the other tables under the N-move rule with N = 10",
        x.join("3-3-0-0.mbw").display()
    );
    for args in [
        &[
            "generate",
            "--quiet",
            "--n-move-rule",
            "10",
            "--dir",
            xs,
            "3-3",
        ][..],
        &[
            "generate",
            "--quiet",
            "--n-move-rule",
            "10",
            "--dir",
            xs,
            "--dry-run",
            "3-4",
        ],
        &[
            "generate",
            "--quiet",
            "--n-move-rule",
            "10",
            "--dir",
            xs,
            "--no-deps",
            "3-4",
        ],
    ] {
        assert_refused(args, &named, x, &before);
    }
    // The library says the same: the directory's tables are "other tables".
    let v = millbase::Variant::standard();
    let options = millbase::GenerateOptions {
        rule: millbase::NMoveRule::new(10).unwrap(),
        ..millbase::GenerateOptions::default()
    };
    let e = millbase::generate(&v, x, &["3-4".parse().unwrap()], &options).unwrap_err();
    assert!(
        matches!(e, millbase::GenerateError::OtherVariant(_)),
        "{e:?}"
    );
    assert!(contents(x) == before);
    // The directory's own rule still works there.
    let out = run(&["generate", "--quiet", "--dir", xs, "3-4"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn stale_locks_of_complete_components_are_removed_and_held_ones_kept() {
    let dir = tables("six", "3-4");
    let d = dir.path();
    let tables = contents(d);
    // kill -9 between the rename of the last file and the removal of the lock.
    std::fs::write(d.join("3-4-0-0.lock"), "999999\n").unwrap();
    std::fs::write(d.join("3-4-0-0.mbw.999999-3.tmp"), "partial").unwrap();
    // Another process holds 3-3's lock (it may be about to rewrite it): left alone.
    let six = millbase::Variant::by_name("six").unwrap();
    let c33 = millbase::sectors::Component::of(&six, millbase::Sector::moving(3, 3));
    let held = millbase::tables::ComponentLock::acquire(d, &c33).unwrap();
    let out = run(&[
        "generate",
        "--quiet",
        "--variant",
        "six",
        "--dir",
        s(d),
        "3-4",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("3-4-0-0 + 4-3-0-0: already solved, kept"),
        "{}",
        out.stdout
    );
    assert_eq!(leftovers(d), ["3-3-0-0.lock"]);
    drop(held);
    assert_eq!(leftovers(d), Vec::<String>::new());
    assert!(contents(d) == tables);
}
