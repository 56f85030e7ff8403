//! `compact`: rewriting a table directory into another one with the positions no game reaches
//! as "don't care" (smaller files, the same value at every reachable position).

use super::CliError;
use super::common::{QuietArg, TablesArgs, emit, parse_sectors, scan_tables, sort_by_size};
use super::signals::stop_cleanly_on_signals;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use millbase::TableError;
use millbase::format::{CompactReport, WdlLayout, WriteOptions};
use millbase::sectors::SectorIndex;
use millbase::tables::{CompactError, CompactOptions, Compacted, Compaction, TableDir};
use std::path::{Path, PathBuf};

/// Arguments of `millbase compact`.
#[derive(Debug, Args)]
#[command(mut_arg("dir", |a| a.help(
    "Directory of the tables to compact [default: data/<variant>]; it is only read"
)))]
pub struct CompactArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// zstd level of the written files (1 to 22; level 19 saves a few per cent more and
    /// writes about 20 times slower).
    #[arg(long, value_name = "L", default_value_t = 9,
          value_parser = clap::value_parser!(i32).range(1..=22), allow_negative_numbers = true)]
    level: i32,
    /// zstd level of the written distance files [default: --level].
    #[arg(long, value_name = "L",
          value_parser = clap::value_parser!(i32).range(1..=22), allow_negative_numbers = true)]
    distance_level: Option<i32>,
    /// Layout of the WDL symbols before compression: `packed` (four to a byte), `bytes`
    /// (one per byte: about 9 % smaller moving-phase files at level 19, slower to write) or
    /// `auto` (per sector, whichever compresses a sample of its blocks smaller).
    #[arg(long, value_name = "LAYOUT", default_value = "auto", value_parser = parse_layout)]
    wdl_layout: WdlLayout,
    /// Slots per block of the written files (a positive multiple of 4, at most 16777216).
    #[arg(
        long,
        value_name = "SLOTS",
        default_value_t = 65536,
        allow_negative_numbers = true
    )]
    block_size: u32,
    /// Also store WDL symbols lower where a removing move reaches the value, as Syzygy
    /// tables do with captures (docs/FORMAT.md, flag bit 1): smaller WDL files, resolved by
    /// every reader with a look at the removals. The sectors removals lead to must be
    /// compacted before (or with) the ones named.
    #[arg(long)]
    removal_dont_care: bool,
    /// Keep up to N MiB of DIR's sectors resolved from "removal don't care" symbols (tables
    /// written by `compact --removal-dont-care`), for the sectors whose removals lead to
    /// them; such sectors are resolved a whole sector at a time, other tables read whole.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1024,
        value_parser = super::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    cache_mb: usize,
    #[command(flatten)]
    quiet: QuietArg,
    /// Output directory (created if missing; must not be DIR). Sectors already compacted
    /// there with the same levels, block size and layout are kept, so an interrupted run resumes.
    #[arg(value_name = "OUT")]
    out: PathBuf,
    /// Sectors to compact; default: every table in DIR.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

/// `--wdl-layout`.
fn parse_layout(s: &str) -> Result<WdlLayout, String> {
    match s {
        "packed" => Ok(WdlLayout::Packed),
        "bytes" => Ok(WdlLayout::Bytes),
        "auto" => Ok(WdlLayout::Auto),
        _ => Err(format!("'{s}': expected packed, bytes or auto")),
    }
}

/// Megabytes, for the per-sector lines.
fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// `millbase compact`.
pub fn run_compact(args: &CompactArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.tables()?;
    let (listing, all) = scan_tables(&dir, &v)?;
    if listing.wdl_only() {
        return Err(CliError::usage(format!(
            "{}: holds WDL files only; compaction needs both files of every sector",
            dir.display()
        )));
    }
    let sectors = if args.sectors.is_empty() {
        all
    } else {
        let named = parse_sectors(&v, &args.sectors)?;
        if let Some(s) = named.iter().find(|s| !all.contains(s)) {
            return Err(CliError::usage(format!(
                "{}: no tables of sector {s} in this directory",
                dir.display()
            )));
        }
        let mut named = named;
        sort_by_size(&mut named);
        named
    };
    if args.block_size == 0 || !args.block_size.is_multiple_of(4) || args.block_size > 1 << 24 {
        return Err(CliError::usage(format!(
            "--block-size {}: must be a positive multiple of 4, at most 16777216",
            args.block_size
        )));
    }
    if std::fs::metadata(&args.out).is_ok_and(|m| !m.is_dir()) {
        return Err(CliError::usage(format!(
            "{}: not a directory (OUT names the output directory)",
            args.out.display()
        )));
    }
    refuse_other_variant(&listing, &v, "--dir")?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("{}: cannot create: {e}", args.out.display())))?;
    let out_listing = TableDir::scan(&args.out).map_err(|e| CliError::failure(e.to_string()))?;
    refuse_other_variant(&out_listing, &v, "--out")?;
    // An interruption (Ctrl-C, SIGTERM) removes this run's lock and temporary files.
    stop_cleanly_on_signals()
        .map_err(|e| CliError::failure(format!("cannot handle signals: {e}")))?;
    let same = match (dir.canonicalize(), args.out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(CliError::usage(format!(
            "{}: the output directory must differ from --dir (compaction reads one and writes \
             the other, so an interruption loses nothing)",
            args.out.display()
        )));
    }
    let options = CompactOptions {
        write: WriteOptions {
            level: args.level,
            distance_level: args.distance_level.unwrap_or(args.level),
            wdl_layout: args.wdl_layout,
            block_slots: args.block_size,
            removal_dont_care: args.removal_dont_care,
            ..WriteOptions::default()
        },
        cache_bytes: args.cache_mb.saturating_mul(1 << 20),
    };
    let compaction =
        Compaction::new(&v, &dir, &args.out, &sectors, &options).map_err(|e| match e {
            CompactError::RemovalTargetMissing { .. } => CliError::usage(format!(
                "--removal-dont-care: {e} (name it too, or compact every sector)"
            )),
            e => CliError::usage(e.to_string()),
        })?;
    let slots: Vec<u64> = sectors
        .iter()
        .map(|&s| SectorIndex::new(&v, s).slots())
        .collect();
    let bar = ProgressBar::new(slots.iter().sum());
    if args.quiet.quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template("compact {msg:>12} [{bar:30}] {percent:>3}% eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
    }
    let mut total: Option<CompactReport> = None;
    let mut kept = 0usize;
    for (&sector, &n) in sectors.iter().zip(&slots) {
        bar.set_message(sector.to_string());
        let r = match compaction
            .sector(sector)
            .map_err(|e| compact_error(e, &args.out))?
        {
            Compacted::Kept => {
                bar.suspend(|| emit(&format!("{sector}: already compacted, kept\n")))?;
                kept += 1;
                bar.inc(n);
                continue;
            }
            Compacted::Written(r) => r,
        };
        bar.suspend(|| {
            emit(&format!(
                "{sector}: {} of {} positions unreachable; WDL {} -> {}, distance {} -> {} \
                 ({:.1} s)\n",
                r.positions_before - r.positions_after,
                r.positions_before,
                mb(r.wdl_before),
                mb(r.wdl_after),
                mb(r.distance_before),
                mb(r.distance_after),
                r.elapsed.as_secs_f64()
            ))
        })?;
        bar.inc(n);
        total = Some(match total {
            None => r,
            Some(t) => CompactReport {
                positions_before: t.positions_before + r.positions_before,
                positions_after: t.positions_after + r.positions_after,
                wdl_before: t.wdl_before + r.wdl_before,
                wdl_after: t.wdl_after + r.wdl_after,
                distance_before: t.distance_before + r.distance_before,
                distance_after: t.distance_after + r.distance_after,
                elapsed: t.elapsed + r.elapsed,
                ..t
            },
        });
    }
    bar.finish_and_clear();
    let done = sectors.len() - kept;
    match total {
        Some(t) => emit(&format!(
            "compacted {done} sector(s) ({kept} kept): {} of {} positions unreachable; \
             WDL {} -> {}, distance {} -> {}\n",
            t.positions_before - t.positions_after,
            t.positions_before,
            mb(t.wdl_before),
            mb(t.wdl_after),
            mb(t.distance_before),
            mb(t.distance_after),
        )),
        None => emit(&format!("all {kept} sector(s) already compacted, kept\n")),
    }
}

/// A usage error naming a table of another variant in the directory of `option`: a
/// directory holds the tables of one variant, and compaction neither mixes nor overwrites.
fn refuse_other_variant(
    listing: &TableDir,
    v: &millbase::Variant,
    option: &str,
) -> Result<(), CliError> {
    match listing.other_variant(v) {
        Some(e) => Err(CliError::usage(format!(
            "{e} ({option} holds another variant's tables; a directory holds the tables of one \
             variant)"
        ))),
        None => Ok(()),
    }
}

/// A failure while compacting: the output's fault (exit 1) when it names a file in `out`,
/// else the source's (exit 2).
fn compact_error(e: TableError, out: &Path) -> CliError {
    match e.path() {
        Some(p) if p.starts_with(out) => CliError::failure(e.to_string()),
        _ => CliError::usage(e.to_string()),
    }
}
