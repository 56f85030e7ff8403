//! The `millbase` program: the command line (and the explorer, feature `serve`) on top of the
//! library's public API.

mod cli;
mod report;
#[cfg(feature = "serve")]
mod serve;

use clap::Parser;

fn main() {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => match cli::parse_error_line(&e) {
            // Every error is one line, those of the argument parser too.
            Some(line) => {
                eprintln!("millbase: error: {line}");
                std::process::exit(cli::EXIT_USAGE);
            }
            None => e.exit(),
        },
    };
    if let Err(e) = cli::run(args) {
        eprintln!("millbase: error: {}", cli::one_line(&e.message));
        std::process::exit(e.code);
    }
}
