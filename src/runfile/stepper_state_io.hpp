// SPDX-License-Identifier: MIT
#pragma once
// A stepper's state (integrate/stepper.hpp, StepperState) in a snapshot: the subgroup
// `stepper_state` of /snapshots/NNNNNN, present only for steppers that keep one
// (docs/output-format.md). Attributes `stepper` (the stepper's name) and `rows`; one dataset
// per array, `rows` rows of its width (one-dimensional for width 1), int64 or float64.
#include <cstdint>
#include <string>

#include "rubble/integrate/stepper.hpp"
#include "rubble/storage/hdf5_util.hpp"

namespace rubble::runfile {

inline constexpr const char* stepper_state_group = "stepper_state";

/// Bytes of the state's arrays.
[[nodiscard]] std::uint64_t stepper_state_bytes(const integrate::StepperState& s);

/// Writes `s` as the subgroup stepper_state of snapshot group `snapshot` (nothing when empty).
void write_stepper_state(hid_t snapshot, const integrate::StepperState& s);

/// Reads the subgroup stepper_state of snapshot group `snapshot` (`where` names the snapshot,
/// as "'PATH':/snapshots/NNNNNN"): empty when there is none (a file of a stepper that keeps
/// no state, or written before states were stored). Throws InputError naming the group and the
/// array when it is not a whole state: an attribute missing, an array that is not int64 or
/// float64 or whose row count is not the group's `rows`.
[[nodiscard]] integrate::StepperState read_stepper_state(hid_t snapshot, const std::string& where);

} // namespace rubble::runfile
