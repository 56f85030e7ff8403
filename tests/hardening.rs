//! Issue 14, "hostile files, honest blame, one rule for missing tables": the binary run on
//! damaged and hostile table directories, each run under a timeout (a hang fails the test),
//! asserting the exact exit status, that the error is one line and that it names the right
//! file.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

mod common;

/// Far more than any of these runs takes, even on a loaded machine; a hang is caught.
const TIMEOUT: Duration = Duration::from_secs(300);

/// A 4-4 position of the standard game, white to move (no mill can be closed at once).
const P44: &str = "OO**O***/********/@O**@@*@ w m s 4 0 4 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Out {
    /// The `millbase: error:` line: exactly one, and the last line of standard error.
    fn error_line(&self) -> &str {
        let errors: Vec<&str> = self
            .stderr
            .lines()
            .filter(|l| l.contains("error:"))
            .collect();
        assert_eq!(errors.len(), 1, "one error line: {:?}", self.stderr);
        assert!(
            errors[0].starts_with("millbase: error: "),
            "{}",
            self.stderr
        );
        assert_eq!(
            self.stderr.lines().last(),
            Some(errors[0]),
            "{}",
            self.stderr
        );
        errors[0]
    }
}

fn wait_with_deadline(child: Child, what: &str) -> Out {
    let end = common::finish_within(child, TIMEOUT, &format!("millbase {what}"));
    Out {
        code: end.code.unwrap_or(-1),
        stdout: end.stdout,
        stderr: end.stderr,
    }
}

fn millbase() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_millbase"));
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Run millbase with `args`, killing it (and failing) after [`TIMEOUT`].
fn run(args: &[&str]) -> Out {
    let child = millbase().args(args).spawn().expect("run millbase");
    wait_with_deadline(child, &args.join(" "))
}

/// `generate 4-5` of the standard game, made once: 3-3 … 4-5/5-4 (8 sectors).
fn made() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = run(&["generate", "--quiet", "--dir", s(dir.path()), "4-5"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        dir
    })
    .path()
}

/// A fresh copy of [`made`].
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(made()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
    }
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn file(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// probe, stats and verify of 4-4 must each fail at once with one line naming `name` and
/// saying `what`.
fn every_reader_refuses(dir: &Path, name: &str, what: &str) {
    let d = s(dir);
    for (args, code) in [
        (vec!["probe", "--dir", d, P44], 2),
        (vec!["pv", "--dir", d, P44], 2),
        (vec!["stats", "--dir", d], 2),
        (vec!["verify", "--quiet", "--dir", d, "4-4"], 1),
    ] {
        let out = run(&args);
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
        let line = out.error_line();
        assert!(out.stderr.contains(name), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(what), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{line}");
    }
}

#[test]
fn a_named_pipe_is_refused_without_blocking() {
    let dir = copy();
    let fifo = file(dir.path(), "4-4-0-0.mbw");
    std::fs::remove_file(&fifo).unwrap();
    let c = std::ffi::CString::new(s(&fifo)).unwrap();
    // SAFETY: a valid C string; mkfifo has no other preconditions.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    every_reader_refuses(
        dir.path(),
        "4-4-0-0.mbw",
        "not a regular file but a named pipe",
    );
    // generate replaces it (by rename), and says why it solved 4-4 again.
    let out = run(&["generate", "--quiet", "--dir", s(dir.path()), "4-4"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("4-4-0-0:"))
        .unwrap();
    assert!(line.starts_with("4-4-0-0: 3225597 positions"), "{line}");
    assert!(line.contains("; solved again: "), "{line}");
    assert!(
        line.contains("4-4-0-0.mbw: not a regular file but a named pipe"),
        "{line}"
    );
    assert!(std::fs::metadata(&fifo).unwrap().is_file());
}

#[test]
fn a_symlink_to_an_endless_device_is_refused() {
    let dir = copy();
    let link = file(dir.path(), "4-4-0-0.mbd");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    every_reader_refuses(
        dir.path(),
        "4-4-0-0.mbd",
        "not a regular file but a character device",
    );
    // A dangling link is named as such.
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
    every_reader_refuses(dir.path(), "4-4-0-0.mbd", "a dangling symbolic link");
}

#[test]
fn symlinks_to_regular_tables_are_read() {
    let dir = copy();
    let elsewhere = tempfile::tempdir().unwrap();
    for name in ["4-4-0-0.mbw", "4-4-0-0.mbd"] {
        let target = elsewhere.path().join(name);
        std::fs::rename(file(dir.path(), name), &target).unwrap();
        std::os::unix::fs::symlink(&target, file(dir.path(), name)).unwrap();
    }
    let out = run(&["probe", "--dir", s(dir.path()), P44]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("draw\n"), "{}", out.stdout);
}

#[test]
fn a_file_longer_than_its_header_allows_is_refused_before_reading() {
    let dir = copy();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(file(dir.path(), "4-4-0-0.mbw"))
        .unwrap();
    f.set_len(1 << 40).unwrap(); // a terabyte of holes
    drop(f);
    every_reader_refuses(dir.path(), "4-4-0-0.mbw", "more than the");
}

/// Flip byte 1500 of 4-4-0-0.mbw (a compressed block), as in the issue.
fn damage_44(dir: &Path) {
    let p = file(dir, "4-4-0-0.mbw");
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[1500] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
}

#[test]
fn verify_blames_the_damaged_successor_not_its_readers() {
    let dir = copy();
    damage_44(dir.path());
    let d = s(dir.path());
    let damaged = format!("{}: damaged: ", file(dir.path(), "4-4-0-0.mbw").display());
    let blocked = format!(
        "{}: not verifiable: successor {} damaged",
        file(dir.path(), "4-5-0-0.mbw").display(),
        file(dir.path(), "4-4-0-0.mbw").display()
    );
    // Only 4-5 asked for: its successor 4-4 is named, 4-5 is not blamed.
    let out = run(&["verify", "--quiet", "--dir", d, "4-5"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let line = out.error_line();
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out.stderr);
    assert!(
        lines[0].starts_with(&damaged) && lines[0].contains("checksum"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], blocked);
    assert!(line.contains("1 bad file(s)") && line.contains("4-4-0-0.mbw (damaged)"));
    assert!(line.contains("1 sector(s) not verifiable") && line.ends_with("4-5-0-0"));
    assert!(!out.stderr.contains("disagree") && !out.stderr.contains("missing"));
    // Everything: the damaged file is listed once, the intact 4-5-0-0.mbw not at all.
    let out = run(&["verify", "--quiet", "--dir", d]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let line = out.error_line();
    assert_eq!(out.stderr.matches(&damaged).count(), 1, "{}", out.stderr);
    assert_eq!(line.matches("4-4-0-0.mbw").count(), 1, "{line}");
    assert!(!line.contains("4-5-0-0.mbw"), "{line}");
    assert!(out.stderr.contains(&blocked), "{}", out.stderr);
}

#[test]
fn a_missing_distance_file_is_an_error_everywhere_but_in_a_wdl_only_directory() {
    let dir = copy();
    std::fs::remove_file(file(dir.path(), "4-4-0-0.mbd")).unwrap();
    every_reader_refuses(dir.path(), "4-4-0-0.mbd", "no such file");
    let out = run(&["verify", "--quiet", "--dir", s(dir.path()), "4-4"]);
    assert!(out.error_line().contains("4-4-0-0.mbd (missing)"));
    // generate solves the sector again and says which file was missing.
    let out = run(&["generate", "--quiet", "--dir", s(dir.path()), "4-4"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("4-4-0-0:"))
        .unwrap();
    assert!(
        line.contains("solved again") && line.contains("4-4-0-0.mbd: no such file"),
        "{line}"
    );
    let out = run(&["verify", "--quiet", "--dir", s(dir.path())]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn an_orphaned_distance_file_is_an_error_naming_the_missing_wdl_file() {
    let dir = copy();
    std::fs::remove_file(file(dir.path(), "4-4-0-0.mbw")).unwrap();
    every_reader_refuses(dir.path(), "4-4-0-0.mbw", "no such file");
    let out = run(&["stats", "--dir", s(dir.path())]);
    assert!(out.error_line().contains("WDL table of sector 4-4-0-0"));
}

#[test]
fn a_wdl_only_directory_answers_without_distances() {
    let dir = copy();
    let d = s(dir.path());
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "mbd") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let out = run(&["probe", "--dir", d, P44]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("draw (no distance tables)\n"));
    let out = run(&["stats", "--dir", d]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 9, "{}", out.stdout);
    let out = run(&["verify", "--quiet", "--dir", d]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("every win/draw/loss agrees"),
        "{}",
        out.stdout
    );
    let out = run(&["pv", "--dir", d, P44]);
    assert_eq!(out.code, 2);
    assert!(out.error_line().contains("holds WDL files only"));
    // A win turned into a loss, with valid checksums: found from the WDL files alone.
    use millbase::Sector;
    use millbase::Value;
    use millbase::format::{TableSet, WriteOptions, write_sector};
    let v = millbase::Variant::standard();
    let s33 = Sector::moving(3, 3);
    let mut values = TableSet::new(made(), v).read_values(s33).unwrap();
    let slot = values
        .iter()
        .position(|&c| matches!(Value::decode(c), Some(Value::Win(_))))
        .unwrap();
    values[slot] = Value::Loss(2).encode();
    write_sector(dir.path(), &v, s33, &values, &WriteOptions::default()).unwrap();
    std::fs::remove_file(file(dir.path(), "3-3-0-0.mbd")).unwrap();
    let out = run(&["verify", "--quiet", "--dir", d, "3-3"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "3-3-0-0.mbw: slot {slot}: stored loss, successors give win"
        )),
        "{}",
        out.stderr
    );
    out.error_line();
}

#[test]
fn every_error_is_one_line_whatever_the_input() {
    let dir = copy();
    let d = s(dir.path());
    let nl = "x\nmillbase: ok";
    for args in [
        vec!["moves", nl],
        vec!["probe", "--dir", d, nl],
        vec!["pv", "--dir", d, nl],
        vec!["moves", "--variant", nl, "start"],
        vec!["generate", "--quiet", "--dir", d, nl],
        vec!["verify", "--dir", d, nl],
        vec!["perft", nl],
        vec!["probe", "--bogus", nl],
        vec!["probe", "--dir", "no\nsuch", "start"],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        let line = out.error_line();
        assert!(
            !line.contains("ok") || line.contains("\\nmillbase: ok"),
            "{line}"
        );
    }
    let out = run(&["moves", nl]);
    assert!(
        out.stderr
            .starts_with("millbase: error: invalid position 'x\\nmillbase: ok': ")
    );
}

/// The component lines of a generate run that solved something: "4-4-0-0: 3225597
/// positions in ...".
fn solved_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.contains(" positions in "))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect()
}

#[test]
fn two_generate_processes_share_a_directory_without_solving_twice() {
    let dir = tempfile::tempdir().unwrap();
    let d = s(dir.path());
    let args = ["generate", "--quiet", "--dir", d, "4-5"];
    let first = millbase().args(args).spawn().unwrap();
    let second = millbase().args(args).spawn().unwrap();
    let (a, b) = (
        wait_with_deadline(first, "generate (first)"),
        wait_with_deadline(second, "generate (second)"),
    );
    assert_eq!((a.code, b.code), (0, 0), "{}\n{}", a.stderr, b.stderr);
    // Each of the 5 components solved exactly once, by one process or the other.
    let mut solved = solved_lines(&a.stdout);
    solved.extend(solved_lines(&b.stdout));
    solved.sort();
    assert_eq!(
        solved,
        [
            "3-3-0-0",
            "3-4-0-0 + 4-3-0-0",
            "3-5-0-0 + 5-3-0-0",
            "4-4-0-0",
            "4-5-0-0 + 5-4-0-0"
        ],
        "{}\n{}",
        a.stdout,
        b.stdout
    );
    // No temporary or lock file is left, and the tables are the same bytes as one run's.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 16, "{names:?}");
    for name in names {
        let ours = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(ours == std::fs::read(made().join(&name)).unwrap(), "{name}");
    }
}

#[test]
fn generate_waits_for_a_held_lock_and_cleans_up_after_a_killed_process() {
    use millbase::Sector;
    use millbase::tables::ComponentLock;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // What a process killed while writing 3-3 leaves: a stale lock file, a temporary file.
    std::fs::write(d.join("3-3-0-0.lock"), "999999\n").unwrap();
    std::fs::write(d.join("3-3-0-0.mbd.999999-0.tmp"), "partial").unwrap();
    // Another process solving 3-3: this test holds its lock.
    let c33 =
        millbase::sectors::Component::of(&millbase::Variant::standard(), Sector::moving(3, 3));
    let held = ComponentLock::acquire(d, &c33).unwrap();
    let mut child = millbase()
        .args(["generate", "--quiet", "--dir", s(d), "3-3"])
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert_eq!(
        first,
        format!(
            "3-3-0-0: another process (pid {}) is solving it, waiting",
            std::process::id()
        )
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "it waits for the lock");
    drop(held); // ends without writing anything: the waiting process solves 3-3 itself
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let out = wait_with_deadline(child, "generate 3-3");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        rest[0].starts_with("3-3-0-0: 169626 positions in "),
        "{rest:?}"
    );
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["3-3-0-0.mbd", "3-3-0-0.mbw"]);
}

#[test]
fn directory_and_permission_errors_in_the_users_terms() {
    let dir = copy();
    let d = s(dir.path());
    let regular = file(dir.path(), "3-3-0-0.mbw");
    let r = s(&regular);
    let out = run(&["generate", "--quiet", "--dir", r, "3-3"]);
    assert_eq!(out.code, 2);
    assert!(out.error_line().contains("3-3-0-0.mbw: not a directory"));
    for cmd in [
        &["probe", "--dir", r, P44][..],
        &["stats", "--dir", r],
        &["verify", "--dir", r],
    ] {
        let out = run(cmd);
        assert_eq!(out.code, 2, "{cmd:?}");
        assert!(
            out.error_line().ends_with("3-3-0-0.mbw: not a directory"),
            "{cmd:?}"
        );
    }
    // stats and verify agree on a directory without tables, and on no directory at all.
    let empty = tempfile::tempdir().unwrap();
    let gone = empty.path().join("gone");
    for target in [empty.path(), gone.as_path()] {
        let stats = run(&["stats", "--dir", s(target)]);
        let verify = run(&["verify", "--dir", s(target)]);
        assert_eq!((stats.code, verify.code), (2, 2));
        assert_eq!(stats.error_line(), verify.error_line());
    }
    assert!(
        run(&["stats", "--dir", s(&gone)])
            .error_line()
            .ends_with("gone: no such directory")
    );
    // An unreadable file is "unreadable", not "damaged" (as root, run as nobody).
    let unreadable = file(dir.path(), "4-4-0-0.mbw");
    std::fs::set_permissions(
        &unreadable,
        std::os::unix::fs::PermissionsExt::from_mode(0o000),
    )
    .unwrap();
    let mut cmd = millbase();
    cmd.args(["verify", "--quiet", "--dir", d, "4-4"]);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::process::CommandExt::uid(&mut cmd, 65534);
        std::os::unix::process::CommandExt::gid(&mut cmd, 65534);
    }
    let out = wait_with_deadline(cmd.spawn().unwrap(), "verify (permission denied)");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let line = out.error_line();
    assert!(line.contains("4-4-0-0.mbw (unreadable)"), "{line}");
    assert!(out.stderr.contains("ermission denied"), "{}", out.stderr);
    assert!(!out.stderr.contains("damaged"), "{}", out.stderr);
}
