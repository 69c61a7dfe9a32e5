// SPDX-License-Identifier: MIT
#include "rubble/boundaries/rim_contact.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace rubble::boundaries {
namespace {

// A polynomial c[0] + c[1] t + ... + c[degree] t^degree of degree <= 4.
struct Poly {
    std::array<double, 5> c{};
    int degree = 0;
    [[nodiscard]] double operator()(double t) const {
        double s = c[static_cast<std::size_t>(degree)];
        for (int k = degree - 1; k >= 0; --k)
            s = s * t + c[static_cast<std::size_t>(k)];
        return s;
    }
    [[nodiscard]] Poly derivative() const {
        Poly d;
        d.degree = std::max(degree - 1, 0);
        for (int k = 1; k <= degree; ++k)
            d.c[static_cast<std::size_t>(k - 1)] = k * c[static_cast<std::size_t>(k)];
        return d;
    }
};

// Up to 4 ascending times.
struct Roots {
    std::array<double, 4> t{};
    int n = 0;
    void add(double x) {
        if (n < 4) t[static_cast<std::size_t>(n++)] = x;
    }
};

// The root of f in (a, b] where f(a) and f(b) differ in sign (or f(b) = 0), by bisection to the
// last representable midpoint.
template <class F> double bisect(const F& f, double a, double b) {
    const bool rising = f(a) < 0.0;
    for (int it = 0; it < 200; ++it) {
        const double m = 0.5 * (a + b);
        if (!(m > a && m < b)) break;
        ((f(m) < 0.0) == rising ? a : b) = m;
    }
    return b;
}

// The times in (lo, hi) at which p changes sign, ascending: p is monotone between consecutive
// roots of p' (found the same way, one degree down), so each such piece holds at most one.
Roots sign_changes(const Poly& p, double lo, double hi) {
    Roots out;
    if (p.degree == 0) return out;
    Roots nodes;
    if (p.degree > 1) nodes = sign_changes(p.derivative(), lo, hi);
    double a = lo;
    for (int k = 0; k <= nodes.n; ++k) {
        const double b = k < nodes.n ? nodes.t[static_cast<std::size_t>(k)] : hi;
        const double fa = p(a), fb = p(b);
        if ((fa < 0.0) != (fb < 0.0) && fb != 0.0 && fa != 0.0)
            out.add(bisect(p, a, b));
        else if (fb == 0.0 && b < hi)
            out.add(b);
        a = b;
    }
    return out;
}

// The interval of t >= 0 where |x + v t|^2 <= s^2, or an empty one (lo > hi).
std::array<double, 2> ball_window(const Vec3& x, const Vec3& v, double s) {
    const double A = v.squaredNorm(), B = x.dot(v), C = x.squaredNorm() - s * s;
    const double D = B * B - A * C;
    if (!(A > 0.0) || !(D >= 0.0)) return {1.0, 0.0};
    const double root = std::sqrt(D);
    // Cancellation-free pair (predict.hpp): the product of the roots is C / A.
    const double t1 = B > 0.0 ? (-B - root) / A : C / (root - B);
    const double t2 = B > 0.0 ? C / (-B - root) : (root - B) / A;
    return {std::max(t1, 0.0), t2};
}

} // namespace

double distance_to_circle(const Vec3& x, const Vec3& a, double R) {
    const double z = x.dot(a);
    const double rho = (x - z * a).norm();
    return std::hypot(rho - R, z);
}

std::optional<double> predict_rim_contact(const Vec3& x, const Vec3& v, const Vec3& a, double R,
                                          double r) {
    // The torus lies in the ball |x| <= R + r and the slab |z| <= r: only that window is searched.
    auto [lo, hi] = ball_window(x, v, R + r);
    const double z0 = x.dot(a), vz = v.dot(a);
    if (vz != 0.0) {
        const double ta = (-r - z0) / vz, tb = (r - z0) / vz;
        lo = std::max(lo, std::min(ta, tb));
        hi = std::min(hi, std::max(ta, tb));
    } else if (std::abs(z0) > r) {
        return std::nullopt;
    }
    if (!(lo <= hi)) return std::nullopt;
    // With x' = x + v lo and tau = t - lo: |x'|^2 + R^2 - r^2 + (distance^2 - r^2) = 2 R rho,
    // squared: F(tau) = P(tau)^2 - 4 R^2 Q(tau), P = |x' + v tau|^2 + R^2 - r^2,
    // Q = |q' + w tau|^2 (q, w: the parts perpendicular to the axis). F has the sign of
    // distance^2 - r^2 wherever P + 2 R rho > 0 (always when R > r; else checked on the gap).
    const Vec3 xs = x + lo * v;
    const Vec3 q = xs - xs.dot(a) * a, w = v - vz * a;
    const double p0 = xs.squaredNorm() + R * R - r * r, p1 = 2.0 * xs.dot(v), p2 = v.squaredNorm();
    const double q0 = q.squaredNorm(), q1 = 2.0 * q.dot(w), q2 = w.squaredNorm();
    const double R4 = 4.0 * R * R;
    Poly F;
    F.degree = 4;
    F.c = {p0 * p0 - R4 * q0, 2.0 * p0 * p1 - R4 * q1, p1 * p1 + 2.0 * p0 * p2 - R4 * q2,
           2.0 * p1 * p2, p2 * p2};
    const auto gap = [&](double tau) { return distance_to_circle(xs + tau * v, a, R) - r; };
    const Roots crit = sign_changes(F.derivative(), 0.0, hi - lo);
    // The first node from which the gap falls through zero before the next node.
    double prev = 0.0;
    double g_prev = gap(0.0);
    if (!(g_prev > 0.0) && lo > 0.0) return lo; // entering the window touching (round-off)
    for (int k = 0; k <= crit.n; ++k) {
        const double node = k < crit.n ? crit.t[static_cast<std::size_t>(k)] : hi - lo;
        const double g = gap(node);
        if (g_prev > 0.0 && !(g > 0.0)) return lo + bisect(gap, prev, node);
        prev = node;
        g_prev = g;
    }
    return std::nullopt;
}

} // namespace rubble::boundaries
