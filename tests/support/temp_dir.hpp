// SPDX-License-Identifier: MIT
#pragma once
// A fresh directory per test, removed afterwards.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace rubble::test {

class TempDir {
public:
    TempDir() {
        // A random name of fixed length: a path stored in an output (output.file) then takes the
        // same bytes in every run, so tests that damage outputs at seeded offsets (the HDF5
        // reader fuzz test) damage the same structures on every machine.
        std::random_device rd;
        char name[32];
        std::snprintf(name, sizeof name, "rubble_test_%08x%08x", rd(), rd());
        path_ = std::filesystem::temp_directory_path() / name;
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] std::string file(const std::string& name) const {
        return (path_ / name).string();
    }
    /// Writes `text` to `name` in the directory and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::string p = file(name);
        std::ofstream(p) << text;
        return p;
    }

private:
    std::filesystem::path path_;
};

} // namespace rubble::test
