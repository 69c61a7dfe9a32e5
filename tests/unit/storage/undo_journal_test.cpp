// SPDX-License-Identifier: MIT
// The undo journal's guarantee (include/rubble/storage/undo_journal.hpp): a write session that
// fails at any of its writes, with an error or by the death of the process half-way through a
// write, leaves the output byte for byte as it was before the session, and the next session works.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/storage/write_fault.hpp"
#include "spheres.hpp"
#include "temp_dir.hpp"

using namespace rubble;

namespace {

Bodies sample_bodies(std::int64_t n) {
    return test::moving_cloud(n, 7);
}

integrate::Diagnostics journal_row(std::int64_t step) {
    integrate::Diagnostics d;
    d.step = step;
    d.time = static_cast<double>(step);
    d.total_energy = -1.0 - 1e-3 * static_cast<double>(step);
    return d;
}

std::vector<integrate::ContactRecord> records(std::int64_t step) {
    std::vector<integrate::ContactRecord> out;
    for (std::int64_t k = 0; k < 300; ++k)
        out.push_back(
            {static_cast<double>(step) + 1e-3 * static_cast<double>(k), k, k + 1, 0.5, 0.1, 0.2});
    return out;
}

std::string journal_bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A run's output after 12 steps: snapshots every 4, rows and collision records every step,
// enough that the sessions under test extend chunked series, add chunks and grow group indexes.
void write_base(const std::string& path, const Bodies& b) {
    runfile::RunFile f = runfile::RunFile::create(path, "[integrator]\ndt = 1.0\n", 0.0, false);
    for (std::int64_t k = 0; k <= 12; ++k) {
        f.append_diagnostics(journal_row(k));
        f.append_collisions(records(k), k);
        if (k % 4 == 0) f.write_snapshot(b, static_cast<double>(k), k);
    }
}

// The session under test: the rows of steps 13 and 14, then (a second session) a snapshot.
void sessions(runfile::RunFile& f, const Bodies& b) {
    for (std::int64_t k = 13; k <= 14; ++k) {
        f.append_diagnostics(journal_row(k));
        f.append_collisions(records(k), k);
    }
    f.flush();
    f.write_snapshot(b, 14.0, 14);
}

std::int64_t writes_of_sessions(const std::string& base, const std::string& work, const Bodies& b) {
    std::filesystem::copy_file(base, work, std::filesystem::copy_options::overwrite_existing);
    storage::WriteFault count;
    storage::inject_write_fault(&count);
    {
        runfile::RunFile f = runfile::RunFile::open_existing(work);
        sessions(f, b);
    }
    storage::inject_write_fault(nullptr);
    return count.writes;
}

} // namespace

TEST(UndoJournal, AWriteThatFailsAnywhereLeavesTheFileAsItWas) {
    test::TempDir dir;
    const std::string base = dir.file("base.h5"), work = dir.file("work.h5");
    const Bodies b = sample_bodies(500);
    write_base(base, b);
    const std::int64_t writes = writes_of_sessions(base, work, b);
    ASSERT_GT(writes, 10);
    for (std::int64_t at = 0; at < writes; ++at) {
        SCOPED_TRACE(at);
        std::filesystem::copy_file(base, work, std::filesystem::copy_options::overwrite_existing);
        const std::string before = journal_bytes_of(work);
        storage::WriteFault fault{at, storage::WriteFault::Kind::error, 0};
        runfile::RunFile f = runfile::RunFile::open_existing(work);
        storage::inject_write_fault(&fault);
        std::string failed_state;
        try {
            sessions(f, b);
            ADD_FAILURE() << "no write failed";
        } catch (const IoError&) {
            failed_state = journal_bytes_of(work);
        }
        storage::inject_write_fault(nullptr);
        EXPECT_FALSE(std::filesystem::exists(work + ".journal"));
        // The flush (first session) may have been done already; the failed session is undone
        // whole: the file is either the base or the base with the new rows, never between.
        const auto snaps = runfile::snapshot_count(work);
        EXPECT_EQ(snaps, 4);
        EXPECT_EQ(runfile::read_snapshot(work, -1).step, 12);
        const auto diag = runfile::read_diagnostics(work);
        EXPECT_TRUE(diag.size() == 13u || diag.size() == 15u) << diag.size();
        if (diag.size() == 13u) {
            EXPECT_TRUE(failed_state == before) << "the failed session was not undone";
        }
        // The same sessions done again complete the file as if nothing had failed.
        f.truncate_after(12);
        sessions(f, b);
        EXPECT_EQ(runfile::read_snapshot(work, -1).step, 14);
        EXPECT_EQ(runfile::read_diagnostics(work).size(), 15u);
        EXPECT_EQ(runfile::read_collision_log(work).size(), 15u * 300u);
    }
}

TEST(UndoJournal, AProcessKilledHalfWayThroughAnyWriteLosesNothing) {
    test::TempDir dir;
    const std::string base = dir.file("base.h5"), work = dir.file("work.h5");
    const Bodies b = sample_bodies(500);
    write_base(base, b);
    const std::int64_t writes = writes_of_sessions(base, work, b);
    for (std::int64_t at = 0; at < writes; ++at) {
        SCOPED_TRACE(at);
        std::filesystem::copy_file(base, work, std::filesystem::copy_options::overwrite_existing);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            storage::WriteFault fault{at, storage::WriteFault::Kind::die_half_way, 0};
            runfile::RunFile f = runfile::RunFile::open_existing(work);
            storage::inject_write_fault(&fault);
            sessions(f, b);
            _exit(0); // not reached: the fault ends the process
        }
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFEXITED(status));
        ASSERT_EQ(WEXITSTATUS(status), 137);
        // The next reader undoes the torn session; everything before it is intact.
        const auto snap = runfile::read_snapshot(work, -1);
        EXPECT_FALSE(std::filesystem::exists(work + ".journal"));
        EXPECT_EQ(snap.step, 12);
        EXPECT_EQ(snap.bodies.pos, b.pos);
        for (std::int64_t k = 0; k < runfile::snapshot_count(work); ++k)
            EXPECT_EQ(runfile::read_snapshot(work, k).bodies.vel, b.vel);
        const auto diag = runfile::read_diagnostics(work);
        ASSERT_TRUE(diag.size() == 13u || diag.size() == 15u) << diag.size();
        for (std::size_t k = 0; k < diag.size(); ++k)
            EXPECT_EQ(diag[k].total_energy, journal_row(static_cast<std::int64_t>(k)).total_energy);
        std::vector<std::int64_t> steps;
        const auto log = runfile::read_collision_log(work, &steps);
        EXPECT_EQ(log.size(), diag.size() * 300u);
        for (std::size_t k = 0; k < log.size(); ++k)
            ASSERT_EQ(steps[k], static_cast<std::int64_t>(k / 300));
    }
}
