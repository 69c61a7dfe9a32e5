// SPDX-License-Identifier: MIT
// The bucketed event queue pops exactly what one heap of all events would, in the same order,
// whatever the mix of pushes and pops (the drift's sequence of collisions depends on it).
#include <gtest/gtest.h>

#include <cstdint>

#include "rubble/collisions/event_queue.hpp"
#include "rubble/core/random.hpp"

namespace rubble::collisions {
namespace {

TEST(EventQueue, PopsInTheOrderOfOneHeapOfAllEvents) {
    const double h = 2.0;
    for (const std::size_t expected : {1, 100, 5000}) {
        EventQueue queue;
        queue.reset(h, expected, 16);
        EventHeap reference;
        Rng rng(expected);
        // Times drawn from a few values too, so that ties (broken by pair and image) and times
        // on stretch boundaries occur; events are never earlier than the last one popped, as
        // in the drift.
        double now = 0.0;
        const auto event = [&]() {
            double t = now + (h - now) * rng.uniform();
            if (rng.uniform() < 0.3) t = std::max(now, 0.125 * std::floor(8.0 * t));
            const auto i = static_cast<std::int32_t>(50.0 * rng.uniform());
            return CollisionEvent{t, i, i + 1 + static_cast<std::int32_t>(3.0 * rng.uniform()),
                                  0, 0, static_cast<std::int8_t>(27.0 * rng.uniform())};
        };
        for (int k = 0; k < 3000; ++k) {
            const CollisionEvent e = event();
            queue.push(e);
            reference.push(e);
        }
        std::size_t popped = 0;
        while (!queue.empty()) {
            ASSERT_FALSE(reference.empty());
            const CollisionEvent a = queue.top(), b = reference.top();
            ASSERT_EQ(a.time, b.time) << "pop " << popped;
            ASSERT_EQ(a.i, b.i);
            ASSERT_EQ(a.j, b.j);
            ASSERT_EQ(a.image, b.image);
            queue.pop();
            reference.pop();
            ++popped;
            now = a.time;
            if (popped < 6000 &&
                rng.uniform() < 0.6) { // pushes while popping, as re-prediction does
                const CollisionEvent e = event();
                queue.push(e);
                reference.push(e);
            }
        }
        EXPECT_TRUE(reference.empty());
        EXPECT_GT(popped, 3000u);
    }
}

} // namespace
} // namespace rubble::collisions
