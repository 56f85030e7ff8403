//! The `millbase` command line: argument definitions, dispatch and error handling.
//!
//! Each group of subcommands lives in its own file under `src/cli/` and contributes an args
//! struct (clap derive) and a function `fn(Args) -> Result<(), CliError>`. To add a command,
//! add a variant to [`Command`] and an arm to [`run`]. The argument groups and helpers that
//! several commands share are in [`common`]; no command imports another command's module
//! (only its own parts: `probe --batch` is [`batch`], `plan --emit` writes with [`workflow`]).
//! Signals are the program's business: [`signals`] installs the handler that calls
//! [`millbase::remove_held_files`].

mod blunders;
mod common;
mod compact;
mod export;
mod game;
mod generate;
mod match_cmd;
mod plan;
mod play;
mod probe;
mod rules;
#[cfg(feature = "serve")]
mod serve;
mod signals;
mod stats;
mod uci;
mod verify;

use clap::{Parser, Subcommand};
use std::fmt;

/// Exit status for usage and input errors (bad arguments, unreadable positions or moves).
pub const EXIT_USAGE: i32 = 2;

/// Exit status of `millbase probe --batch` when some lines could not be answered (each has
/// its error object in the output; the other lines were answered).
pub const EXIT_SOME_FAILED: i32 = 3;

/// Exit status for failures that are not the user's input (e.g. an unwritable output).
pub const EXIT_FAILURE: i32 = 1;

/// Endgame databases and perfect play for Nine Men's Morris and its variants.
#[derive(Debug, Parser)]
#[command(name = "millbase", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the legal moves of a position, one per line.
    Moves(game::MovesArgs),
    /// Count the leaf nodes of the move tree of a given depth (perft).
    Perft(game::PerftArgs),
    /// Print the options of a variant (--variant, --rule), or list the named rule sets.
    Rules(rules::RulesArgs),
    /// Solve sectors (and everything they depend on) into a table directory.
    Generate(generate::GenerateArgs),
    /// Per-sector counts of a table directory: positions, wins, losses, draws, longest ones.
    Stats(stats::StatsArgs),
    /// List the sectors a whole game needs, in solving order, with estimated costs.
    Plan(plan::PlanArgs),
    /// The value of a position and of every legal move, best first (or of many positions,
    /// one per line of standard input, with --batch).
    Probe(probe::ProbeArgs),
    /// The principal variation: perfect play from a position to the end of the game.
    Pv(probe::PvArgs),
    /// Check every table: checksums, and every value re-derived from its successors.
    Verify(verify::VerifyArgs),
    /// Rewrite a table directory into another with the positions no game reaches as
    /// "don't care": smaller files, the same value at every reachable position.
    Compact(compact::CompactArgs),
    /// Run the engine on standard input and output in Sanmill's UCI dialect.
    Uci(uci::UciArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Play games between UCI engines (or an engine and itself) and tabulate the results.
    Match(match_cmd::MatchArgs),
    /// The blunder meter: draw positions from games (`sample`), or judge the engine's move in
    /// each by the tables of the whole game (`measure`).
    #[command(subcommand_required = true)]
    Blunders(blunders::BlundersArgs),
    /// Write the tables in another program's format (Malom's, for the Sanmill app).
    Export(export::ExportArgs),
    /// Open the explorer: a local web page (and JSON API) over a table directory.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(args) => game::moves(&args),
        Command::Perft(args) => game::perft(&args),
        Command::Rules(args) => rules::run_rules(&args),
        Command::Generate(args) => generate::run_generate(&args),
        Command::Stats(args) => stats::run_stats(&args),
        Command::Plan(args) => plan::run_plan(&args),
        Command::Probe(args) => probe::run_probe(&args),
        Command::Pv(args) => probe::run_pv(&args),
        Command::Verify(args) => verify::run_verify(&args),
        Command::Compact(args) => compact::run_compact(&args),
        Command::Uci(args) => uci::run_uci(&args),
        Command::Play(args) => play::run_play(&args),
        Command::Match(args) => match_cmd::run_match_cmd(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run_serve(&args),
        Command::Export(args) => export::run_export(&args),
        Command::Blunders(args) => blunders::run_blunders(&args),
    }
}

/// An error that ends the program: a one-line message and the exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// Exit status ([`EXIT_USAGE`] for usage and input errors).
    pub code: i32,
    /// One-line message, printed after `millbase: error: ` (control characters, such as a
    /// newline in a user's argument or a file name, are escaped by the constructors).
    pub message: String,
}

impl CliError {
    /// A usage or input error (exit status 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_USAGE,
            message: one_line(&message.into()),
        }
    }

    /// Any other failure (exit status 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_FAILURE,
            message: one_line(&message.into()),
        }
    }
}

/// `text` with every control character escaped (`\n`, `\t`, `\u{1b}`, ...), so that it
/// prints as one line whatever a user typed or a file is called.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// User input quoted for a message: `'text'` on one line (control characters escaped).
pub fn quote(text: &str) -> String {
    format!("'{}'", one_line(text))
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The one-line message for an error of the argument parser, without clap's `error: `
/// prefix, its tips and usage block folded into the same line; `None` for help and version
/// output, which clap prints itself.
pub fn parse_error_line(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let mut text = e.render().to_string();
    // The user's own words (an argument with a newline in it) are escaped, not folded.
    for (_, value) in e.context() {
        let values = match value {
            clap::error::ContextValue::String(s) => vec![s.as_str()],
            clap::error::ContextValue::Strings(v) => v.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        for v in values
            .into_iter()
            .filter(|v| v.chars().any(char::is_control))
        {
            text = text.replace(v, &one_line(v));
        }
    }
    let mut line = String::new();
    for part in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let part = part.strip_prefix("error: ").unwrap_or(part);
        let part = match part.strip_prefix("Usage: ") {
            Some(usage) => format!("usage: {usage}"),
            None => part.to_string(),
        };
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') { " " } else { "; " });
        }
        line.push_str(&part);
    }
    Some(one_line(&line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        assert_eq!(one_line("a\nb\tc\u{1b}d é"), "a\\nb\\tc\\u{1b}d é");
        assert_eq!(quote(" x\ny "), "' x\\ny '");
        let e = CliError::usage("bad 'x\nmillbase: ok'");
        assert_eq!(e.message.lines().count(), 1);
        assert_eq!(e.code, EXIT_USAGE);
        for args in [
            &["millbase", "probe", "--bogus", "x"][..],
            &["millbase", "perft", "x\ny"],
            &["millbase", "moves"],
            &["millbase", "frobnicate"],
        ] {
            let e = Cli::try_parse_from(args).unwrap_err();
            let line = parse_error_line(&e).unwrap();
            assert_eq!(line.lines().count(), 1, "{line}");
            assert!(!line.starts_with("error"), "{line}");
            assert!(!line.contains("x\ny"), "the newline is escaped: {line}");
        }
        let e = Cli::try_parse_from(["millbase", "probe", "--bogus", "x"]).unwrap_err();
        let line = parse_error_line(&e).unwrap();
        assert!(line.contains("usage: millbase probe"), "{line}");
        let help = Cli::try_parse_from(["millbase", "--help"]).unwrap_err();
        assert!(parse_error_line(&help).is_none());
    }

    #[test]
    fn every_numeric_option_gives_a_range_error_for_a_negative_number() {
        use clap::CommandFactory;
        use clap::builder::ValueParser;
        use clap::error::ErrorKind;
        let numeric = [
            ValueParser::from(clap::value_parser!(u16)).type_id(),
            ValueParser::from(clap::value_parser!(u32)).type_id(),
            ValueParser::from(clap::value_parser!(u64)).type_id(),
            ValueParser::from(clap::value_parser!(usize)).type_id(),
            ValueParser::from(clap::value_parser!(i32)).type_id(),
            ValueParser::new(millbase::NMoveRule::parse).type_id(),
        ];
        let cli = Cli::command();
        let mut checked = Vec::new();
        for sub in cli.get_subcommands() {
            for arg in sub.get_arguments() {
                if !numeric.contains(&arg.get_value_parser().type_id()) {
                    continue;
                }
                let mut argv = vec!["millbase".to_string(), sub.get_name().to_string()];
                if let Some(long) = arg.get_long() {
                    argv.push(format!("--{long}"));
                }
                argv.push("-1".into());
                let e = Cli::try_parse_from(&argv).unwrap_err();
                let line = parse_error_line(&e).unwrap();
                assert_eq!(e.kind(), ErrorKind::ValueValidation, "{argv:?}: {line}");
                assert!(line.contains("-1 is not in "), "{argv:?}: {line}");
                checked.push(argv[1..].join(" "));
            }
        }
        // The options of the issue, among all the others.
        for option in [
            "generate --n-move-rule -1",
            "plan --n-move-rule -1",
            "play --n-move-rule -1",
            "match --n-move-rule -1",
            "compact --level -1",
            "probe --counter -1",
            "pv --max-plies -1",
            "perft -1",
        ] {
            assert!(checked.iter().any(|c| c == option), "{option}: {checked:?}");
        }
        assert!(checked.len() >= 20, "{checked:?}");
    }

    #[test]
    fn whole_numbers_name_their_range() {
        use common::{whole, whole_from};
        let parse = whole::<u16>();
        assert_eq!(parse("0"), Ok(0));
        assert_eq!(parse("65535"), Ok(65535));
        assert_eq!(parse("-1"), Err("-1 is not in 0..=65535".to_string()));
        assert_eq!(parse("65536"), Err("65536 is not in 0..=65535".to_string()));
        assert_eq!(
            parse("+3"),
            Err("'+3' is not a whole number in 0..=65535".to_string())
        );
        assert_eq!(
            parse(""),
            Err("'' is not a whole number in 0..=65535".to_string())
        );
        let at_least_one = whole_from(1u64);
        assert_eq!(at_least_one("1"), Ok(1));
        assert_eq!(
            at_least_one("0"),
            Err("0 is not in 1..=18446744073709551615".to_string())
        );
    }
}
