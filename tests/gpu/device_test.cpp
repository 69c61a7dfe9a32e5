// SPDX-License-Identifier: MIT
// GPU tests skip cleanly where no GPU is present (CI, the development machines).
#include <gtest/gtest.h>

#include "rubble/gpu/device_info.hpp"
#include "rubble/version.hpp"

TEST(GpuDevice, ReportsTheDevicesItSees) {
    const auto report = rubble::gpu::query_devices();
    EXPECT_FALSE(report.description.empty());
    if (!rubble::build_cuda) GTEST_SKIP() << "built without CUDA: " << report.description;
    if (report.count == 0) GTEST_SKIP() << "no GPU: " << report.description;
    EXPECT_NE(report.description.find("sm_"), std::string::npos) << report.description;
}
