//! `verify`: every checksum, then every value re-derived from its successors' values, with
//! the blame on the right file: a damaged, missing or unreadable file is reported once,
//! naming it, and the sectors whose successors it holds are "not verifiable", counted apart.

use super::generate::{parse_sectors, scan_tables, table_dir};
use super::{CliError, VariantArg, emit, one_line};
use crate::build::plan::count;
use crate::build::verify::{Mismatch, ValueLookup, VerifyOptions, verify_sector};
use crate::game::value::Value;
use crate::sector::graph::{Component, successor_sectors};
use crate::sector::index::Sector;
use crate::table::{TableDir, TableError, TableSet, Wdl, distance_path, wdl_path};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Arguments of `millbase verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Do not draw a progress bar.
    #[arg(long)]
    quiet: bool,
    /// Cache up to N MiB of decompressed table blocks for the look-ups that resolve
    /// "removal don't care" symbols (tables written by `compact --removal-dont-care`); other
    /// tables are read whole, without it.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1024,
        value_parser = super::whole::<usize>(),
        allow_negative_numbers = true
    )]
    cache_mb: usize,
    /// Verify only these sectors and the other sectors of their components, which are solved
    /// with them (their successors' tables must be there too); default: every table in the
    /// directory.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

/// Whole sectors loaded for verification.
struct Loaded {
    values: HashMap<Sector, Vec<u16>>,
    wdl_only: bool,
}

impl ValueLookup for Loaded {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.values.get(&sector).map(|v| v.as_slice())
    }

    fn wdl_only(&self) -> bool {
        self.wdl_only
    }
}

/// A file found bad: what is wrong with it, in a word and in full.
#[derive(Clone)]
struct BadFile {
    word: &'static str,
    detail: String,
}

/// The path an error names (the WDL file of `sector` for errors that name none), and the
/// error's message without that path in front.
fn blame(e: &TableError, dir: &Path, sector: Sector) -> (PathBuf, BadFile) {
    let path = e
        .path()
        .map_or_else(|| wdl_path(dir, sector), Path::to_path_buf);
    let text = e.to_string();
    let prefix = format!("{}: ", path.display());
    let detail = text.strip_prefix(&prefix).unwrap_or(&text).to_string();
    (
        path,
        BadFile {
            word: e.kind_word(),
            detail,
        },
    )
}

/// What a verification found.
#[derive(Default)]
struct Findings {
    /// Bad files, each once.
    bad: BTreeMap<PathBuf, BadFile>,
    /// Bad files in the order found (for the summary).
    order: Vec<PathBuf>,
    /// The sector whose files each bad file is, so a sector is checked once.
    failed: HashMap<Sector, PathBuf>,
    /// Sectors not verifiable because a successor's file is bad, with that file.
    unverifiable: Vec<(Sector, PathBuf)>,
    /// Files whose values disagree with their successors'.
    wrong: Vec<PathBuf>,
}

impl Findings {
    /// Record a bad file of `sector` and print its line (once per file).
    fn bad_file(&mut self, e: &TableError, dir: &Path, sector: Sector, out: &ProgressBar) {
        let (path, bad) = blame(e, dir, sector);
        if !self.bad.contains_key(&path) {
            let line = if bad.detail.starts_with(bad.word) {
                format!("{}: {}", path.display(), bad.detail)
            } else {
                format!("{}: {}: {}", path.display(), bad.word, bad.detail)
            };
            out.suspend(|| eprintln!("{}", one_line(&line)));
            self.bad.insert(path.clone(), bad);
            self.order.push(path.clone());
        }
        self.failed.insert(sector, path);
    }

    fn is_empty(&self) -> bool {
        self.bad.is_empty() && self.unverifiable.is_empty() && self.wrong.is_empty()
    }

    /// The one-line summary of a failed verification.
    fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.order.is_empty() {
            let files: Vec<String> = self
                .order
                .iter()
                .map(|p| format!("{} ({})", p.display(), self.bad[p].word))
                .collect();
            parts.push(format!("{} bad file(s): {}", files.len(), files.join(", ")));
        }
        if !self.wrong.is_empty() {
            let files: Vec<String> = self.wrong.iter().map(|p| p.display().to_string()).collect();
            parts.push(format!(
                "{} file(s) with values that disagree with their successors: {}",
                files.len(),
                files.join(", ")
            ));
        }
        if !self.unverifiable.is_empty() {
            let sectors: Vec<String> = self
                .unverifiable
                .iter()
                .map(|(s, _)| s.to_string())
                .collect();
            parts.push(format!(
                "{} sector(s) not verifiable because a successor's file is bad: {}",
                sectors.len(),
                sectors.join(", ")
            ));
        }
        format!("verification failed: {}", parts.join("; "))
    }
}

/// The file a disagreeing value is wrong in: the WDL file when the win/draw/loss differs,
/// else the distance file.
fn mismatch_file(dir: &Path, sector: Sector, m: &Mismatch, wdl_only: bool) -> PathBuf {
    match m {
        Mismatch::Value {
            stored: Some(stored),
            derived,
            ..
        } if !wdl_only && Wdl::of(*stored) == Wdl::of(*derived) => distance_path(dir, sector),
        _ => wdl_path(dir, sector),
    }
}

/// Load the values of `sector` for the lookup (win/draw/loss only in a WDL-only directory),
/// under the rule for missing halves.
fn load(tables: &TableSet, listing: &TableDir, sector: Sector) -> Result<Vec<u16>, TableError> {
    if let Some(e) = listing.missing_half(sector) {
        return Err(e);
    }
    if listing.wdl_only() {
        tables.read_wdl_values(sector)
    } else {
        tables.read_values(sector)
    }
}

/// `millbase verify`: every checksum, then every value re-derived from its successors.
pub fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let dir = table_dir(&args.dir, &v);
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
    let wdl_only = listing.wdl_only();
    // Whole reads bypass the block cache; tables with removal don't-care symbols use it.
    let tables = TableSet::new(&dir, v).with_cache_bytes(args.cache_mb.saturating_mul(1 << 20));
    // The tables' N-move rule: every file must have the same (a file of another rule is
    // reported as damaged, naming it, when it is checked).
    let rule = tables.detect_rule().ok().flatten().unwrap_or_default();
    let work: u64 = sectors
        .iter()
        .filter_map(|&s| tables.index(s).ok().map(|i| i.slots()))
        .sum();
    let bar = if args.quiet {
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
    let mut found = Findings::default();
    let mut checked_total = 0u64;
    let mut cache: HashMap<Sector, Vec<u16>> = HashMap::new();
    for &s in &sectors {
        bar.set_message(s.to_string());
        // The sector's own files: present under the rule, and every checksum (their symbols
        // are checked when the sector is read whole below, or were when it was read as a
        // successor of an earlier sector).
        let own = match listing.missing_half(s) {
            Some(e) => Err(e),
            None => tables.check_checksums(s).map(drop),
        };
        if let Err(e) = own {
            found.bad_file(&e, &dir, s, &bar);
            continue;
        }
        // The sector and everything its moves lead to; keep only those still needed. A
        // successor's bad file is reported once, and blocks this sector's verification.
        let mut needed: Vec<Sector> = successor_sectors(&v, s);
        needed.push(s);
        cache.retain(|k, _| needed.contains(k));
        let mut blocked = None;
        for &n in &needed {
            if cache.contains_key(&n) {
                continue;
            }
            if let Some(path) = found.failed.get(&n) {
                blocked.get_or_insert(path.clone());
                continue;
            }
            match load(&tables, &listing, n) {
                Ok(values) => {
                    cache.insert(n, values);
                }
                Err(e) => {
                    found.bad_file(&e, &dir, n, &bar);
                    if n != s {
                        blocked.get_or_insert(found.failed[&n].clone());
                    }
                }
            }
        }
        if found.failed.contains_key(&s) {
            continue;
        }
        if let Some(path) = blocked {
            let word = found.bad[&path].word;
            let line = format!(
                "{}: not verifiable: successor {} {word}",
                wdl_path(&dir, s).display(),
                path.display()
            );
            bar.suspend(|| eprintln!("{}", one_line(&line)));
            found.unverifiable.push((s, path));
            bar.inc(tables.index(s).map_or(0, |i| i.slots()));
            continue;
        }
        let lookup = Loaded {
            values: std::mem::take(&mut cache),
            wdl_only,
        };
        let advance = |n| bar.inc(n);
        let options = VerifyOptions {
            rule,
            max_report: 5,
            progress: &advance,
        };
        let (checked, wrong, report) = verify_sector(&v, s, &lookup, &options);
        cache = lookup.values;
        checked_total += checked;
        if wrong > 0 {
            let mut files: Vec<PathBuf> = Vec::new();
            for m in &report {
                let file = mismatch_file(&dir, s, m, wdl_only);
                let line = format!("{}: {}", file.display(), describe(m, wdl_only));
                bar.suspend(|| eprintln!("{}", one_line(&line)));
                if !files.contains(&file) {
                    files.push(file);
                }
            }
            let line = format!(
                "{}: {wrong} value(s) of sector {s} disagree with their successors",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            bar.suspend(|| eprintln!("{}", one_line(&line)));
            found.wrong.extend(files);
        }
    }
    bar.finish_and_clear();
    if !found.is_empty() {
        return Err(CliError::failure(found.summary()));
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
        "ok: {}, {checked_total} positions, {what}\n",
        count(sectors.len() as u64, "sector", "sectors")
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

    #[test]
    fn blame_names_the_file_and_the_problem_in_a_word() {
        let dir = Path::new("/d");
        let s = Sector::moving(4, 4);
        let denied = TableError::Io {
            path: wdl_path(dir, s),
            error: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        let (path, bad) = blame(&denied, dir, s);
        assert_eq!(path, Path::new("/d/4-4-0-0.mbw"));
        assert_eq!(bad.word, "unreadable");
        assert!(bad.detail.contains("ermission denied"), "{}", bad.detail);
        assert!(!bad.detail.contains("/d/"), "{}", bad.detail);
        let damaged = TableError::Corrupt {
            path: distance_path(dir, s),
            problem: crate::table::Corruption::FileChecksum,
        };
        let (path, bad) = blame(&damaged, dir, s);
        assert_eq!(
            (path.to_str(), bad.word),
            (Some("/d/4-4-0-0.mbd"), "damaged")
        );
    }
}
