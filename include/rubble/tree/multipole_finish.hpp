// SPDX-License-Identifier: MIT
#pragma once
// Raw moments to the weighted traceless moments the field evaluation reads, and the shift of
// raw moments from a child's centre of mass to its parent's (the GPU tree's bottom-up pass).
// Host and device code (RUBBLE_HD): the CPU tree, the CUDA tree and the CPU unit tests run the
// same functions. They run once per tree node, so they work on fixed arrays, no allocation.
#include "rubble/core/hostdevice.hpp"
#include "rubble/tree/multipole.hpp"

namespace rubble::tree {
namespace detail {

// Position of monomial x^a y^b z^c (a + b + c = n) in the order of monomial(n, k).
RUBBLE_HD inline int monomial_index(int n, int a, int b) {
    int k = 0;
    for (int a2 = n; a2 > a; --a2)
        k += n - a2 + 1;
    return k + (n - a - b);
}

// Exponents of the k-th monomial of degree n (the run-time twin of monomial()).
RUBBLE_HD inline void monomial_exponents(int n, int k, int& a, int& b, int& c) {
    for (a = n; a >= 0; --a)
        for (b = n - a; b >= 0; --b)
            if (k-- == 0) {
                c = n - a - b;
                return;
            }
    a = b = c = 0;
}

RUBBLE_HD inline double factorial(int n) {
    double f = 1.0;
    for (int i = 2; i <= n; ++i)
        f *= i;
    return f;
}

RUBBLE_HD inline double binomial(int n, int k) {
    return factorial(n) / (factorial(k) * factorial(n - k));
}

// Once-traced raw moment of rank n - 2 at exponents (a, b, c): sum_i M^(n)_(e + 2 e_i).
RUBBLE_HD inline double trace1(const double* m, int n, int a, int b) {
    return m[monomial_index(n, a + 2, b)] + m[monomial_index(n, a, b + 2)] +
           m[monomial_index(n, a, b)];
}

// Traceless projection of the symmetric tensor with monomial components m (rank n <= 4):
// Q = M - 1/(2n-1) {delta T1} + 1/((2n-1)(2n-3)) {delta delta T2} (Applequist 1989, J. Phys.
// A 22, 4303, eq. 2.13 specialised: coefficients 1/3 for n = 2; 1/5 for n = 3; 1/7 and 1/35
// for n = 4), where {.} sums over the distinct placements of the deltas among the indices.
RUBBLE_HD inline void detrace(const double* m, int n, double* q) {
    for (int k = 0; k < monomial_count(n); ++k) {
        int ea = 0, eb = 0, ec = 0;
        monomial_exponents(n, k, ea, eb, ec);
        int axes[4] = {0, 0, 0, 0};
        int count = 0;
        for (int i = 0; i < ea; ++i)
            axes[count++] = 0;
        for (int i = 0; i < eb; ++i)
            axes[count++] = 1;
        for (int i = 0; i < ec; ++i)
            axes[count++] = 2;
        double value = m[k];
        const double c1 = 1.0 / (2 * n - 1);
        for (int p = 0; p < n; ++p)
            for (int r = p + 1; r < n; ++r) {
                if (axes[p] != axes[r]) continue;
                int ra = 0, rb = 0; // exponents of the remaining n - 2 axes (z implied)
                for (int s = 0; s < n; ++s)
                    if (s != p && s != r) {
                        ra += axes[s] == 0;
                        rb += axes[s] == 1;
                    }
                value -= c1 * trace1(m, n, ra, rb);
            }
        if (n == 4) {
            // Twice traced: T2 = sum_ij M_iijj; the three pairings of four indices.
            const double t2 = trace1(m, 4, 2, 0) + trace1(m, 4, 0, 2) + trace1(m, 4, 0, 0);
            const int* x = axes;
            const int pairings = (x[0] == x[1] && x[2] == x[3]) + (x[0] == x[2] && x[1] == x[3]) +
                                 (x[0] == x[3] && x[1] == x[2]);
            value += pairings * t2 / 35.0;
        }
        q[k] = value;
    }
}

// w = (2n-1)!!/n! times the multinomial count times Q (see multipole.hpp's header comment).
RUBBLE_HD inline void weigh(const double* q, int n, double* w) {
    double double_factorial = 1.0;
    for (int i = 2 * n - 1; i > 1; i -= 2)
        double_factorial *= i;
    for (int k = 0; k < monomial_count(n); ++k) {
        int a = 0, b = 0, c = 0;
        monomial_exponents(n, k, a, b, c);
        const double multinomial = factorial(n) / (factorial(a) * factorial(b) * factorial(c));
        w[k] = double_factorial / factorial(n) * multinomial * q[k];
    }
}

} // namespace detail

/// Turns raw moments into the weighted traceless moments of `out` (orders 2..4).
RUBBLE_HD inline void finish_multipole(const RawMoments& raw, Multipole& out) {
    for (int n = 2; n <= max_multipole_order; ++n) {
        double q[15];
        detail::detrace(raw.m + weight_offset(n), n, q);
        detail::weigh(q, n, out.w + weight_offset(n));
    }
}

/// Adds to `parent` (raw moments about the parent's centre of mass, orders 2..order) the
/// moments of a child of mass `mass` with raw moments `child` about its own centre of mass,
/// which lies at offset s from the parent's. With d = d' + s for each body,
/// sum m (x'+sx)^a (y'+sy)^b (z'+sz)^c = sum_{a'b'c'} C(a,a') C(b,b') C(c,c')
/// sx^(a-a') sy^(b-b') sz^(c-c') M'_{a'b'c'}, where M'_000 = mass and the child's dipole
/// M'_1 vanishes about its centre of mass (the parallel-axis theorem generalised; e.g.
/// Dehnen 2002, J. Comput. Phys. 179, 27, sec. 2.2, the M2M translation of raw moments).
RUBBLE_HD inline void shift_raw_moments(const RawMoments& child, double mass, double sx, double sy,
                                        double sz, int order, RawMoments& parent) {
    double px[5] = {1, sx, sx * sx, sx * sx * sx, sx * sx * sx * sx};
    double py[5] = {1, sy, sy * sy, sy * sy * sy, sy * sy * sy * sy};
    double pz[5] = {1, sz, sz * sz, sz * sz * sz, sz * sz * sz * sz};
    for (int n = 2; n <= order; ++n) {
        for (int k = 0; k < monomial_count(n); ++k) {
            int a = 0, b = 0, c = 0;
            detail::monomial_exponents(n, k, a, b, c);
            double sum = 0.0;
            for (int a1 = 0; a1 <= a; ++a1)
                for (int b1 = 0; b1 <= b; ++b1)
                    for (int c1 = 0; c1 <= c; ++c1) {
                        const int n1 = a1 + b1 + c1;
                        if (n1 == 1) continue; // dipole about the child's centre of mass: 0
                        const double moment =
                            n1 == 0
                                ? mass
                                : child.m[weight_offset(n1) + detail::monomial_index(n1, a1, b1)];
                        sum += detail::binomial(a, a1) * detail::binomial(b, b1) *
                               detail::binomial(c, c1) * px[a - a1] * py[b - b1] * pz[c - c1] *
                               moment;
                    }
            parent.m[weight_offset(n) + k] += sum;
        }
    }
}

} // namespace rubble::tree
