// SPDX-License-Identifier: MIT
// A seeded fuzz test of the HDF5 readers (what --resume and ic.file read): a real run's output
// damaged in many ways (bytes overwritten, zeroed, moved, the file cut short) must be read or
// refused with InputError / IoError, never crash, hang, or fail with anything else.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;

namespace {

std::string fuzz_bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// One random damage of `file`.
std::string damaged(std::string file, std::mt19937_64& random) {
    auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
    };
    switch (pick(5)) {
    case 0: // a few random bytes
        for (std::size_t k = 0, n = 1 + pick(8); k < n; ++k)
            file[pick(file.size())] = static_cast<char>(pick(256));
        break;
    case 1: { // a zeroed block
        const std::size_t at = pick(file.size()),
                          n = std::min<std::size_t>(1 + pick(256), file.size() - at);
        std::fill_n(file.begin() + static_cast<std::ptrdiff_t>(at), n, '\0');
        break;
    }
    case 2: { // a block copied over another (a misplaced write)
        const std::size_t from = pick(file.size()), to = pick(file.size());
        const std::size_t n =
            std::min({std::size_t{1} + pick(512), file.size() - from, file.size() - to});
        file.replace(to, n, file.substr(from, n));
        break;
    }
    case 3: // cut short (a full disk without the undo journal)
        file.resize(pick(file.size()));
        break;
    default: // one bit flipped
        file[pick(file.size())] ^= static_cast<char>(1 << pick(8));
        break;
    }
    return file;
}

// Every reader of rubble's output; each may refuse the file, only with rubble's own errors.
void read_everything(const std::string& path) {
    const auto read = [&](auto&& reader) {
        try {
            reader();
        } catch (const rubble::InputError&) {
        } catch (const rubble::IoError&) {
        }
    };
    read([&] { (void)rubble::runfile::snapshot_count(path); });
    read([&] { (void)rubble::runfile::read_snapshot(path, -1); });
    read([&] { (void)rubble::runfile::read_snapshot(path, 0); });
    read([&] { (void)rubble::runfile::read_diagnostics(path); });
    read([&] { (void)rubble::runfile::read_collision_log(path); });
    read([&] { (void)rubble::runfile::read_parameters_toml(path); });
    read([&] { (void)rubble::runfile::is_complete(path); });
    read([&] { (void)rubble::runfile::read_start_time(path); });
}

} // namespace

TEST(Hdf5ReaderFuzz, DamagedOutputsAreReadOrRefusedNeverCrash) {
    rubble::test::TempDir dir;
    const std::string run = dir.file("run.h5");
    const auto r = run_rubble(
        {"run",
         dir.write("gas.toml",
                   "[integrator]\ndt = 0.05\nn_steps = 8\n[gravity]\nbackend = \"none\"\n"
                   "[collisions]\nenabled = true\nperiodic_box = 5.0\n[output]\nfile = \"" +
                       run +
                       "\"\nsnapshot_interval = 0.2\ndiagnostics_interval = 0.1\n"
                       "collision_log = true\n[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 4\n"
                       "ny = 4\nnz = 4\nspacing = 1.0\nradius = 0.4\n[ic.motion]\nv0 = 1.0\n"),
         "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string valid = fuzz_bytes_of(run);
    std::mt19937_64 random(18);
    const std::string path = dir.file("damaged.h5");
    for (int k = 0; k < 400; ++k) {
        SCOPED_TRACE(k);
        write_bytes(path, damaged(valid, random));
        read_everything(path);
        // The command line on top: a resume refuses (2) or runs (0); nothing else.
        const auto resumed = run_rubble({"run", "--resume", path, "--quiet", "--stop-after", "1"});
        EXPECT_TRUE(resumed.code == 0 || resumed.code == 2 || resumed.code == 1) << resumed.err;
    }
}
