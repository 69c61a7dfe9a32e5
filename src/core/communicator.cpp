// SPDX-License-Identifier: MIT
#include "rubble/core/communicator.hpp"

namespace rubble::core {

Communicator& serial_communicator() {
    static SerialCommunicator serial;
    return serial;
}

} // namespace rubble::core
