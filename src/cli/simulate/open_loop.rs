//! `fabric simulate open-loop`: packets injected at offered rates into
//! virtual-channel routers on laid-out fabrics; latency against accepted
//! throughput, the saturation rate beside the channel-load bound.
//!
//! Every configuration (topology x links x virtual channels) is built and
//! checked, and the memory estimated, before any point runs; the outputs
//! are written whole or not at all.

use std::path::PathBuf;
use std::time::Instant;

use crate::cli::{check_output_paths, parse_delay, write_all_or_nothing, DelayArg, FormatArgs};
use crate::error::{Error, Result, SimulationFailure};
use crate::report::model::open_loop::{
    read_open_loop, ConfigReport, LatencyReport, OpenLoopReport, PhaseCycles, PointReport, Range,
    SaturationReport,
};
use crate::report::model::{render, Report};
use crate::report::open_loop::{links_name, open_loop_chart, open_loop_table};
use crate::sim::openloop::engine::{Latency, Phases};
use crate::sim::openloop::sweep::{self, ACCEPT_FRACTION, LATENCY_FACTOR};
use crate::sim::openloop::{
    Config, FlowControl, Injection, LinkMode, OpenNet, PacketLength, Pattern, PointResult,
    Topology, UpLinks, Warmup, WarmupMode,
};

/// The most cycles a phase (warm-up, measurement, drain) may last.
const MAX_CYCLES: u64 = 1_000_000_000_000;

/// Whether to search for the saturation rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SaturationSearch {
    /// Bracket it by rounds of parallel probes.
    Search,
    /// Only the given rates.
    Skip,
}

/// Offered rates: `from:to:step` (inclusive) or a list `a,b,...`, each in
/// (0, 1] flits/terminal/cycle.
fn parse_rates(s: &str) -> std::result::Result<Vec<f64>, String> {
    let num = |x: &str| {
        x.trim()
            .parse::<f64>()
            .map_err(|_| format!("`{x}` is not a number"))
    };
    let rates: Vec<f64> = if let [a, b, step] = s.split(':').collect::<Vec<_>>()[..] {
        let (a, b, step) = (num(a)?, num(b)?, num(step)?);
        if !(step > 0.0 && b >= a) {
            return Err(format!("`{s}`: need from <= to and a step > 0"));
        }
        let count = ((b - a) / step + 1e-9).floor() as u64 + 1;
        if count > 10_000 {
            return Err(format!("`{s}`: {count} rates, at most 10000"));
        }
        (0..count)
            .map(|i| ((a + step * i as f64) * 1e9).round() / 1e9)
            .collect()
    } else {
        s.split(',')
            .map(num)
            .collect::<std::result::Result<_, _>>()?
    };
    match rates.iter().find(|&&r| !(r > 0.0 && r <= 1.0)) {
        Some(r) => Err(format!("rate {r} outside (0, 1] flits/terminal/cycle")),
        None => Ok(rates),
    }
}

/// Arguments of `fabric simulate open-loop`.
#[derive(Debug, clap::Args)]
pub struct OpenLoopArgs {
    /// Fabrics; a list compares them on one chart.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "mesh")]
    pub topology: Vec<Topology>,
    /// Terminals (a square for mesh and torus: 64 is the 8 x 8 mesh).
    #[arg(long, short = 'n', default_value_t = 64, value_parser = clap::value_parser!(u64).range(4..=65536))]
    pub size: u64,
    /// Channel latencies: unit (one cycle) or layout (max(1, ceil w(len))
    /// of the wire's length in the fabric's layout); a list runs each.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "unit")]
    pub links: Vec<LinkMode>,
    /// Wire delay w(d) of layout links: unit, linear, log, sqrt or points.
    #[arg(long, value_parser = parse_delay, default_value = "linear")]
    pub delay: DelayArg,
    /// Virtual channels per port; a list runs each.
    #[arg(long, value_delimiter = ',', default_value = "2")]
    pub vcs: Vec<u32>,
    /// Flits per virtual-channel buffer.
    #[arg(long, default_value_t = 8)]
    pub vc_depth: u32,
    /// Flits per packet (the mean when --packet-length varies it).
    #[arg(long, default_value_t = 4)]
    pub packet_flits: u32,
    /// Packet lengths: fixed (--packet-flits each), uniform (1 ..= 2L - 1)
    /// or bimodal (1 or 2L - 1, half each), L the --packet-flits.
    #[arg(long, value_enum, default_value = "fixed")]
    pub packet_length: PacketLength,
    /// Cycles from a flit's arrival at a router to its earliest departure.
    #[arg(long, default_value_t = 1)]
    pub router_delay: u32,
    /// Flow control.
    #[arg(long, value_enum, default_value = "wormhole")]
    pub flow_control: FlowControl,
    /// Packet creation process.
    #[arg(long, value_enum, default_value = "bernoulli")]
    pub injection: Injection,
    /// Offered rates, flits/terminal/cycle: from:to:step or a list.
    #[arg(long, value_parser = parse_rates, default_value = "0.05:0.5:0.05")]
    pub rates: std::vec::Vec<f64>,
    /// Destination pattern.
    #[arg(long, short, value_enum, default_value = "uniform")]
    pub traffic: Pattern,
    /// How a tree router picks among its up links (and parallel down
    /// links): random, or adaptive (the most free credits downstream).
    #[arg(long, value_enum, default_value = "random")]
    pub up_links: UpLinks,
    /// Warm-up cycles (the most, with --warmup-mode converge; at most
    /// 10^12).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(..=MAX_CYCLES))]
    pub warmup: u64,
    /// How the warm-up ends: after --warmup cycles, or once the mean total
    /// latency of successive windows settles.
    #[arg(long, value_enum, default_value = "fixed")]
    pub warmup_mode: WarmupMode,
    /// Cycles per window of a converging warm-up.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub warmup_window: u64,
    /// Relative change of the windowed mean latency under which a
    /// converging warm-up ends.
    #[arg(long, default_value_t = 0.05)]
    pub warmup_tolerance: f64,
    /// Measurement cycles (packets created in them are measured; at most
    /// 10^12).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=MAX_CYCLES))]
    pub measure: u64,
    /// Most cycles after the measurement to deliver the measured packets
    /// (at most 10^12).
    #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u64).range(..=MAX_CYCLES))]
    pub drain: u64,
    /// Cycles without any flit moving, flits in flight, that count as a
    /// deadlock (exit 1).
    #[arg(long, default_value_t = 10000, value_parser = clap::value_parser!(u64).range(1..))]
    pub watchdog: u64,
    /// Search for the saturation rate, or run only --rates.
    #[arg(long, value_enum, default_value = "search")]
    pub saturation: SaturationSearch,
    /// Random seed; the same seed gives the same report on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the report (YAML unless --format says otherwise).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Draw latency against accepted throughput (SVG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Earlier reports (YAML or JSON) whose curves the chart overlays.
    #[arg(long, value_delimiter = ',')]
    pub compare: Vec<PathBuf>,
}

/// How the engine works, for the report.
fn rules() -> Vec<String> {
    vec![
        "input-queued routers; a terminal injects at its router's port 0 and ejects at port 0 of its ejection router (the same router but on the butterfly, whose terminal i is input row i and output row i); per input port V virtual channels of --vc-depth flits; credit-based flow control, a credit returns over the channel's latency".into(),
        "a flit is ready --router-delay cycles after entering a buffer; each cycle a router routes ready heads, allocates output VCs (separable input-first, round robin) then the switch (separable input-first, round robin); a flit crossing onto a channel of latency l arrives l cycles later".into(),
        "wormhole: a head takes an idle output VC; virtual cut-through: only with room for the whole packet; a tail frees the VC".into(),
        "zero load: a packet crossing h channels is delivered (h + 1) D + sum l + L cycles after creation (D router delay, L flits)".into(),
        "offered and accepted: flits created and delivered per terminal per cycle of the measurement; latencies of the packets created in it, followed to delivery".into(),
    ]
}

/// One configuration to run.
struct Setup {
    net: OpenNet,
    cfg: Config,
    links: LinkMode,
}

fn setups(args: &OpenLoopArgs) -> Result<Vec<Setup>> {
    let phases = Phases {
        warmup: args.warmup,
        measure: args.measure,
        drain: args.drain,
    };
    let mut out = Vec::new();
    for &topology in &args.topology {
        let size = topology.layout_size(args.size).ok_or_else(|| {
            Error::Usage(format!(
                "{}: --size {} is not a square number of terminals",
                topology.name(),
                args.size
            ))
        })?;
        // Buffers, packets and samples of the points running at once.
        let per_point = args.size.saturating_mul(
            (args.warmup.saturating_add(args.measure))
                .saturating_add(args.drain)
                .saturating_mul(64)
                / u64::from(args.packet_flits.max(1))
                + 64 * u64::from(args.vcs.iter().copied().max().unwrap_or(1))
                    * u64::from(args.vc_depth)
                    * 16,
        );
        crate::limits::check(
            || {
                format!(
                    "open-loop runs on a {} of {} terminals",
                    topology.name(),
                    args.size
                )
            },
            per_point.saturating_mul(rayon::current_num_threads() as u64 + 1),
        )?;
        for &links in &args.links {
            let net = OpenNet::build(topology, size, links, &args.delay.delay)
                .map_err(|e| Error::Usage(e.to_string()))?;
            for &vcs in &args.vcs {
                let cfg = Config {
                    vcs,
                    depth: args.vc_depth,
                    packet_flits: args.packet_flits,
                    lengths: args.packet_length,
                    router_delay: args.router_delay,
                    flow: args.flow_control,
                    injection: args.injection,
                    pattern: args.traffic,
                    up_links: args.up_links,
                    rate: args.rates[0],
                    phases,
                    warmup: Warmup {
                        mode: args.warmup_mode,
                        window: args.warmup_window,
                        tolerance: args.warmup_tolerance,
                    },
                    watchdog: args.watchdog,
                    seed: args.seed,
                };
                cfg.check(&net).map_err(|e| Error::Usage(e.to_string()))?;
                crate::sim::openloop::traffic::Destinations::new(
                    args.traffic,
                    net.graph.terminals,
                    args.seed,
                )
                .map_err(|e| Error::Usage(e.to_string()))?;
                out.push(Setup {
                    net: net.clone(),
                    cfg,
                    links,
                });
            }
        }
    }
    Ok(out)
}

fn latency(l: &Latency) -> LatencyReport {
    LatencyReport {
        avg: l.avg,
        median: l.median,
        p99: l.p99,
        max: l.max,
    }
}

/// The mean analytic zero-load latency of the delivered measured packets.
fn zero_load_of_packets(s: &Setup, p: &PointResult) -> f64 {
    let mut memo = std::collections::HashMap::new();
    let sum: f64 = p
        .samples
        .iter()
        .map(|x| {
            *memo
                .entry((x.src, x.dst))
                .or_insert_with(|| sweep::zero_load_pair(&s.net, &s.cfg, x.src, x.dst))
        })
        .sum();
    sum / p.samples.len().max(1) as f64
}

fn point_report(s: &Setup, p: &PointResult, zero_load: f64) -> PointReport {
    let m = s.cfg.phases.measure as f64;
    let busiest = (0..p.link_flits.len()).max_by_key(|&c| (p.link_flits[c], std::cmp::Reverse(c)));
    let busiest_link = busiest.map_or([0, 0], |c| {
        let ch = s.net.graph.channels[c];
        [ch.from, ch.to]
    });
    PointReport {
        rate: p.rate,
        offered: p.offered,
        accepted: p.accepted,
        drained: p.drained,
        warmup_cycles: Some(p.warmup.cycles),
        warmup: p.warmup.outcome,
        saturated: sweep::saturated(p, zero_load),
        measured: p.measured,
        delivered: p.delivered,
        network_latency: latency(&p.network),
        zero_load_of_packets: zero_load_of_packets(s, p),
        total_latency: latency(&p.total),
        hops: p.hops,
        link_utilisation: Range::of(p.link_flits.iter().map(|&f| f as f64 / m)),
        busiest_link,
        cycles: p.cycles,
        flit_hops: p.flit_hops,
    }
}

fn run_setup(args: &OpenLoopArgs, s: &Setup) -> Result<ConfigReport> {
    let failed = |source| SimulationFailure::OpenLoop {
        topology: s.net.topology,
        source,
    };
    let zero_load = sweep::zero_load(&s.net, &s.cfg).map_err(failed)?;
    let loads = sweep::channel_loads(&s.net, &s.cfg).map_err(failed)?;
    let points = sweep::run_rates(&s.net, &s.cfg, &args.rates).map_err(failed)?;
    let saturation = match args.saturation {
        SaturationSearch::Skip => None,
        SaturationSearch::Search => {
            let sat = sweep::find_saturation(&s.net, &s.cfg, zero_load).map_err(failed)?;
            Some(SaturationReport {
                below: sat.below,
                above: sat.above,
                accepted_below: sat.accepted_below,
                accepted_above: sat.accepted_above,
                fraction_of_bound: sat.below / loads.bound,
                probes: sat.probes,
            })
        }
    };
    let g = &s.net.graph;
    let name = s.net.topology.name();
    let links = links_name(s.links);
    Ok(ConfigReport {
        label: format!("{name}, {links} links, {} VCs", s.cfg.vcs),
        topology: s.net.topology,
        terminals: g.terminals,
        routers: g.routers,
        channels: g.channels.len() as u32,
        links: s.links,
        delay: args.delay.text.clone(),
        wire_length: Range::of(g.channels.iter().map(|c| c.length as f64)),
        link_latency: Range::of(g.channels.iter().map(|c| c.latency as f64)),
        vcs: s.cfg.vcs,
        vc_depth: s.cfg.depth,
        packet_flits: s.cfg.packet_flits,
        packet_length: s.cfg.lengths,
        router_delay: s.cfg.router_delay,
        flow_control: s.cfg.flow,
        injection: s.cfg.injection,
        traffic: s.cfg.pattern,
        up_links: s.cfg.up_links,
        phases: PhaseCycles {
            warmup: s.cfg.phases.warmup,
            warmup_mode: s.cfg.warmup.mode,
            warmup_window: s.cfg.warmup.window,
            warmup_tolerance: s.cfg.warmup.tolerance,
            measure: s.cfg.phases.measure,
            drain: s.cfg.phases.drain,
        },
        zero_load_latency: zero_load,
        channel_load_bound: loads.bound,
        saturation,
        points: points
            .iter()
            .map(|p| point_report(s, p, zero_load))
            .collect(),
    })
}

/// `fabric simulate open-loop`.
pub fn run(args: &OpenLoopArgs) -> Result<i32> {
    let inputs: Vec<&std::path::Path> = args.compare.iter().map(PathBuf::as_path).collect();
    let outputs: Vec<&std::path::Path> = args
        .output
        .iter()
        .chain(&args.plot)
        .map(PathBuf::as_path)
        .collect();
    check_output_paths(&inputs, &outputs)?;
    args.format.check::<OpenLoopReport>()?;
    let compared: Vec<OpenLoopReport> = args
        .compare
        .iter()
        .map(|p| {
            let text = crate::cli::files::read_text(p)?;
            read_open_loop(&text).map_err(|e| Error::Usage(format!("{}: {e}", p.display())))
        })
        .collect::<Result<_>>()?;
    let start = Instant::now();
    let setups = setups(args)?;
    let mut configs = Vec::new();
    for s in &setups {
        configs.push(run_setup(args, s)?);
    }
    let report = OpenLoopReport {
        header: OpenLoopReport::header(),
        seed: args.seed,
        rules: rules(),
        saturation_criterion: format!(
            "a rate is saturated when its measured packets are not all delivered within the drain, accepted < {ACCEPT_FRACTION} x offered, or the average total latency > {LATENCY_FACTOR} x the analytic zero-load latency; the search brackets the least saturated rate in (0, 1] by {} rounds of 3 probes",
            sweep::SEARCH_ROUNDS
        ),
        configs,
    };
    let mut files = Vec::new();
    if let Some(path) = &args.output {
        files.push((path.clone(), render(&report, args.format.format)?));
    }
    if let Some(path) = &args.plot {
        let all: Vec<&ConfigReport> = report
            .configs
            .iter()
            .chain(compared.iter().flat_map(|r| &r.configs))
            .collect();
        let title = format!(
            "open loop, {} traffic, {} terminals",
            args.traffic.name(),
            args.size
        );
        files.push((path.clone(), open_loop_chart(&title, &all)?));
    }
    write_all_or_nothing(&files)?;
    print!("{}", open_loop_table(&report));
    let hops: u64 = report
        .configs
        .iter()
        .flat_map(|c| &c.points)
        .map(|p| p.flit_hops)
        .sum();
    println!(
        "  {} configurations in {:.2} s ({hops} flit-hops at the listed rates)",
        report.configs.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: OpenLoopArgs,
    }

    /// The command's defaults are the library's `Config::default`, but for
    /// the first rate of the default list and the converging warm-up's
    /// window and tolerance (unused by the fixed warm-up).
    #[test]
    fn the_defaults_are_the_librarys() {
        let command = Command::try_parse_from(["open-loop"]).unwrap();
        let setups = setups(&command.args).unwrap();
        assert_eq!(setups.len(), 1);
        let expected = Config {
            rate: 0.05,
            warmup: Warmup {
                window: 500,
                tolerance: 0.05,
                ..Warmup::FIXED
            },
            ..Config::default()
        };
        assert_eq!(setups[0].cfg, expected);
    }
}
