// SPDX-License-Identifier: MIT
#pragma once
// A text table as spreadsheets and other codes write one: a header line naming the columns,
// then one row per line. Comma-separated when the header holds a comma (cells trimmed of
// spaces, an empty cell meaning "not given"), else whitespace-separated. Lines whose first
// non-blank character is '#' are comments, blank lines are skipped: '#' inside a line is part
// of its cell (a file reference such as "shapes.obj#rock_3", docs/parameters.md).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rubble::ic {

struct TextTable {
    std::string path;                ///< as given, for messages
    std::vector<std::string> header; ///< the columns' names, as written
    int header_line = 0;             ///< its line number
    struct Row {
        int line;                       ///< 1-based line number in the file
        std::vector<std::string> cells; ///< one per column ("" where not given)
    };
    std::vector<Row> rows;

    /// The index of the column named `name`, if the header has it.
    [[nodiscard]] std::optional<std::size_t> column(const std::string& name) const;
    /// "PATH:LINE: column NAME = \"CELL\": " for a message about one cell.
    [[nodiscard]] std::string where(const Row& row, std::size_t column) const;
};

/// Reads the table at `path`; `what` names the kind of file in messages ("body table").
/// Throws InputError naming the file (and line) when it cannot be read, has no header, names a
/// column twice or leaves one unnamed, or has a row with another number of cells than the
/// header (naming both counts).
[[nodiscard]] TextTable read_text_table(const std::string& path, const std::string& what);

/// The number in `cell` (strtod's syntax, "inf" and "nan" included: the caller says which it
/// accepts), or nothing when the cell holds anything else.
[[nodiscard]] std::optional<double> parse_number(const std::string& cell);

/// `x` as text that parse_number reads back as the same double (%.17g; "inf" for infinity).
[[nodiscard]] std::string exact_text(double x);

} // namespace rubble::ic
