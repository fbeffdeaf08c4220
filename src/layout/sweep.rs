//! Scaling reports: a construction built, verified and measured over a
//! range of sizes, with the exponents of area and longest wire fitted on a
//! log-log scale next to the construction's own closed forms.

/// One size of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// Processors (fat-trees) or root mesh side (trees of meshes).
    pub n: u64,
    /// Measured width of the layout's bounding box, in grid points.
    pub side: u64,
    /// Measured area (volume in 3-D), in grid points.
    pub area: u64,
    /// Summed length of all wires, in unit grid edges.
    pub total_wire_length: u64,
    /// Length of the longest wire, in unit grid edges.
    pub max_wire_length: u64,
    /// The side the recurrence gives (equal to `side`, checked; an upper
    /// bound for 3-D layouts).
    pub recurrence_side: u64,
    /// The area (volume in 3-D) of the closed form.
    pub formula_area: u64,
    /// The longest wire the construction's closed form gives, if it has one.
    pub formula_max_wire: Option<u64>,
    /// Nodes of the embedding.
    pub nodes: usize,
    /// Edges (wires) of the embedding.
    pub edges: usize,
    /// Points where two wires cross, as the checker counts them.
    pub crossings: u64,
    /// Wall-clock time to build, check and measure this size.
    pub seconds: f64,
}

/// The slope of the least-squares line through `(ln x, ln y)`.
pub fn fitted_exponent(points: &[(f64, f64)]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let k = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (mx, my) = (sx / k, sy / k);
    let num: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let den: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    (den > 0.0).then(|| num / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_of_a_power_law() {
        let pts: Vec<(f64, f64)> = (1..8)
            .map(|k| (4f64.powi(k), 3.0 * 4f64.powi(k).powf(1.5)))
            .collect();
        assert!((fitted_exponent(&pts).unwrap() - 1.5).abs() < 1e-9);
        assert_eq!(fitted_exponent(&pts[..1]), None);
    }
}
