//! `export`: writing a table directory in another program's database format (Malom's, as the
//! Sanmill app reads it; docs/MALOM.md).

use super::common::{QuietArg, TablesArgs, emit, parse_sectors};
use super::{CliError, quote};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use millbase::TableError;
use millbase::export::ExportError;
use millbase::export::malom::{
    check_exportable, check_sec2, export_sector, malom_sectors, sec2_files_in, sec2_name, supports,
    write_secval,
};
use millbase::format::TableSet;
use millbase::sectors::Sector;
use millbase::tables::TableDir;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `millbase export`.
#[derive(Debug, Args)]
#[command(mut_arg("dir", |a| a.help(
    "Directory of the tables to export [default: data/<variant>]"
)))]
pub struct ExportArgs {
    /// Output format: `malom` (Malom's `.sec2` files and `std.secval`, as the Sanmill app's
    /// perfect-database reader reads them).
    #[arg(long, value_name = "FORMAT")]
    format: String,
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    quiet: QuietArg,
    /// Export all 498 sectors of Malom's database; every one must be in DIR (solve them
    /// with `millbase generate --malom`).
    #[arg(long, conflicts_with = "sectors")]
    all: bool,
    /// Declare all 498 sectors of Malom's database in `std.secval`, whether OUT holds their
    /// `.sec2` files or not (by default it declares exactly the sectors whose files OUT
    /// holds: those exported now and by earlier exports into OUT). Sanmill's check of a
    /// database directory refuses a declared sector without its file, so with files missing
    /// this prints a warning.
    #[arg(long)]
    declare_all_sectors: bool,
    /// Output directory (created if missing); existing files of the same names are
    /// replaced.
    #[arg(value_name = "OUT")]
    out: PathBuf,
    /// Sectors to export (each must be solved in DIR). Default: every sector of Malom's
    /// database that DIR holds a table of.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

fn export_error(e: ExportError) -> CliError {
    if e.is_input_error() {
        CliError::usage(e.to_string())
    } else {
        CliError::failure(e.to_string())
    }
}

/// "1 sector", "15 sectors".
fn count(n: usize) -> String {
    format!("{n} sector{}", if n == 1 { "" } else { "s" })
}

/// `millbase export`.
pub fn run_export(args: &ExportArgs) -> Result<(), CliError> {
    if args.format != "malom" {
        return Err(CliError::usage(format!(
            "unknown export format {} (known formats: malom)",
            quote(&args.format)
        )));
    }
    let (v, dir) = args.tables.tables()?;
    if !supports(&v) {
        return Err(CliError::usage(format!(
            "--format malom exports the standard game only (Malom's std database), not {}",
            v.label()
        )));
    }
    if std::fs::metadata(&args.out).is_ok_and(|m| !m.is_dir()) {
        return Err(CliError::usage(format!(
            "{}: not a directory (OUT names the output directory)",
            args.out.display()
        )));
    }
    let listing = TableDir::scan(&dir).map_err(|e| CliError::usage(e.to_string()))?;
    let all = malom_sectors();
    let sectors: Vec<Sector> = if args.all {
        all.clone()
    } else if args.sectors.is_empty() {
        let present: Vec<Sector> = all
            .iter()
            .copied()
            .filter(|&s| {
                let f = listing.files(s);
                f.wdl || f.distance
            })
            .collect();
        if present.is_empty() {
            return Err(CliError::usage(format!(
                "{}: no tables of the sectors of Malom's database",
                dir.display()
            )));
        }
        present
    } else {
        let named = parse_sectors(&v, &args.sectors)?;
        for s in &named {
            if !all.contains(s) {
                return Err(export_error(ExportError::NotInFormat {
                    sector: *s,
                    reason: "Malom's database has no such sector (no stone count of a game \
                             from the empty board gives it)"
                        .into(),
                }));
            }
        }
        let mut seen = Vec::new();
        for s in named {
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        seen
    };
    let tables = TableSet::new(&dir, v);
    for &s in &sectors {
        check_exportable(&tables, &listing, s).map_err(|e| {
            let missing = matches!(e, ExportError::Table(TableError::Missing { .. }));
            let mut e = export_error(e);
            if args.all && missing {
                e.message.push_str(
                    " (--all needs all 498 sectors of Malom's database: solve them with \
                     `millbase generate --malom`)",
                );
            }
            e
        })?;
    }
    // Files of other sectors already in OUT (from earlier exports) are declared too: check
    // them before anything is written.
    let earlier: Vec<Sector> = sec2_files_in(&args.out)
        .map_err(export_error)?
        .into_iter()
        .filter(|(s, _)| !sectors.contains(s))
        .map(|(s, path)| {
            check_sec2(&path, s).map(|()| s).map_err(|why| {
                CliError::usage(format!(
                    "{}: {why}; export sector {s} again or remove the file (std.secval \
                     declares every sector whose file OUT holds)",
                    path.display()
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    std::fs::create_dir_all(&args.out).map_err(|e| {
        export_error(ExportError::Io {
            path: args.out.clone(),
            error: e,
        })
    })?;
    let total: u64 = sectors
        .iter()
        .map(|&s| millbase::export::malom::MalomIndex::new(s).entries())
        .sum();
    let bar = if args.quiet.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>16} [{bar:30}] {percent:>3}% {human_pos}/{human_len} entries, {per_sec}, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let start = Instant::now();
    let mut bytes = 0u64;
    for &s in &sectors {
        bar.set_message(s.to_string());
        let done = export_sector(&tables, s, &args.out, &|n| bar.inc(n)).map_err(export_error)?;
        bytes += done.bytes;
        bar.suspend(|| {
            emit(&format!(
                "{}: {} entries, {} bytes\n",
                sec2_name(s),
                done.entries,
                done.bytes
            ))
        })?;
    }
    let mut held: Vec<Sector> = sectors.iter().chain(&earlier).copied().collect();
    held.sort();
    let declared = if args.declare_all_sectors {
        all.clone()
    } else {
        held.clone()
    };
    let secval = write_secval(&args.out, &declared).map_err(export_error)?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let what = if declared.len() == all.len() && held.len() == all.len() {
        format!("all {} sectors of Malom's database", all.len())
    } else if args.declare_all_sectors {
        format!(
            "all {} sectors of Malom's database, {} of them without a .sec2 file here",
            all.len(),
            all.len() - held.len()
        )
    } else {
        format!("the {} whose .sec2 files it holds", count(held.len()))
    };
    let earlier_note = if earlier.is_empty() {
        String::new()
    } else {
        format!(" ({} exported earlier)", earlier.len())
    };
    emit(&format!(
        "done: {} exported ({total} entries, {bytes} bytes) in {secs:.1} s to {}; \
         {} declares {what}{earlier_note}\n",
        count(sectors.len()),
        args.out.display(),
        secval.display(),
    ))?;
    if args.declare_all_sectors && held.len() < all.len() {
        eprintln!(
            "millbase: warning: {} declares all {} sectors but {} holds the .sec2 files of \
             {} only: a reader that checks the directory (Sanmill's database query) refuses \
             it; without --declare-all-sectors only the sectors whose files it holds are declared",
            secval.display(),
            all.len(),
            args.out.display(),
            held.len()
        );
    }
    Ok(())
}
