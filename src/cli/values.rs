//! Value parsers of numeric options that clap's ranges cannot express:
//! finite, positive floating-point numbers with an upper bound.

/// The longest `--time-limit`: a week.
const MAX_TIME_LIMIT: f64 = 604_800.0;

/// A finite number of `unit`, above 0 and at most `max`.
fn parse_positive(s: &str, unit: &str, max: f64) -> std::result::Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of {unit}"))?;
    if v.is_finite() && v > 0.0 && v <= max {
        Ok(v)
    } else {
        Err(format!(
            "`{s}`: give a positive number of {unit}, at most {max}"
        ))
    }
}

/// `--time-limit`: seconds, at most `MAX_TIME_LIMIT`.
pub(super) fn parse_seconds(s: &str) -> std::result::Result<f64, String> {
    parse_positive(s, "seconds", MAX_TIME_LIMIT)
}

/// `--memory`: a positive number of GiB, at most 2^20.
pub(super) fn parse_gib(s: &str) -> std::result::Result<f64, String> {
    parse_positive(s, "GiB", (1u64 << 20) as f64)
}
