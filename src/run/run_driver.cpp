// SPDX-License-Identifier: MIT
#include "rubble/run/run_driver.hpp"

#include "rubble/run/session.hpp"

namespace rubble::run {

RunResult run_simulation(const RunRequest& request, RunObserver& observer) {
    return run_simulation(request, observer, core::serial_communicator());
}

RunResult run_simulation(const RunRequest& request, RunObserver& observer,
                         core::Communicator& world) {
    Session session(request, observer, world);
    session.advance_to_end();
    return session.finish();
}

} // namespace rubble::run
