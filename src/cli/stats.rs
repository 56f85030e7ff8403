//! `stats`: per-sector counts of a table directory (positions, wins, losses, draws, longest
//! ones) and the sizes of its files.

use super::CliError;
use super::common::{TablesArgs, emit, scan_tables};
use clap::Args;
use millbase::tables::{SectorSummary, stats};
use std::fmt::Write as _;

/// Arguments of `millbase stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Print a JSON array of objects instead of a table.
    #[arg(long)]
    json: bool,
}

/// `millbase stats`.
pub fn run_stats(args: &StatsArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.tables()?;
    let (listing, sectors) = scan_tables(&dir, &v)?;
    let found = stats(&v, &listing, &sectors).map_err(|e| CliError::usage(e.to_string()))?;
    let (rule, rows) = (found.rule, &found.sectors);
    let text = if args.json {
        let arr: Vec<serde_json::Value> = rows
            .iter()
            .map(
                |SectorSummary {
                     sector: s,
                     stats: st,
                     distances,
                     wdl_bits_per_position: wdl_bits,
                     distance_bits_per_position: distance_bits,
                 }| {
                    let mut row = serde_json::json!({
                        "sector": s.to_string(),
                        "positions": st.positions,
                        "wins": st.wins,
                        "losses": st.losses,
                        "draws": st.draws,
                        "wdl_bits_per_position": wdl_bits,
                        "distance_bits_per_position": distance_bits,
                        // The rule the sector's values are under (the endgame N where a
                        // side has three stones on the board).
                        "n_move_rule": rule.with_stones(&v, [s.w, s.b]).n(),
                    });
                    if rule.is_active() && *distances {
                        row["cursed_wins"] = serde_json::json!(st.cursed_wins);
                        row["blessed_losses"] = serde_json::json!(st.blessed_losses);
                    }
                    if *distances {
                        row["max_win"] = serde_json::json!((st.wins > 0).then_some(st.max_win));
                        row["max_loss"] = serde_json::json!(st.max_loss);
                    }
                    row
                },
            )
            .collect();
        format!("{}\n", serde_json::Value::Array(arr))
    } else {
        // Under an N-move rule: cursed wins and blessed losses, and DTR instead of plies.
        let ruled = rule.is_active();
        let mut t = String::new();
        if ruled {
            let _ = write!(t, "{rule}: values at counter 0, distances are DTR");
            match rule.endgame_in(&v) {
                0 => t.push('\n'),
                e => {
                    let _ = writeln!(t, " (the {e}-move rule where a side has three stones)");
                }
            }
        }
        let _ = write!(
            t,
            "{:<12} {:>14} {:>14} {:>14} {:>14}",
            "sector", "positions", "wins", "losses", "draws"
        );
        if ruled {
            let _ = write!(t, " {:>12} {:>12}", "cursed wins", "blessed loss");
        }
        let _ = writeln!(
            t,
            " {:>8} {:>8} {:>9} {:>9}",
            "max win",
            "max loss",
            "WDL b/p",
            if ruled { "DTR b/p" } else { "dist b/p" }
        );
        for SectorSummary {
            sector: s,
            stats: st,
            distances,
            wdl_bits_per_position: wdl_bits,
            distance_bits_per_position: distance_bits,
        } in rows
        {
            let b = |x: &Option<f64>| x.map_or("-".to_string(), |b| format!("{b:.3}"));
            // "?": no distance file; "-": no win (loss) at all.
            let dash = |x: Option<u16>| match (distances, x) {
                (false, _) => "?".to_string(),
                (true, x) => x.map_or("-".to_string(), |n| n.to_string()),
            };
            let _ = write!(
                t,
                "{:<12} {:>14} {:>14} {:>14} {:>14}",
                s.to_string(),
                st.positions,
                st.wins,
                st.losses,
                st.draws
            );
            if ruled {
                let count = |n: u64| {
                    if *distances {
                        n.to_string()
                    } else {
                        "?".into()
                    }
                };
                let _ = write!(
                    t,
                    " {:>12} {:>12}",
                    count(st.cursed_wins),
                    count(st.blessed_losses)
                );
            }
            let _ = writeln!(
                t,
                " {:>8} {:>8} {:>9} {:>9}",
                dash((st.wins > 0).then_some(st.max_win)),
                dash(st.max_loss),
                b(wdl_bits),
                b(distance_bits)
            );
        }
        t
    };
    emit(&text)
}
