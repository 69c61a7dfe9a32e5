// SPDX-License-Identifier: MIT
#include "rubble/tree/multipole.hpp"

namespace rubble::tree {
namespace {

// Position of monomial x^a y^b z^c (a + b + c = n) in the order of monomial(n, k).
int monomial_index(int n, int a, int b) {
    int k = 0;
    for (int a2 = n; a2 > a; --a2)
        k += n - a2 + 1;
    return k + (n - a - b);
}

double factorial(int n) {
    return n <= 1 ? 1.0 : n * factorial(n - 1);
}

// Exponents of the monomial made by `count` axes (0 = x, 1 = y, 2 = z).
Exponents exponents_of(const int* axes, int count) {
    Exponents e{0, 0, 0};
    for (int i = 0; i < count; ++i)
        (axes[i] == 0 ? e.a : axes[i] == 1 ? e.b : e.c)++;
    return e;
}

// Once-traced raw moment of rank n - 2 at exponents e: sum_i M^(n)_(e + 2 e_i).
double trace1(const double* m, int n, const Exponents& e) {
    return m[monomial_index(n, e.a + 2, e.b)] + m[monomial_index(n, e.a, e.b + 2)] +
           m[monomial_index(n, e.a, e.b)];
}

// Traceless projection of the symmetric tensor with monomial components m (rank n <= 4):
// Q = M - 1/(2n-1) {delta T1} + 1/((2n-1)(2n-3)) {delta delta T2} (Applequist 1989, eq. 2.13
// specialised: coefficients 1/3 for n = 2; 1/5 for n = 3; 1/7 and 1/35 for n = 4), where
// {.} sums over the distinct placements of the deltas among the indices. Runs once per tree
// node, so it works on fixed arrays, no allocation.
void detrace(const double* m, int n, double* q) {
    for (int k = 0; k < monomial_count(n); ++k) {
        const Exponents e = monomial(n, k);
        int axes[4] = {0, 0, 0, 0};
        int count = 0;
        for (int i = 0; i < e.a; ++i)
            axes[count++] = 0;
        for (int i = 0; i < e.b; ++i)
            axes[count++] = 1;
        for (int i = 0; i < e.c; ++i)
            axes[count++] = 2;
        double value = m[k];
        const double c1 = 1.0 / (2 * n - 1);
        for (int p = 0; p < n; ++p)
            for (int r = p + 1; r < n; ++r) {
                if (axes[p] != axes[r]) continue;
                int rest[4];
                int rest_count = 0;
                for (int s = 0; s < n; ++s)
                    if (s != p && s != r) rest[rest_count++] = axes[s];
                value -= c1 * trace1(m, n, exponents_of(rest, rest_count));
            }
        if (n == 4) {
            // Twice traced: T2 = sum_ij M_iijj; the three pairings of four indices.
            const double t2 =
                trace1(m, 4, {2, 0, 0}) + trace1(m, 4, {0, 2, 0}) + trace1(m, 4, {0, 0, 2});
            const int* x = axes;
            const int pairings = (x[0] == x[1] && x[2] == x[3]) + (x[0] == x[2] && x[1] == x[3]) +
                                 (x[0] == x[3] && x[1] == x[2]);
            value += pairings * t2 / 35.0;
        }
        q[k] = value;
    }
}

void weigh(const double* q, int n, double* w) {
    double double_factorial = 1.0;
    for (int i = 2 * n - 1; i > 1; i -= 2)
        double_factorial *= i;
    for (int k = 0; k < monomial_count(n); ++k) {
        const Exponents e = monomial(n, k);
        const double multinomial =
            factorial(n) / (factorial(e.a) * factorial(e.b) * factorial(e.c));
        w[k] = double_factorial / factorial(n) * multinomial * q[k];
    }
}

} // namespace

void finish_multipole(const RawMoments& raw, Multipole& out) {
    for (int n = 2; n <= max_multipole_order; ++n) {
        double q[15];
        detrace(raw.m + weight_offset(n), n, q);
        weigh(q, n, out.w + weight_offset(n));
    }
}

} // namespace rubble::tree
