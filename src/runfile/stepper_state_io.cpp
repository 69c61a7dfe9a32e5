// SPDX-License-Identifier: MIT
#include "stepper_state_io.hpp"

#include <stdexcept>
#include <vector>

#include "rubble/core/error.hpp"

namespace rubble::runfile {

namespace h5 = storage::h5;
namespace {

// The type class of dataset `name` of `group`: H5T_INTEGER, H5T_FLOAT, or another (not a
// dataset, or one of another type: H5T_NO_CLASS).
H5T_class_t value_class(hid_t group, const std::string& name) {
    const hid_t id = H5Oopen(group, name.c_str(), H5P_DEFAULT);
    if (id < 0) return H5T_NO_CLASS;
    const h5::Handle object(id, H5Oclose);
    if (H5Iget_type(id) != H5I_DATASET) return H5T_NO_CLASS;
    const h5::Handle type(H5Dget_type(id), H5Tclose);
    if (!type.valid() || H5Tget_size(type.get()) != 8) return H5T_NO_CLASS;
    return H5Tget_class(type.get());
}

} // namespace

std::uint64_t stepper_state_bytes(const integrate::StepperState& s) {
    std::uint64_t values = 0;
    for (const integrate::StateArray& a : s.arrays)
        values += a.ints.size() + a.reals.size();
    return 8 * values;
}

void write_stepper_state(hid_t snapshot, const integrate::StepperState& s) {
    if (s.empty()) return;
    h5::Handle g = h5::create_group(snapshot, stepper_state_group);
    h5::write_attr(g.get(), "stepper", s.stepper);
    h5::write_attr(g.get(), "rows", static_cast<std::int64_t>(s.rows));
    for (const integrate::StateArray& a : s.arrays) {
        const std::size_t size = a.integer ? a.ints.size() : a.reals.size();
        if (a.width == 0 || size != s.rows * a.width)
            throw std::logic_error("stepper state array '" + a.name + "' holds " +
                                   std::to_string(size) + " values, not " + std::to_string(s.rows) +
                                   " rows of " + std::to_string(a.width));
        if (a.integer)
            h5::write_dataset(g.get(), a.name, a.ints.data(), s.rows, a.width, a.units,
                              a.description);
        else
            h5::write_dataset(g.get(), a.name, a.reals.data(), s.rows, a.width, a.units,
                              a.description);
    }
}

integrate::StepperState read_stepper_state(hid_t snapshot, const std::string& where) {
    integrate::StepperState s;
    if (!h5::exists(snapshot, stepper_state_group)) return s;
    const std::string group = where + "/" + stepper_state_group;
    const auto fail = [&](const std::string& what) { throw InputError(group + ": " + what); };
    try {
        h5::Handle g = h5::open_group(snapshot, stepper_state_group);
        for (const char* attr : {"stepper", "rows"})
            if (!h5::has_attr(g.get(), attr)) fail(std::string("no attribute '") + attr + "'");
        s.stepper = h5::read_attr_string(g.get(), "stepper");
        const std::int64_t rows = h5::read_attr_int(g.get(), "rows");
        if (s.stepper.empty()) fail("the attribute 'stepper' is empty");
        if (rows < 0) fail("rows = " + std::to_string(rows));
        s.rows = static_cast<std::size_t>(rows);
        for (const std::string& name : h5::link_names(g.get())) {
            const H5T_class_t cls = value_class(g.get(), name);
            if (cls != H5T_INTEGER && cls != H5T_FLOAT)
                fail("'" + name + "' is not a dataset of int64 or float64");
            const auto [n, width] = h5::dataset_shape(g.get(), name);
            if (n != s.rows)
                fail("'" + name + "' has " + std::to_string(n) +
                     " rows, the group's rows = " + std::to_string(s.rows));
            integrate::StateArray a;
            a.name = name;
            a.width = width;
            a.integer = cls == H5T_INTEGER;
            if (a.integer)
                a.ints = h5::read_ints(g.get(), name);
            else
                a.reals = h5::read_doubles(g.get(), name);
            s.arrays.push_back(std::move(a));
        }
    } catch (const IoError& e) {
        throw InputError(group + ": " + e.what());
    }
    return s;
}

} // namespace rubble::runfile
