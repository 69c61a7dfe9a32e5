// SPDX-License-Identifier: MIT
#pragma once
// Cartesian multipoles of a group of point masses about its centre of mass, through the
// hexadecapole (order 4), and their potential and field at a distant point.
//
// Math: with raw moments M^(n) = sum_j m_j d_j^{(x)n} (d_j = x_j - com), the potential at r
// (relative to com) is phi = -G sum_n (-1)^n / n! M^(n) . grad^n (1/r) (Taylor expansion of
// 1/|r - d|). grad^n (1/r) is traceless, so only the traceless part Q^(n) of M^(n) matters, and
// for traceless Q: Q . grad^n (1/r) = (-1)^n (2n-1)!! Q . r^n / r^(2n+1) (e.g. Applequist 1989,
// J. Phys. A 22, 4303). Hence phi_n = -G S_n / r^(2n+1) with S_n = (2n-1)!!/n! Q^(n) . r^n, and
// a_n = -grad phi_n = G [grad S_n / r^(2n+1) - (2n+1) S_n r / r^(2n+3)]. The dipole vanishes
// about the centre of mass. Tensors are stored by monomial x^a y^b z^c (a+b+c = n), with the
// multinomial count and (2n-1)!!/n! folded in, so S_n = sum W_abc x^a y^b z^c.
#include <array>
#include <cmath>
#include <cstddef>

#include "rubble/core/hostdevice.hpp"

namespace rubble::tree {

inline constexpr int max_multipole_order = 4;

/// Number of monomials of degree n in 3 variables: (n+1)(n+2)/2.
constexpr int monomial_count(int n) {
    return (n + 1) * (n + 2) / 2;
}

/// Exponents (a, b, c) of the k-th monomial of degree n, in the order a = n..0, b = n-a..0.
struct Exponents {
    int a, b, c;
};
constexpr Exponents monomial(int n, int k) {
    for (int a = n; a >= 0; --a)
        for (int b = n - a; b >= 0; --b)
            if (k-- == 0) return {a, b, n - a - b};
    return {0, 0, 0};
}

/// Offsets of the order-n weights in Multipole::w: order 2 at 0 (6 values), 3 at 6 (10),
/// 4 at 16 (15); 31 in all.
constexpr int weight_offset(int n) {
    return n == 2 ? 0 : n == 3 ? 6 : 16;
}
inline constexpr int weight_count = 31;

/// Weighted traceless moments of orders 2..4, see the header comment.
struct Multipole {
    double mass = 0.0;               ///< kg
    double com[3] = {0.0, 0.0, 0.0}; ///< m
    double w[weight_count] = {};     ///< S_n = sum_k w[offset(n) + k] x^a y^b z^c
};

/// Raw moments M^(n)_abc = sum m x^a y^b z^c for n = 2..4 about the centre of mass.
struct RawMoments {
    double m[weight_count] = {}; ///< same layout as Multipole::w

    /// Adds a point mass `mass` at offset d from the centre of mass, to the moments of orders
    /// 2..MaxOrder (the others stay 0: a quadrupole tree need not pay for hexadecapoles).
    template <int MaxOrder = max_multipole_order>
    RUBBLE_HD inline void add(double mass, double dx, double dy, double dz);
};

namespace detail {
// m[offset(N) + K] += mass x^a y^b z^c for every monomial K of degree N, unrolled.
template <int N, int K = 0>
RUBBLE_HD RUBBLE_INLINE void add_moments(double* m, double mass, const double* px, const double* py,
                                         const double* pz) {
    if constexpr (K < monomial_count(N)) {
        constexpr Exponents e = monomial(N, K);
        m[weight_offset(N) + K] += mass * px[e.a] * py[e.b] * pz[e.c];
        add_moments<N, K + 1>(m, mass, px, py, pz);
    }
}
} // namespace detail

template <int MaxOrder>
RUBBLE_HD inline void RawMoments::add(double mass, double dx, double dy, double dz) {
    const double px[5] = {1, dx, dx * dx, dx * dx * dx, dx * dx * dx * dx};
    const double py[5] = {1, dy, dy * dy, dy * dy * dy, dy * dy * dy * dy};
    const double pz[5] = {1, dz, dz * dz, dz * dz * dz, dz * dz * dz * dz};
    if constexpr (MaxOrder >= 2) detail::add_moments<2>(m, mass, px, py, pz);
    if constexpr (MaxOrder >= 3) detail::add_moments<3>(m, mass, px, py, pz);
    if constexpr (MaxOrder >= 4) detail::add_moments<4>(m, mass, px, py, pz);
}

// finish_multipole (raw moments -> weighted traceless moments) and shift_raw_moments (moments
// about a child's centre of mass -> about its parent's) are in multipole_finish.hpp.

namespace detail {
// Adds monomial K of degree N (weight w[K * stride]) to the gradient of S_N; unrolled at
// compile time so the exponents are constants.
template <int N, int K = 0, class T>
RUBBLE_HD RUBBLE_INLINE void add_terms(const T* px, const T* py, const T* pz, const T* w,
                                       std::size_t stride, T& gx, T& gy, T& gz) {
    if constexpr (K < monomial_count(N)) {
        constexpr Exponents e = monomial(N, K);
        const T wk = w[static_cast<std::size_t>(K) * stride];
        if constexpr (e.a > 0) gx += (T(e.a) * wk) * px[e.a - 1] * py[e.b] * pz[e.c];
        if constexpr (e.b > 0) gy += (T(e.b) * wk) * px[e.a] * py[e.b - 1] * pz[e.c];
        if constexpr (e.c > 0) gz += (T(e.c) * wk) * px[e.a] * py[e.b] * pz[e.c - 1];
        add_terms<N, K + 1>(px, py, pz, w, stride, gx, gy, gz);
    }
}

// S_N itself follows from its gradient by Euler's theorem for homogeneous polynomials,
// r . grad S_N = N S_N, which saves summing the monomials a second time (a quarter of the
// quadrupole's operations).
template <int N, class T>
RUBBLE_HD RUBBLE_INLINE void add_order(const T* px, const T* py, const T* pz, const T* w,
                                       std::size_t stride, T inv_pow, T inv2, T rx, T ry, T rz,
                                       T& phi, T& ax, T& ay, T& az) {
    T gx = 0, gy = 0, gz = 0;
    add_terms<N>(px, py, pz, w + static_cast<std::size_t>(weight_offset(N)) * stride, stride, gx,
                 gy, gz);
    const T s = (rx * gx + ry * gy + rz * gz) * T(1.0 / N);
    phi -= s * inv_pow;
    const T radial = T(2 * N + 1) * s * inv_pow * inv2;
    ax += gx * inv_pow - radial * rx;
    ay += gy * inv_pow - radial * ry;
    az += gz * inv_pow - radial * rz;
}
} // namespace detail

/// Adds the potential (J/kg without G) and acceleration (m/s^2 without G) at offset r from the
/// centre of mass of a node of mass `mass` through multipole order Order (1: monopole,
/// 2: + quadrupole, 3: + octupole, 4: + hexadecapole). The 31 weights are read as
/// w[k * stride], so the same code serves one Multipole (stride 1) and columns of many
/// (stride = column length) in a vectorised loop over nodes.
///
/// With eps2 > 0 every order is Plummer-softened like the body-body interactions: the
/// expansion of the softened potential g = (r^2 + eps^2)^(-1/2) about the centre of mass.
/// g depends on r^2 only, so for a traceless symmetric Q^(n) every term of grad^n g carrying a
/// Kronecker delta vanishes and Q^(n) . grad^n g = 2^n g^(n)(r^2) Q^(n) . r^n
/// = (-1)^n (2n-1)!! Q^(n) . r^n / (r^2 + eps^2)^((2n+1)/2): the Newtonian formula with
/// r^2 -> r^2 + eps^2 in the radial factors (monopole M r / (r^2 + eps^2)^(3/2)). What this
/// leaves out are the traces of the raw moments, which the Newtonian expansion drops
/// (grad^n (1/r) is traceless) and which contribute at relative order eps^2 / r^2 to the
/// order-n term. Keeping the Newtonian 1/r^(2n+1) instead, as before, made the softened
/// hexadecapole tree 5x less accurate in the collapse validation (docs/tree.md).
///
/// T is double everywhere except the GPU tree's mixed-precision far field (float).
template <int Order, class T>
RUBBLE_HD RUBBLE_INLINE void multipole_field(T rx, T ry, T rz, T mass, const T* w,
                                             std::size_t stride, T& phi, T& ax, T& ay, T& az,
                                             T eps2 = 0) {
    const T r2 = rx * rx + ry * ry + rz * rz;
    const T inv = inverse_sqrt(r2 + eps2); // softened for every order, see above
    const T inv2 = inv * inv;
    phi -= mass * inv;
    const T f = mass * inv * inv2;
    ax -= f * rx;
    ay -= f * ry;
    az -= f * rz;
    if constexpr (Order >= 2) {
        const T px[5] = {1, rx, rx * rx, rx * rx * rx, rx * rx * rx * rx};
        const T py[5] = {1, ry, ry * ry, ry * ry * ry, ry * ry * ry * ry};
        const T pz[5] = {1, rz, rz * rz, rz * rz * rz, rz * rz * rz * rz};
        T inv_pow = inv2 * inv2 * inv; // r^-5
        detail::add_order<2>(px, py, pz, w, stride, inv_pow, inv2, rx, ry, rz, phi, ax, ay, az);
        if constexpr (Order >= 3) {
            inv_pow *= inv2;
            detail::add_order<3>(px, py, pz, w, stride, inv_pow, inv2, rx, ry, rz, phi, ax, ay, az);
        }
        if constexpr (Order >= 4) {
            inv_pow *= inv2;
            detail::add_order<4>(px, py, pz, w, stride, inv_pow, inv2, rx, ry, rz, phi, ax, ay, az);
        }
    }
}

} // namespace rubble::tree
