// SPDX-License-Identifier: MIT
// Outputs whose storage index is damaged are refused before libhdf5 reads them (hdf5_util.cpp,
// check_storage), and outputs are reproducible to the byte. The damaged case is the one the
// reader fuzz test found under AddressSanitizer: a chunk's size in its B-tree key zeroed, which
// made libhdf5 1.10 copy a whole chunk out of a buffer of that size.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <hdf5.h>

#include "cli_runner.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;

namespace {

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A short gas run that logs its collisions (a chunked series).
std::string gas_parameters(const std::string& run) {
    return "[integrator]\ndt = 0.05\nn_steps = 8\n[gravity]\nbackend = \"none\"\n"
           "[collisions]\nenabled = true\nperiodic_box = 5.0\n[output]\nfile = \"" +
           run +
           "\"\nsnapshot_interval = 0.2\ndiagnostics_interval = 0.1\ncollision_log = true\n"
           "[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 4\nny = 4\nnz = 4\nspacing = 1.0\n"
           "radius = 0.4\n[ic.motion]\nv0 = 1.0\n";
}

struct Chunk {
    haddr_t address = HADDR_UNDEF;
    hsize_t bytes = 0;
};

// Where libhdf5 says the first chunk of `dataset` lies, and its size.
Chunk first_chunk(const std::string& path, const std::string& dataset) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t set = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
    const hsize_t offset[2] = {0, 0};
    unsigned mask = 0;
    Chunk c;
    EXPECT_GE(H5Dget_chunk_info_by_coord(set, offset, &mask, &c.address, &c.bytes), 0);
    H5Dclose(set);
    H5Fclose(file);
    return c;
}

template <class T> void put(std::string& key, T value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

} // namespace

TEST(DamagedStorage, AChunkSizeZeroedInItsIndexIsRefusedNotRead) {
    rubble::test::TempDir dir;
    const std::string run = dir.file("run.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("gas.toml", gas_parameters(run)), "--quiet"}).code, 0);
    const Chunk chunk = first_chunk(run, "/collisions/step");
    ASSERT_NE(chunk.address, HADDR_UNDEF);
    ASSERT_EQ(chunk.bytes, 1024u * 8u); // create_series: 1024 rows of one int64 per chunk

    // The v1 B-tree key of a chunk of a rank-1 dataset (HDF5 file format spec. 3.0, III.A.1):
    // size (4 bytes), filter mask (4), offsets in each dimension and the element (8 each), then
    // the chunk's address (8), all little-endian as on the x86-64 machines that run this test.
    std::string key;
    put(key, static_cast<std::uint32_t>(chunk.bytes));
    put(key, std::uint32_t{0});
    put(key, std::uint64_t{0});
    put(key, std::uint64_t{0});
    put(key, static_cast<std::uint64_t>(chunk.address));
    std::string file = bytes_of(run);
    const std::size_t at = file.find(key);
    ASSERT_NE(at, std::string::npos) << "chunk key not found";
    ASSERT_EQ(file.find(key, at + 1), std::string::npos) << "chunk key not unique";
    std::memset(file.data() + at, 0, 4); // the size, as a zeroed block did
    const std::string damaged = dir.file("damaged.h5");
    std::ofstream(damaged, std::ios::binary) << file;

    try {
        (void)rubble::runfile::read_collision_log(damaged);
        FAIL() << "a chunk of 0 bytes was read";
    } catch (const rubble::IoError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("dataset step"), std::string::npos) << what;
        EXPECT_NE(what.find("damaged"), std::string::npos) << what;
    }
    // The snapshots do not depend on the log: they are still read.
    EXPECT_NO_THROW((void)rubble::runfile::read_snapshot(damaged, -1));
}

TEST(DamagedStorage, TheSameRunWritesTheSameBytes) {
    // No modification times in the file (hdf5_util.cpp, untimed): two runs of one parameter
    // file a second apart give identical files, so outputs can be compared with cmp.
    rubble::test::TempDir dir;
    const std::string run = dir.file("run.h5");
    const std::string params = dir.write("gas.toml", gas_parameters(run));
    ASSERT_EQ(run_rubble({"run", params, "--quiet"}).code, 0);
    const std::string first = bytes_of(run);
    std::filesystem::remove(run);
    std::filesystem::remove(dir.file("run.xdmf"));
    // HDF5 stored times in whole seconds: wait for the clock to change.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    ASSERT_EQ(run_rubble({"run", params, "--quiet"}).code, 0);
    const std::string second = bytes_of(run);
    ASSERT_EQ(first.size(), second.size());
    EXPECT_TRUE(first == second) << "the same run wrote different bytes";
}
