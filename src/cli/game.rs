//! Game-model commands: `moves` and `perft`.

use super::CliError;
use super::common::{ConventionArg, VariantArg, emit, position_arg};
use clap::Args;
use millbase::movegen::{self, Convention, legal_moves, play};
use millbase::notation::{START, format_move};
use millbase::{Position, Variant};
use rayon::prelude::*;

/// Arguments of `millbase moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    convention: ConventionArg,
    /// Print a JSON array of move strings instead of one move per line.
    #[arg(long)]
    json: bool,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`,
    /// optionally followed by `moves` and moves (`start moves d6 f4`).
    #[arg(
        value_name = "POSITION",
        required = true,
        num_args = 1..,
        allow_negative_numbers = true
    )]
    position: Vec<String>,
}

/// Arguments of `millbase perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    convention: ConventionArg,
    /// The position to count from: a Sanmill position string or `start`, optionally
    /// followed by `moves` and moves (`'start moves d6 f4'`, quoted).
    #[arg(long, value_name = "POSITION", default_value = START, allow_hyphen_values = true)]
    position: String,
    /// Print `{"depth": D, "nodes": N}` instead of the bare number.
    #[arg(long)]
    json: bool,
    /// Depth in plies.
    #[arg(
        value_name = "DEPTH",
        allow_negative_numbers = true,
        required_unless_present = "depth_option",
        conflicts_with = "depth_option"
    )]
    depth: Option<u32>,
    /// Depth in plies (the same as DEPTH).
    #[arg(long = "depth", value_name = "DEPTH", allow_negative_numbers = true)]
    depth_option: Option<u32>,
}

/// `millbase moves`: the legal moves of a position.
pub fn moves(args: &MovesArgs) -> Result<(), CliError> {
    let variant = args.variant.get()?;
    let pos = position_arg(&variant, &args.position.join(" "))?;
    let moves: Vec<String> = legal_moves(&variant, &pos, args.convention.get())
        .into_iter()
        .map(|mv| format_move(&variant, mv))
        .collect();
    let text = if args.json {
        let json = serde_json::to_string(&moves)
            .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?;
        json + "\n"
    } else {
        moves.iter().map(|m| format!("{m}\n")).collect()
    };
    emit(&text)
}

/// `millbase perft`: leaf nodes of the move tree.
pub fn perft(args: &PerftArgs) -> Result<(), CliError> {
    let variant = args.variant.get()?;
    let pos = position_arg(&variant, &args.position)?;
    let depth = args.depth.or(args.depth_option).unwrap_or(0);
    let nodes = parallel_perft(&variant, &pos, depth, args.convention.get());
    let text = if args.json {
        serde_json::json!({ "depth": depth, "nodes": nodes }).to_string()
    } else {
        nodes.to_string()
    };
    emit(&(text + "\n"))
}

/// Perft with the subtrees of the top levels counted in parallel.
fn parallel_perft(v: &Variant, pos: &Position, depth: u32, conv: Convention) -> u64 {
    if depth <= 3 {
        return movegen::perft(v, pos, depth, conv);
    }
    legal_moves(v, pos, conv)
        .par_iter()
        .map(|&mv| parallel_perft(v, &play(v, pos, mv), depth - 1, conv))
        .sum()
}
