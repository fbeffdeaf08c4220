//! `fabric export network`: a layout file's network written for other
//! tools (BookSim `anynet`, GraphML, DOT), each link with the latency its
//! wire length gives. The layout is checked as `fabric verify-layout`
//! checks it before anything is written.

use std::path::PathBuf;

use super::{check_output_paths, read_text, verify_layout_text, write_all_or_nothing};
use crate::error::{Error, Result};
use crate::io::network::{LaidNetwork, NetworkFormat, UnitsPerCycle};

/// The things `fabric export` writes.
#[derive(Debug, clap::Subcommand)]
pub enum ExportCommand {
    /// A layout's network for a network simulator or a graph tool: BookSim
    /// anynet, GraphML or DOT, with per-link latency from wire length.
    #[command(after_help = "Examples:\n  \
        fabric layout butterfly-fat-tree --size 64 -o bft.yaml\n  \
        fabric export network bft.yaml --format anynet -o bft.anynet\n  \
        fabric export network bft.yaml --format graphml --units-per-cycle 8 -o bft.graphml")]
    Network(ExportNetworkArgs),
}

/// Arguments of `fabric export network`.
#[derive(Debug, clap::Args)]
pub struct ExportNetworkArgs {
    /// Layout file, as `fabric layout ... --output` writes it.
    pub file: PathBuf,
    /// The file form to write.
    #[arg(long, value_enum)]
    pub format: NetworkFormat,
    /// Grid units a signal crosses in one cycle: a link's latency is its
    /// wire length over this, rounded up, and at least 1.
    #[arg(long, value_name = "U", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub units_per_cycle: u64,
    /// Write here (`-` or absent: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// `fabric export`.
pub(super) fn run(command: ExportCommand) -> Result<i32> {
    match command {
        ExportCommand::Network(args) => run_network(&args),
    }
}

fn run_network(args: &ExportNetworkArgs) -> Result<i32> {
    let output = args.output.as_ref().filter(|p| p.as_os_str() != "-");
    if let Some(out) = output {
        check_output_paths(&[&args.file], &[out.as_path()])?;
    }
    let text = read_text(&args.file)?;
    let path = args.file.display().to_string();
    let verdict = verify_layout_text(&text, &path)?;
    if !verdict.problems.is_empty() {
        return Err(Error::File {
            path,
            message: format!(
                "not a legal layout, nothing was written ({} problem(s); \
                 `fabric verify-layout` lists them): {}",
                verdict.problems.len(),
                verdict.problems[0]
            ),
        });
    }
    let file = super::parse_layout_at(&text, &path)?;
    let speed = UnitsPerCycle::new(args.units_per_cycle).expect("clap refuses 0");
    let laid = LaidNetwork::new(&file.embedding, speed).map_err(|e| Error::File {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let body = laid.write(args.format);
    match output {
        Some(out) => {
            write_all_or_nothing(&[(out.clone(), body)])?;
            eprintln!(
                "{} nodes ({} terminals), {} wires written to {}",
                laid.network.node_count(),
                laid.terminals().iter().flatten().count(),
                laid.lengths.len(),
                out.display()
            );
        }
        None => print!("{body}"),
    }
    Ok(0)
}
