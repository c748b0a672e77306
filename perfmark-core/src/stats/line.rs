//! A weighted least-squares line: the fit of a routine's time against the
//! size of its input (complexity) and of a test's move against the
//! machine's (the stored-baseline rule's reference).

/// A weighted least-squares line `y = a + slope · x`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    pub(crate) slope: f64,
    /// Σ w (x − x̄_w)².
    pub(crate) sxx: f64,
    /// Σ w r², r the residuals.
    pub(crate) weighted_rss: f64,
}

impl Line {
    /// The slope's standard error: the weights' own scale, widened by the
    /// residuals' when they scatter more (never narrowed).
    pub(crate) fn slope_se(&self, df: f64) -> f64 {
        let scale = (self.weighted_rss / df).max(1.0);
        (scale / self.sxx).sqrt()
    }
}

/// Fits the line through `(x, y)` with weights `w` (all of one length).
pub(crate) fn weighted_line(x: &[f64], y: &[f64], w: &[f64]) -> Line {
    let sw: f64 = w.iter().sum();
    let xm = x.iter().zip(w).map(|(x, w)| w * x).sum::<f64>() / sw;
    let ym = y.iter().zip(w).map(|(y, w)| w * y).sum::<f64>() / sw;
    let sxx: f64 = x.iter().zip(w).map(|(x, w)| w * (x - xm).powi(2)).sum();
    let sxy: f64 = x
        .iter()
        .zip(y)
        .zip(w)
        .map(|((x, y), w)| w * (x - xm) * (y - ym))
        .sum();
    let slope = sxy / sxx;
    let weighted_rss = x
        .iter()
        .zip(y)
        .zip(w)
        .map(|((x, y), w)| w * (y - ym - slope * (x - xm)).powi(2))
        .sum();
    Line {
        slope,
        sxx,
        weighted_rss,
    }
}
