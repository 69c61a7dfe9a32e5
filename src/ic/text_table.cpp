// SPDX-License-Identifier: MIT
#include "rubble/ic/text_table.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "rubble/core/error.hpp"

namespace rubble::ic {

namespace {

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> split(const std::string& line, bool commas) {
    std::vector<std::string> cells;
    if (commas) {
        std::size_t start = 0;
        for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos;
             start = comma + 1)
            cells.push_back(trimmed(line.substr(start, comma - start)));
        cells.push_back(trimmed(line.substr(start)));
    } else {
        std::istringstream words(line);
        for (std::string w; words >> w;)
            cells.push_back(w);
    }
    return cells;
}

} // namespace

std::optional<std::size_t> TextTable::column(const std::string& name) const {
    for (std::size_t c = 0; c < header.size(); ++c)
        if (header[c] == name) return c;
    return std::nullopt;
}

std::string TextTable::where(const Row& row, std::size_t c) const {
    return path + ":" + std::to_string(row.line) + ": column " + header[c] + " = \"" +
           row.cells[c] + "\": ";
}

TextTable read_text_table(const std::string& path, const std::string& what) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot read the " + what);
    TextTable t;
    t.path = path;
    bool commas = false;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
            line.erase(0, 3); // the byte-order mark spreadsheets put before UTF-8 text
        const std::string text = trimmed(line);
        if (text.empty() || text[0] == '#') continue;
        const std::string at = path + ":" + std::to_string(number) + ": ";
        if (t.header.empty()) {
            commas = text.find(',') != std::string::npos;
            t.header = split(text, commas);
            t.header_line = number;
            for (std::size_t c = 0; c < t.header.size(); ++c) {
                if (t.header[c].empty())
                    throw InputError(at + "the header leaves column " + std::to_string(c + 1) +
                                     " unnamed");
                for (std::size_t d = 0; d < c; ++d)
                    if (t.header[d] == t.header[c])
                        throw InputError(at + "the header names column " + t.header[c] + " twice");
            }
            continue;
        }
        std::vector<std::string> cells = split(text, commas);
        if (cells.size() != t.header.size())
            throw InputError(at + std::to_string(cells.size()) + " cells, but the header (" +
                             (commas ? "comma" : "whitespace") + "-separated) names " +
                             std::to_string(t.header.size()) + " columns");
        t.rows.push_back({number, std::move(cells)});
    }
    if (in.bad()) throw InputError(path + ": cannot read the " + what);
    if (t.header.empty())
        throw InputError(path + ": the " + what + " has no header line naming its columns");
    return t;
}

std::string exact_text(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", x);
    return text;
}

std::optional<double> parse_number(const std::string& cell) {
    if (cell.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(cell.c_str(), &end);
    if (end != cell.c_str() + cell.size()) return std::nullopt;
    return v;
}

} // namespace rubble::ic
