//! The terminal table and the latency–throughput chart of `fabric
//! simulate open-loop` (the report itself:
//! [`crate::report::model::open_loop`]).

#[cfg(feature = "cli")]
use plotters::prelude::*;

#[cfg(feature = "cli")]
use crate::cli::flag_name;
#[cfg(feature = "cli")]
use crate::report::chart::ChartError;
#[cfg(feature = "cli")]
use crate::report::model::open_loop::ConfigReport;
use crate::report::model::open_loop::OpenLoopReport;
use crate::sim::openloop::LinkMode;

/// The links as `--links` names them.
pub fn links_name(links: LinkMode) -> &'static str {
    match links {
        LinkMode::Unit => "unit",
        LinkMode::Layout => "layout",
    }
}

/// One table per configuration.
pub fn open_loop_table(r: &OpenLoopReport) -> String {
    let mut s = String::new();
    for c in &r.configs {
        s += &format!(
            "{}: {} terminals, {} routers, {} channels, links {} (latency {:.0}..{:.0}), zero-load {:.2} cycles, channel-load bound {:.4}\n",
            c.label, c.terminals, c.routers, c.channels, links_name(c.links), c.link_latency.min, c.link_latency.max,
            c.zero_load_latency, c.channel_load_bound
        );
        s += "    rate  offered accepted   net avg  net p99  tot avg  tot med  tot p99  tot max  link max  sat\n";
        for p in &c.points {
            s += &format!(
                "  {:6.3}  {:7.4}  {:7.4}  {:8.2} {:8} {:8.2} {:8} {:8} {:8}  {:8.3}  {}\n",
                p.rate,
                p.offered,
                p.accepted,
                p.network_latency.avg,
                p.network_latency.p99,
                p.total_latency.avg,
                p.total_latency.median,
                p.total_latency.p99,
                p.total_latency.max,
                p.link_utilisation.max,
                if p.saturated { "yes" } else { "no" }
            );
        }
        if let Some(sat) = &c.saturation {
            s += &format!(
                "  saturation between {:.4} and {:.4} offered ({:.1} % of the bound {:.4}); accepted {:.4} below, {:.4} above\n",
                sat.below,
                sat.above,
                100.0 * sat.fraction_of_bound,
                c.channel_load_bound,
                sat.accepted_below,
                sat.accepted_above
            );
        }
    }
    s
}

#[cfg(feature = "cli")]
fn draw(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// The settings a chart label may need beyond topology, links and VCs,
/// each as a phrase.
#[cfg(feature = "cli")]
const DISTINGUISHERS: [fn(&ConfigReport) -> String; 10] = [
    |c| format!("{} terminals", c.terminals),
    |c| format!("delay {}", c.delay),
    |c| format!("depth {}", c.vc_depth),
    |c| format!("{}-flit packets", c.packet_flits),
    |c| format!("{} lengths", flag_name(c.packet_length)),
    |c| format!("router delay {}", c.router_delay),
    |c| flag_name(c.flow_control),
    |c| format!("{} injection", flag_name(c.injection)),
    |c| format!("{} traffic", flag_name(c.traffic)),
    |c| format!("{} up-links", flag_name(c.up_links)),
];

/// The legend's labels: each configuration's own label followed by every
/// setting in which the drawn configurations differ (so two curves that
/// differ only by up-links or packet length are told apart), and a
/// number where configurations are alike in all of them.
#[cfg(feature = "cli")]
pub fn chart_labels(configs: &[&ConfigReport]) -> Vec<String> {
    let differing: Vec<_> = DISTINGUISHERS
        .iter()
        .filter(|f| configs.iter().any(|c| f(c) != f(configs[0])))
        .collect();
    let labels: Vec<String> = configs
        .iter()
        .map(|c| {
            std::iter::once(c.label.clone())
                .chain(differing.iter().map(|f| f(c)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if labels.iter().filter(|m| *m == l).count() > 1 {
                format!("{l} (#{})", i + 1)
            } else {
                l.clone()
            }
        })
        .collect()
}

#[cfg(feature = "cli")]
/// Average total latency against accepted throughput, one line per
/// configuration (of this report and the compared ones, labelled by
/// [`chart_labels`]); saturated points hollow, latency on a log scale.
pub fn open_loop_chart(title: &str, configs: &[&ConfigReport]) -> Result<String, ChartError> {
    let pts = || configs.iter().flat_map(|c| &c.points);
    let xmax = pts().map(|p| p.accepted.max(p.rate)).fold(0.05, f64::max) * 1.05;
    let ymax = pts().map(|p| p.total_latency.avg).fold(10.0, f64::max) * 1.3;
    let ymin = pts()
        .map(|p| p.total_latency.avg)
        .fold(f64::MAX, f64::min)
        .clamp(1.0, 1e9)
        * 0.8;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..xmax, (ymin..ymax).log_scale())
            .map_err(draw)?;
        chart
            .configure_mesh()
            .x_desc("accepted throughput (flits/terminal/cycle)")
            .y_desc("average total latency (cycles)")
            .draw()
            .map_err(draw)?;
        let labels = chart_labels(configs);
        for (i, (c, label)) in configs.iter().zip(labels).enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let line: Vec<(f64, f64)> = c
                .points
                .iter()
                .map(|p| (p.accepted, p.total_latency.avg))
                .collect();
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))
                .map_err(draw)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(c.points.iter().map(|p| {
                    let style = if p.saturated {
                        colour.stroke_width(2)
                    } else {
                        colour.filled()
                    };
                    Circle::new((p.accepted, p.total_latency.avg), 4, style)
                }))
                .map_err(draw)?;
            // The channel-load bound, a faint vertical line.
            if c.channel_load_bound < xmax {
                chart
                    .draw_series(LineSeries::new(
                        vec![(c.channel_load_bound, ymin), (c.channel_load_bound, ymax)],
                        colour.mix(0.35).stroke_width(1),
                    ))
                    .map_err(draw)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(draw)?;
        root.present().map_err(draw)?;
    }
    Ok(out)
}
