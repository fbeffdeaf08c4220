//! `fabric completions SHELL` and `fabric man`: shell completions and a
//! man page generated from the same clap definitions the parser uses, so
//! they never drift from the options.

use clap::CommandFactory;

use super::Cli;
use crate::error::{Error, Result};

/// Arguments of `fabric completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Write the completion script for `shell` to standard output.
pub(super) fn run_completions(args: &CompletionsArgs) -> Result<i32> {
    let mut command = Cli::command();
    let mut out: Vec<u8> = Vec::new();
    clap_complete::generate(args.shell, &mut command, "fabric", &mut out);
    to_stdout(&out, "the completions")
}

/// Write `bytes` (`what`) to standard output, a failure being an error.
fn to_stdout(bytes: &[u8], what: &str) -> Result<i32> {
    use std::io::Write;
    std::io::stdout()
        .write_all(bytes)
        .map_err(|e| Error::Usage(format!("cannot write {what}: {e}")))?;
    Ok(0)
}

/// Write the man page (roff) of `fabric` and its subcommands, one after
/// the other, to standard output.
pub(super) fn run_man() -> Result<i32> {
    let command = Cli::command();
    let mut out: Vec<u8> = Vec::new();
    let render = |c: clap::Command, out: &mut Vec<u8>| {
        clap_mangen::Man::new(c)
            .render(out)
            .map_err(|e| Error::Usage(format!("cannot render the man page: {e}")))
    };
    render(command.clone(), &mut out)?;
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        // The page is made once per process: the name may live as long.
        let name: &'static str = format!("fabric-{}", sub.get_name()).leak();
        render(sub.clone().name(name), &mut out)?;
    }
    to_stdout(&out, "the man page")
}
