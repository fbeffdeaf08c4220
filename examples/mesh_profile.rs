use fabric::sim::mesh::algorithm::{self, Algorithm, Params};
use fabric::sim::mesh::traffic::{Problem, Workload};
use fabric::sim::mesh::{route, Config, Gates, Shape, Strategy, Topology};
fn main() {
    let n: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(128);
    let k: u32 = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(8);
    let shape = Shape::new(n, 2, Topology::Mesh).unwrap();
    let mut rng = fabric::sim::trial_rng(1, 0);
    let problem = Problem::generate(&shape, k, Workload::Random, 1, &mut rng).unwrap();
    let params = Params { locality: 1, strip: 1, smear: None };
    let routing = algorithm::plan(&shape, &problem, Algorithm::NoWrap, &params, &mut rng).unwrap();
    let config = Config { strategy: Strategy::FarthestFirst, gates: Gates::Barrier, seed: 3 };
    let t = std::time::Instant::now();
    let out = route(&shape, &problem.source, &routing.plan, &config);
    let e = t.elapsed().as_secs_f64();
    println!("T {} hops {} in {:.3} s: {:.1} M/s", out.steps, out.hops, e, out.hops as f64 / e / 1e6);
}
