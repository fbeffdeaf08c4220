//! The `fabric` command line: parse arguments, run, map errors to exit codes.

use clap::Parser;

fn main() {
    let cli = fabric::cli::Cli::parse();
    match fabric::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
