//! The `millbase` command-line program.

mod cli;
mod serve;

use clap::Parser;

fn main() {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match cli::parse_error_line(&e) {
            // Every error is one line, those of the argument parser too.
            Some(line) => {
                eprintln!("millbase: error: {line}");
                std::process::exit(cli::EXIT_USAGE);
            }
            None => e.exit(),
        },
    };
    if let Err(e) = cli::run(cli) {
        eprintln!("millbase: error: {}", cli::one_line(&e.message));
        std::process::exit(e.code);
    }
}
