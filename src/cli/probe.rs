//! `probe` and `pv`: perfect-play queries.

use super::generate::table_dir;
use super::{CliError, VariantArg, emit, position_arg};
use clap::Args;
use millbase::notation::format_move;
use millbase::notation::parse_position_info;
use millbase::position::Position;
use millbase::probe::{ProbeError, Tablebase};
use millbase::rules::Variant;
use millbase::table::{FileKind, TableDir, TableError, Wdl};
use millbase::value::{NMoveRule, RuleValue};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `millbase probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "moves": [{"move",
    /// "value", "plies", "dtr"}, ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
}

/// The `--counter` option.
#[derive(Debug, Args)]
pub struct CounterArg {
    /// The N-move counter (plies since the last removal or placement) [default: the
    /// position string's counter field, 0 for `start`].
    #[arg(long, value_name = "C")]
    counter: Option<u32>,
}

/// Read the position argument and its N-move counter (`--counter` overrides the string's).
fn position_and_counter(
    v: &Variant,
    words: &[String],
    counter: &CounterArg,
) -> Result<(Position, u32), CliError> {
    let text = words.join(" ");
    let pos = position_arg(v, &text)?;
    let from_text = parse_position_info(v, &text).map_or(0, |(_, info)| info.counter);
    Ok((pos, counter.counter.unwrap_or(from_text)))
}

/// Arguments of `millbase pv`.
#[derive(Debug, Args)]
pub struct PvArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Longest line to print (a drawn game never ends).
    #[arg(long, default_value_t = 100)]
    max_plies: usize,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "line": ["move", ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
}

fn probe_error(e: ProbeError) -> CliError {
    match e {
        ProbeError::Position(_) | ProbeError::Impossible(_) => CliError::usage(e.to_string()),
        // A missing or damaged table is an input problem too: the message names the file.
        ProbeError::Table(t) => CliError::usage(t.to_string()),
    }
}

/// The JSON fields of a value: "value", and the distance as "plies" (to the end of the
/// game, tables without the N-move rule) or "dtr" (tables under the rule).
fn value_fields(v: RuleValue, rule: NMoveRule) -> serde_json::Map<String, serde_json::Value> {
    let d = v
        .distance()
        .map_or(serde_json::Value::Null, serde_json::Value::from);
    let (plies, dtr) = if rule.is_active() {
        (serde_json::Value::Null, d)
    } else {
        (d, serde_json::Value::Null)
    };
    let mut m = serde_json::Map::new();
    m.insert("value".into(), v.kind().into());
    m.insert("plies".into(), plies);
    m.insert("dtr".into(), dtr);
    m
}

fn rule_json(rule: NMoveRule, counter: u32) -> serde_json::Value {
    serde_json::json!({"n": rule.n(), "counter": counter})
}

fn value_text(v: RuleValue, rule: NMoveRule) -> String {
    let unit = if rule.is_active() { "DTR" } else { "plies" };
    match v {
        RuleValue::Win(n) if rule.is_active() => format!("win, DTR {n}"),
        RuleValue::Loss(n) if rule.is_active() => format!("loss, DTR {n}"),
        RuleValue::Win(n) => format!("win in {n} {unit}"),
        RuleValue::Loss(n) => format!("loss in {n} {unit}"),
        RuleValue::CursedWin => "cursed win, drawn by the rule".into(),
        RuleValue::BlessedLoss => "blessed loss, drawn by the rule".into(),
        RuleValue::Draw => "draw".into(),
    }
}

/// The first line of `probe` and `pv`: the value, and under a rule the rule and counter.
fn headline(v: RuleValue, rule: NMoveRule, counter: u32) -> String {
    if rule.is_active() {
        format!("{} ({rule}, counter {counter})", value_text(v, rule))
    } else {
        value_text(v, rule)
    }
}

fn open(
    variant: &VariantArg,
    dir: &Option<PathBuf>,
) -> Result<(Variant, Tablebase, PathBuf), CliError> {
    let v = variant.get()?;
    let dir = table_dir(dir, &v);
    let tb = Tablebase::open(&dir, v).map_err(probe_error)?;
    Ok((v, tb, dir))
}

/// Is this the error of a missing distance file in a WDL-only directory (at least one
/// `.mbw` file and no `.mbd` file at all)? Anywhere else a missing half is an error.
fn wdl_only_miss(e: &ProbeError, dir: &Path) -> bool {
    matches!(
        e,
        ProbeError::Table(TableError::Missing {
            kind: FileKind::Distance,
            ..
        })
    ) && TableDir::scan(dir).is_ok_and(|t| t.wdl_only())
}

/// `millbase probe` on a WDL-only directory: win/draw/loss without plies.
fn probe_wdl(
    args: &ProbeArgs,
    v: &Variant,
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
) -> Result<(), CliError> {
    let rule = tb.rule();
    if rule.is_active() && counter > 0 {
        return Err(CliError::usage(format!(
            "the value at counter {counter} under the {rule} needs the DTR files (.mbd) of {}, \
             which holds WDL files only (they give values at counter 0)",
            tb.tables().dir().display()
        )));
    }
    let wdl = tb.wdl(pos).map_err(probe_error)?;
    let moves = tb.move_wdls(pos).map_err(probe_error)?;
    let name = |w: Wdl| match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    };
    let text = if args.json {
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                serde_json::json!({"move": format_move(v, m.mv), "value": name(m.wdl),
                    "plies": null, "dtr": null})
            })
            .collect();
        format!(
            "{}\n",
            serde_json::json!({"value": name(wdl), "plies": null, "dtr": null,
                "rule": rule_json(rule, counter), "moves": moves})
        )
    } else {
        let mut t = format!("{} (no distance tables)\n", name(wdl));
        for m in &moves {
            let _ = writeln!(t, "{:<12} {}", format_move(v, m.mv), name(m.wdl));
        }
        t
    };
    emit(&text)
}

/// `millbase probe`.
pub fn run_probe(args: &ProbeArgs) -> Result<(), CliError> {
    let (v, tb, dir) = open(&args.variant, &args.dir)?;
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let value = match tb.value_at(&pos, counter) {
        Err(e) if wdl_only_miss(&e, &dir) => {
            return probe_wdl(args, &v, &tb, &pos, counter);
        }
        other => other.map_err(probe_error)?,
    };
    let rule = tb.rule();
    let moves = tb.move_values_at(&pos, counter).map_err(probe_error)?;
    let text = if args.json {
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                let mut o = serde_json::Map::new();
                o.insert("move".into(), format_move(&v, m.mv).into());
                o.extend(value_fields(m.value, rule));
                serde_json::Value::Object(o)
            })
            .collect();
        let mut o = value_fields(value, rule);
        o.insert("rule".into(), rule_json(rule, counter));
        o.insert("moves".into(), moves.into());
        format!("{}\n", serde_json::Value::Object(o))
    } else {
        let mut t = format!("{}\n", headline(value, rule, counter));
        for m in &moves {
            let _ = writeln!(
                t,
                "{:<12} {}",
                format_move(&v, m.mv),
                value_text(m.value, rule)
            );
        }
        t
    };
    emit(&text)
}

/// `millbase pv`.
pub fn run_pv(args: &PvArgs) -> Result<(), CliError> {
    let (v, tb, dir) = open(&args.variant, &args.dir)?;
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let value = match tb.value_at(&pos, counter) {
        Err(e) if wdl_only_miss(&e, &dir) => {
            return Err(CliError::usage(format!(
                "pv needs distance tables (.mbd files): {} holds WDL files only",
                dir.display()
            )));
        }
        other => other.map_err(probe_error)?,
    };
    let rule = tb.rule();
    let line = tb
        .principal_variation_at(&pos, counter, args.max_plies)
        .map_err(probe_error)?;
    let moves: Vec<String> = line.iter().map(|m| format_move(&v, m.mv)).collect();
    let text = if args.json {
        let mut o = value_fields(value, rule);
        o.insert("rule".into(), rule_json(rule, counter));
        o.insert("line".into(), moves.into());
        format!("{}\n", serde_json::Value::Object(o))
    } else {
        format!("{}\n{}\n", headline(value, rule, counter), moves.join(" "))
    };
    emit(&text)
}
