//! Solving the symmetric positive definite systems of the training examples.

/// The solution `x` of `a x = b`, `a` an `n`×`n` symmetric positive definite matrix stored by
/// rows (overwritten by its Cholesky factor), `b` of length `n`. Pivots under 1e-12 are
/// taken as 1e-12, so a nearly singular system still gives an answer.
pub fn solve(a: &mut [f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    // a = L Lᵀ, L stored in the lower triangle.
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-12).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut z = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            z[i] -= a[i * n + k] * z[k];
        }
        z[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            z[i] -= a[k * n + i] * z[k];
        }
        z[i] /= a[i * n + i];
    }
    z
}
