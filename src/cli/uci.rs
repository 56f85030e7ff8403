//! `millbase uci`: the engine on standard input and output in Sanmill's UCI dialect.

use super::CliError;
use super::common::{TablesArgs, other_variant};
use clap::Args;
use millbase::engine::EngineConfig;
use millbase::engine::uci::{UciStart, run};
use std::io::{self, BufReader};

/// Arguments of `millbase uci`.
#[derive(Debug, Args)]
#[command(mut_arg("dir", |a| a.help(
    "Directory of the tables [default: data/<variant>]; without tables the engine searches \
     everywhere. The option TableDir changes it"
)))]
pub struct UciArgs {
    #[command(flatten)]
    tables: TablesArgs,
}

/// `millbase uci`.
pub fn run_uci(args: &UciArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.get()?;
    let config = EngineConfig::new(v, dir);
    // Said at start, on standard error (standard output is the protocol's); the session
    // goes on, since the GUI may set another TableDir or Variant.
    if let Some(why) = other_variant(&config.table_dir, &v) {
        eprintln!("millbase uci: warning: {why}");
    }
    let start = UciStart {
        config,
        dir_given: args.tables.dir.is_some(),
    };
    match run(start, BufReader::new(io::stdin()), io::stdout()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
