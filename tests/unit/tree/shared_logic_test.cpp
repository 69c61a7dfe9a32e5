// SPDX-License-Identifier: MIT
// The host/device functions the CUDA tree shares with the CPU tree, checked on the CPU:
// moments shifted up the tree, and the opening test.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/tree/multipole_finish.hpp"
#include "rubble/tree/walk_criteria.hpp"

using namespace rubble;

namespace {

struct Group {
    std::vector<Vec3> pos;
    std::vector<double> mass;
};

Vec3 centre_of_mass(const Group& g) {
    Vec3 c = Vec3::Zero();
    double m = 0.0;
    for (std::size_t i = 0; i < g.pos.size(); ++i) {
        c += g.mass[i] * g.pos[i];
        m += g.mass[i];
    }
    return c / m;
}

tree::RawMoments raw_about(const Group& g, const Vec3& c) {
    tree::RawMoments r;
    for (std::size_t i = 0; i < g.pos.size(); ++i) {
        const Vec3 d = g.pos[i] - c;
        r.add<4>(g.mass[i], d.x(), d.y(), d.z());
    }
    return r;
}

} // namespace

// Three clusters of unequal mass and size: their moments shifted to the common centre of mass
// and summed equal the moments summed directly from the bodies, to round-off (relative to the
// largest moment of each order).
TEST(ShiftRawMoments, ChildrenShiftedToTheParentEqualTheDirectSum) {
    Rng rng(42);
    std::vector<Group> children(3);
    Group all;
    const Vec3 centres[3] = {Vec3(0, 0, 0), Vec3(3, -1, 2), Vec3(-2, 4, 1)};
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 50 + 30 * c; ++i) {
            const Vec3 p = centres[c] + (0.5 + c) * rng.in_ball(1.0);
            const double m = 0.1 + rng.uniform();
            children[static_cast<std::size_t>(c)].pos.push_back(p);
            children[static_cast<std::size_t>(c)].mass.push_back(m);
            all.pos.push_back(p);
            all.mass.push_back(m);
        }
    const Vec3 com = centre_of_mass(all);
    const tree::RawMoments direct = raw_about(all, com);
    for (int order = 2; order <= 4; ++order) {
        tree::RawMoments shifted;
        for (const Group& g : children) {
            const Vec3 cc = centre_of_mass(g);
            double m = 0.0;
            for (double mi : g.mass)
                m += mi;
            const Vec3 s = cc - com;
            tree::shift_raw_moments(raw_about(g, cc), m, s.x(), s.y(), s.z(), order, shifted);
        }
        for (int n = 2; n <= 4; ++n) {
            double scale = 0.0;
            for (int k = 0; k < tree::monomial_count(n); ++k)
                scale = std::max(scale, std::abs(direct.m[tree::weight_offset(n) + k]));
            for (int k = 0; k < tree::monomial_count(n); ++k) {
                const int i = tree::weight_offset(n) + k;
                if (n <= order)
                    EXPECT_NEAR(shifted.m[i], direct.m[i], 1e-13 * scale) << n << " " << k;
                else
                    EXPECT_EQ(shifted.m[i], 0.0) << "orders above `order` stay empty";
            }
        }
    }
}

TEST(WalkCriteria, BoxDistanceAndAcceptance) {
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
    const double inside[3] = {0.5, 1, 1}, corner[3] = {2, 4, 3}, face[3] = {0.5, -2, 1};
    EXPECT_EQ(tree::box_distance2(lo, hi, inside), 0.0);
    EXPECT_EQ(tree::box_distance2(lo, hi, corner), 1.0 + 4.0);
    EXPECT_EQ(tree::box_distance2(lo, hi, face), 4.0);
    // size / theta decides unless b_max is larger.
    EXPECT_EQ(tree::open_radius2(1.0, 0.5, 4.0), 4.0);
    EXPECT_EQ(tree::open_radius2(1.0, 3.0, 4.0), 9.0);
    // A node at distance 2 with open2 = 3.9 is accepted, with 4.1 not; never one holding the
    // bucket, however far its centre of mass.
    EXPECT_TRUE(tree::accepts_node(lo, hi, 10, 20, 30, 40, face, 3.9));
    EXPECT_FALSE(tree::accepts_node(lo, hi, 10, 20, 30, 40, face, 4.1));
    EXPECT_FALSE(tree::accepts_node(lo, hi, 10, 20, 0, 40, face, 0.1));
    // Nor a node inside the bucket (one of the group's own leaves) whose centre of mass has
    // rounded just outside the box: its bodies would attract themselves.
    EXPECT_FALSE(tree::accepts_node(lo, hi, 10, 20, 12, 13, face, 0.0));
    EXPECT_FALSE(tree::accepts_node(lo, hi, 10, 20, 10, 20, face, 0.0));
    EXPECT_TRUE(tree::accepts_node(lo, hi, 10, 20, 20, 21, face, 0.0));
}

// The float instantiation (the GPU's mixed precision) against the double one: each term is
// rounded to float (u = 2^-24), so the field agrees to a few tens of u.
TEST(MultipoleField, FloatEvaluationAgreesWithDoubleToSinglePrecision) {
    Rng rng(7);
    tree::Multipole mp;
    mp.mass = 2.0;
    for (double& w : mp.w)
        w = rng.uniform(-0.1, 0.1);
    float wf[tree::weight_count];
    for (int k = 0; k < tree::weight_count; ++k)
        wf[k] = static_cast<float>(mp.w[k]);
    for (int i = 0; i < 100; ++i) {
        const Vec3 r = (2.0 + 3.0 * rng.uniform()) * rng.unit_vector();
        double pd = 0, ad[3] = {0, 0, 0};
        float pf = 0, af[3] = {0, 0, 0};
        tree::multipole_field<4, double>(r.x(), r.y(), r.z(), mp.mass, mp.w, 1, pd, ad[0], ad[1],
                                         ad[2]);
        tree::multipole_field<4, float>(static_cast<float>(r.x()), static_cast<float>(r.y()),
                                        static_cast<float>(r.z()), 2.0f, wf, 1, pf, af[0], af[1],
                                        af[2]);
        const double a_norm = std::sqrt(ad[0] * ad[0] + ad[1] * ad[1] + ad[2] * ad[2]);
        EXPECT_NEAR(pf, pd, 64 * 0x1p-24 * std::abs(pd));
        for (int d = 0; d < 3; ++d)
            EXPECT_NEAR(af[d], ad[d], 64 * 0x1p-24 * a_norm);
    }
}
