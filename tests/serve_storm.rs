//! `millbase serve` under connections that hold on to it: a storm of idle connections
//! against a server started with few descriptors (`ulimit -n 32`) leaves it alive and
//! answering, whether the storm ends or is timed out; accept failures for want of
//! descriptors are waited out; idle connections, slow request heads and bodies, and clients
//! that read nothing of the answer are closed after the (hidden, here shortened) timeout.

mod common;

use common::{parse_response, request};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The descriptor limit of the stormed servers.
const LOW_LIMIT: u32 = 32;
/// Idle connections of a storm: more than the server has descriptors.
const STORM: usize = 40;
/// The longest any step may take before the test calls the server stuck: generous, as the
/// test asserts liveness, not speed.
const BOUND: Duration = Duration::from_secs(60);

/// A `millbase serve --port 0` over an empty table directory, its descriptor limit lowered
/// to `nofile` if given, standard error kept; killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
    stderr: Option<ChildStderr>,
    _stdout: ChildStdout,
    _dir: tempfile::TempDir,
}

impl Served {
    fn start(nofile: Option<u32>, extra: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let limit = nofile.map_or(String::new(), |n| format!("ulimit -n {n} && "));
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{limit}exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_millbase"))
            .args([
                "serve",
                "--port",
                "0",
                "--dir",
                dir.path().to_str().unwrap(),
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start millbase serve");
        let mut stdout = child.stdout.take().unwrap();
        // The first line names the URL; read it byte by byte so nothing after it is lost.
        let mut line = Vec::new();
        let mut byte = [0u8];
        while stdout.read(&mut byte).expect("read the URL line") == 1 && byte[0] != b'\n' {
            line.push(byte[0]);
        }
        let line = String::from_utf8_lossy(&line).into_owned();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in the first line of serve: {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        let stderr = child.stderr.take();
        Served {
            child,
            addr,
            stderr,
            _stdout: stdout,
            _dir: dir,
        }
    }

    /// Panic unless the server still runs.
    fn assert_alive(&mut self, when: &str) {
        if let Some(status) = self.child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut e) = self.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("the server died {when} ({status}); its standard error:\n{err}");
        }
    }

    /// `GET /api/info`, which must be answered with the variant.
    fn assert_answers(&mut self, when: &str) {
        self.assert_alive(when);
        let r = request(self.addr, "GET", "/api/info", None);
        assert_eq!(r.status, 200, "{when}: {}", r.text());
        let info: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(info["variant"], "std", "{when}: {info}");
    }

    /// Stop the server and return what it wrote on standard error.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut err = String::new();
        self.stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        err
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `STORM` connections that send nothing, and one that sends half a request head.
fn storm(addr: SocketAddr) -> Vec<TcpStream> {
    let mut conns: Vec<TcpStream> = (0..STORM)
        .map(|i| TcpStream::connect(addr).unwrap_or_else(|e| panic!("connection {i}: {e}")))
        .collect();
    let mut slow = TcpStream::connect(addr).expect("connect the slow one");
    slow.write_all(b"GET /api/info HTTP/1.1\r\nHost: storm\r\nX-Slow: ")
        .unwrap();
    conns.push(slow);
    conns
}

/// Read `s` until the server closes it (end of stream, or a reset), within [`BOUND`]; what
/// was read.
fn read_until_closed(s: &mut TcpStream, what: &str) -> Vec<u8> {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let left = BOUND.saturating_sub(start.elapsed());
        assert!(!left.is_zero(), "{what}: the server did not close it");
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return got,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return got,
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

/// Send `bytes` one at a time, a tenth of a second apart, reading what comes back, until
/// the server closes the connection (within [`BOUND`]); what was read.
fn trickle_until_closed(s: &mut TcpStream, bytes: impl Iterator<Item = u8>, what: &str) -> Vec<u8> {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    for b in bytes {
        assert!(
            start.elapsed() < BOUND,
            "{what}: the server did not close it"
        );
        match s.write_all(&[b]) {
            Ok(()) => {}
            // Closed by the server before this byte.
            Err(e) if matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset) => {
                return got;
            }
            Err(e) => panic!("{what}: {e}"),
        }
        match s.read(&mut buf) {
            Ok(0) => return got,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return got,
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(e) => panic!("{what}: {e}"),
        }
    }
    panic!("{what}: ran out of bytes to send")
}

#[test]
fn a_descriptor_storm_leaves_the_server_alive_and_answering() {
    // Default limits: the server caps its connections below its descriptor limit.
    let mut server = Served::start(Some(LOW_LIMIT), &[]);
    let conns = storm(server.addr);
    // Time to accept what it will (before the fix, accepting past the limit crashed it).
    thread::sleep(Duration::from_millis(500));
    server.assert_alive("during the storm");
    drop(conns);
    server.assert_answers("after the storm");
    server.assert_answers("once more");
    let err = server.stop();
    assert!(
        !err.contains("cannot accept"),
        "the cap should keep accepting within the descriptor limit: {err}"
    );
}

#[test]
fn a_storm_left_open_is_timed_out_and_the_server_answers_meanwhile() {
    let mut server = Served::start(Some(LOW_LIMIT), &["--timeout", "1"]);
    let mut conns = storm(server.addr);
    thread::sleep(Duration::from_millis(500));
    server.assert_alive("during the storm");
    // Queued behind the storm: answered once the connections before it have timed out.
    server.assert_answers("with the storm still open");
    for (i, c) in conns.iter_mut().enumerate() {
        let got = read_until_closed(c, &format!("storm connection {i}"));
        // The half-sent head, and the idle ones, get no answer.
        assert!(
            !got.starts_with(b"HTTP/1.1 200"),
            "storm connection {i}: {}",
            String::from_utf8_lossy(&got)
        );
    }
    server.assert_answers("after the storm");
}

#[test]
fn failures_to_accept_for_want_of_descriptors_are_waited_out() {
    // A cap above the descriptor limit: accepting fails with "too many open files".
    let mut server = Served::start(Some(LOW_LIMIT), &["--max-connections", "1000"]);
    let conns = storm(server.addr);
    thread::sleep(Duration::from_millis(500));
    server.assert_alive("while accepting fails");
    drop(conns);
    server.assert_answers("after the storm");
    let err = server.stop();
    assert!(
        err.contains("cannot accept a connection") && err.contains("pen files"),
        "the failure to accept should be reported once: {err}"
    );
    assert_eq!(err.matches("cannot accept").count(), 1, "{err}");
}

#[test]
fn idle_connections_and_slow_heads_are_closed_after_the_timeout() {
    let server = Served::start(None, &["--timeout", "1"]);
    // Connected, and nothing sent.
    let mut idle = TcpStream::connect(server.addr).unwrap();
    assert_eq!(read_until_closed(&mut idle, "the idle connection"), b"");

    // Idle after an answer (keep-alive).
    let mut kept = TcpStream::connect(server.addr).unwrap();
    kept.write_all(b"GET /api/info HTTP/1.1\r\nHost: t\r\n\r\n")
        .unwrap();
    let got = read_until_closed(&mut kept, "the kept-alive connection");
    let r = parse_response(&got).expect("an answer before the close");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body.len(),
        got.len() - (got.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4),
        "exactly one answer, then the close"
    );

    // A head that never ends, sent a byte at a time: the timeout counts from its start, not
    // from the last byte.
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"GET /api/info HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        .unwrap();
    let got = trickle_until_closed(&mut slow, std::iter::repeat(b'a'), "the slow head");
    assert!(!got.starts_with(b"HTTP/1.1 200"), "{got:?}");
}

#[test]
fn a_slow_request_body_is_not_waited_for() {
    let server = Served::start(None, &["--timeout", "1"]);
    let mut slow = TcpStream::connect(server.addr).unwrap();
    // Every route is GET: the body is not read; the answer comes, then the close, while
    // the client still sends.
    slow.write_all(b"GET /api/info HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n")
        .unwrap();
    let body = std::iter::repeat_n(b'b', 1_000_000);
    let got = trickle_until_closed(&mut slow, body, "the slow body");
    let r = parse_response(&got).unwrap_or_else(|| panic!("no answer: {got:?}"));
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn a_client_that_reads_nothing_of_the_answers_is_dropped() {
    const REQUESTS: usize = 4000;
    let server = Served::start(None, &["--timeout", "1"]);
    let script = request(server.addr, "GET", "/app.js", None).body.len();
    assert!(script > 10_000, "{script}");
    // Pipelined requests for far more than the socket buffers hold, and nothing read.
    let mut s = TcpStream::connect(server.addr).unwrap();
    let mut writer = s.try_clone().unwrap();
    let sender = thread::spawn(move || {
        let one = b"GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n";
        // Fails once the server has closed the connection.
        let _ = writer.write_all(&one.repeat(REQUESTS));
    });
    thread::sleep(Duration::from_secs(5));
    let got = read_until_closed(&mut s, "the connection that reads nothing");
    assert!(
        got.len() < REQUESTS * script,
        "all {REQUESTS} answers were sent ({} bytes): the stalled connection was kept",
        got.len()
    );
    sender.join().unwrap();
}
