//! The explorer in a real headless Chromium, driven over WebDriver (chromedriver): the page
//! shows the values `probe --json` gives, plays moves clicked on the board (a fly, a slide
//! closing a mill and its removal, a placement) and in the move list, keeps the position in
//! the URL, undoes, names the missing sector and the command that makes it with what that
//! costs, shows the search's evaluation of each move there, labelled as search, reports a bad
//! position string, and fits a phone's screen; under Cham Gonu (rules the tables do not
//! follow) it draws the diagonals and a marked point, which cannot be played on, and evaluates
//! the moves by search only. Screenshots go to `target/explorer.png`,
//! `target/explorer-search.png`, `target/explorer-phone.png` and `target/explorer-marks.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without them
//! the test fails and says so. The WebDriver calls are a few JSON requests over HTTP, made
//! with the std-only client of `tests/common`.

mod common;

use common::{Server, WIN7, decode, encode, generate, millbase, request};
use millbase::Variant;
use millbase::movegen::play;
use millbase::notation::{
    PositionInfo, format_position_info, parse_legal_move, parse_position_info,
};
use serde_json::{Value as Json, json};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// White (a7, d7, g4; flying) slides g4-g7 to close the mill a7-d7-g7 and removes a stone.
const MILL: &str = "@**@****/***@*@**/O*O****O w m s 3 0 4 0 0 0 0 0 0 0 0 0 1";

/// The first of `names` found on the PATH (or an absolute path that exists).
fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|n| {
        let p = Path::new(n);
        if p.is_absolute() {
            return p.is_file().then(|| p.to_path_buf());
        }
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|c| c.is_file())
    })
}

/// chromedriver and its browser session, both ended when dropped.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    /// The browser's process, ended if closing the session fails.
    browser_pid: Option<i32>,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start() -> Browser {
        let chromium = find(&["chromium", "chromium-browser", "google-chrome"]).expect(
            "Chromium is not installed: the explorer's browser test needs it \
             (apt-get install -y chromium chromium-driver; .ci/run installs them)",
        );
        let chromedriver = find(&["chromedriver", "/usr/lib/chromium/chromedriver"]).expect(
            "chromedriver is not installed: the explorer's browser test needs it \
             (apt-get install -y chromium-driver; .ci/run installs it)",
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let profile = tempfile::tempdir().unwrap();
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
            browser_pid: None,
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            &format!("--user-data-dir={}", b._profile.path().display()),
            "--window-size=1280,900",
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let reply = b.call("POST", "/session", Some(caps));
        b.session = reply["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {reply}"))
            .to_string();
        b.browser_pid = reply["capabilities"]["goog:processID"]
            .as_i64()
            .and_then(|p| i32::try_from(p).ok());
        b
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Json>) -> Json {
        let body = body.map(|b| b.to_string());
        let r = request(self.addr, method, path, body.as_deref());
        let json: Json = serde_json::from_slice(&r.body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {}", r.text()));
        assert_eq!(r.status, 200, "{method} {path}: {json}");
        json["value"].clone()
    }

    fn cmd(&self, method: &str, what: &str, body: Option<Json>) -> Json {
        self.call(method, &format!("/session/{}{what}", self.session), body)
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn url(&self) -> String {
        self.cmd("GET", "/url", None).as_str().unwrap().to_string()
    }

    fn js(&self, script: &str) -> Json {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn element(&self, css: &str) -> String {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        e["element-6066-11e4-a52e-4f735466cecf"]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {e}"))
            .to_string()
    }

    /// Click the element (a real pointer click at its centre).
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Wait until the page has shown `fen` with its values.
    fn wait_for(&self, fen: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let state =
                self.js("return [document.body.dataset.status, document.body.dataset.fen];");
            if state[0] == "ready" && state[1] == fen {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the page did not show {fen}: {state}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn text(&self, css: &str) -> String {
        let s = format!("return document.querySelector({css:?}).textContent;");
        self.js(&s).as_str().unwrap_or("").to_string()
    }

    fn screenshot(&self, file: &Path) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(file, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let closed = std::panic::catch_unwind(|| request(self.addr, "DELETE", &path, None))
                .is_ok_and(|r| r.status == 200);
            if let (false, Some(pid)) = (closed, self.browser_pid) {
                // SAFETY: kill(2) on the browser process this test started.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(val)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The position string in the page's URL.
fn fen_in(url: &str) -> String {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("fen="))
        .map(decode)
        .unwrap_or_default()
}

/// The position after `mv` as the page writes it (counter and move number carried on).
fn after(fen: &str, mv: &str) -> String {
    let v = Variant::standard();
    let (pos, info) = parse_position_info(&v, fen).unwrap();
    let m = parse_legal_move(&v, &pos, mv, Default::default()).unwrap();
    let next = play(&v, &pos, m);
    let counter = if m.removes() || m.is_place() {
        0
    } else {
        info.counter + 1
    };
    let full_move = info.full_move + u32::from(next.to_move == millbase::Color::White);
    format_position_info(&v, &next, PositionInfo { counter, full_move })
}

/// What the page shows: the position's value and the move list.
fn shown(b: &Browser) -> Json {
    b.js("const v = document.getElementById('value');
          const num = (x) => x === undefined ? null : Number(x);
          return {value: v.dataset.value, plies: num(v.dataset.plies), text: v.textContent,
            moves: [...document.querySelectorAll('#moves li')].map((li) => ({
              move: li.dataset.move, value: li.dataset.value, plies: num(li.dataset.plies),
              text: li.textContent, colour: getComputedStyle(li).borderLeftColor}))};")
}

/// The page agrees with `millbase probe --json`, move for move, in the same order.
fn check_values(b: &Browser, dir: &str, fen: &str) {
    let (code, out, err) = millbase(&["probe", "--dir", dir, "--json", fen]);
    assert_eq!(code, 0, "{err}");
    let probe: Json = serde_json::from_str(&out).unwrap();
    let page = shown(b);
    assert_eq!(page["value"], probe["value"], "{fen}: {page}");
    assert_eq!(page["plies"], probe["plies"], "{fen}");
    let kind = cap(probe["value"].as_str().unwrap());
    let words = match probe["plies"].as_u64() {
        Some(n) => format!("{kind} in {n}"),
        None => kind,
    };
    assert!(page["text"].as_str().unwrap().starts_with(&words), "{page}");
    let (want, got) = (
        probe["moves"].as_array().unwrap(),
        page["moves"].as_array().unwrap(),
    );
    assert_eq!(got.len(), want.len(), "{fen}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(
            (&g["move"], &g["value"], &g["plies"]),
            (&w["move"], &w["value"], &w["plies"])
        );
        // Coloured by value: green wins, grey draws, red losses.
        let colour = match w["value"].as_str().unwrap() {
            "win" => "rgb(27, 127, 59)",
            "draw" => "rgb(107, 107, 107)",
            _ => "rgb(192, 40, 45)",
        };
        assert_eq!(g["colour"], colour, "{g}");
        if let Some(n) = w["plies"].as_u64() {
            assert!(
                g["text"].as_str().unwrap().ends_with(&format!(" in {n}")),
                "{g}"
            );
        }
    }
}

fn cap(s: &str) -> String {
    s[..1].to_uppercase() + &s[1..]
}

#[test]
fn the_explorer_in_a_real_browser() {
    let tables = tempfile::tempdir().unwrap();
    generate(tables.path(), &[], &["3-4"]);
    let d = tables.path().to_str().unwrap();
    let server = Server::start(tables.path(), &[]);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let b = Browser::start();

    // A position from a link: its values are those of `probe --json`.
    b.goto(&format!("{}?fen={}", server.url, encode(WIN7)));
    b.wait_for(WIN7);
    check_values(&b, d, WIN7);
    // The standard board: 32 lines, none diagonal, no mark.
    assert_eq!(
        b.js(
            "return [document.querySelectorAll('#board line.line').length,
            document.querySelectorAll('#board line.diagonal, #board .mark').length];"
        ),
        json!([32, 0])
    );
    assert!(b.text("#status").starts_with("White to move"));
    assert!(b.text("#pv").contains("d5-e3"), "{}", b.text("#pv"));
    // Hovering a move draws it on the board.
    b.js("document.querySelector('#moves li').dispatchEvent(new MouseEvent('mouseenter'));");
    assert_eq!(
        b.js("return document.querySelectorAll('#board .arrow').length;"),
        1
    );

    // Fly d5-e3 by clicking: the stone, then the point.
    b.click("[data-point=d5]");
    assert_eq!(
        b.js("return document.querySelectorAll('#board .ring').length;"),
        1
    );
    b.screenshot(&target.join("explorer.png"));
    b.click("[data-point=e3]");
    let next = after(WIN7, "d5-e3");
    b.wait_for(&next);
    assert_eq!(fen_in(&b.url()), next);
    check_values(&b, d, &next);
    assert_eq!(shown(&b)["value"], "loss");

    // An illegal click says why.
    b.click("[data-point=e3]");
    assert!(
        b.text("#notice").contains("white stone"),
        "{}",
        b.text("#notice")
    );

    // Playing the best move from the list, then undoing it.
    let best = shown(&b)["moves"][0]["move"].as_str().unwrap().to_string();
    b.click("#moves li");
    let third = after(&next, &best);
    b.wait_for(&third);
    assert_eq!(fen_in(&b.url()), third);
    b.click("#undo");
    b.wait_for(&next);
    assert_eq!(fen_in(&b.url()), next);

    // A slide closing a mill, then the removal, all by clicking.
    b.goto(&format!("{}?fen={}", server.url, encode(MILL)));
    b.wait_for(MILL);
    check_values(&b, d, MILL);
    b.click("[data-point=g4]");
    b.click("[data-point=g7]");
    assert!(b.text("#notice").contains("Mill"), "{}", b.text("#notice"));
    assert!(
        b.js("return document.querySelectorAll('#board .removable').length;")
            .as_u64()
            > Some(0)
    );
    b.click("[data-point=d5]");
    let removed = after(MILL, "g4-g7xd5");
    b.wait_for(&removed);
    assert_eq!(fen_in(&b.url()), removed);
    check_values(&b, d, &removed);

    // A placement from the start; its sector has no table: the page names it and the command.
    b.goto(&format!("{}?fen=start", server.url));
    b.wait_for("start");
    b.click("[data-point=d6]");
    let placed = after("start", "d6");
    b.wait_for(&placed);
    assert_eq!(fen_in(&b.url()), placed);
    let problem = b.text("#problem");
    let command = format!("millbase generate --dir {d} 0-1-9-8");
    assert!(
        problem.contains("sector 0-1-9-8") && problem.contains(&command),
        "{problem}"
    );
    assert_eq!(shown(&b)["moves"].as_array().unwrap().len(), 23);
    // Beside the command, what running it costs: the figures of the API's 404.
    let (status, api) = server.get_json(&format!("/api/probe?fen={}", encode(&placed)));
    assert_eq!(status, 404);
    let cost = format!("To solve: {}.", api["cost"]["text"].as_str().unwrap());
    assert!(
        cost.contains(" sectors, ") && cost.contains(" GiB"),
        "{cost}"
    );
    assert_eq!(b.text("#cost"), cost);
    // Every move with the engine's search evaluation, labelled as search, not tables.
    let page = b.js("const v = document.getElementById('value');
        const label = document.getElementById('moves-source');
        return {source: v.dataset.source, value: v.textContent, hidden: label.hidden,
          label: label.textContent,
          moves: [...document.querySelectorAll('#moves li')].map((li) => ({
            source: li.dataset.source, score: li.dataset.score === undefined ? null
              : Number(li.dataset.score), text: li.querySelector('.val').textContent}))};");
    assert_eq!(page["source"], "search", "{page}");
    assert!(
        page["value"]
            .as_str()
            .unwrap()
            .contains("search, not tables"),
        "{page}"
    );
    assert_eq!(page["hidden"], false, "{page}");
    assert!(
        page["label"]
            .as_str()
            .unwrap()
            .starts_with("Search, not tables"),
        "{page}"
    );
    let shown_moves = page["moves"].as_array().unwrap();
    assert_eq!(shown_moves.len(), 23);
    for m in shown_moves {
        assert_eq!(m["source"], "search", "{m}");
        // The score in stones, as the API gives it in centi-stones.
        if let Some(cp) = m["score"].as_i64() {
            let stones = format!("{:.2}", cp as f64 / 100.0);
            let text = if cp > 0 { format!("+{stones}") } else { stones };
            assert_eq!(m["text"], text.as_str(), "{m}");
        }
    }
    assert!(shown_moves.iter().any(|m| m["score"].is_i64()), "{page}");
    b.screenshot(&target.join("explorer-search.png"));

    // A bad position string in the field: a message, and the position stays.
    b.type_into("#fen", "nonsense");
    b.click("#fen-form button[type=submit]");
    let deadline = Instant::now() + Duration::from_secs(20);
    while b.js("return document.getElementById('fen-error').hidden;") == true {
        assert!(Instant::now() < deadline, "no message for a bad position");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(b.text("#fen-error").contains("invalid position 'nonsense'"));
    assert_eq!(fen_in(&b.url()), placed);

    // A phone-sized screen: nothing wider than the screen, the board across it.
    b.cmd(
        "POST",
        "/window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    b.goto(&format!("{}?fen={}", server.url, encode(WIN7)));
    b.wait_for(WIN7);
    let fit = b.js("const w = document.documentElement.clientWidth;
        return [document.documentElement.scrollWidth <= w,
                document.getElementById('board').getBoundingClientRect().width, w];");
    assert_eq!(fit[0], true, "{fit}");
    assert!(
        fit[1].as_f64().unwrap() >= 0.9 * fit[2].as_f64().unwrap(),
        "{fit}"
    );
    b.screenshot(&target.join("explorer-phone.png"));

    // The best line is clickable: its second move plays both.
    b.click("#pv a[data-ply='2']");
    let two = after(&after(WIN7, "d5-e3"), "d7-c3");
    b.wait_for(&two);
    assert_eq!(fen_in(&b.url()), two);
    // Flipping turns the board around (a1 goes to the top right) and is kept in the URL.
    let corner = "const r = document.querySelector('[data-point=a1]').getBoundingClientRect();
        const s = document.querySelector('[data-point=g7]').getBoundingClientRect();
        return r.left > s.left && r.top < s.top;";
    assert_eq!(b.js(corner), false);
    b.click("#flip");
    assert_eq!(b.js(corner), true);
    assert!(b.url().contains("flip=1"));
}

#[test]
fn the_explorer_draws_marks_and_diagonals() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(empty.path(), &["--variant", "cham-gonu"]);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    // White closes a7-d7-g7 by placing and removes a1, which is marked.
    let v = Variant::by_name("cham-gonu").unwrap();
    let mut pos = millbase::Position::start(&v);
    for m in ["a7", "a1", "d7", "d1", "g7xa1"] {
        let mv = parse_legal_move(&v, &pos, m, Default::default()).unwrap();
        pos = play(&v, &pos, mv);
    }
    let fen = format_position_info(&v, &pos, PositionInfo::default());
    assert!(fen.contains('X'), "{fen}");
    let b = Browser::start();
    b.goto(&format!("{}?fen={}", server.url, encode(&fen)));
    b.wait_for(&fen);

    // The board's 40 lines, the 8 diagonal ones among them, from the API's adjacency.
    let board = b.js("const q = (s) => [...document.querySelectorAll(s)];
        return {lines: q('#board line.line').length,
          diagonals: q('#board line.diagonal').map((l) => l.dataset.line.split('-').sort().join('-')).sort(),
          marks: q('#board .mark').map((g) => [g.dataset.mark, g.querySelectorAll('line').length]),
          marked: q('#board .hit.marked').map((h) => h.dataset.point)};");
    assert_eq!(board["lines"], 40, "{board}");
    let mut want = [
        "a7-b6", "b6-c5", "f6-g7", "e5-f6", "a1-b2", "b2-c3", "f2-g1", "e3-f2",
    ];
    want.sort_unstable();
    assert_eq!(board["diagonals"], json!(want), "{board}");
    // The mark: a cross on a1, and a1 is no target.
    assert_eq!(board["marks"], json!([["a1", 2]]), "{board}");
    assert_eq!(board["marked"], json!(["a1"]), "{board}");
    assert!(
        b.text("#status").contains("marked: a1"),
        "{}",
        b.text("#status")
    );
    b.click("[data-point=a1]");
    assert!(
        b.text("#notice").contains("a1 is marked"),
        "{}",
        b.text("#notice")
    );
    assert_eq!(fen_in(&b.url()), fen);

    // No table of the placing phase follows these rules: every move by the search, said so,
    // and no command.
    let page = b.js("const v = document.getElementById('value');
        const p = document.getElementById('problem');
        return {source: v.dataset.source, problem: p.textContent, hidden: p.hidden,
          header: document.getElementById('tables').textContent,
          moves: [...document.querySelectorAll('#moves li')].map((li) => [li.dataset.move,
            li.dataset.source])};");
    assert_eq!(page["source"], "search", "{page}");
    assert_eq!(page["hidden"], false, "{page}");
    let problem = page["problem"].as_str().unwrap();
    assert!(
        problem.contains(
            "Tables of the placing phase do not follow these rules yet (placing-mill=mark)"
        ) && !problem.contains("generate"),
        "{page}"
    );
    assert!(
        page["header"]
            .as_str()
            .unwrap()
            .contains("for the moving phase (placing: search only, placing-mill=mark)"),
        "{page}"
    );
    let moves = page["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 19, "{page}");
    assert!(
        moves.iter().all(|m| m[1] == "search" && m[0] != "a1"),
        "{page}"
    );
    b.screenshot(&target.join("explorer-marks.png"));

    // Black places on b6 by clicking: the mark stays while stones are in hand.
    b.click("[data-point=b6]");
    let next = {
        let mv = parse_legal_move(&v, &pos, "b6", Default::default()).unwrap();
        let info = PositionInfo {
            counter: 0,
            full_move: 2,
        };
        format_position_info(&v, &play(&v, &pos, mv), info)
    };
    b.wait_for(&next);
    assert_eq!(fen_in(&b.url()), next);
    assert_eq!(
        b.js("return [...document.querySelectorAll('#board .mark')].map((g) => g.dataset.mark);"),
        json!(["a1"])
    );
}
