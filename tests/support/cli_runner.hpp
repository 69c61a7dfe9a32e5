// SPDX-License-Identifier: MIT
#pragma once
// Runs the rubble command line in-process and captures its exit code and output.
#include <sstream>
#include <string>
#include <vector>

#include "rubble/cli/cli.hpp"

namespace rubble::test {

struct CliResult {
    int code = -1;
    std::string out, err;
};

inline CliResult run_rubble(std::vector<std::string> args) {
    args.insert(args.begin(), "rubble");
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream out, err;
    CliResult r;
    r.code = cli::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace rubble::test
