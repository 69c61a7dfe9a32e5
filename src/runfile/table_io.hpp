// SPDX-License-Identifier: MIT
#pragma once
// Writing and reading a table of fields (core/fields.hpp) as one HDF5 dataset per field, each
// with its unit and description as attributes: rows are the first dimension, vectors have 3
// columns and quaternions 4 (w, x, y, z). The snapshot writer and reader both follow the
// table's field list, so a new field needs no change here.
#include <string>
#include <type_traits>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/core/fields.hpp"
#include "rubble/storage/hdf5_util.hpp"

namespace rubble::runfile {

namespace h5 = storage::h5;

namespace table_detail {

template <class T>
void write_column(hid_t g, const char* name, const std::vector<T>& v, const char* unit,
                  const char* description) {
    const std::size_t n = v.size();
    if constexpr (std::is_same_v<T, std::int64_t>) {
        h5::write_dataset(g, name, v.data(), n, unit, description);
    } else if constexpr (std::is_same_v<T, double>) {
        h5::write_dataset(g, name, v.data(), n, 1, unit, description);
    } else if constexpr (std::is_same_v<T, Vec3>) {
        static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must be three packed doubles");
        h5::write_dataset(g, name, n ? v[0].data() : nullptr, n, 3, unit, description);
    } else {
        static_assert(std::is_same_v<T, Quat>, "a field type the output does not know");
        std::vector<double> q(4 * n);
        for (std::size_t i = 0; i < n; ++i) {
            q[4 * i] = v[i].w();
            q[4 * i + 1] = v[i].x();
            q[4 * i + 2] = v[i].y();
            q[4 * i + 3] = v[i].z();
        }
        h5::write_dataset(g, name, q.data(), n, 4, unit, description);
    }
}

template <class T> std::vector<T> read_column(hid_t g, const char* name, const std::string& where) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return h5::read_ints(g, name);
    } else if constexpr (std::is_same_v<T, double>) {
        return h5::read_doubles(g, name);
    } else {
        constexpr std::size_t cols = std::is_same_v<T, Vec3> ? 3 : 4;
        const std::vector<double> flat = h5::read_doubles(g, name);
        if (flat.size() % cols != 0)
            throw InputError(where + "/" + name + " does not have " + std::to_string(cols) +
                             " columns");
        std::vector<T> out(flat.size() / cols);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const double* x = &flat[cols * i];
            if constexpr (cols == 3)
                out[i] = Vec3(x[0], x[1], x[2]);
            else
                out[i] = Quat(x[0], x[1], x[2], x[3]);
        }
        return out;
    }
}

} // namespace table_detail

/// One dataset per field of t in group g.
template <class Table> void write_table(hid_t g, const Table& t) {
    for_each_field<Table>([&](const auto& field) {
        table_detail::write_column(g, field.name, t.*field.member, field.unit, field.description);
    });
}

/// Reads every field of t from group g (`where` names it in errors). A field the group lacks is
/// an error unless `optional(name)` says files may predate it: then every row gets its fill.
/// Throws InputError when the columns' lengths differ.
template <class Table, class Optional>
void read_table(hid_t g, Table& t, const std::string& where, Optional&& optional) {
    std::size_t rows = 0;
    bool first = true;
    for_each_field<Table>([&](const auto& field) {
        using T = typename std::decay_t<decltype(field)>::value_type;
        auto& column = t.*field.member;
        if (!h5::exists(g, field.name) && optional(field.name)) {
            column.clear(); // filled below, once the rows are known
            return;
        }
        column = table_detail::read_column<T>(g, field.name, where);
        if (!first && column.size() != rows)
            throw InputError(where + ": " + field.name + " has " + std::to_string(column.size()) +
                             " rows, not " + std::to_string(rows));
        rows = column.size();
        first = false;
    });
    for_each_field<Table>([&](const auto& field) {
        auto& column = t.*field.member;
        if (column.empty()) column.assign(rows, field.fill);
    });
}

} // namespace rubble::runfile
