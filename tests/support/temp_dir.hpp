// SPDX-License-Identifier: MIT
#pragma once
// A fresh directory per test, removed afterwards.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace rubble::test {

class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() /
                ("rubble_test_" + std::to_string(rd()) + std::to_string(rd()));
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
