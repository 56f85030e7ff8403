//! Helpers of the explorer's tests: run the binary, start `millbase serve` on a free port,
//! and a minimal HTTP/1.1 client over the standard library (for the API and for WebDriver).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Run `millbase` with `args`: (exit status, standard output, standard error).
pub fn millbase(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Solve sectors into `dir` with `millbase generate --quiet` (plus `extra` options).
pub fn generate(dir: &Path, extra: &[&str], sectors: &[&str]) {
    let d = dir.to_str().unwrap();
    let mut args = vec!["generate", "--quiet", "--dir", d];
    args.extend_from_slice(extra);
    args.extend_from_slice(sectors);
    let (code, _, err) = millbase(&args);
    assert_eq!(code, 0, "generate failed: {err}");
}

/// A running `millbase serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The URL it printed.
    pub url: String,
    _stdout: BufReader<ChildStdout>,
}

impl Server {
    /// Start `millbase serve --dir DIR --port 0` (plus `extra` options) and read the URL it
    /// prints.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
            .args(["serve", "--port", "0", "--dir", dir.to_str().unwrap()])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start millbase serve");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read the URL line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in the first line of serve: {line:?}"))
            .to_string();
        let addr: SocketAddr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|e| panic!("bad address in {url}: {e}"));
        Server {
            child,
            addr,
            url,
            _stdout: stdout,
        }
    }

    /// GET `path` (with its query).
    pub fn get(&self, path: &str) -> Response {
        request(self.addr, "GET", path, None)
    }

    /// GET `path` and read the body as JSON.
    pub fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let r = self.get(path);
        let json = serde_json::from_slice(&r.body)
            .unwrap_or_else(|e| panic!("GET {path}: body is not JSON ({e}): {}", r.text()));
        (r.status, json)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header lines as (lower-case name, value).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Send one HTTP/1.1 request (`Connection: close`) and read the whole response.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Response {
    let mut raw = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(b) = body {
        raw.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    raw.push_str("\r\n");
    raw.push_str(body.unwrap_or(""));
    raw_request(addr, raw.as_bytes())
}

/// Send raw bytes and read the response: to its `Content-Length`, or until the server closes
/// the connection (some servers, chromedriver among them, keep it open).
pub fn raw_request(addr: SocketAddr, raw: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(raw).expect("send");
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n")
            && let Some(len) = content_length(&buf[..end])
            && buf.len() >= end + 4 + len
        {
            break;
        }
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            // A socket with a read timeout returns EINTR after the process was stopped and
            // continued (signal(7)), with no handler installed: read again.
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => panic!("read the response: {e}"),
        }
    }
    parse_response(&buf).unwrap_or_else(|| {
        panic!(
            "malformed response to {:?}: {:?}",
            String::from_utf8_lossy(&raw[..raw.len().min(80)]),
            String::from_utf8_lossy(&buf)
        )
    })
}

fn content_length(head: &[u8]) -> Option<usize> {
    String::from_utf8_lossy(head).split("\r\n").find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse().ok())?
    })
}

/// Split a whole HTTP/1.1 response (with `Content-Length` or read to the end) into parts.
pub fn parse_response(buf: &[u8]) -> Option<Response> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = buf[end + 4..].to_vec();
    if let Some(len) = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        body.truncate(len);
    }
    Some(Response {
        status,
        headers,
        body,
    })
}

/// Percent-encode a query value (everything but unreserved characters).
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decode an `application/x-www-form-urlencoded` value (`+` is a space).
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// White to move, 3 against 3, both flying: white wins in 7 plies (d5-e3 or d3-e5 first).
pub const WIN7: &str = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

/// How a child process ended: its exit status (`None` when a signal ended it) and its
/// standard output and error.
pub struct Finished {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Collect a child's output while it runs; kill it and fail the test when it has not ended
/// after `timeout` (a hang is caught, not waited for). `what` names it in that failure.
pub fn finish_within(mut child: Child, timeout: Duration, what: &str) -> Finished {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut s);
            }
            s
        })
    }
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {timeout:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Finished {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
