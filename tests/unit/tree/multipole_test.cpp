// SPDX-License-Identifier: MIT
// The multipole expansion converges at the rate its order predicts, and Morton keys
// interleave bits as documented.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/tree/morton.hpp"
#include "rubble/tree/multipole_finish.hpp"

using namespace rubble;

namespace {

// Field of one Multipole of runtime order at offset r: adds to phi and acc (without G).
void evaluate_multipole(const tree::Multipole& m, int order, double rx, double ry, double rz,
                        double& phi, double acc[3]) {
    switch (order) {
    case 1:
        tree::multipole_field<1>(rx, ry, rz, m.mass, m.w, 1, phi, acc[0], acc[1], acc[2]);
        break;
    case 2:
        tree::multipole_field<2>(rx, ry, rz, m.mass, m.w, 1, phi, acc[0], acc[1], acc[2]);
        break;
    case 3:
        tree::multipole_field<3>(rx, ry, rz, m.mass, m.w, 1, phi, acc[0], acc[1], acc[2]);
        break;
    default:
        tree::multipole_field<4>(rx, ry, rz, m.mass, m.w, 1, phi, acc[0], acc[1], acc[2]);
        break;
    }
}

struct Cluster {
    std::vector<Vec3> pos;
    std::vector<double> mass;
    tree::Multipole mp;
};

// Random masses in a ball of radius 1 about (0.3, -0.2, 0.1), summarised about their com.
Cluster make_cluster(std::uint64_t seed) {
    Rng rng(seed);
    Cluster c;
    Vec3 com = Vec3::Zero();
    double m = 0.0;
    for (int i = 0; i < 40; ++i) {
        c.pos.push_back(Vec3(0.3, -0.2, 0.1) + rng.in_ball(1.0));
        c.mass.push_back(rng.uniform(0.5, 2.0));
        com += c.mass.back() * c.pos.back();
        m += c.mass.back();
    }
    com /= m;
    tree::RawMoments raw;
    for (std::size_t i = 0; i < c.pos.size(); ++i) {
        const Vec3 d = c.pos[i] - com;
        raw.add(c.mass[i], d.x(), d.y(), d.z());
    }
    c.mp.mass = m;
    for (int k = 0; k < 3; ++k)
        c.mp.com[k] = com[k];
    tree::finish_multipole(raw, c.mp);
    return c;
}

// Relative error of the order-p field at point r (direct sum as reference, G = 1).
double field_error(const Cluster& c, int order, const Vec3& r) {
    Vec3 exact = Vec3::Zero();
    for (std::size_t i = 0; i < c.pos.size(); ++i) {
        const Vec3 d = c.pos[i] - r;
        exact += c.mass[i] / std::pow(d.norm(), 3) * d;
    }
    double phi = 0.0, acc[3] = {0, 0, 0};
    const Vec3 rel = r - Vec3(c.mp.com[0], c.mp.com[1], c.mp.com[2]);
    evaluate_multipole(c.mp, order, rel.x(), rel.y(), rel.z(), phi, acc);
    return (Vec3(acc[0], acc[1], acc[2]) - exact).norm() / exact.norm();
}

} // namespace

TEST(Multipole, ErrorFallsAsSizeOverDistanceToTheOrderPlusOne) {
    // The order-p field error is the first omitted term, ~ (s/d)^(p+1) relative to the
    // monopole, so doubling d divides it by 2^(p+1). A window of a factor 1.6 either way
    // allows for the next term at d/s = 8.
    const Cluster c = make_cluster(3);
    Rng rng(9);
    for (int trial = 0; trial < 5; ++trial) {
        const Vec3 dir = rng.unit_vector();
        for (int order = 1; order <= tree::max_multipole_order; ++order) {
            const double near = field_error(c, order, 8.0 * dir);
            const double far = field_error(c, order, 16.0 * dir);
            const double expected = std::pow(2.0, order + 1);
            EXPECT_GT(near / far, expected / 1.6) << "order " << order;
            EXPECT_LT(near / far, expected * 1.6) << "order " << order;
        }
    }
}

TEST(Multipole, HigherOrdersAreMoreAccurate) {
    const Cluster c = make_cluster(5);
    const Vec3 r(3.0, 2.0, -2.5);
    double previous = 1.0;
    for (int order = 1; order <= tree::max_multipole_order; ++order) {
        const double e = field_error(c, order, r);
        EXPECT_LT(e, previous) << "order " << order;
        previous = e;
    }
    // Hexadecapole at d/s ~ 4.7: (1/4.7)^5 ~ 4e-4 of the monopole field.
    EXPECT_LT(previous, 1e-3);
}

TEST(Multipole, WeightsAreTraceless) {
    // grad^n (1/r) is harmonic, so only traceless moments may enter: six equal masses on the
    // axes (an octahedron) have no quadrupole or octupole; their first moment is the
    // hexadecapole.
    tree::RawMoments raw;
    for (int axis = 0; axis < 3; ++axis)
        for (double s : {-1.0, 1.0}) {
            double d[3] = {0, 0, 0};
            d[axis] = s;
            raw.add(1.0, d[0], d[1], d[2]);
        }
    tree::Multipole mp;
    tree::finish_multipole(raw, mp);
    for (int k = 0; k < tree::weight_offset(4); ++k)
        EXPECT_NEAR(mp.w[k], 0.0, 1e-15) << k;
}

TEST(Morton, InterleavesBitsWithXHighest) {
    Rng rng(1);
    for (int trial = 0; trial < 100; ++trial) {
        const auto ix = static_cast<std::uint32_t>(rng.uniform() * 2097152.0);
        const auto iy = static_cast<std::uint32_t>(rng.uniform() * 2097152.0);
        const auto iz = static_cast<std::uint32_t>(rng.uniform() * 2097152.0);
        std::uint64_t naive = 0;
        for (int b = 0; b < 21; ++b) {
            naive |= static_cast<std::uint64_t>((ix >> b) & 1u) << (3 * b + 2);
            naive |= static_cast<std::uint64_t>((iy >> b) & 1u) << (3 * b + 1);
            naive |= static_cast<std::uint64_t>((iz >> b) & 1u) << (3 * b);
        }
        ASSERT_EQ(tree::morton_key(ix, iy, iz), naive);
        EXPECT_EQ(tree::octant(naive, 0),
                  static_cast<int>(((ix >> 20) << 2) | ((iy >> 20) << 1) | (iz >> 20)));
    }
}

TEST(Multipole, SoftenedExpansionIsExactForTheTracelessMoments) {
    // Plummer-softened potential g = (r^2 + eps^2)^(-1/2) (multipole.hpp): the traceless part
    // of each moment contributes exactly the Newtonian term with r^2 -> r^2 + eps^2; the traces
    // the expansion drops add, at quadrupole order, phi_tr = (eps^2 / 2) tr M g^5 (from
    // M_ij d_ij g = 3 Q.rr g^5 - eps^2 tr M g^5), field a_tr = (5/2) eps^2 tr M r g^7. So the
    // expansion misses the softened direct sum by about a_tr, and adding a_tr leaves only the
    // octupole-order traces, smaller by about size / distance.
    const Cluster c = make_cluster(7);
    const Vec3 com(c.mp.com[0], c.mp.com[1], c.mp.com[2]);
    double trace = 0.0;
    for (std::size_t i = 0; i < c.pos.size(); ++i)
        trace += c.mass[i] * (c.pos[i] - com).squaredNorm();
    Rng rng(11);
    for (int trial = 0; trial < 5; ++trial) {
        const Vec3 rel = 8.0 * rng.unit_vector();
        for (const double eps : {1.0, 3.0, 8.0}) {
            const double eps2 = eps * eps;
            Vec3 exact = Vec3::Zero();
            for (std::size_t i = 0; i < c.pos.size(); ++i) {
                const Vec3 d = c.pos[i] - (com + rel);
                exact += c.mass[i] / std::pow(d.squaredNorm() + eps2, 1.5) * d;
            }
            double phi = 0.0, acc[3] = {0, 0, 0};
            tree::multipole_field<4>(rel.x(), rel.y(), rel.z(), c.mp.mass, c.mp.w, 1, phi, acc[0],
                                     acc[1], acc[2], eps2);
            const Vec3 a(acc[0], acc[1], acc[2]);
            const double g = 1.0 / std::sqrt(rel.squaredNorm() + eps2);
            const Vec3 a_trace = 2.5 * eps2 * trace * std::pow(g, 7) * rel;
            const double missed = (a - exact).norm() / exact.norm();
            const double with_trace = (a + a_trace - exact).norm() / exact.norm();
            const double predicted = a_trace.norm() / exact.norm();
            EXPECT_NEAR(missed, predicted, 0.25 * predicted) << "eps " << eps;
            EXPECT_LT(with_trace, 0.25 * missed) << "eps " << eps;
        }
    }
}
