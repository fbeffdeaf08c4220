//! Route a channel in four layers with MulCh, check it with the verifier,
//! and compare its width with the lower bound of the configuration MulCh
//! chose.
//!
//! `cargo run --release --example mulch_route`

use fabric::channel::analysis::analyze;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::RouteOptions;
use fabric::channel::verify::verify;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Deutsch's difficult example, bundled with the project.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/channels/dde.txt");
    let problem = fabric::io::parse_channel(&std::fs::read_to_string(path)?, path)?;
    let analysis = analyze(&problem, 4);
    let router = router_by_name("mulch").expect("MulCh is registered");
    let solution = router.route(&problem, &RouteOptions::layers(4))?;
    let metrics = solution.metrics(analysis.density);
    let report = verify(&problem, &solution, Some(&metrics));
    assert!(report.is_legal_strict(), "{:?}", report.violations);
    let groups: Vec<String> = solution
        .groups
        .iter()
        .map(|g| format!("{} on layers {:?}", g.kind, g.layers))
        .collect();
    println!("DDE in 4 layers: {}", groups.join(", "));
    println!(
        "width {} (density {}), net length {}, vias {} ({} in the classic convention); verified legal",
        metrics.width,
        analysis.density,
        metrics.net_length,
        metrics.vias,
        solution.classic_via_count()
    );
    let horizontal = solution.horizontal_layers().max(1);
    let bound = analysis.density.div_ceil(horizontal);
    println!(
        "lower bound of the configuration: ceil({} / {horizontal}) = {bound}",
        analysis.density
    );
    assert!(metrics.width >= bound, "no routing beats its lower bound");
    Ok(())
}
