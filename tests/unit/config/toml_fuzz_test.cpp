// SPDX-License-Identifier: MIT
// Seeded mutations of real parameter files fed to the reader: every one must either parse or
// throw InputError; never crash, hang, or throw anything else (a table header nested 50,000
// deep overflowed the stack). Runs in the sanitizer build too, so it stays small: 2000 texts.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/core/error.hpp"

namespace {

constexpr int mutations = 2000;

std::vector<std::string> seed_texts() {
    std::vector<std::string> seeds = {
        "[integrator]\ndt = 10.0\nn_steps = 2\n[ic.cloud]\nn = 20\nshape = \"cube\"\n",
        "units.G = 1.0\n[ic]\ntype = 'two_body'\n[ic.two_body]\nm1 = 1e12 # primary\n",
        "x = [1, [2, {a = \"\"\"b\"\"\"}]]\n[[t]]\nk = 1979-05-27T07:32:00Z\n"};
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(RUBBLE_SOURCE_DIR) + "/params")) {
        if (entry.path().extension() != ".toml") continue;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        seeds.push_back(text.str());
    }
    return seeds;
}

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}

    std::string mutate(std::string s) {
        const int steps = 1 + static_cast<int>(below(8));
        for (int i = 0; i < steps; ++i)
            s = step(std::move(s));
        return s;
    }

private:
    std::size_t below(std::size_t n) { return n == 0 ? 0 : rng_() % n; }
    std::size_t position(const std::string& s) { return below(s.size() + 1); }

    std::string step(std::string s) {
        static const std::string structural = "[]{}\"'=.,#\\\n \t";
        switch (below(7)) {
        case 0: // flip a byte to any value, NUL and non-UTF-8 included
            if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
            break;
        case 1: // insert a character that TOML gives meaning to
            s.insert(position(s), 1, structural[below(structural.size())]);
            break;
        case 2: // deep nesting, now and then far beyond any limit
            s.insert(position(s), nesting());
            break;
        case 3: // truncate
            s.resize(position(s));
            break;
        case 4: { // duplicate a slice
            const std::size_t a = position(s), n = below(s.size() - a + 1);
            s.insert(position(s), s.substr(a, n));
            break;
        }
        case 5: { // delete a slice
            const std::size_t a = position(s);
            s.erase(a, below(s.size() - a + 1));
            break;
        }
        default: // a line that looks like a parameter
            s.insert(position(s), "\n[" + std::string(below(2) ? "ic.cloud" : "a.b.c") +
                                      "]\nn = " + std::to_string(rng_()) + "\n");
            break;
        }
        return s;
    }

    std::string nesting() {
        static const std::vector<std::string> units = {"[", "{a = ", "a.", "[[", "\"", "x = ["};
        const std::string& unit = units[below(units.size())];
        const std::size_t depth = below(10) == 0 ? 20000 : below(64);
        std::string out;
        for (std::size_t i = 0; i < depth; ++i)
            out += unit;
        return out;
    }

    std::mt19937_64 rng_;
};

// What a failure shows: enough of the text to reproduce it.
std::string excerpt(const std::string& s) {
    return s.size() <= 400 ? s : s.substr(0, 400) + "...";
}

} // namespace

TEST(TomlFuzz, EveryMutationParsesOrIsRefusedAsBadInput) {
    const std::vector<std::string> seeds = seed_texts();
    ASSERT_GE(seeds.size(), 4u);
    Mutator mutator(18);
    int refused = 0;
    for (int i = 0; i < mutations; ++i) {
        const std::string text = mutator.mutate(seeds[static_cast<std::size_t>(i) % seeds.size()]);
        try {
            const auto params = rubble::config::parse_parameters(text, "fuzz.toml");
            (void)rubble::config::make_run_config(params);
        } catch (const rubble::InputError&) {
            ++refused;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "mutation " << i << " threw " << e.what() << "\n" << excerpt(text);
        }
    }
    // Most mutations break the file; a fuzzer whose texts all parsed would test nothing.
    EXPECT_GT(refused, mutations / 2);
}
