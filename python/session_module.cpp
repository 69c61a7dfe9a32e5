// SPDX-License-Identifier: MIT
// rubble._core: the run driver's Session (run/session.hpp) for Python. The pure-Python
// package beside it (python/rubble/__init__.py) builds on these few calls the interface users
// see (rubble.Simulation); this file only converts between numpy arrays and rubble's state,
// releases the interpreter while steps run, and turns rubble's exceptions into Python's.
//
// Interruption: while steps run, SIGINT and SIGTERM go to the command line's handlers
// (cli/interrupt.hpp, deferred): the first asks the run to stop after the step in progress (or
// abandons a long drift and undoes it), writing a resumable snapshot, as `rubble run` does; the
// Python side then raises KeyboardInterrupt. The handlers Python had are restored after.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rubble/cli/interrupt.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/run/session.hpp"
#include "rubble/runfile/hull_shape_arrays.hpp"
#include "rubble/version.hpp"

namespace py = pybind11;
using rubble::Bodies;
using rubble::Quat;
using rubble::Vec3;

namespace {

// The session's report and warnings go to a Python callable (print by default), called with
// the interpreter held: steps run without it.
class PythonObserver final : public rubble::run::RunObserver {
public:
    explicit PythonObserver(py::object say) : say_(std::move(say)) {}
    ~PythonObserver() override {
        py::gil_scoped_acquire held;
        say_ = py::object();
    }
    void report(std::string_view line) override { say(line); }
    void warn(std::string_view line) override { say(line); }

private:
    void say(std::string_view line) {
        py::gil_scoped_acquire held;
        if (!say_.is_none()) say_(std::string(line));
    }
    py::object say_;
};

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

Array column(const std::vector<double>& v) {
    Array a(static_cast<py::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

IntArray int_column(const std::vector<std::int64_t>& v) {
    IntArray a(static_cast<py::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

Array vectors(const std::vector<Vec3>& v) {
    Array a({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
    double* out = a.mutable_data();
    for (const Vec3& x : v) {
        *out++ = x.x();
        *out++ = x.y();
        *out++ = x.z();
    }
    return a;
}

// (w, x, y, z), as the snapshots store quaternions (docs/output-format.md).
Array quaternions(const std::vector<Quat>& v) {
    Array a({static_cast<py::ssize_t>(v.size()), py::ssize_t{4}});
    double* out = a.mutable_data();
    for (const Quat& q : v) {
        *out++ = q.w();
        *out++ = q.x();
        *out++ = q.y();
        *out++ = q.z();
    }
    return a;
}

// The state in the snapshot's layout (docs/output-format.md: the per-body datasets, the
// `spheres` and `hulls` groups, /hull_shapes), copies.
py::dict state_of(const Bodies& b) {
    py::dict d;
    d["id"] = int_column(b.id);
    d["mass"] = column(b.mass);
    d["radius"] = column(b.radius);
    d["position"] = vectors(b.pos);
    d["velocity"] = vectors(b.vel);
    d["spin"] = vectors(b.spin);
    d["orientation"] = quaternions(b.orientation);
    d["inertia"] = vectors(b.inertia);
    d["principal_axes"] = quaternions(b.principal_axes);
    d["free_path"] = column(b.free_path);
    py::dict spheres;
    spheres["body"] = int_column(b.spheres.body);
    spheres["offset"] = vectors(b.spheres.offset);
    spheres["radius"] = column(b.spheres.radius);
    spheres["mass"] = column(b.spheres.mass);
    d["spheres"] = spheres;
    py::dict hulls;
    hulls["body"] = int_column(b.hulls.body);
    hulls["shape"] = int_column(b.hulls.shape);
    hulls["mass"] = column(b.hulls.mass);
    d["hulls"] = hulls;
    // The shapes as /hull_shapes stores them.
    const rubble::runfile::HullShapeArrays a = rubble::runfile::hull_shape_arrays(b.hull_shapes());
    py::dict shapes;
    shapes["vertex_start"] = int_column(a.vertex_start);
    Array vertices({static_cast<py::ssize_t>(a.vertices.size() / 3), py::ssize_t{3}});
    std::copy(a.vertices.begin(), a.vertices.end(), vertices.mutable_data());
    shapes["vertices"] = vertices;
    shapes["triangle_start"] = int_column(a.triangle_start);
    IntArray triangles({static_cast<py::ssize_t>(a.triangles.size() / 3), py::ssize_t{3}});
    std::copy(a.triangles.begin(), a.triangles.end(), triangles.mutable_data());
    shapes["triangles"] = triangles;
    shapes["volume"] = column(a.volume);
    d["hull_shapes"] = shapes;
    return d;
}

// One column of set_state: `width` values per body, N rows; refused by name otherwise.
Array checked(const py::handle& value, const std::string& name, std::size_t n, py::ssize_t width) {
    Array a = Array::ensure(value);
    if (!a) throw rubble::InputError("set_state: " + name + " is not an array of numbers");
    const bool ok = width == 1 ? (a.ndim() == 1 && a.shape(0) == static_cast<py::ssize_t>(n))
                               : (a.ndim() == 2 && a.shape(0) == static_cast<py::ssize_t>(n) &&
                                  a.shape(1) == width);
    if (!ok)
        throw rubble::InputError("set_state: " + name + " must have shape (" + std::to_string(n) +
                                 (width == 1 ? "" : ", " + std::to_string(width)) +
                                 "), one row per body in the order of state()");
    return a;
}

void set_vectors(std::vector<Vec3>& to, const Array& a) {
    const double* in = a.data();
    for (Vec3& x : to) {
        x = Vec3(in[0], in[1], in[2]);
        in += 3;
    }
}

// The bodies with the kinematic columns of `columns` replaced (position, velocity, spin,
// orientation, free_path): the bodies themselves (ids, masses, shapes) stay.
Bodies with_columns(Bodies b, const py::dict& columns) {
    const std::size_t n = b.size();
    for (const auto& [key, value] : columns) {
        const auto name = py::cast<std::string>(key);
        if (name == "position") {
            set_vectors(b.pos, checked(value, name, n, 3));
        } else if (name == "velocity") {
            set_vectors(b.vel, checked(value, name, n, 3));
        } else if (name == "spin") {
            set_vectors(b.spin, checked(value, name, n, 3));
        } else if (name == "orientation") {
            const Array a = checked(value, name, n, 4);
            const double* in = a.data();
            for (Quat& q : b.orientation) {
                q = Quat(in[0], in[1], in[2], in[3]);
                in += 4;
            }
        } else if (name == "free_path") {
            const Array a = checked(value, name, n, 1);
            std::copy(a.data(), a.data() + n, b.free_path.begin());
        } else {
            throw rubble::InputError(
                "set_state: " + name +
                " cannot be set (position, velocity, spin, orientation and free_path can; "
                "a simulation of other bodies starts from them: rubble.Simulation(..., "
                "bodies=...))");
        }
    }
    return b;
}

// A session with the observer it reports to.
class PySession {
public:
    PySession(const std::string& params_path, const std::string& resume_path,
              const std::optional<std::string>& params_toml, const std::string& origin,
              const std::vector<std::pair<std::string, std::string>>& overrides, py::object say)
        : observer_(std::make_unique<PythonObserver>(std::move(say))) {
        rubble::run::RunRequest request;
        request.params_path = params_toml ? origin : params_path;
        request.resume_path = resume_path;
        request.overrides = overrides;
        request.overrides_from = "python";
        if (params_toml) request.params = rubble::config::parse_parameters(*params_toml, origin);
        py::gil_scoped_release free;
        session_ = std::make_unique<rubble::run::Session>(request, *observer_);
    }

    // Runs `go` with the interpreter released and the command line's signal handling;
    // returns whether the run can go on and whether a signal stopped it.
    template <class Go> std::pair<bool, bool> steps(Go&& go) {
        bool running = false;
        {
            py::gil_scoped_release free;
            rubble::cli::InterruptGuard guard;
            guard.defer();
            go();
            running = session_->running();
        }
        const bool interrupted = rubble::stop_requested();
        rubble::clear_stop_request();
        return {running, interrupted};
    }

    std::pair<bool, bool> advance(std::int64_t n) {
        return steps([&] { session_->advance(n); });
    }
    std::pair<bool, bool> advance_to(double t) {
        return steps([&] { session_->advance_to(t); });
    }
    std::pair<bool, bool> advance_to_end() {
        return steps([&] { session_->advance_to_end(); });
    }

    py::dict finish() {
        rubble::run::RunResult r;
        {
            py::gil_scoped_release free;
            r = session_->finish();
        }
        static const char* const ends[] = {"end_time", "settled", "already_complete", "stopped",
                                           "interrupted"};
        py::dict d;
        d["end"] = ends[static_cast<int>(r.end)];
        d["output"] = r.output;
        d["last_step"] = r.last_step;
        d["time"] = r.time;
        d["energy_error"] = r.energy_error;
        d["momentum_error"] = r.momentum_error;
        return d;
    }

    py::dict state() const { return state_of(session_->bodies()); }

    void set_state(const py::dict& columns) {
        Bodies b = with_columns(session_->bodies(), columns);
        py::gil_scoped_release free;
        session_->replace_bodies(std::move(b), "set_state");
    }

    [[nodiscard]] const rubble::run::Session& session() const { return *session_; }

private:
    std::unique_ptr<PythonObserver> observer_;
    std::unique_ptr<rubble::run::Session> session_; // after observer_: it reports to it
};

} // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "rubble's run driver (rubble.Simulation is the interface to use)";
    m.attr("version") = rubble::version;
    // rubble's errors as Python's: bad input is a ValueError, a failed write an OSError, a
    // state no longer finite an ArithmeticError; each keeps rubble's message.
    py::register_exception<rubble::InputError>(m, "InputError", PyExc_ValueError);
    py::register_exception<rubble::IoError>(m, "OutputError", PyExc_OSError);
    py::register_exception<rubble::PhysicsError>(m, "PhysicsError", PyExc_ArithmeticError);
    py::class_<PySession>(m, "Session")
        .def(py::init<const std::string&, const std::string&, const std::optional<std::string>&,
                      const std::string&, const std::vector<std::pair<std::string, std::string>>&,
                      py::object>(),
             py::arg("params_path"), py::arg("resume_path"), py::arg("params_toml"),
             py::arg("origin"), py::arg("overrides"), py::arg("say"))
        .def("advance", &PySession::advance)
        .def("advance_to", &PySession::advance_to)
        .def("advance_to_end", &PySession::advance_to_end)
        .def("finish", &PySession::finish)
        .def("state", &PySession::state)
        .def("set_state", &PySession::set_state)
        .def_property_readonly("running", [](const PySession& s) { return s.session().running(); })
        .def_property_readonly("step", [](const PySession& s) { return s.session().step(); })
        .def_property_readonly("time", [](const PySession& s) { return s.session().time(); })
        .def_property_readonly("end_step",
                               [](const PySession& s) { return s.session().end_step(); })
        .def_property_readonly("dt", [](const PySession& s) { return s.session().dt(); })
        .def_property_readonly("output", [](const PySession& s) { return s.session().output(); });
}
