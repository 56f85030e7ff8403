//! `probe` and `pv`: perfect-play queries.

use super::generate::table_dir;
use super::{CliError, VariantArg, emit, position_arg};
use clap::Args;
use millbase::notation::format_move;
use millbase::position::Position;
use millbase::probe::{ProbeError, Tablebase};
use millbase::rules::Variant;
use millbase::table::{FileKind, TableDir, TableError, Wdl};
use millbase::value::Value;
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
    /// Print JSON: {"value", "plies", "moves": [{"move", "value", "plies"}, ...]}.
    #[arg(long)]
    json: bool,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
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
    /// Print JSON: {"value", "plies", "line": ["move", ...]}.
    #[arg(long)]
    json: bool,
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

fn value_json(v: Value) -> (serde_json::Value, serde_json::Value) {
    (
        serde_json::Value::from(v.kind()),
        v.plies()
            .map_or(serde_json::Value::Null, serde_json::Value::from),
    )
}

fn value_text(v: Value) -> String {
    match v {
        Value::Win(n) => format!("win in {n} plies"),
        Value::Loss(n) => format!("loss in {n} plies"),
        Value::Draw => "draw".into(),
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
) -> Result<(), CliError> {
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
            .map(|m| serde_json::json!({"move": format_move(v, m.mv), "value": name(m.wdl), "plies": null}))
            .collect();
        format!(
            "{}\n",
            serde_json::json!({"value": name(wdl), "plies": null, "moves": moves})
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
    let pos = position_arg(&v, &args.position.join(" "))?;
    let value = match tb.value(&pos) {
        Err(e) if wdl_only_miss(&e, &dir) => return probe_wdl(args, &v, &tb, &pos),
        other => other.map_err(probe_error)?,
    };
    let moves = tb.move_values(&pos).map_err(probe_error)?;
    let text = if args.json {
        let (kind, plies) = value_json(value);
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                let (kind, plies) = value_json(m.value);
                serde_json::json!({"move": format_move(&v, m.mv), "value": kind, "plies": plies})
            })
            .collect();
        format!(
            "{}\n",
            serde_json::json!({"value": kind, "plies": plies, "moves": moves})
        )
    } else {
        let mut t = format!("{}\n", value_text(value));
        for m in &moves {
            let _ = writeln!(t, "{:<12} {}", format_move(&v, m.mv), value_text(m.value));
        }
        t
    };
    emit(&text)
}

/// `millbase pv`.
pub fn run_pv(args: &PvArgs) -> Result<(), CliError> {
    let (v, tb, dir) = open(&args.variant, &args.dir)?;
    let pos = position_arg(&v, &args.position.join(" "))?;
    let value = match tb.value(&pos) {
        Err(e) if wdl_only_miss(&e, &dir) => {
            return Err(CliError::usage(format!(
                "pv needs distance tables (.mbd files): {} holds WDL files only",
                dir.display()
            )));
        }
        other => other.map_err(probe_error)?,
    };
    let line = tb
        .principal_variation(&pos, args.max_plies)
        .map_err(probe_error)?;
    let moves: Vec<String> = line.iter().map(|m| format_move(&v, m.mv)).collect();
    let text = if args.json {
        let (kind, plies) = value_json(value);
        format!(
            "{}\n",
            serde_json::json!({"value": kind, "plies": plies, "line": moves})
        )
    } else {
        format!("{}\n{}\n", value_text(value), moves.join(" "))
    };
    emit(&text)
}
