//! Route a small channel with the library and check it with the verifier.
//!
//! `cargo run --example route_channel`

use fabric::channel::analysis::analyze;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::RouteOptions;
use fabric::channel::verify::verify;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Yoshimura and Kuh's 12-column textbook channel.
    let text = "top: 0 1 4 5 1 6 7 0 4 9 10 10\nbottom: 2 3 5 3 5 2 6 8 9 8 7 9\n";
    let problem = fabric::io::parse_channel(text, "textbook.txt")?;
    let analysis = analyze(&problem, 3);
    println!(
        "{} columns, {} nets, density {}, VCG longest path {:?}",
        analysis.columns, analysis.nets, analysis.density, analysis.longest_path
    );
    let router = router_by_name("left-edge").expect("the baseline router exists");
    let solution = router.route(&problem, &RouteOptions::layers(2))?;
    let metrics = solution.metrics(analysis.density);
    let report = verify(&problem, &solution, Some(&metrics));
    assert!(report.is_legal(), "{:?}", report.violations);
    println!(
        "routed in width {} with {} vias and net length {}; verified legal",
        metrics.width, metrics.vias, metrics.net_length
    );
    Ok(())
}
