// SPDX-License-Identifier: MIT
#pragma once
// The parameter file of a small collisional run that the resume and run-driver tests stop and
// continue: 216 spheres in a periodic box, 60 steps with thousands of inelastic, spinning
// collisions (the f_crit guard on), a snapshot every 10 steps and a diagnostics row every 5.
#include <string>

namespace rubble::test {

inline std::string periodic_gas_run(const std::string& out) {
    return "[integrator]\ndt = 0.05\nn_steps = 60\n[gravity]\nbackend = \"none\"\n"
           "[collisions]\nenabled = true\neps_n = 0.8\neps_t = 0.5\nf_crit = 0.3\n"
           "periodic_box = 6.0\n[output]\nfile = \"" +
           out +
           "\"\nsnapshot_interval = 0.5\ndiagnostics_interval = 0.25\ncollision_log = true\n"
           "[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 6\nny = 6\nnz = 6\nspacing = 1.0\n"
           "radius = 0.4\n[ic.motion]\nv0 = 1.0\nw0 = 0.5\n";
}

} // namespace rubble::test
