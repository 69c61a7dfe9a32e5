// SPDX-License-Identifier: MIT
#pragma once
// Tables of fields: a structure of arrays described once by a list of Field descriptors (name,
// unit, description, member, value of a new row), so that everything that must touch every
// field (resize, remove rows, copy, HDF5 write and read, resume) follows that one list instead
// of repeating it. A field added to a table's list is stored, copied, removed, written and read
// back with no other change; the Python reader follows the names and units the file itself
// holds (docs/output-format.md).
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

namespace rubble {

/// One column of a table (a TableField): std::vector<T> Table::*member.
template <class Table, class T> struct TableField {
    using value_type = T;
    const char* name;        ///< dataset name in the output (snake_case)
    const char* unit;        ///< SI unit ("" for numbers without one)
    const char* description; ///< one line, for the output's attributes and the docs
    std::vector<T> Table::*member;
    T fill; ///< the value of a new row (and of a field missing from an older file)
};

/// Calls f(field) for every Field of Table, in the order of Table::fields().
template <class Table, class F> void for_each_field(F&& f) {
    std::apply([&](const auto&... field) { (f(field), ...); }, Table::fields());
}

/// Calls f(column) for every column (std::vector) of table t.
template <class Table, class F> void for_each_column(Table& t, F&& f) {
    for_each_field<std::remove_const_t<Table>>([&](const auto& field) { f(t.*field.member); });
}

/// Rows of a table (the length of its first column).
template <class Table> [[nodiscard]] std::size_t row_count(const Table& t) {
    return (t.*std::get<0>(Table::fields()).member).size();
}

/// True when every column of t has the same length.
template <class Table> [[nodiscard]] bool columns_agree(const Table& t) {
    const std::size_t n = row_count(t);
    bool agree = true;
    for_each_column(t, [&](const auto& column) { agree = agree && column.size() == n; });
    return agree;
}

/// Resizes every column to n rows, new rows set to each field's fill value.
template <class Table> void resize_table(Table& t, std::size_t n) {
    for_each_field<Table>([&](const auto& field) { (t.*field.member).resize(n, field.fill); });
}

template <class Table> void reserve_table(Table& t, std::size_t n) {
    for_each_column(t, [&](auto& column) { column.reserve(n); });
}

/// Appends row `row` of `from` to `to`.
template <class Table> void append_row(Table& to, const Table& from, std::size_t row) {
    for_each_field<Table>(
        [&](const auto& field) { (to.*field.member).push_back((from.*field.member)[row]); });
}

/// Removes the rows with remove[i] != 0, keeping the order of the others.
template <class Table> void remove_rows(Table& t, const std::vector<std::uint8_t>& remove) {
    for_each_column(t, [&](auto& column) {
        std::size_t out = 0;
        for (std::size_t i = 0; i < column.size(); ++i) {
            if (remove[i]) continue;
            if (out != i) column[out] = column[i];
            ++out;
        }
        column.resize(out);
    });
}

} // namespace rubble
