//! Means with their 95% intervals, gathered on many threads: what the
//! simulators and the arenas of both games report.

use serde::Serialize;

/// A running mean and variance (Welford), mergeable across threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one sample.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Combines two sets of samples (Chan et al.).
    pub fn merge(&mut self, o: &Moments) {
        if o.n == 0 {
            return;
        }
        let n = self.n + o.n;
        let d = o.mean - self.mean;
        self.mean += d * o.n as f64 / n as f64;
        self.m2 += o.m2 + d * d * self.n as f64 * o.n as f64 / n as f64;
        self.n = n;
    }

    /// Mean with the half-width of its 95% confidence interval.
    pub fn estimate(&self) -> Estimate {
        let var = if self.n > 1 {
            self.m2 / (self.n - 1) as f64
        } else {
            0.0
        };
        Estimate {
            mean: self.mean,
            ci95: 1.96 * (var / self.n.max(1) as f64).sqrt(),
            samples: self.n,
        }
    }
}

/// A mean and its 95% confidence interval, mean ± ci95.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Half-width of the 95% interval.
    pub ci95: f64,
    /// Number of samples.
    pub samples: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_moments_are_the_moments_of_all_samples() {
        let xs = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0];
        let moments = |xs: &[f64]| {
            let mut m = Moments::default();
            for &x in xs {
                m.push(x);
            }
            m
        };
        let all = moments(&xs);
        let mut a = moments(&xs[..3]);
        a.merge(&moments(&xs[3..]));
        let (e, f) = (all.estimate(), a.estimate());
        assert_eq!(e.samples, f.samples);
        assert!((e.mean - f.mean).abs() < 1e-12 && (e.ci95 - f.ci95).abs() < 1e-12);
    }
}
