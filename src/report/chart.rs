//! Charts drawn with plotters (SVG backend): the scaling report of
//! `fabric layout --sweep`.

use plotters::prelude::*;

use crate::layout::sweep::{fitted_exponent, SweepRow};

/// A panel's measured and closed-form values for one size.
type Pick = Box<dyn Fn(&SweepRow) -> (f64, f64)>;

/// Two log-log panels, area and longest wire against `n`: the measured
/// points with their fitted exponent, and the construction's closed form
/// as a line.
pub fn sweep_chart(title: &str, x_name: &str, rows: &[SweepRow]) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1000, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 18))
            .map_err(|e| e.to_string())?;
        let panels = root.split_evenly((1, 2));
        let series: [(&str, Pick); 2] = [
            (
                "area",
                Box::new(|r: &SweepRow| {
                    (
                        r.area as f64,
                        (r.recurrence_side * r.recurrence_side) as f64,
                    )
                }),
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
                .map_err(|e| e.to_string())?;
            chart
                .configure_mesh()
                .x_desc(x_name)
                .y_desc(*name)
                .draw()
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(LineSeries::new(
                    xs.iter()
                        .zip(&ys)
                        .filter(|(_, y)| !y.1.is_nan())
                        .map(|(&x, y)| (x, y.1)),
                    BLUE.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label("closed form")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
            chart
                .draw_series(
                    xs.iter()
                        .zip(&ys)
                        .map(|(&x, y)| Circle::new((x, y.0), 4, RED.filled())),
                )
                .map_err(|e| e.to_string())?
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
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
