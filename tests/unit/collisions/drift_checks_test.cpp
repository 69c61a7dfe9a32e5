// SPDX-License-Identifier: MIT
// The invariant checks of the event-driven drift (collisions/drift_checks.hpp): each one fed a
// violation by hand, which must be named (bodies, time, numbers) when RUBBLE_DEBUG_CHECKS is on
// (the debug-sanitize preset) and must cost nothing, not even its arguments, when it is off.
#include <string>

#include <gtest/gtest.h>

#include "rubble/collisions/drift_checks.hpp"
#include "rubble/core/debug_checks.hpp"

using namespace rubble;
using namespace rubble::collisions;

namespace {

// Expects `f` to throw InvariantError whose message contains every one of `parts`.
template <class F> void expect_named_failure(F&& f, std::initializer_list<std::string> parts) {
    try {
        f();
        ADD_FAILURE() << "no InvariantError";
    } catch (const InvariantError& e) {
        const std::string what = e.what();
        for (const std::string& p : parts)
            EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
    }
}

#define SKIP_WITHOUT_CHECKS()                                                                      \
    do {                                                                                           \
        if constexpr (!debug_checks) GTEST_SKIP() << "RUBBLE_DEBUG_CHECKS is off";                 \
    } while (false)

constexpr double tol = 1e-8; // collisions.overlap_tolerance's default

} // namespace

TEST(DebugChecks, CompiledInOnlyWithTheOption) {
    int evaluated = 0;
    const auto condition = [&] {
        ++evaluated;
        return false;
    };
#ifdef RUBBLE_DEBUG_CHECKS
    static_assert(debug_checks);
    EXPECT_THROW(RUBBLE_CHECK(condition(), "deliberate"), InvariantError);
    EXPECT_EQ(evaluated, 1);
#else
    static_assert(!debug_checks);
    RUBBLE_CHECK(condition(), std::to_string(++evaluated)); // neither operand evaluated
    EXPECT_EQ(evaluated, 0);
#endif
}

TEST(DriftChecks, OverlappingPairIsNamed) {
    SKIP_WITHOUT_CHECKS();
    // Radii 1 + 1 at 1.5 m apart: 0.5 m deep, far beyond 1e-8 x 2 m.
    const checks::SphereAt a{7, Vec3(0, 0, 0), 1.0}, b{9, Vec3(1.5, 0, 0), 1.0};
    expect_named_failure([&] { checks::pair_clear(a, b, tol, 12.5); },
                         {"bodies 7 and 9", "overlap by 0.5 m", "t = 12.5 s", "2e-08 m"});
}

TEST(DriftChecks, PairTouchingWithinToleranceIsClear) {
    // Round-off at contact (depth 1e-12 of R1 + R2) is within the tolerance: no failure.
    const checks::SphereAt a{7, Vec3(0, 0, 0), 1.0}, b{9, Vec3(2.0 - 2e-12, 0, 0), 1.0};
    EXPECT_NO_THROW(checks::pair_clear(a, b, tol, 0.0));
}

TEST(DriftChecks, SphereThroughAWallIsNamed) {
    SKIP_WITHOUT_CHECKS();
    boundaries::Wall floor; // the plane z = 0, bodies above
    floor.name = "walls[0]";
    const checks::SphereAt s{4, Vec3(0, 0, 0.75), 1.0}; // 0.25 m into the floor
    expect_named_failure([&] { checks::wall_clear(s, floor, 0, Vec3::Zero(), tol, 3.0); },
                         {"body 4", "wall 0 (walls[0])", "by 0.25 m", "t = 3 s"});
}

TEST(DriftChecks, ContactBeforeTheResolvedEventIsNamed) {
    SKIP_WITHOUT_CHECKS();
    expect_named_failure([] { checks::no_earlier_contact(5, 8, 2.0, 1.5); },
                         {"body 5", "t = 2 s", "body 8", "t = 1.5 s"});
    expect_named_failure([] { checks::no_earlier_contact(5, -3, 2.0, 1.5); }, {"wall 2"});
    EXPECT_NO_THROW(checks::no_earlier_contact(5, 8, 2.0, 2.0)); // simultaneous: fine
}

TEST(DriftChecks, BodyOutsideThePeriodicBoxIsNamed) {
    SKIP_WITHOUT_CHECKS();
    Bodies b;
    b.add_sphere(0, 1.0, 0.1, Vec3(0, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(11, 1.0, 0.1, Vec3(0, 5.0, 0), Vec3::Zero(), Vec3::Zero()); // L/2 = 5: outside
    EXPECT_NO_THROW(checks::inside_box(b, 0.0, 1.0));                        // open: no box
    expect_named_failure([&] { checks::inside_box(b, 10.0, 1.0); },
                         {"body 11", "coordinate 1 = 5 m", "t = 1 s", "L = 10 m"});
}

TEST(DriftChecks, DuplicateIdIsNamed) {
    SKIP_WITHOUT_CHECKS();
    Bodies b;
    b.add_sphere(3, 1.0, 0.1, Vec3(0, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(4, 1.0, 0.1, Vec3(1, 0, 0), Vec3::Zero(), Vec3::Zero());
    EXPECT_NO_THROW(checks::ids_consistent(b, 2.0));
    b.id[1] = 3; // corrupted
    expect_named_failure([&] { checks::ids_consistent(b, 2.0); },
                         {"two bodies with id 3", "t = 2 s"});
}
