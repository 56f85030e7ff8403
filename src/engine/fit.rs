//! Fitting the evaluation's weights against exact values (`millbase blunders fit`).
//!
//! Each sample is a quiet position (the side to move closes no mill now) from real games,
//! its evaluation terms ([`features`]) and its exact result for the side to move from tables
//! of the whole game: 1 won, ½ drawn, 0 lost. Per phase, a logistic regression fits the
//! probability-like score `σ(θ·x)` to the result (maximum likelihood by Newton's method, with
//! a small ridge), as Texel tuning does for chess engines but against exact values instead of
//! game results. The two phases' log-odds are on one scale; [`to_weights`] turns them into
//! centi-stones with one factor (one stone of material in the moving phase = 100), so that
//! the search compares the evaluations of both phases fairly.

use super::eval::{FEATURES, Weights, features};
use super::game::Game;
use super::oracle::Oracle;
use crate::game::movegen::{Convention, legal_moves};
use crate::game::rules::Variant;
use crate::game::value::Value;

/// One position's terms and exact result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation's terms.
    pub features: [i32; FEATURES],
    /// A side has stones in hand.
    pub placing: bool,
    /// The result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub score: f64,
}

/// Why a position gives no sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The game is over, or a removal is pending.
    NotAPlainTurn,
    /// The side to move can close a mill: the search plays it out (quiescence), the
    /// evaluation does not see it.
    NotQuiet,
    /// The judge has no table for it.
    Unjudged,
}

/// The sample of `game`'s current position, judged by `judge` (exact tables of the whole
/// game under the game's N-move rule).
pub fn sample_of(judge: &Oracle, game: &Game) -> Result<Sample, Skip> {
    let v: &Variant = game.variant();
    let pos = game.position();
    if game.result().is_some() || pos.pending_removal() {
        return Err(Skip::NotAPlainTurn);
    }
    if legal_moves(v, pos, Convention::Combined)
        .iter()
        .any(|m| m.removes())
    {
        return Err(Skip::NotQuiet);
    }
    let value = judge.value(pos, game.counter()).ok_or(Skip::Unjudged)?;
    Ok(Sample {
        features: features(v, pos),
        placing: pos.in_hand.iter().any(|&h| h > 0),
        score: match value {
            Value::Win(_) => 1.0,
            Value::Draw => 0.5,
            Value::Loss(_) => 0.0,
        },
    })
}

/// Log-odds weights of one phase.
pub type Logit = [f64; FEATURES];

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(theta: &Logit, x: &[i32; FEATURES]) -> f64 {
    theta.iter().zip(x).map(|(t, &x)| t * f64::from(x)).sum()
}

/// Cross-entropy of `p` against the result `y` (in nats; 0 when `p` equals a sure `y`).
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Fit the log-odds weights of the samples (one phase's): Newton's method on the mean
/// cross-entropy plus `ridge` times the squared weights. Weights of terms that never vary
/// stay 0.
pub fn fit_phase(samples: &[&Sample], ridge: f64) -> Logit {
    let mut theta = [0.0; FEATURES];
    if samples.is_empty() {
        return theta;
    }
    let n = samples.len() as f64;
    let mut active = [false; FEATURES];
    for s in samples {
        for (a, &x) in active.iter_mut().zip(&s.features) {
            *a |= x != 0;
        }
    }
    for _ in 0..100 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for s in samples {
            let p = sigmoid(dot(&theta, &s.features));
            let w = p * (1.0 - p);
            let x = s.features.map(f64::from);
            for ((g, row), &xi) in grad.iter_mut().zip(hess.iter_mut()).zip(&x) {
                if xi == 0.0 {
                    continue;
                }
                *g += (p - s.score) * xi;
                for (h, &xj) in row.iter_mut().zip(&x) {
                    *h += w * xi * xj;
                }
            }
        }
        for (i, (g, row)) in grad.iter_mut().zip(hess.iter_mut()).enumerate() {
            *g = *g / n + 2.0 * ridge * theta[i];
            for h in row.iter_mut() {
                *h /= n;
            }
            row[i] += 2.0 * ridge;
            if !active[i] {
                row[i] = 1.0;
                *g = 0.0;
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for i in 0..FEATURES {
            theta[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    theta
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting (`None` if singular).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: Logit) -> Option<Logit> {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let tail: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// The fitted log-odds of both phases: `[placing, moving]`.
pub fn fit(samples: &[Sample], ridge: f64) -> [Logit; 2] {
    let phase = |placing: bool| {
        let of: Vec<&Sample> = samples.iter().filter(|s| s.placing == placing).collect();
        fit_phase(&of, ridge)
    };
    [phase(true), phase(false)]
}

/// Centi-stone weights of fitted log-odds: one factor for both phases, chosen so that the
/// moving phase's material weight is 100 (`None` when that weight is not positive).
pub fn to_weights(logit: &[Logit; 2], material: usize) -> Option<Weights> {
    let unit = logit[1][material];
    if unit <= 0.0 {
        return None;
    }
    let scale = |l: &Logit| l.map(|t| (t * 100.0 / unit).round() as i32);
    Some(Weights {
        placing: scale(&logit[0]),
        moving: scale(&logit[1]),
    })
}

/// The mean cross-entropy of the samples' results against `σ(k · evaluation)` with
/// `weights` (lower is better; ln 2 ≈ 0.693 is a coin's).
pub fn loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| {
            let w = if s.placing {
                &weights.placing
            } else {
                &weights.moving
            };
            let e: i32 = w.iter().zip(&s.features).map(|(w, x)| w * x).sum();
            cross_entropy(sigmoid(k * f64::from(e)), s.score)
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// The scale `k` (log-odds per centi-stone) under which `weights` fit the samples best, and
/// the loss there: a golden-section search over log k.
pub fn best_scale(samples: &[Sample], weights: &Weights) -> (f64, f64) {
    let f = |lk: f64| loss(samples, weights, lk.exp());
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1.0f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    let lk = (lo + hi) / 2.0;
    (lk.exp(), f(lk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::HAND_SET;

    /// Samples whose results are exactly σ(θ·x) for a known θ, over varied terms.
    fn synthetic(theta: &Logit, placing: bool) -> Vec<Sample> {
        let mut out = Vec::new();
        let mut state = 12345u64;
        for _ in 0..4000 {
            let mut x = [0; FEATURES];
            for v in x.iter_mut().take(6) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = ((state >> 33) % 7) as i32 - 3;
            }
            x[FEATURES - 1] = 1;
            out.push(Sample {
                features: x,
                placing,
                score: sigmoid(dot(theta, &x)),
            });
        }
        out
    }

    #[test]
    fn newton_recovers_known_log_odds() {
        let mut theta = [0.0; FEATURES];
        theta[..6].copy_from_slice(&[0.8, -0.32, 0.16, 0.0, -0.04, 0.4]);
        theta[FEATURES - 1] = 0.12;
        let samples = synthetic(&theta, false);
        let refs: Vec<&Sample> = samples.iter().collect();
        let fitted = fit_phase(&refs, 0.0);
        for i in 0..FEATURES {
            assert!(
                (fitted[i] - theta[i]).abs() < 1e-6,
                "{i}: {} vs {}",
                fitted[i],
                theta[i]
            );
        }
        // In centi-stones: material (term 0) is 100, the rest in proportion.
        let w = to_weights(&[fitted, fitted], 0).unwrap();
        assert_eq!(w.moving[..6], [100, -40, 20, 0, -5, 50]);
        assert_eq!(w.moving[FEATURES - 1], 15);
        // The fit beats any scale of other weights on its own samples; at the true scale
        // (0.8 per 100 centi-stones) it is optimal up to the rounding.
        let (k, fitted_loss) = best_scale(&samples, &w);
        assert!((k - 0.008).abs() < 1e-4, "{k}");
        let (_, hand_set_loss) = best_scale(&samples, &HAND_SET);
        assert!(fitted_loss < hand_set_loss);
    }

    #[test]
    fn a_ridge_shrinks_and_unused_terms_stay_zero() {
        let mut theta = [0.0; FEATURES];
        theta[0] = 1.0;
        let samples = synthetic(&theta, true);
        let refs: Vec<&Sample> = samples.iter().collect();
        let free = fit_phase(&refs, 0.0);
        let shrunk = fit_phase(&refs, 0.01);
        assert!(shrunk[0] < free[0] && shrunk[0] > 0.5);
        // Terms 6.. (but the tempo) are never set in the synthetic samples.
        assert!(shrunk[6..FEATURES - 1].iter().all(|&t| t == 0.0));
        // Without moving-phase samples the moving weights are zero: no scale.
        assert_eq!(to_weights(&fit(&samples, 0.01), 0), None);
    }
}
