//! Lay out a fat-tree of 256 processors in H-tree style, check the layout
//! with the independent checker, and set its measures beside the
//! construction's recurrence.
//!
//! `cargo run --release --example layout_check`

use fabric::layout::{check, metrics, LayoutKind, LayoutOptions};
use fabric::network::Network;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = LayoutOptions {
        capacity: None,
        omega: 1,
        alpha: 1,
        levels: None,
        mesh_capacity: 1,
        dims: None,
    };
    let construction = LayoutKind::FatTree.construction(256, &options)?;
    let laid = construction.build()?;
    let embedding = &laid.embedding;
    // The checker rasterises the layout: no two wires share a grid edge,
    // no wire enters a box other than its ends', and so on.
    let verdict = check::check(embedding);
    assert!(verdict.is_legal(), "{:?}", verdict.violations);
    // The layout realises the network its name and parameters describe,
    // built independently of the layout.
    let name = Network::realised_by(embedding)?.expect("fat-trees are known networks");
    let realised = Network::from_embedding(embedding)?;
    let m = metrics::measure(embedding);
    println!(
        "{name} of 256 processors: {} nodes, {} links; {} x {}, area {}, longest wire {}; legal",
        realised.node_count(),
        realised.link_count(),
        m.width,
        m.height,
        m.area,
        m.max_wire_length
    );
    println!(
        "recurrence side {} (closed form {}), measured side {}",
        laid.forms.side, laid.forms.closed, m.width
    );
    laid.forms.check(&m, embedding.dimensions)?;
    Ok(())
}
