//! What several commands share: the argument groups they flatten into their own arguments
//! (clap `#[command(flatten)]`), and the helpers that read those arguments, open the tables
//! and print. No command imports another command's module; they all import this one.

use super::{CliError, quote};
use clap::Args;
use millbase::engine::game::{DrawRules, Game};
use millbase::movegen::Convention;
use millbase::notation::{Line, LineError, parse_line};
use millbase::rules::RuleError;
use millbase::sectors::Sector;
use millbase::tables::TableDir;
use millbase::{NMoveRule, Position, ProbeError, TableError, Tablebase, Variant};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The `--variant` and `--rule` options: a named rule set and options changed on top of it.
#[derive(Debug, Clone, Args)]
pub struct VariantArg {
    /// Rule set (docs/RULE-SETS.md; `millbase rules --list` shows what each changes).
    #[arg(long, value_name = "NAME", default_value = "std", help = variant_help())]
    pub variant: String,
    /// Change one rule option on top of the rule set, KEY=VALUE (repeatable; `millbase rules`
    /// prints every key and its value).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

/// The help of `--variant`, listing every name it takes.
fn variant_help() -> String {
    format!("Rule set: {}", Variant::names().join(", "))
}

impl VariantArg {
    /// The chosen variant, or a usage error (unknown set, key or value, or an impossible
    /// combination: the [`RuleError`] in one line).
    pub fn get(&self) -> Result<Variant, CliError> {
        Variant::from_rules(&self.variant, &self.rules).map_err(|e| rule_error(&e))
    }
}

/// A [`RuleError`] as a usage error.
fn rule_error(e: &RuleError) -> CliError {
    match e {
        RuleError::UnknownSet { name } => CliError::usage(format!(
            "unknown variant {} (known variants: {})",
            quote(name),
            Variant::names().join(", ")
        )),
        e => CliError::usage(e.to_string()),
    }
}

/// The options of `v` that differ from its named rule set's, as `key=value` (what
/// `--rule` must say to choose `v` again after `--variant` and its name).
pub fn changed_rules(v: &Variant) -> Vec<String> {
    let Some(base) = Variant::by_name(v.name) else {
        return Vec::new();
    };
    v.rules()
        .into_iter()
        .filter(|(key, value)| base.rule(key).as_deref() != Some(value.as_str()))
        .map(|(key, value)| format!("{key}={value}"))
        .collect()
}

/// Refuse rules that tables do not follow yet ([`Variant::unsupported_by_tables`]), naming
/// them: every command that generates or reads tables asks this before doing any work.
pub fn tables_supported(v: &Variant) -> Result<(), CliError> {
    let unsupported = v.unsupported_by_tables();
    if unsupported.is_empty() {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "tables are not available for these rules yet: {} (variant {}; moves, perft and play \
         work under them)",
        unsupported.join(", "),
        v.label()
    )))
}

/// `--variant` and `--dir`: a variant and the directory of its tables. Commands whose
/// `--dir` says more change its help (`mut_arg("dir", ...)`).
#[derive(Debug, Clone, Args)]
pub struct TablesArgs {
    #[command(flatten)]
    pub variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl TablesArgs {
    /// The chosen variant and its table directory (`--dir`, or `data/<variant>`), whatever
    /// the rules (for the commands that play without tables too).
    pub fn get(&self) -> Result<(Variant, PathBuf), CliError> {
        let v = self.variant.get()?;
        Ok((v, table_dir(&self.dir, &v)))
    }

    /// [`TablesArgs::get`] for the commands that generate or read tables: rules that tables
    /// do not follow yet are refused ([`tables_supported`]).
    pub fn tables(&self) -> Result<(Variant, PathBuf), CliError> {
        let (v, dir) = self.get()?;
        tables_supported(&v)?;
        Ok((v, dir))
    }
}

/// The `--quiet` option of the commands that draw progress bars.
#[derive(Debug, Clone, Args)]
pub struct QuietArg {
    /// Do not draw a progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The `--split-removal` option choosing the move convention.
#[derive(Debug, Clone, Args)]
pub struct ConventionArg {
    /// Count a removal as its own ply (Sanmill's convention: `d6`, then `xg7`) instead of
    /// one move with the move that closes the mill (`d6xg7`).
    #[arg(long)]
    pub split_removal: bool,
}

impl ConventionArg {
    /// The chosen convention.
    pub fn get(&self) -> Convention {
        if self.split_removal {
            Convention::Split
        } else {
            Convention::Combined
        }
    }
}

/// The `--n-move-rule` option of the commands that solve tables (`generate`, and the jobs
/// of `plan --emit`).
#[derive(Debug, Clone, Args)]
pub struct SolveRuleArg {
    /// Solve under the N-move rule with this N: a game is drawn when a turn starts after N
    /// plies without a removal or placement. Tables store the value at counter 0 and the
    /// DTR (docs/NMOVE.md). 0: no rule (values and distances to the end of the game). A
    /// directory holds tables of one rule only.
    #[arg(
        long,
        value_name = "N",
        default_value = "0",
        value_parser = NMoveRule::parse,
        allow_negative_numbers = true
    )]
    pub n_move_rule: NMoveRule,
}

/// The `--n-move-rule` option of the commands that play games (`play`, `match`).
#[derive(Debug, Clone, Args)]
pub struct GameRuleArg {
    /// The N-move rule's N (0: off) [default: the variant's n-move-rule, 100 in every named
    /// rule set]; the same as --rule n-move-rule=N.
    #[arg(
        long,
        value_name = "N",
        value_parser = NMoveRule::parse,
        allow_negative_numbers = true
    )]
    pub n_move_rule: Option<NMoveRule>,
}

impl GameRuleArg {
    /// The draw rules of a game under `v`: the variant's, with `--n-move-rule` if given.
    pub fn rules(&self, v: &Variant) -> DrawRules {
        let mut rules = DrawRules::of_variant(v);
        if let Some(n) = self.n_move_rule {
            rules.n_move = n;
        }
        rules
    }
}

/// The `--counter` option of `probe` and `pv`.
#[derive(Debug, Clone, Args)]
pub struct CounterArg {
    /// The N-move counter (plies since the last removal or placement) [default: the
    /// position string's counter field, 0 for `start`].
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    pub counter: Option<u32>,
}

/// Unsigned integer types of numeric options, with their largest value.
pub trait WholeNumber:
    std::str::FromStr + Copy + PartialOrd + fmt::Display + Send + Sync + 'static
{
    /// The largest value of the type.
    const MAX: Self;
}

macro_rules! whole_number {
    ($($t:ty),*) => {$(
        impl WholeNumber for $t {
            const MAX: Self = <$t>::MAX;
        }
    )*};
}
whole_number!(u16, u32, u64, usize);

/// The clap value parser of a numeric option of type `T` taking `min` and up: a negative
/// number, one below `min` or one too large is an error naming the range (`-1 is not in
/// 0..=18446744073709551615`), as clap's own ranged parsers word it. (Options also need
/// `allow_negative_numbers`, or clap takes `-1` for a flag.)
pub fn whole_from<T: WholeNumber>(
    min: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let range = format!("{min}..={}", T::MAX);
        let digits = text.strip_prefix('-').unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{} is not a whole number in {range}", quote(text)));
        }
        match text.parse::<T>() {
            Ok(n) if n >= min => Ok(n),
            _ => Err(format!("{text} is not in {range}")),
        }
    }
}

/// [`whole_from`] 0.
pub fn whole<T: WholeNumber + From<u8>>()
-> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    whole_from(T::from(0))
}

/// Read a position argument (a Sanmill position string or `start`, optionally followed by
/// `moves` and moves: [`parse_line`]), as a usage error if it is malformed.
pub fn position_arg(variant: &Variant, text: &str) -> Result<Position, CliError> {
    line_arg(variant, text).map(|line| *line.position())
}

/// Read a position with moves ([`parse_line`]) with every position along the way and the
/// N-move counter at its end, as a usage error naming the bad position or move.
pub fn line_arg(variant: &Variant, text: &str) -> Result<Line, CliError> {
    parse_line(variant, text).map_err(|e| match e {
        LineError::Position(e) => {
            CliError::usage(format!("invalid position {}: {e}", quote(text.trim())))
        }
        e => CliError::usage(format!("invalid line {}: {e}", quote(text.trim()))),
    })
}

/// The table directory: `--dir` or `data/<label>` ([`Variant::label`]: the set's name, with
/// the options changed on top of it).
/// The N-move rules of play are left out of the label: tables carry their own.
pub fn table_dir(dir: &Option<PathBuf>, v: &Variant) -> PathBuf {
    dir.clone().unwrap_or_else(|| {
        let base = Variant::by_name(v.name).unwrap_or(*v);
        let tables = Variant {
            n_move_rule: base.n_move_rule,
            endgame_n_move_rule: base.endgame_n_move_rule,
            ..*v
        };
        Path::new("data").join(tables.label())
    })
}

/// Parse sector names, checking that they fit the variant.
pub fn parse_sectors(v: &Variant, names: &[String]) -> Result<Vec<Sector>, CliError> {
    names
        .iter()
        .map(|n| {
            let s: Sector = n.parse().map_err(|e| CliError::usage(format!("{e}")))?;
            if !s.fits(v) || s.w + s.wf < 3 || s.b + s.bf < 3 {
                return Err(CliError::usage(format!(
                    "sector {s} is not a position set of variant {v}: each side needs 3 to {} \
                     stones (on board plus in hand) and both fit on its {} points",
                    v.stones,
                    v.board().len()
                )));
            }
            Ok(s)
        })
        .collect()
}

/// Sort sectors in the order the commands list them: by stones, then stones in hand.
pub fn sort_by_size(sectors: &mut [Sector]) {
    sectors.sort_by_key(|s| (s.w + s.b + s.wf + s.bf, s.wf + s.bf, s.w, s.b, s.wf, s.bf));
}

/// The table files of `dir` and their sectors in a stable order ([`sort_by_size`]), or a
/// usage error naming the directory: no such directory, not a directory, or no table files
/// at all (the same for `stats`, `verify` and `compact`).
pub fn scan_tables(dir: &Path, v: &Variant) -> Result<(TableDir, Vec<Sector>), CliError> {
    let listing = TableDir::scan(dir).map_err(|e| CliError::usage(e.to_string()))?;
    if listing.is_empty() {
        return Err(CliError::usage(format!(
            "no tables of variant {} in {}",
            v.label(),
            dir.display()
        )));
    }
    let mut sectors: Vec<Sector> = listing.sectors().collect();
    sort_by_size(&mut sectors);
    Ok((listing, sectors))
}

/// A failed probe as an error of the program: a usage error (an impossible position, or a
/// missing or damaged table, whose message names the file).
pub fn probe_error(e: ProbeError) -> CliError {
    match e {
        ProbeError::Position(_) | ProbeError::Impossible(_) => CliError::usage(e.to_string()),
        // A missing or damaged table is an input problem too: the message names the file.
        ProbeError::Table(t) => CliError::usage(t.to_string()),
    }
}

/// Open the tables of the chosen variant: (variant, tables, their directory).
pub fn open_tables(args: &TablesArgs) -> Result<(Variant, Tablebase, PathBuf), CliError> {
    let (v, dir) = args.tables()?;
    let tb = Tablebase::open(&dir, v).map_err(probe_error)?;
    if let Some(why) = other_variant(&dir, &v) {
        return Err(CliError::usage(why));
    }
    Ok((v, tb, dir))
}

/// What is wrong if `dir` holds a table of another variant than `v` (or of other rules):
/// the file, both variants, and what to do. A directory holds the tables of one variant.
pub fn other_variant(dir: &Path, v: &Variant) -> Option<String> {
    use millbase::format::Corruption;
    let e = TableDir::scan(dir).ok()?.other_variant(v)?;
    let hint = match &e {
        TableError::Corrupt {
            problem: Corruption::OtherVariant { found, .. },
            ..
        } if Variant::by_name(found).is_some() => format!("--variant {found}, or "),
        _ => String::new(),
    };
    Some(format!(
        "{e} ({} holds the tables of another variant: give {hint}the directory of the tables of \
         {})",
        dir.display(),
        v.label()
    ))
}

/// `n` and the noun, singular for one: "1 sector", "3 sectors".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Write `text` to standard output. A closed pipe (e.g. `| head`) ends output quietly.
pub fn emit(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}

/// The games of a file of positions, one per line (`startpos`, or a Sanmill position string,
/// optionally followed by `moves ...`; blank lines and lines starting with # skipped): each
/// with its line number and text. A line that cannot be read is a usage error naming it.
pub fn read_position_lines(
    path: &Path,
    v: Variant,
    rules: DrawRules,
) -> Result<Vec<(usize, String, Game)>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", path.display())))?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = parse_position_line(v, rules, line)
            .map_err(|e| CliError::usage(format!("{} line {}: {e}", path.display(), i + 1)))?;
        games.push((i + 1, line.to_string(), game));
    }
    Ok(games)
}

/// The game of one position line (`startpos` or a Sanmill position string, optionally followed
/// by `moves ...`), as [`read_position_lines`] reads it.
pub fn parse_position_line(v: Variant, rules: DrawRules, line: &str) -> Result<Game, String> {
    let (head, moves) = match line.split_once(" moves ") {
        Some((h, m)) => (h, m.split_whitespace().collect::<Vec<_>>()),
        None => (line, Vec::new()),
    };
    Game::from_text(v, rules, head, &moves).map_err(|e| e.to_string())
}
