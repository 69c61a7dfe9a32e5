// SPDX-License-Identifier: MIT
// The NSC stepper's state between steps (its warm starts, integrate/stepper.hpp StepperState):
// a stepper given another's saved state continues bitwise as that one does, whatever the order
// of the saved rows; one that starts afresh does not; and a state that does not fit is refused
// with what is wrong.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr double state_r_grain = 0.05; // m
constexpr int state_side = 3, state_layers = 2;
constexpr double state_spacing = 0.105; // m, between lattice points
constexpr double state_dt = 2e-3;       // s

polyhedra::NscConfig config() {
    polyhedra::NscConfig c;
    c.mu = 0.5;
    c.margin = 1e-3;
    c.walls = boundaries::box_walls(
        Vec3::Zero(), Vec3(state_side * state_spacing, state_side * state_spacing, 1.0),
        Vec3::Zero(), "box");
    // The solver caps this test was written with (the solver's defaults then; a run's,
    // collisions.solver_iterations and solver_passes, are 100 and 5): solves that converge, so
    // that a cold start (no warm starts) ends elsewhere than the warm-started run.
    c.solver.max_iterations = 1000;
    c.solver.coulomb_max_iterations = 50;
    return c;
}

// 18 random hulls on a lattice over a box's floor, thrown about, under g.
Bodies pile() {
    Bodies b;
    Rng rng(12);
    ic::GrainConfig grain;
    grain.kind = ic::GrainKind::hull;
    grain.aspect = Vec3(1.0, 0.7, 0.5);
    std::int64_t id = 0;
    for (int k = 0; k < state_layers; ++k)
        for (int j = 0; j < state_side; ++j)
            for (int i = 0; i < state_side; ++i) {
                const auto shape = b.add_hull_shape(
                    shapes::make_polyhedron(ic::make_grain_hull(grain, state_r_grain, rng)));
                const Vec3 x((i + 0.5) * state_spacing, (j + 0.5) * state_spacing,
                             (k + 0.5) * state_spacing);
                const Quat q(Eigen::AngleAxisd(rng.uniform(0.0, 3.0), rng.unit_vector()));
                add_polyhedron(b, id++, shape, 2500.0, x, 0.3 * rng.unit_vector(),
                               3.0 * rng.unit_vector(), q);
            }
    return b;
}

std::unique_ptr<integrate::Simulation> simulation(Bodies b, std::int64_t step) {
    auto sim = std::make_unique<integrate::Simulation>(
        std::move(b), std::make_unique<gravity::NoGravity>(), state_dt, 0.0, step);
    sim->set_uniform_field(Vec3(0, 0, -9.81));
    sim->set_stepper(std::make_unique<polyhedra::NscStepper>(config()));
    return sim;
}

bool same_bits(const Bodies& a, const Bodies& b) {
    if (a.pos != b.pos || a.vel != b.vel || a.spin != b.spin) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a.orientation[k].coeffs() != b.orientation[k].coeffs()) return false;
    return true;
}

// `s` with its rows in reverse order.
integrate::StepperState reversed(integrate::StepperState s) {
    for (integrate::StateArray& a : s.arrays) {
        const auto flip = [&](auto& v) {
            if (v.empty()) return; // the other type's values
            auto copy = v;
            for (std::size_t r = 0; r < s.rows; ++r)
                std::copy_n(copy.begin() + static_cast<std::ptrdiff_t>(r * a.width), a.width,
                            v.begin() + static_cast<std::ptrdiff_t>((s.rows - 1 - r) * a.width));
        };
        flip(a.ints);
        flip(a.reals);
    }
    return s;
}

std::string refusal(const integrate::StepperState& s) {
    polyhedra::NscStepper stepper(config());
    try {
        stepper.restore_state(s);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

TEST(NscState, ARestoredStepperContinuesBitwiseWhateverTheRowOrder) {
    constexpr int before = 40, after = 40;
    auto whole = simulation(pile(), 0);
    for (int s = 0; s < before; ++s)
        whole->step();
    const integrate::StepperState state = whole->stepper().save_state();
    ASSERT_EQ(state.stepper, "nsc");
    ASSERT_GT(state.rows, 20u); // grains on the floor and on one another
    // The rows are sorted by key, so the same warm starts give the same arrays.
    const auto& id = state.find("id")->ints;
    for (std::size_t r = 1; r < state.rows; ++r)
        ASSERT_LE(id[2 * (r - 1)], id[2 * r]);

    auto resumed = simulation(whole->bodies(), before);
    resumed->stepper().restore_state(reversed(state));
    const integrate::StepperState again = resumed->stepper().save_state();
    for (std::size_t k = 0; k < state.arrays.size(); ++k) {
        EXPECT_EQ(again.arrays[k].ints, state.arrays[k].ints) << state.arrays[k].name;
        EXPECT_EQ(again.arrays[k].reals, state.arrays[k].reals) << state.arrays[k].name;
    }
    auto cold = simulation(whole->bodies(), before);
    for (int s = 0; s < after; ++s) {
        whole->step();
        resumed->step();
        cold->step();
    }
    EXPECT_TRUE(same_bits(whole->bodies(), resumed->bodies()));
    // Without the warm starts the capped solver stops elsewhere: the state is what matters.
    EXPECT_FALSE(same_bits(whole->bodies(), cold->bodies()));
}

TEST(NscState, AStateThatDoesNotFitIsRefusedWithWhatIsWrong) {
    auto sim = simulation(pile(), 0);
    for (int s = 0; s < 30; ++s)
        sim->step();
    const integrate::StepperState good = sim->stepper().save_state();
    ASSERT_GT(good.rows, 2u);
    EXPECT_EQ(refusal(good), "(accepted)");
    EXPECT_EQ(refusal(integrate::StepperState{}), "no state of the 'nsc' stepper");

    auto other = good;
    other.stepper = "event-driven";
    EXPECT_NE(refusal(other).find("'event-driven' stepper"), std::string::npos);
    auto missing = good;
    missing.arrays.erase(missing.arrays.begin() + 2);
    EXPECT_NE(refusal(missing).find("no array 'impulse'"), std::string::npos);
    auto extra = good;
    extra.arrays.push_back({"age", 1, true, std::vector<std::int64_t>(good.rows), {}, "", ""});
    EXPECT_NE(refusal(extra).find("array 'age'"), std::string::npos);
    auto short_rows = good;
    short_rows.arrays[2].reals.pop_back();
    EXPECT_NE(refusal(short_rows).find("'impulse' is not"), std::string::npos);
    auto wide = good;
    wide.arrays[1].width = 2;
    EXPECT_NE(refusal(wide).find("'feature' is not"), std::string::npos);
    auto nan = good;
    nan.arrays[2].reals[4] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(refusal(nan).find("impulse row 1 is not finite"), std::string::npos);
    auto twice = good;
    for (auto* a : {&twice.arrays[0], &twice.arrays[1]})
        std::copy_n(a->ints.begin(), a->width,
                    a->ints.begin() + static_cast<std::ptrdiff_t>(a->width));
    EXPECT_NE(refusal(twice).find("row 1 repeats the key"), std::string::npos);
    // The default of a stepper that keeps nothing: only an empty state.
    integrate::PlainDrift drift;
    EXPECT_NO_THROW(drift.restore_state(integrate::StepperState{}));
    EXPECT_THROW(drift.restore_state(good), InputError);
}
