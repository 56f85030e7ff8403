//! `millbase uci`: the engine on standard input and output in Sanmill's UCI dialect.

use super::generate::table_dir;
use super::probe::other_variant;
use super::{CliError, VariantArg};
use crate::engine::EngineConfig;
use crate::engine::uci::{UciStart, run};
use clap::Args;
use std::io::{self, BufReader};
use std::path::PathBuf;

/// Arguments of `millbase uci`.
#[derive(Debug, Args)]
pub struct UciArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>]; without tables the engine searches
    /// everywhere. The option TableDir changes it.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// `millbase uci`.
pub fn run_uci(args: &UciArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let config = EngineConfig::new(v, table_dir(&args.dir, &v));
    // Said at start, on standard error (standard output is the protocol's); the session
    // goes on, since the GUI may set another TableDir or Variant.
    if let Some(why) = other_variant(&config.table_dir, &v) {
        eprintln!("millbase uci: warning: {why}");
    }
    let start = UciStart {
        config,
        dir_given: args.dir.is_some(),
    };
    match run(start, BufReader::new(io::stdin()), io::stdout()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
