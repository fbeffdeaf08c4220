//! Charts drawn with plotters (SVG backend): the scaling report of
//! `fabric layout --sweep`, delivery cycles of `fabric simulate fat-tree`,
//! and series with error bars against a log-scaled x ([`bar_chart`]).

use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

use crate::layout::sweep::{fitted_exponent, SweepRow};

/// A chart plotters could not draw.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChartError {
    /// The backend's reason, as plotters words it.
    #[error("{0}")]
    Draw(String),
}

fn draw(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// A panel's measured and closed-form values for one size.
type Pick = Box<dyn Fn(&SweepRow) -> (f64, f64)>;

/// Two log-log panels, area and longest wire against `n`: the measured
/// points with their fitted exponent, and the construction's closed form
/// as a line.
pub fn sweep_chart(title: &str, x_name: &str, rows: &[SweepRow]) -> Result<String, ChartError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1000, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(draw)?;
        let panels = root.split_evenly((1, 2));
        let series: [(&str, Pick); 2] = [
            (
                "area",
                Box::new(|r: &SweepRow| (r.area as f64, r.formula_area as f64)),
            ),
            (
                "longest wire",
                Box::new(|r: &SweepRow| {
                    (
                        r.max_wire_length as f64,
                        r.formula_max_wire.map_or(f64::NAN, |w| w as f64),
                    )
                }),
            ),
        ];
        for (panel, (name, pick)) in panels.iter().zip(series.iter()) {
            let xs: Vec<f64> = rows.iter().map(|r| r.n as f64).collect();
            let ys: Vec<(f64, f64)> = rows.iter().map(pick).collect();
            let (xmin, xmax) = (
                xs.iter().cloned().fold(f64::MAX, f64::min),
                xs.iter().cloned().fold(0.0, f64::max),
            );
            // f64::max and f64::min skip a missing (NaN) closed form.
            let ymax = ys.iter().map(|y| y.0.max(y.1)).fold(1.0, f64::max);
            let ymin = ys
                .iter()
                .map(|y| y.0.min(y.1))
                .fold(f64::MAX, f64::min)
                .max(1.0);
            let exponent = fitted_exponent(
                &xs.iter()
                    .zip(&ys)
                    .map(|(&x, y)| (x, y.0))
                    .collect::<Vec<_>>(),
            );
            let mut chart = ChartBuilder::on(panel)
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(
                    (xmin * 0.8..xmax * 1.25).log_scale(),
                    (ymin * 0.8..ymax * 1.25).log_scale(),
                )
                .map_err(draw)?;
            chart
                .configure_mesh()
                .x_desc(x_name)
                .y_desc(*name)
                .draw()
                .map_err(draw)?;
            chart
                .draw_series(LineSeries::new(
                    xs.iter()
                        .zip(&ys)
                        .filter(|(_, y)| !y.1.is_nan())
                        .map(|(&x, y)| (x, y.1)),
                    BLUE.stroke_width(2),
                ))
                .map_err(draw)?
                .label("closed form")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
            chart
                .draw_series(
                    xs.iter()
                        .zip(&ys)
                        .map(|(&x, y)| Circle::new((x, y.0), 4, RED.filled())),
                )
                .map_err(draw)?
                .label(match exponent {
                    Some(e) => format!("measured (fitted exponent {e:.3})"),
                    None => "measured".to_string(),
                })
                .legend(|(x, y)| Circle::new((x + 10, y), 4, RED.filled()));
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE)
                .border_style(BLACK)
                .draw()
                .map_err(draw)?;
        }
        root.present().map_err(draw)?;
    }
    Ok(out)
}

/// Delivery cycles against the load factor, log-log: one point per trial,
/// the lower bound `cycles = lambda`, and Figure 3-3's region boundaries
/// (`lambda = 1, 2, lg n lg lg n`) for fat-trees.
pub fn cycles_chart(r: &crate::sim::SimReport) -> Result<String, ChartError> {
    let points: Vec<(f64, f64)> = r
        .runs
        .iter()
        .flat_map(|run| &run.trials)
        .filter(|t| t.load.lambda > 0.0)
        .map(|t| (t.load.lambda, t.outcome.cycles.max(1) as f64))
        .collect();
    let lgn = crate::sim::lg(r.processors);
    let knee = lgn * lgn.log2().max(1.0);
    let xmin = points.iter().map(|p| p.0).fold(1.0, f64::min) * 0.7;
    let xmax = points.iter().map(|p| p.0).fold(knee, f64::max) * 1.4;
    let ymax = points.iter().map(|p| p.1).fold(xmax, f64::max) * 1.4;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let title = format!(
            "{} on {} processors ({}): {} traffic, {} switches",
            r.algorithm.name(),
            r.processors,
            r.network,
            r.traffic.name(),
            r.policy.name()
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 16))
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (xmin.max(0.1)..xmax).log_scale(),
                (0.7f64..ymax).log_scale(),
            )
            .map_err(draw)?;
        chart
            .configure_mesh()
            .x_desc("load factor lambda")
            .y_desc("delivery cycles")
            .draw()
            .map_err(draw)?;
        if r.network == "fat-tree" {
            let band = RGBColor(0, 140, 60);
            for (k, (x, name)) in [
                (1.0, "lambda = 1".to_string()),
                (2.0, "lambda = 2".to_string()),
                (knee, format!("lambda = lg n lg lg n = {knee:.1}")),
            ]
            .into_iter()
            .enumerate()
            {
                if x > xmin && x < xmax {
                    chart
                        .draw_series(LineSeries::new(
                            vec![(x, 0.7), (x, ymax)],
                            band.stroke_width(2),
                        ))
                        .map_err(draw)?;
                    chart
                        .draw_series(std::iter::once(Text::new(
                            name,
                            (x * 1.04, ymax / (2.0 + 1.5 * k as f64)),
                            ("sans-serif", 13).into_font().color(&band),
                        )))
                        .map_err(draw)?;
                }
            }
            chart
                .draw_series(std::iter::once(Text::new(
                    "Figure 3-3 regions: 1 cycle | O(lg n) | O(lg n lg lambda) | O(lambda)"
                        .to_string(),
                    (xmin.max(0.1) * 1.1, 0.9),
                    ("sans-serif", 12).into_font().color(&band),
                )))
                .map_err(draw)?;
        }
        chart
            .draw_series(LineSeries::new(
                vec![(xmin.max(0.1), xmin.max(0.1)), (xmax, xmax)],
                BLUE.stroke_width(2),
            ))
            .map_err(draw)?
            .label("lower bound: cycles = lambda")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, RED.filled())))
            .map_err(draw)?
            .label("measured (one point per trial)")
            .legend(|(x, y)| Circle::new((x + 10, y), 3, RED.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(draw)?;
        root.present().map_err(draw)?;
    }
    Ok(out)
}

/// One point of a [`BarSeries`]: `x`, the value `y`, and the interval
/// `lo ..= hi` drawn as a bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarPoint {
    /// Position on the x axis.
    pub x: f64,
    /// The value.
    pub y: f64,
    /// The bar's lower end.
    pub lo: f64,
    /// The bar's upper end.
    pub hi: f64,
}

/// A named line of [`BarPoint`]s.
#[derive(Clone, Debug, PartialEq)]
pub struct BarSeries {
    /// The legend's text.
    pub label: String,
    /// The points, in x order.
    pub points: Vec<BarPoint>,
}

/// How a value axis is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Linear from 0.
    Linear,
    /// Logarithmic.
    Log,
}

/// A chart of series with error bars against a logarithmic x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// The caption.
    pub title: String,
    /// The x axis's name.
    pub x_desc: String,
    /// The y axis's name.
    pub y_desc: String,
    /// The y axis's scale.
    pub y_axis: Axis,
    /// The lines.
    pub series: Vec<BarSeries>,
}

/// Ten colours told apart easily; [`Palette99`] after them.
const SERIES_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Series `i`'s colour.
fn series_colour(i: usize) -> RGBAColor {
    match SERIES_COLOURS.get(i) {
        Some(c) => c.to_rgba(),
        None => Palette99::pick(i).to_rgba(),
    }
}

/// Draws `c`: each series a coloured line through its points, each point
/// with its bar (capped); x on a log scale, ticked at the points' x.
pub fn bar_chart(c: &BarChart) -> Result<String, ChartError> {
    let points = || c.series.iter().flat_map(|s| &s.points);
    let xmin = points()
        .map(|p| p.x)
        .filter(|&x| x > 0.0)
        .fold(f64::MAX, f64::min);
    let xmax = points().map(|p| p.x).fold(0.0, f64::max);
    let (xmin, xmax) = if xmin <= xmax {
        (xmin, xmax)
    } else {
        (1.0, 10.0)
    };
    let ymax = points().map(|p| p.hi.max(p.y)).fold(1.0, f64::max);
    let ymin = points()
        .map(|p| p.y)
        .filter(|&y| y > 0.0)
        .fold(ymax, f64::min);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 580)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&c.title, ("sans-serif", 16))
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(70);
        let mut ticks: Vec<f64> = points().map(|p| p.x).filter(|&x| x > 0.0).collect();
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        let x = (xmin / 1.4..xmax * 1.4).log_scale().with_key_points(ticks);
        match c.y_axis {
            Axis::Linear => {
                let mut chart = builder
                    .build_cartesian_2d(x, 0.0..ymax * 1.1)
                    .map_err(draw)?;
                bars_on(&mut chart, c, 0.0)?;
            }
            Axis::Log => {
                let floor = ymin / 1.5;
                let mut chart = builder
                    .build_cartesian_2d(x, (floor..ymax * 1.5).log_scale())
                    .map_err(draw)?;
                bars_on(&mut chart, c, floor)?;
            }
        }
        root.present().map_err(draw)?;
    }
    Ok(out)
}

/// The mesh, the series, their bars (lower ends clamped to `floor`) and
/// the legend of [`bar_chart`] on a built chart.
fn bars_on<'a, 'b: 'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    c: &BarChart,
    floor: f64,
) -> Result<(), ChartError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let tick = |v: &f64| {
        if v.abs() >= 10.0 {
            format!("{v:.0}")
        } else {
            format!("{v}")
        }
    };
    chart
        .configure_mesh()
        .x_desc(c.x_desc.as_str())
        .y_desc(c.y_desc.as_str())
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .max_light_lines(2)
        .draw()
        .map_err(draw)?;
    for (i, s) in c.series.iter().enumerate() {
        let colour = series_colour(i);
        let line: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))
            .map_err(draw)?
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        let cap = |x: f64, y: f64| {
            EmptyElement::at((x, y)) + PathElement::new(vec![(-4, 0), (4, 0)], colour)
        };
        for p in s.points.iter().filter(|p| p.hi > p.lo) {
            let lo = p.lo.max(floor);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(p.x, lo), (p.x, p.hi)],
                    colour.stroke_width(1),
                )))
                .map_err(draw)?;
            chart
                .draw_series([cap(p.x, lo), cap(p.x, p.hi)])
                .map_err(draw)?;
        }
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(draw)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()
        .map_err(draw)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(y_axis: Axis, series: Vec<BarSeries>) -> BarChart {
        BarChart {
            title: "t".into(),
            x_desc: "x".into(),
            y_desc: "y".into(),
            y_axis,
            series,
        }
    }

    /// Both scales draw, bars reaching below a log axis are clamped, and
    /// an empty chart still draws.
    #[test]
    fn bar_charts_draw_on_either_scale() {
        let s = BarSeries {
            label: "a".into(),
            points: vec![
                BarPoint {
                    x: 16.0,
                    y: 5.0,
                    lo: -3.0,
                    hi: 9.0,
                },
                BarPoint {
                    x: 64.0,
                    y: 500.0,
                    lo: 480.0,
                    hi: 520.0,
                },
            ],
        };
        for axis in [Axis::Linear, Axis::Log] {
            let svg = bar_chart(&chart(axis, vec![s.clone()])).expect("draws");
            assert!(svg.contains("<svg") && svg.contains("\na\n</text>"));
            assert!(bar_chart(&chart(axis, Vec::new())).is_ok());
        }
    }
}
