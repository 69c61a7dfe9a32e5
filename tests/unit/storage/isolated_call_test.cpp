// SPDX-License-Identifier: MIT
// run_isolated (include/rubble/storage/isolated_call.hpp): what a function does in its child
// process is reported, and nothing it does reaches this process.
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

#include <gtest/gtest.h>

#include "rubble/storage/isolated_call.hpp"

using rubble::storage::run_isolated;
using namespace std::chrono_literals;

TEST(IsolatedCall, AReturnOrAnExceptionIsClean) {
    const auto returned = run_isolated([] {}, 60s);
    EXPECT_TRUE(returned.ran && returned.clean);
    EXPECT_EQ(returned.describe(), "");
    const auto threw = run_isolated([] { throw std::runtime_error("refused"); }, 60s);
    EXPECT_TRUE(threw.ran && threw.clean);
}

TEST(IsolatedCall, ACrashIsReportedWithItsSignalAndThisProcessGoesOn) {
    const auto crashed = run_isolated([] { std::abort(); }, 60s);
    ASSERT_TRUE(crashed.ran);
    EXPECT_FALSE(crashed.clean);
    EXPECT_EQ(crashed.signal, SIGABRT);
    EXPECT_EQ(crashed.describe(), "crashed (signal " + std::to_string(SIGABRT) + ")");
}

TEST(IsolatedCall, AnExitStatusIsReported) {
    const auto exited = run_isolated([] { ::_exit(3); }, 60s);
    ASSERT_TRUE(exited.ran);
    EXPECT_FALSE(exited.clean);
    EXPECT_EQ(exited.exit_code, 3);
    EXPECT_EQ(exited.describe(), "exited with status 3");
}

TEST(IsolatedCall, AHangIsKilledAtTheLimit) {
    const auto start = std::chrono::steady_clock::now();
    const auto hung = run_isolated(
        [] {
            for (;;)
                ::pause();
        },
        1s);
    EXPECT_TRUE(hung.ran && hung.timed_out && !hung.clean);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 1s);
    EXPECT_EQ(hung.describe(), "took longer than its time limit");
}

TEST(IsolatedCall, TheChildsMemoryIsItsOwn) {
    int value = 1;
    const auto changed = run_isolated([&] { value = 2; }, 60s);
    EXPECT_TRUE(changed.clean);
    EXPECT_EQ(value, 1);
}
