//! The `millbase` command-line program.

mod cli;
mod serve;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    if let Err(e) = cli::run(cli) {
        eprintln!("millbase: error: {}", e.message);
        std::process::exit(e.code);
    }
}
