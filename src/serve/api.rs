//! The explorer's JSON API, as plain functions from a query string to a status and a JSON
//! body (the HTTP layer in `mod.rs` only routes and wraps them).
//!
//! * `/api/info`: the variant (its name, `label` and every option in `rules`), whether tables
//!   follow its rules (`tables`), its board (points with grid coordinates, the lines between
//!   neighbouring points, diagonals included where the board has them, and the mills), the
//!   tables' N-move rule and directory, the start position.
//! * `/api/probe?fen=F[&counter=C]`: the schema of `millbase probe --json`.
//! * `/api/pv?fen=F[&counter=C][&max_plies=M]`: the schema of `millbase pv --json`, plus
//!   `"fens"`: the position after each move of the line.
//! * `/api/moves?fen=F[&counter=C]`: the position read from the string (with its marked
//!   points and the removals pending for each side) and every legal move with the position it
//!   leads to (needs no table).
//!
//! Every endpoint also takes `variant=V`, which must be the variant served. A bad query or
//! position is a 400, a position whose sector has no table a 404 naming the sector, the
//! `generate` command that makes it and what that costs (`"cost"`: sectors, positions,
//! estimated time, peak memory and disk, and the same in one line, `"text"`), a damaged table
//! a 500; each with `{"error": "..."}`. The 404 of `/api/probe` also carries the engine's
//! search evaluation of every legal move (`"search"`, with `"source": "search"`): an
//! estimate by alpha-beta search within [`SEARCH_BUDGET`], not a table value. Under rules
//! that tables do not follow ([`Variant::unsupported_by_tables`]) no table is read:
//! `/api/probe` is a 404 with `"unsupported"` (the options, as `key=value`) and that search,
//! `/api/pv` a 404 naming the options.
//! Requests name positions only: the files read are those of the served directory that the
//! tables of those positions live in.

use crate::report::{self, AnswerError, MAX_PV_PLIES, rule_json};
use millbase::engine::game::{DrawRules, Game};
use millbase::engine::{Engine, EngineConfig, Limits, Score};
use millbase::movegen::{Convention, Outcome, legal_moves, outcome, play};
use millbase::notation::{PositionInfo, format_move, format_position_info, parse_position_info};
use millbase::plan::{cost_to_solve, generate_command, missing_table_advice, sector_name};
use millbase::rules::{NO_SQUARE, points};
use millbase::sectors::{Sector, unsupported_in};
use millbase::{Color, Move, Position, ProbeError, TableError, Tablebase, Value, Variant};
use serde_json::{Map, Value as Json, json};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Longest position string accepted.
const MAX_FEN_LEN: usize = 512;

/// Time the search evaluation of all moves of a position without tables takes at most (shared
/// among its moves), so that the page stays quick and the server responsive.
pub const SEARCH_BUDGET: Duration = Duration::from_millis(300);

/// Transposition table of that search, MiB (one per request).
const SEARCH_HASH_MB: usize = 4;

/// A reply: an HTTP status and a JSON body (as text).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

impl Reply {
    fn ok(body: Json) -> Reply {
        Reply {
            status: 200,
            body: body.to_string(),
        }
    }

    /// An error reply `{"error": message}` with `status`.
    pub fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply {
            status,
            body: json!({ "error": message.into() }).to_string(),
        }
    }
}

/// The tables served, and what the API needs to describe them.
pub struct Explorer {
    tb: Tablebase,
    variant: Variant,
    dir: PathBuf,
}

/// A parsed request: the position, its counter and the query's other values.
struct Request {
    pos: Position,
    info: PositionInfo,
    max_plies: usize,
}

impl Explorer {
    /// Serve the tables of `tb`, which were opened from `dir`.
    pub fn new(tb: Tablebase, dir: PathBuf) -> Explorer {
        let variant = *tb.variant();
        Explorer { tb, variant, dir }
    }

    /// `/api/info`.
    pub fn info(&self, query: Option<&str>) -> Reply {
        if let Err(e) = parse_query(query, &["variant"]).and_then(|q| self.check_variant(&q)) {
            return e;
        }
        let board = self.variant.board();
        let pts: Vec<Json> = board
            .names()
            .iter()
            .map(|name| {
                let (x, y) = grid(name);
                json!({"name": name, "x": x, "y": y})
            })
            .collect();
        let mut lines = Vec::new();
        for p in 0..board.len() as u8 {
            for q in points(board.adjacent(p)).filter(|&q| q > p) {
                lines.push(json!([board.name(p), board.name(q)]));
            }
        }
        let mills: Vec<Json> = board
            .mills()
            .iter()
            .map(|&m| points(m).map(|p| board.name(p)).collect())
            .collect();
        let size = board.names().iter().map(|n| grid(n).0.max(grid(n).1)).max();
        let start = Position::start(&self.variant);
        let rule = self.tb.rule();
        let rules: Map<String, Json> = self
            .variant
            .rules()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into()))
            .collect();
        let unsupported = self.variant.unsupported_by_tables();
        let mut placing = unsupported.clone();
        placing.extend(self.variant.unsupported_in_placing());
        Reply::ok(json!({
            "variant": self.variant.name,
            "label": self.variant.label(),
            "rules": rules,
            "tables": {
                "supported": unsupported.is_empty(),
                "unsupported": unsupported,
                "placing": {"supported": placing.is_empty(), "unsupported": placing},
            },
            "stones": self.variant.stones,
            "flying": self.variant.fly_at.is_some(),
            "rule": {"n": rule.n(), "endgame_n": rule.endgame_in(&self.variant)},
            "dir": self.dir.display().to_string(),
            "start": format_position_info(&self.variant, &start, PositionInfo::default()),
            "board": {
                "size": size.map_or(0, |s| s + 1),
                "points": pts,
                "lines": lines,
                "mills": mills,
            },
            "version": env!("CARGO_PKG_VERSION"),
        }))
    }

    /// `/api/probe`: the value of the position and of every legal move (`probe --json`).
    pub fn probe(&self, query: Option<&str>) -> Reply {
        let req = match self.request(query, &["fen", "counter", "variant"]) {
            Ok(r) => r,
            Err(e) => return e,
        };
        // Rules the tables do not follow: no table to read, the search only.
        if let Some(mut body) = self.unsupported_body(&req.pos) {
            body.insert("search".into(), self.search(&req.pos, req.info));
            return Reply {
                status: 404,
                body: Json::Object(body).to_string(),
            };
        }
        match report::probe(&self.tb, &req.pos, req.info.counter) {
            Ok(answer) => Reply {
                status: 200,
                body: answer.json_text(&self.variant),
            },
            // No table: what making it costs, and the engine's search in the meantime.
            Err(AnswerError::Probe(ProbeError::Table(TableError::Missing { sector, .. }))) => {
                let mut body = self.missing_body(sector);
                body.insert("search".into(), self.search(&req.pos, req.info));
                Reply {
                    status: 404,
                    body: Json::Object(body).to_string(),
                }
            }
            Err(AnswerError::Probe(e)) => self.probe_error(e),
            Err(e @ AnswerError::NeedsDistances { .. }) => Reply::error(404, e.to_string()),
        }
    }

    /// `/api/pv`: the principal variation (`pv --json`) and the position after each move.
    pub fn pv(&self, query: Option<&str>) -> Reply {
        let req = match self.request(query, &["fen", "counter", "variant", "max_plies"]) {
            Ok(r) => r,
            Err(e) => return e,
        };
        if let Some(body) = self.unsupported_body(&req.pos) {
            return Reply {
                status: 404,
                body: Json::Object(body).to_string(),
            };
        }
        let answer = match report::principal_variation(
            &self.tb,
            &req.pos,
            req.info.counter,
            req.max_plies,
        ) {
            Ok(a) => a,
            Err(e) => return self.probe_error(e),
        };
        let mut body = answer.json(&self.variant);
        let (mut pos, mut info) = (req.pos, req.info);
        let fens: Vec<Json> = answer
            .line
            .iter()
            .map(|m| {
                (pos, info) = self.after(&pos, info, m.mv);
                format_position_info(&self.variant, &pos, info).into()
            })
            .collect();
        body["fens"] = fens.into();
        Reply::ok(body)
    }

    /// `/api/moves`: the position as read and every legal move with the position it leads
    /// to. Needs no table.
    pub fn moves(&self, query: Option<&str>) -> Reply {
        let req = match self.request(query, &["fen", "counter", "variant"]) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let (pos, info) = (req.pos, req.info);
        let v = &self.variant;
        let board = v.board();
        let square = |p: u8| {
            if p == NO_SQUARE {
                Json::Null
            } else {
                board.name(p).into()
            }
        };
        let moves: Vec<Json> = legal_moves(v, &pos, Convention::Combined)
            .into_iter()
            .map(|mv| {
                let (next, next_info) = self.after(&pos, info, mv);
                let removes: Vec<Json> = mv.removals().map(square).collect();
                json!({
                    "move": format_move(v, mv),
                    "from": square(mv.from),
                    "to": square(mv.to),
                    "remove": square(mv.remove),
                    "removes": removes,
                    "fen": format_position_info(v, &next, next_info),
                })
            })
            .collect();
        let stones = |c: Color| -> Vec<&str> {
            points(pos.stones[c.index()])
                .map(|p| board.name(p))
                .collect()
        };
        let rule = self.tb.rule_at(&pos);
        let marks: Vec<&str> = points(pos.marks).map(|p| board.name(p)).collect();
        // Who removes now: the side to move while it has removals, else the other side.
        let remover = [pos.to_move, pos.to_move.other()]
            .into_iter()
            .find(|c| pos.removals[c.index()] != 0)
            .map(|c| c.to_string());
        Reply::ok(json!({
            "fen": format_position_info(v, &pos, info),
            "to_move": pos.to_move.to_string(),
            "phase": if pos.in_hand.iter().any(|&h| h > 0) { "placing" } else { "moving" },
            "pending_removal": pos.pending_removal(),
            "removals": {"white": pos.removals[0], "black": pos.removals[1]},
            "remover": remover,
            "marks": marks,
            "stones": {"white": stones(Color::White), "black": stones(Color::Black)},
            "in_hand": {"white": pos.in_hand[0], "black": pos.in_hand[1]},
            "rule": rule_json(rule, info.counter),
            "full_move": info.full_move,
            "outcome": self.outcome(&pos, info),
            "moves": moves,
        }))
    }

    /// The position after `mv` with its counter (0 after a placement, removal or capture,
    /// else one more) and full-move number (one more after black's move).
    fn after(&self, pos: &Position, info: PositionInfo, mv: Move) -> (Position, PositionInfo) {
        let next = play(&self.variant, pos, mv);
        let counter = if pos.resets_counter(&next) {
            0
        } else {
            info.counter.saturating_add(1)
        };
        let full_move = if pos.to_move == Color::Black && next.to_move == Color::White {
            info.full_move.saturating_add(1)
        } else {
            info.full_move
        };
        (next, PositionInfo { counter, full_move })
    }

    /// A finished game: who won and why; or, under the tables' N-move rule, the draw by the
    /// counter. `null` while the game goes on.
    fn outcome(&self, pos: &Position, info: PositionInfo) -> Json {
        let me = pos.to_move;
        let few = |c: Color| pos.total(c) < millbase::rules::MIN_STONES;
        let full = (pos.stones[0] | pos.stones[1]) == self.variant.board().full();
        let (winner, reason) = match outcome(&self.variant, pos) {
            Some(Outcome::Loss) if few(me) => (
                Some(me.other()),
                format!("{me} has fewer than three stones"),
            ),
            Some(Outcome::Loss) if full => (
                Some(me.other()),
                format!("the board is full, which the rules count against {me}"),
            ),
            Some(Outcome::Loss) => (Some(me.other()), format!("{me} to move has no legal move")),
            Some(Outcome::Win) if full && !few(me.other()) => (
                Some(me),
                format!(
                    "the board is full, which the rules count against {}",
                    me.other()
                ),
            ),
            Some(Outcome::Win) => (
                Some(me),
                format!("{} has fewer than three stones", me.other()),
            ),
            Some(Outcome::Draw) if full => (None, "the board is full".to_string()),
            Some(Outcome::Draw) => (
                None,
                format!("{me} to move has no legal move: drawn by the rules"),
            ),
            None => {
                let rule = self.tb.rule_at(pos);
                if rule.is_active() && !pos.pending_removal() && info.counter >= u32::from(rule.n())
                {
                    let reason = format!(
                        "{} plies without a removal or placement: drawn by the {rule}",
                        info.counter
                    );
                    (None, reason)
                } else {
                    return Json::Null;
                }
            }
        };
        json!({"winner": winner.map(|c| c.to_string()), "reason": reason})
    }

    /// Parse the query: the position (`fen`, with `counter` overriding its counter field),
    /// `max_plies`, and a `variant` that must be the one served.
    fn request(&self, query: Option<&str>, allowed: &[&str]) -> Result<Request, Reply> {
        let q = parse_query(query, allowed)?;
        self.check_variant(&q)?;
        let fen = q
            .iter()
            .find(|(k, _)| k == "fen")
            .map(|(_, v)| v.trim())
            .ok_or_else(|| {
                Reply::error(
                    400,
                    "missing parameter 'fen': a Sanmill position string or 'start'",
                )
            })?;
        if fen.len() > MAX_FEN_LEN {
            return Err(Reply::error(
                400,
                format!("invalid position: longer than {MAX_FEN_LEN} characters"),
            ));
        }
        let (pos, mut info) = parse_position_info(&self.variant, fen).map_err(|e| {
            let shown = if fen.is_empty() { "" } else { fen };
            Reply::error(400, format!("invalid position '{shown}': {e}"))
        })?;
        if let Some(c) = value_of(&q, "counter") {
            info.counter = c.parse().map_err(|_| {
                Reply::error(
                    400,
                    format!(
                        "invalid counter '{c}': expected a whole number from 0 to {}",
                        u32::MAX
                    ),
                )
            })?;
        }
        let max_plies = match value_of(&q, "max_plies") {
            // As `millbase pv`: the whole line (a drawn one stops at a repetition), capped.
            None => MAX_PV_PLIES,
            Some(m) => match m.parse::<usize>() {
                Ok(n) if n <= MAX_PV_PLIES => n,
                _ => {
                    return Err(Reply::error(
                        400,
                        format!(
                            "invalid max_plies '{m}': expected a whole number from 0 to {MAX_PV_PLIES}"
                        ),
                    ));
                }
            },
        };
        Ok(Request {
            pos,
            info,
            max_plies,
        })
    }

    fn check_variant(&self, q: &[(String, String)]) -> Result<(), Reply> {
        match value_of(q, "variant") {
            Some(name) if name != self.variant.label() => Err(Reply::error(
                400,
                format!(
                    "variant '{name}' is not served here: this explorer serves the tables of \
                     variant {} (start another with millbase serve --variant {name})",
                    self.variant.label()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The reply to a failed probe: 404 naming the sector and the command for a missing
    /// table, 400 for a position that cannot be in any table, 500 for a damaged table.
    fn probe_error(&self, e: ProbeError) -> Reply {
        match e {
            ProbeError::Table(TableError::Missing { sector, .. }) => self.missing(sector),
            ProbeError::Table(TableError::NoSuchSector { .. })
            | ProbeError::Position(_)
            | ProbeError::Impossible(_) => Reply::error(400, e.to_string()),
            ProbeError::Table(t) => Reply::error(500, format!("table error: {t}")),
        }
    }

    /// Under rules that the tables of `pos` do not follow (all tables, or those of the placing
    /// phase), the body of the 404 that says so: the error and the options (`"unsupported"`,
    /// as `key=value`). `None` when its tables follow the rules.
    fn unsupported_body(&self, pos: &Position) -> Option<Map<String, Json>> {
        let unsupported = unsupported_in(&self.variant, Sector::of_position(pos));
        if unsupported.is_empty() {
            return None;
        }
        let mut body = Map::new();
        body.insert(
            "error".into(),
            format!(
                "{} do not follow the rules of {} yet ({}): the engine's search only",
                if self.variant.unsupported_by_tables().is_empty() {
                    "tables of the placing phase"
                } else {
                    "tables"
                },
                self.variant.label(),
                unsupported.join(", ")
            )
            .into(),
        );
        body.insert("unsupported".into(), unsupported.into());
        Some(body)
    }

    /// 404 for a position whose sector has no table.
    fn missing(&self, sector: Sector) -> Reply {
        Reply {
            status: 404,
            body: Json::Object(self.missing_body(sector)).to_string(),
        }
    }

    /// The body of that 404: the error, the sector, the command that makes its tables and
    /// what running it costs here.
    fn missing_body(&self, sector: Sector) -> Map<String, Json> {
        let (v, rule) = (&self.variant, self.tb.rule());
        let mut body = Map::new();
        body.insert(
            "error".into(),
            format!(
                "no table for sector {} in {}: {}",
                sector_name(sector),
                self.dir.display(),
                missing_table_advice(v, rule, &self.dir, sector)
            )
            .into(),
        );
        body.insert("sector".into(), sector_name(sector).into());
        body.insert(
            "command".into(),
            generate_command(v, rule, &self.dir, sector).into(),
        );
        body.insert("cost".into(), cost_to_solve(v, &self.dir, &[sector]).json());
        body
    }

    /// The engine's search evaluation of every legal move of `pos`, best first, within
    /// [`SEARCH_BUDGET`] in all: `{"source": "search", "budget_ms", "moves": [{"move",
    /// "value", "plies", "score", "depth"}, ...]}`. Each move's position is searched by the
    /// engine (alpha-beta; its leaves read the tables where they are present): `"value"` is
    /// "win", "loss" or "draw" when the search proved it (`"plies"` to the end of the game,
    /// without an N-move rule), else `null` with `"score"`, the evaluation in centi-stones for
    /// the side making the move.
    fn search(&self, pos: &Position, info: PositionInfo) -> Json {
        let v = self.variant;
        let rule = self.tb.rule();
        let rules = DrawRules {
            n_move: rule,
            threefold: true,
        };
        let mut config = EngineConfig::new(v, self.dir.clone());
        config.rules = rules;
        config.hash_mb = SEARCH_HASH_MB;
        // No table follows rules that tables do not support: search everywhere.
        config.use_tables = self.variant.unsupported_by_tables().is_empty();
        let mut engine = Engine::new(config);
        // Open the tables before the clock starts (the first move's search would pay for it).
        let _ = engine.oracle();
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let moves = legal_moves(&v, pos, Convention::Combined);
        let mut rows: Vec<(i64, Json)> = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let (next, next_info) = self.after(pos, info, mv);
            // The time left, shared among the moves left (at least a millisecond each).
            let left = SEARCH_BUDGET.saturating_sub(start.elapsed());
            let time = (left / (moves.len() - i) as u32).max(Duration::from_millis(1));
            // The mover moves again (Black's last placement under `moving-first=black`, a
            // blocked side's removals): the values after the move are already the mover's.
            let again = next.to_move == pos.to_move;
            let (value, score, depth) = match self.finished(pos, &next, next_info) {
                Some(value) => (Some(value), None, 0),
                None => {
                    let game = Game::new(v, next, next_info, rules);
                    let limits = Limits {
                        movetime: Some(time),
                        ..Limits::default()
                    };
                    let d = engine.think(&game, &limits, &stop);
                    match (d.value, d.score) {
                        (Some(value), _) => {
                            let theirs = if again { value.for_other_side() } else { value };
                            (Some(theirs.before_move()), None, d.depth)
                        }
                        // Not even one iteration within the time: no evaluation.
                        (None, Score::Cp(cp)) if d.depth > 0 => {
                            (None, Some(if again { cp } else { -cp }), d.depth)
                        }
                        _ => (None, None, d.depth),
                    }
                }
            };
            let rank = match (value, score) {
                (Some(Value::Win(n)), _) => 1_000_000 - i64::from(n),
                (Some(Value::Loss(n)), _) => -1_000_000 + i64::from(n),
                (_, Some(cp)) => i64::from(cp),
                (Some(Value::Draw), _) => 0,
                (None, None) => -2_000_000,
            };
            // Under an N-move rule the tables' distances are DTR: the kind only.
            let plies = value.and_then(Value::plies).filter(|_| !rule.is_active());
            rows.push((
                rank,
                json!({
                    "move": format_move(&v, mv),
                    "value": value.map(Value::kind),
                    "plies": plies,
                    "score": score,
                    "depth": depth,
                }),
            ));
        }
        // Best first; moves of equal rank keep the move generator's order.
        rows.sort_by_key(|(rank, _)| std::cmp::Reverse(*rank));
        json!({
            "source": "search",
            "budget_ms": SEARCH_BUDGET.as_millis() as u64,
            "moves": rows.into_iter().map(|(_, row)| row).collect::<Vec<_>>(),
        })
    }

    /// The value, for the side that just moved from `pos`, of `next` where the game is over:
    /// by the rules, or drawn by the tables' N-move rule. `None` while the game goes on.
    fn finished(&self, pos: &Position, next: &Position, info: PositionInfo) -> Option<Value> {
        let for_next = match outcome(&self.variant, next) {
            Some(Outcome::Loss) => Value::Loss(0),
            Some(Outcome::Win) => Value::Win(0),
            Some(Outcome::Draw) => Value::Draw,
            None => {
                let rule = self.tb.rule_at(next);
                let drawn = rule.is_active()
                    && !next.pending_removal()
                    && info.counter >= u32::from(rule.n());
                return drawn.then_some(Value::Draw);
            }
        };
        // The outcome is for the side to move in `next`: the mover's own when it moves again.
        let theirs = match next.to_move == pos.to_move {
            true => for_next.for_other_side(),
            false => for_next,
        };
        Some(theirs.before_move())
    }
}

/// Grid coordinates of a point named like a chess square (`a1` is (0, 0)).
fn grid(name: &str) -> (u32, u32) {
    let mut chars = name.chars();
    let col = chars
        .next()
        .map_or(0, |c| (c as u32).saturating_sub('a' as u32));
    let row = chars
        .as_str()
        .parse::<u32>()
        .map_or(0, |r| r.saturating_sub(1));
    (col, row)
}

/// The value of a query parameter.
fn value_of<'a>(q: &'a [(String, String)], key: &str) -> Option<&'a str> {
    q.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Decode a query string (`application/x-www-form-urlencoded`: `+` and `%20` are spaces),
/// refusing unknown and repeated parameters.
fn parse_query(query: Option<&str>, allowed: &[&str]) -> Result<Vec<(String, String)>, Reply> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if !allowed.contains(&k.as_ref()) {
            let k: String = k.chars().take(40).collect();
            return Err(Reply::error(
                400,
                format!("unknown parameter '{k}' (expected: {})", allowed.join(", ")),
            ));
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(Reply::error(400, format!("parameter '{k}' given twice")));
        }
        out.push((k.into_owned(), v.into_owned()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_coordinates_follow_the_square_names() {
        assert_eq!(grid("a1"), (0, 0));
        assert_eq!(grid("g7"), (6, 6));
        assert_eq!(grid("d5"), (3, 4));
    }

    #[test]
    fn queries_refuse_unknown_and_repeated_parameters() {
        let q = parse_query(Some("fen=a+b%20c&counter=3"), &["fen", "counter"]).unwrap();
        assert_eq!(q[0], ("fen".to_string(), "a b c".to_string()));
        assert_eq!(parse_query(Some("x=1"), &["fen"]).unwrap_err().status, 400);
        assert_eq!(
            parse_query(Some("fen=1&fen=2"), &["fen"])
                .unwrap_err()
                .status,
            400
        );
        assert!(parse_query(None, &["fen"]).unwrap().is_empty());
    }
}
