//! The explorer's JSON API over real tables, through `millbase serve` on a free port:
//! `/api/probe` and `/api/pv` answer exactly what `probe --json` and `pv --json` print,
//! `/api/moves` lists the legal moves with the positions they lead to, bad input is a 400
//! with a JSON error, a missing sector a 404 naming the `generate` command (which, run,
//! makes the same request succeed), unknown paths a 404 and no request reads a file.
//!
//! The load test (200 concurrent clients, 10,000 requests) is ignored by default:
//! `cargo test --release --test serve_api -- --ignored --nocapture load`.

mod common;

use common::{Server, WIN7, decode, encode, generate, millbase, raw_request, request};
use millbase::movegen::play;
use millbase::notation::{
    PositionInfo, format_position_info, parse_legal_move, parse_position_info,
};
use millbase::{Color, Variant};
use serde_json::Value as Json;

/// Black to move after white's d5-e3 from [`WIN7`]: lost in 6.
const LOSS6: &str = "***OO***/********/@O**@**@ b m s 3 0 3 0 0 0 0 0 0 0 0 1 1";
/// White must remove a black stone; black is then left with two: won in 1.
const REMOVE: &str = "O***O***/********/@O**@**@ w m r 3 0 3 0 1 0 -1 -1 -1 -1 0 0 1 ids:nodes";
/// [`WIN7`] with a fourth black stone on a1: sector 3-4.
const IN_3_4: &str = "O***O***/********/@O**@@*@ w m s 3 0 4 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
/// White (e5, d7, g4, a7) to move against three black stones, sector 4-3: g4-g7 closes a mill
/// and any removal leaves black two stones, a win in one ply.
const MILL_4_3: &str = "@O*@****/***@****/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 1";

/// Tables of sector 3-3 (no N-move rule) and a server over them.
fn served(extra_generate: &[&str]) -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), extra_generate, &["3-3"]);
    let server = Server::start(dir.path(), &[]);
    (dir, server)
}

fn cli_json(args: &[&str]) -> Json {
    let (code, out, err) = millbase(args);
    assert_eq!(code, 0, "millbase {args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn probe_and_pv_answer_what_the_command_line_prints() {
    let (dir, server) = served(&[]);
    let d = dir.path().to_str().unwrap();
    for fen in [WIN7, LOSS6, REMOVE] {
        let (status, body) = server.get_json(&format!("/api/probe?fen={}", encode(fen)));
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            cli_json(&["probe", "--dir", d, "--json", fen]),
            "{fen}"
        );

        let (status, mut body) = server.get_json(&format!("/api/pv?fen={}", encode(fen)));
        assert_eq!(status, 200, "{body}");
        // The positions along the line: each the one before with the line's move played.
        let fens = body.as_object_mut().unwrap().remove("fens").unwrap();
        assert_eq!(body, cli_json(&["pv", "--dir", d, "--json", fen]), "{fen}");
        let v = Variant::standard();
        let (mut pos, _) = parse_position_info(&v, fen).unwrap();
        let line = body["line"].as_array().unwrap();
        assert_eq!(fens.as_array().unwrap().len(), line.len());
        for (mv, after) in line.iter().zip(fens.as_array().unwrap()) {
            let mv = parse_legal_move(&v, &pos, mv.as_str().unwrap(), Default::default()).unwrap();
            pos = play(&v, &pos, mv);
            assert_eq!(
                parse_position_info(&v, after.as_str().unwrap()).unwrap().0,
                pos
            );
        }
    }
    // The values themselves, not only agreement: WIN7 is a win in 7, best d5-e3 or d3-e5.
    let (_, body) = server.get_json(&format!("/api/probe?fen={}", encode(WIN7)));
    assert_eq!(
        (body["value"].as_str(), body["plies"].as_u64()),
        (Some("win"), Some(7))
    );
    assert_eq!(body["rule"], serde_json::json!({"n": 0, "counter": 0}));
    assert_eq!(body["moves"][0]["move"], "d5-e3");
    let (_, body) = server.get_json(&format!("/api/probe?fen={}", encode(LOSS6)));
    assert_eq!(
        (body["value"].as_str(), body["plies"].as_u64()),
        (Some("loss"), Some(6))
    );
    let (_, body) = server.get_json(&format!("/api/pv?fen={}&max_plies=3", encode(WIN7)));
    assert_eq!(body["line"], serde_json::json!(["d5-e3", "d7-c3", "d3-e4"]));
}

#[test]
fn query_values_may_be_encoded_either_way() {
    let (_dir, server) = served(&[]);
    let (_, expected) = server.get_json(&format!("/api/probe?fen={}", encode(WIN7)));
    let plus = WIN7.replace(' ', "+");
    let pct20 = WIN7.replace(' ', "%20");
    // `/`, `*` and `@` may stay as they are in a query; `:` too.
    for q in [plus.as_str(), pct20.as_str()] {
        let (status, body) = server.get_json(&format!("/api/probe?fen={q}"));
        assert_eq!((status, &body), (200, &expected), "{q}");
    }
    let (status, body) = server.get_json(&format!("/api/probe?variant=std&fen={}", encode(WIN7)));
    assert_eq!((status, body), (200, expected));
    // The counter: from the string, or the parameter; here without a rule it changes nothing
    // but the echo.
    let (status, body) = server.get_json(&format!("/api/probe?fen={}&counter=12", encode(WIN7)));
    assert_eq!(status, 200);
    assert_eq!(body["rule"]["counter"], 12);
    assert_eq!(body["plies"], 7);
}

#[test]
fn moves_lists_every_legal_move_with_the_position_it_leads_to() {
    // No table at all: listing moves needs none.
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(empty.path(), &[]);
    let v = Variant::standard();
    for fen in [WIN7, LOSS6, REMOVE, IN_3_4, "start"] {
        let (status, body) = server.get_json(&format!("/api/moves?fen={}", encode(fen)));
        assert_eq!(status, 200, "{body}");
        let (code, out, _) = millbase(&["moves", "--json", fen]);
        assert_eq!(code, 0);
        let expected: Vec<String> = serde_json::from_str(&out).unwrap();
        let moves = body["moves"].as_array().unwrap();
        let got: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
        assert_eq!(got, expected, "{fen}");
        let (pos, info) = parse_position_info(&v, fen).unwrap();
        assert_eq!(body["to_move"], pos.to_move.to_string());
        assert_eq!(body["pending_removal"], pos.pending_removal());
        for m in moves {
            let mv = parse_legal_move(&v, &pos, m["move"].as_str().unwrap(), Default::default())
                .unwrap();
            let next = play(&v, &pos, mv);
            // The counter restarts after a placement or removal, else counts on; the move
            // number goes up after black's move.
            let counter = if mv.removes() || mv.is_place() {
                0
            } else {
                info.counter + 1
            };
            let full_move = info.full_move + u32::from(pos.to_move == Color::Black);
            let fen_after = format_position_info(&v, &next, PositionInfo { counter, full_move });
            assert_eq!(m["fen"], fen_after.as_str(), "{fen}: {}", m["move"]);
            let square = |p: u8| {
                if p == u8::MAX {
                    Json::Null
                } else {
                    v.board().name(p).into()
                }
            };
            assert_eq!((&m["from"], &m["to"]), (&square(mv.from), &square(mv.to)));
            assert_eq!(m["remove"], square(mv.remove));
        }
    }
    // Stones and hands as read; a finished game says so.
    let (_, body) = server.get_json("/api/moves?fen=start");
    assert_eq!(body["in_hand"], serde_json::json!({"white": 9, "black": 9}));
    assert_eq!(body["phase"], "placing");
    assert_eq!(body["moves"].as_array().unwrap().len(), 24);
    assert_eq!(body["outcome"], Json::Null);
    let over = "********/********/*OOO@**@ b m s 3 0 2 0 0 0 0 0 0 0 0 0 4";
    let (_, body) = server.get_json(&format!("/api/moves?fen={}", encode(over)));
    assert_eq!(body["outcome"]["winner"], "white");
    assert_eq!(body["moves"].as_array().unwrap().len(), 0);
    // ... and a probe without tables names the sector.
    let (status, body) = server.get_json(&format!("/api/probe?fen={}", encode(WIN7)));
    assert_eq!((status, body["sector"].as_str()), (404, Some("3-3")));
}

#[test]
fn bad_input_is_a_400_with_a_json_error() {
    let (_dir, server) = served(&[]);
    let w = encode(WIN7);
    let long = "O".repeat(2000);
    let cases: Vec<(String, &str)> = vec![
        ("/api/probe".into(), "missing parameter 'fen'"),
        ("/api/probe?fen=".into(), "invalid position"),
        (
            "/api/probe?fen=nonsense".into(),
            "invalid position 'nonsense'",
        ),
        (
            format!("/api/probe?fen={}", encode(&WIN7.replace(" w ", " x "))),
            "side to move",
        ),
        (
            format!("/api/probe?fen={}", encode(&WIN7.replace("@O**", "@Q**"))),
            "invalid position",
        ),
        (
            format!(
                "/api/probe?fen={}",
                encode(&WIN7.replace(" 3 0 3 0 ", " 3 0 4 0 "))
            ),
            "invalid position",
        ),
        (
            format!(
                "/api/moves?fen={}",
                encode(&WIN7.replace(" 3 0 3 0 ", " 3 7 3 0 "))
            ),
            "stones",
        ),
        ("/api/probe?fen=%FF%FE".into(), "invalid position"),
        (format!("/api/probe?fen={long}"), "longer than"),
        (
            format!("/api/probe?fen={w}&counter=-1"),
            "invalid counter '-1'",
        ),
        (
            format!("/api/probe?fen={w}&counter=99999999999"),
            "invalid counter",
        ),
        (
            format!("/api/pv?fen={w}&max_plies=100000"),
            "invalid max_plies",
        ),
        (format!("/api/pv?fen={w}&max_plies=x"), "invalid max_plies"),
        (
            format!("/api/probe?fen={w}&max_plies=3"),
            "unknown parameter 'max_plies'",
        ),
        (
            format!("/api/probe?fen={w}&dir=/etc"),
            "unknown parameter 'dir'",
        ),
        (format!("/api/moves?fen={w}&fen={w}"), "given twice"),
        (
            format!("/api/probe?fen={w}&variant=six"),
            "variant 'six' is not served here",
        ),
        (
            format!("/api/moves?fen={w}&variant=chess"),
            "variant 'chess' is not served here",
        ),
        ("/api/info?variant=lasker".into(), "not served here"),
        ("/api/info?x=1".into(), "unknown parameter 'x'"),
        (
            "/api/probe?fen=..%2F..%2F..%2Fetc%2Fpasswd".into(),
            "invalid position",
        ),
        (
            format!("/api/probe?fen={}", encode("3-3-0-0.mbw")),
            "invalid position",
        ),
    ];
    for (path, wanted) in &cases {
        let r = server.get(path);
        let body: Json = serde_json::from_slice(&r.body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", r.text()));
        assert_eq!(r.status, 400, "{path}: {body}");
        assert_eq!(r.header("content-type"), Some("application/json"), "{path}");
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: {body}"));
        assert!(error.contains(wanted), "{path}: {error:?} lacks {wanted:?}");
        assert_eq!(body.as_object().unwrap().len(), 1, "{path}: {body}");
    }
    // The server still answers after all that.
    assert_eq!(server.get_json(&format!("/api/probe?fen={w}")).0, 200);
}

#[test]
fn a_missing_sector_is_a_404_naming_it_and_the_command_that_makes_it() {
    let (dir, server) = served(&[]);
    let d = dir.path().to_str().unwrap();
    let path = format!("/api/probe?fen={}", encode(IN_3_4));
    let (status, body) = server.get_json(&path);
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["sector"], "3-4");
    let command = format!("millbase generate --dir {d} 3-4");
    assert_eq!(body["command"], command.as_str());
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("sector 3-4") && error.contains(&command),
        "{error}"
    );
    // What making it costs: 3-4 and 4-3 (3-3 is there), as `generate --dry-run` says.
    let cost = &body["cost"];
    assert_eq!(
        (&cost["sectors"], &cost["positions"]),
        (&2.into(), &1_520_796.into())
    );
    let (code, out, _) = millbase(&["generate", "--dry-run", "--dir", d, "3-4"]);
    assert_eq!(code, 0);
    let text = cost["text"].as_str().unwrap();
    assert_eq!(out, format!("to solve in {d}: {text}\n"));
    assert!(error.ends_with(&format!("(to solve: {text})")), "{error}");
    let (status, pv) = server.get_json(&format!("/api/pv?fen={}", encode(IN_3_4)));
    assert_eq!((status, &pv["sector"]), (404, &body["sector"]));
    assert_eq!(pv["cost"], body["cost"]);
    // Run the command it names; the running server then answers.
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let (code, _, err) = millbase(&words);
    assert_eq!(code, 0, "{err}");
    let (status, body) = server.get_json(&path);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, cli_json(&["probe", "--dir", d, "--json", IN_3_4]));
}

#[test]
fn without_tables_every_move_gets_the_search_evaluation_labelled_as_search() {
    let (dir, server) = served(&[]);
    let d = dir.path().to_str().unwrap();
    let path = format!("/api/probe?fen={}", encode(MILL_4_3));
    let (status, body) = server.get_json(&path);
    assert_eq!(
        (status, body["sector"].as_str()),
        (404, Some("4-3")),
        "{body}"
    );
    let search = &body["search"];
    assert_eq!(search["source"], "search", "{body}");
    // Every legal move, once.
    let (_, moves) = server.get_json(&format!("/api/moves?fen={}", encode(MILL_4_3)));
    let mut legal: Vec<&str> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let rows = search["moves"].as_array().unwrap();
    let mut searched: Vec<&str> = rows.iter().map(|m| m["move"].as_str().unwrap()).collect();
    legal.sort_unstable();
    searched.sort_unstable();
    assert_eq!(searched, legal);
    // The three removals after g4-g7 win at once, first; the other moves have a score, in
    // centi-stones for white, best first (at least one iteration within the time, unless the
    // machine stalled: then neither score nor depth).
    for row in &rows[..3] {
        assert!(row["move"].as_str().unwrap().starts_with("g4-g7x"), "{row}");
        assert_eq!(
            (&row["value"], &row["plies"]),
            (&"win".into(), &1.into()),
            "{row}"
        );
    }
    let scores: Vec<i64> = rows[3..]
        .iter()
        .filter_map(|row| {
            assert_eq!(row["value"], Json::Null, "{row}");
            match row["score"].as_i64() {
                Some(cp) => {
                    assert!(row["depth"].as_u64() >= Some(1), "{row}");
                    Some(cp)
                }
                None => {
                    assert_eq!(row["depth"], 0, "{row}");
                    None
                }
            }
        })
        .collect();
    assert!(scores.is_sorted_by(|a, b| a >= b), "{scores:?}");
    // Once the tables are there, the same moves win in one ply by the tables.
    let (code, _, err) = millbase(&["generate", "--quiet", "--dir", d, "4-3"]);
    assert_eq!(code, 0, "{err}");
    let (status, body) = server.get_json(&path);
    assert_eq!(status, 200, "{body}");
    assert!(body.get("search").is_none());
    for m in &body["moves"].as_array().unwrap()[..3] {
        assert_eq!(
            (&m["value"], &m["plies"]),
            (&"win".into(), &1.into()),
            "{m}"
        );
    }
}

#[test]
fn tables_under_the_n_move_rule_answer_dtr_at_the_counter() {
    let (dir, server) = served(&["--n-move-rule", "20"]);
    let d = dir.path().to_str().unwrap();
    let (_, info) = server.get_json("/api/info");
    assert_eq!(info["rule"]["n"], 20);
    // WIN7 has DTR 7: won at counters up to 13, a cursed win from 14 on.
    for (counter, value) in [
        (0, "win"),
        (13, "win"),
        (14, "cursed-win"),
        (u32::MAX, "cursed-win"),
    ] {
        let fen = WIN7.replace(" 0 0 1 ids", &format!(" 0 {counter} 1 ids"));
        let (status, body) = server.get_json(&format!("/api/probe?fen={}", encode(&fen)));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["value"], value, "counter {counter}");
        assert_eq!(
            body["rule"],
            serde_json::json!({"n": 20, "counter": counter})
        );
        assert_eq!(body, cli_json(&["probe", "--dir", d, "--json", &fen]));
        let by_param = format!("/api/probe?fen={}&counter={counter}", encode(WIN7));
        assert_eq!(server.get_json(&by_param).1, body);
    }
    let (_, body) = server.get_json(&format!("/api/probe?fen={}", encode(WIN7)));
    assert_eq!(
        (body["dtr"].as_u64(), &body["plies"]),
        (Some(7), &Json::Null)
    );
    // The command for a missing sector keeps the rule.
    let (_, body) = server.get_json(&format!("/api/probe?fen={}", encode(IN_3_4)));
    assert_eq!(
        body["command"],
        format!("millbase generate --n-move-rule 20 --dir {d} 3-4")
    );
    // At the counter N a moving position is over by the rule.
    let fen = WIN7.replace(" 0 0 1 ids", " 0 20 1 ids");
    let (_, body) = server.get_json(&format!("/api/moves?fen={}", encode(&fen)));
    assert_eq!(body["outcome"]["winner"], Json::Null);
    assert!(
        body["outcome"]["reason"]
            .as_str()
            .unwrap()
            .contains("20-move rule")
    );
}

#[test]
fn unknown_paths_are_404_and_no_request_reads_a_file() {
    let (_dir, server) = served(&[]);
    for path in [
        "/nope",
        "/api",
        "/api/",
        "/api/nope",
        "/api/probe/../../Cargo.toml",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
        "/app.js/../../../etc/passwd",
        "//etc/passwd",
        "/3-3-0-0.mbw",
        "/data/std/3-3-0-0.mbw",
        "/src/serve/assets/app.js",
        "/index.html",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 404, "{path}: {}", r.text());
        let body: Json = serde_json::from_slice(&r.body).unwrap();
        assert!(
            body["error"].as_str().unwrap().starts_with("not found"),
            "{path}"
        );
        assert!(!r.text().contains("root:"), "{path}");
    }
    // A request target that is not a path at all.
    for target in ["../../etc/passwd", "*"] {
        let raw = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let r = raw_request(server.addr, raw.as_bytes());
        assert!(r.status == 400 || r.status == 404, "{target}: {}", r.status);
        assert!(!r.text().contains("root:"));
    }
    for method in ["POST", "PUT", "DELETE"] {
        let r = request(server.addr, method, "/api/probe?fen=start", Some("{}"));
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(r.header("allow"), Some("GET, HEAD"));
    }
    assert_eq!(request(server.addr, "HEAD", "/", None).status, 200);
}

#[test]
fn the_page_and_its_files_come_from_the_binary_and_load_nothing_from_elsewhere() {
    let (_dir, server) = served(&[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"));
    let html = page.text();
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        assert!(html.contains(path), "the page links {path}");
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        // No CDN, no remote font: the only URL is the SVG namespace.
        let text = r.text().replace("http://www.w3.org/2000/svg", "");
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{path}"
        );
    }
    let (status, info) = server.get_json("/api/info");
    assert_eq!(status, 200);
    assert_eq!(info["variant"], "std");
    assert_eq!(info["board"]["points"].as_array().unwrap().len(), 24);
    // 32 drawn segments: 4 per side of each square, 4 spokes of 2.
    assert_eq!(info["board"]["lines"].as_array().unwrap().len(), 32);
    assert_eq!(info["board"]["size"], 7);
}

#[test]
fn the_command_line_reports_bad_options_and_busy_ports() {
    let (code, _, err) = millbase(&["serve", "--dir", "/nonexistent/tables", "--port", "0"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("millbase: error: ") && err.contains("/nonexistent/tables"),
        "{err}"
    );
    assert_eq!(
        millbase(&["serve", "--bind", "nowhere", "--port", "0"]).0,
        2
    );
    assert_eq!(
        millbase(&["serve", "--variant", "chess", "--port", "0"]).0,
        2
    );
    let (dir, server) = served(&[]);
    let port = server.addr.port().to_string();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = millbase(&["serve", "--dir", d, "--port", &port]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("millbase: error: cannot listen on 127.0.0.1:"),
        "{err}"
    );
}

#[test]
fn many_clients_at_once_get_the_same_answers() {
    let (_dir, server) = served(&[]);
    let fens = [WIN7, LOSS6, REMOVE];
    let expected: Vec<Json> = fens
        .iter()
        .map(|f| server.get_json(&format!("/api/probe?fen={}", encode(f))).1)
        .collect();
    std::thread::scope(|s| {
        for t in 0..16 {
            let (server, fens, expected) = (&server, &fens, &expected);
            s.spawn(move || {
                for i in 0..10 {
                    let k = (t + i) % fens.len();
                    let path = format!("/api/probe?fen={}", encode(fens[k]));
                    assert_eq!(server.get_json(&path), (200, expected[k].clone()));
                }
            });
        }
    });
}

#[test]
fn query_decoding_helper_round_trips() {
    assert_eq!(decode(&encode(WIN7)), WIN7);
    assert_eq!(decode("a+b%2Fc"), "a b/c");
}

/// Read one keep-alive HTTP response (headers, then `Content-Length` bytes): the status.
fn read_response(stream: &mut std::io::BufReader<std::net::TcpStream>) -> std::io::Result<u16> {
    use std::io::{BufRead, Read};
    let mut line = String::new();
    stream.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut len = 0usize;
    loop {
        line.clear();
        stream.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            len = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    stream.read_exact(&mut body)?;
    Ok(status)
}

#[test]
#[ignore = "load test: cargo test --release --test serve_api -- --ignored --nocapture load"]
fn load_200_clients_10000_requests() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    // Each client sends its next request as soon as it has the answer (saturation), or with
    // MILLBASE_LOAD_RATE=R at R requests per second in all, evenly paced (latency counted
    // from the planned send time, so a backlog counts). MILLBASE_LOAD_CLIENTS=1 measures
    // one request at a time.
    let var = |name: &str| std::env::var(name).ok().and_then(|c| c.parse::<f64>().ok());
    let clients = var("MILLBASE_LOAD_CLIENTS").map_or(200, |c| c as usize);
    let rate = var("MILLBASE_LOAD_RATE");
    const REQUESTS: usize = 10_000;
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), &[], &["3-4"]);
    let server = Server::start(dir.path(), &[]);
    // Positions: those one and two moves from a few 3-3, 3-4 and 4-3 positions.
    let mut fens: Vec<String> = vec![WIN7.into(), LOSS6.into(), IN_3_4.into()];
    for depth in 0..2 {
        let mut next = Vec::new();
        for f in &fens {
            let (_, body) = server.get_json(&format!("/api/moves?fen={}", encode(f)));
            for m in body["moves"].as_array().unwrap() {
                next.push(m["fen"].as_str().unwrap().to_string());
            }
        }
        fens.extend(next.into_iter().step_by(3 + depth * 5));
        fens.sort();
        fens.dedup();
    }
    let paths: Vec<String> = fens
        .iter()
        .map(|f| format!("/api/probe?fen={}", encode(f)))
        .collect();
    // Warm: every position once.
    for p in &paths {
        assert_eq!(server.get(p).status, 200, "{p}");
    }
    let barrier = std::sync::Barrier::new(clients);
    let start = Instant::now();
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let (paths, barrier, addr) = (&paths, &barrier, server.addr);
                s.spawn(move || {
                    let mut times = Vec::new();
                    let mut errors = 0;
                    let stream = std::net::TcpStream::connect(addr).unwrap();
                    stream.set_nodelay(true).unwrap();
                    let mut writer = stream.try_clone().unwrap();
                    let mut reader = std::io::BufReader::new(stream);
                    barrier.wait();
                    let begin = Instant::now();
                    // Paced: one request every `gap`, clients staggered across it.
                    let gap = rate.map(|r| Duration::from_secs_f64(clients as f64 / r));
                    for i in 0..REQUESTS / clients {
                        let path = &paths[(c * 7 + i * 13) % paths.len()];
                        let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
                        let t = match gap {
                            Some(gap) => {
                                let due = begin + gap.mul_f64(i as f64 + c as f64 / clients as f64);
                                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                                due
                            }
                            None => Instant::now(),
                        };
                        let ok = writer.write_all(req.as_bytes()).is_ok()
                            && matches!(read_response(&mut reader), Ok(200));
                        times.push(t.elapsed());
                        errors += usize::from(!ok);
                    }
                    (times, errors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed();
    let errors: usize = results.iter().map(|r| r.1).sum();
    let mut times: Vec<Duration> = results.into_iter().flat_map(|r| r.0).collect();
    times.sort();
    let q = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "explorer load: {} clients{}, {} requests over {} positions, {errors} errors, {:.2} s, \
         {:.0} requests/s; latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        clients,
        rate.map_or(String::new(), |r| format!(" paced at {r} requests/s")),
        times.len(),
        paths.len(),
        wall.as_secs_f64(),
        times.len() as f64 / wall.as_secs_f64(),
        q(0.5).as_secs_f64() * 1e3,
        q(0.9).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        q(1.0).as_secs_f64() * 1e3,
    );
    assert_eq!(errors, 0);
    assert_eq!(times.len(), REQUESTS);
}
