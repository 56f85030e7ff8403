//! `verify`: every checksum, then every value re-derived from its successors, with the blame
//! on the right file ([`Verification`]): a damaged, missing or unreadable file is reported
//! once, naming it, and the sectors whose successors it holds are "not verifiable", counted
//! apart.

use super::common::{QuietArg, TablesArgs, count, emit, parse_sectors, scan_tables};
use super::{CliError, one_line};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use millbase::sectors::{Component, Sector};
use millbase::tables::{Finding, Mismatch, Verification, VerificationOptions, VerifyReport};
use millbase::{TableError, Value, Wdl};
use std::path::Path;

/// Arguments of `millbase verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    quiet: QuietArg,
    /// Cache up to N MiB of decompressed table blocks for the look-ups that resolve
    /// "removal don't care" symbols (tables written by `compact --removal-dont-care`); other
    /// tables are read whole, without it.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1024,
        value_parser = super::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    cache_mb: usize,
    /// Verify only these sectors and the other sectors of their components, which are solved
    /// with them (their successors' tables must be there too); default: every table in the
    /// directory.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

/// The line of a bad file: the file, what is wrong in a word, and the error's message
/// without the path in front (the word once when the message starts with it).
fn bad_file_line(path: &Path, error: &TableError) -> String {
    let word = error.kind_word();
    let text = error.to_string();
    let prefix = format!("{}: ", path.display());
    let detail = text.strip_prefix(&prefix).unwrap_or(&text);
    if detail.starts_with(word) {
        format!("{}: {detail}", path.display())
    } else {
        format!("{}: {word}: {detail}", path.display())
    }
}

/// The lines of a finding, printed on standard error as it is found.
fn finding_lines(f: &Finding, wdl_only: bool) -> Vec<String> {
    match f {
        Finding::BadFile { path, error } => vec![bad_file_line(path, error)],
        Finding::Unverifiable {
            file,
            successor_file,
            word,
            ..
        } => vec![format!(
            "{}: not verifiable: successor {} {word}",
            file.display(),
            successor_file.display()
        )],
        Finding::Disagree {
            sector,
            wrong,
            mismatches,
            files,
        } => {
            let mut lines: Vec<String> = mismatches
                .iter()
                .map(|(file, m)| format!("{}: {}", file.display(), describe(m, wdl_only)))
                .collect();
            lines.push(format!(
                "{}: {wrong} value(s) of sector {sector} disagree with their successors",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            lines
        }
    }
}

/// The one-line summary of a failed verification.
fn summary(r: &VerifyReport) -> String {
    let mut parts = Vec::new();
    if !r.bad_files.is_empty() {
        let files: Vec<String> = r
            .bad_files
            .iter()
            .map(|(p, word)| format!("{} ({word})", p.display()))
            .collect();
        parts.push(format!("{} bad file(s): {}", files.len(), files.join(", ")));
    }
    if !r.wrong_files.is_empty() {
        let files: Vec<String> = r
            .wrong_files
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        parts.push(format!(
            "{} file(s) with values that disagree with their successors: {}",
            files.len(),
            files.join(", ")
        ));
    }
    if !r.unverifiable.is_empty() {
        let sectors: Vec<String> = r.unverifiable.iter().map(|(s, _)| s.to_string()).collect();
        parts.push(format!(
            "{} sector(s) not verifiable because a successor's file is bad: {}",
            sectors.len(),
            sectors.join(", ")
        ));
    }
    format!("verification failed: {}", parts.join("; "))
}

/// `millbase verify`: every checksum, then every value re-derived from its successors.
pub fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.tables()?;
    let (listing, mut sectors) = scan_tables(&dir, &v)?;
    if !args.sectors.is_empty() {
        let wanted = parse_sectors(&v, &args.sectors)?;
        if let Some(s) = wanted.iter().find(|s| !sectors.contains(s)) {
            return Err(CliError::usage(format!(
                "no table of sector {s} in {}",
                dir.display()
            )));
        }
        // A named sector brings the other sectors of its component, which `generate` solved
        // with it (`verify 3-4` checks 3-4-0-0 and 4-3-0-0), when the directory holds them.
        let with_partners: Vec<Sector> = wanted
            .iter()
            .flat_map(|&s| Component::of(&v, s).sectors().to_vec())
            .collect();
        sectors.retain(|s| with_partners.contains(s));
    }
    let options = VerificationOptions {
        cache_bytes: args.cache_mb.saturating_mul(1 << 20),
        max_mismatches: 5,
    };
    let mut verification = Verification::new(&v, listing, options);
    let (rule, wdl_only) = (verification.rule(), verification.wdl_only());
    let work: u64 = sectors.iter().map(|&s| verification.slots(s)).sum();
    let bar = if args.quiet.quiet {
        ProgressBar::with_draw_target(Some(work), ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(work)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "verify {msg:>14} [{bar:32}] {percent:>3}% {per_sec} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    for &s in &sectors {
        bar.set_message(s.to_string());
        for finding in verification.sector(s, &|n| bar.inc(n)) {
            for line in finding_lines(&finding, wdl_only) {
                bar.suspend(|| eprintln!("{}", one_line(&line)));
            }
        }
    }
    bar.finish_and_clear();
    let report = verification.report();
    if !report.is_ok() {
        return Err(CliError::failure(summary(report)));
    }
    let what = if wdl_only && rule.is_active() {
        "every checksum agrees and every win/draw/loss is within what the successors allow \
         (WDL-only directory under an N-move rule: without DTRs a move's value one ply on is \
         known only up to a draw)"
    } else if wdl_only {
        "every checksum and every win/draw/loss agrees (WDL-only directory: no distances to check)"
    } else {
        "every checksum and every value agrees"
    };
    emit(&format!(
        "ok: {}, {} positions, {what}\n",
        count(sectors.len() as u64, "sector", "sectors"),
        report.positions
    ))
}

fn describe(m: &Mismatch, wdl_only: bool) -> String {
    let show = |v: Value| {
        if wdl_only {
            match Wdl::of(v) {
                Wdl::Win => "win".to_string(),
                Wdl::Draw => "draw".to_string(),
                Wdl::Loss => "loss".to_string(),
            }
        } else {
            v.to_string()
        }
    };
    match m {
        Mismatch::Value {
            slot,
            stored,
            derived,
        } => format!(
            "slot {slot}: stored {}, successors give {}",
            stored.map_or("nothing".into(), show),
            show(*derived)
        ),
        Mismatch::MissingSector(s) => format!("successor sector {s} is missing"),
        Mismatch::Usage(slot) => format!("slot {slot}: used/unused marking is wrong"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use millbase::format::{Corruption, distance_path, wdl_path};

    #[test]
    fn a_bad_file_line_names_the_file_and_the_problem_in_a_word() {
        let dir = Path::new("/d");
        let s = Sector::moving(4, 4);
        let denied = TableError::Io {
            path: wdl_path(dir, s),
            error: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        let line = bad_file_line(&wdl_path(dir, s), &denied);
        assert!(line.starts_with("/d/4-4-0-0.mbw: unreadable: "), "{line}");
        assert!(line.contains("ermission denied"), "{line}");
        assert_eq!(line.matches("/d/").count(), 1, "{line}");
        let damaged = TableError::Corrupt {
            path: distance_path(dir, s),
            problem: Corruption::FileChecksum,
        };
        assert_eq!(damaged.kind_word(), "damaged");
        let line = bad_file_line(&distance_path(dir, s), &damaged);
        assert!(line.starts_with("/d/4-4-0-0.mbd: damaged: "), "{line}");
    }
}
