// SPDX-License-Identifier: MIT
// The NSC stepper's state between steps, for snapshots: its warm starts (integrate/stepper.hpp,
// StepperState). The map is only ever looked up by key, so its order does not enter the
// results; it is written sorted by key so that the same map gives the same arrays.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

namespace rubble::polyhedra {

integrate::StepperState NscStepper::save_state() const {
    std::vector<NscWarmStarts::Entry> entries = warm_.entries();
    std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
        return std::tie(x.key.id_a, x.key.id_b, x.key.feature) <
               std::tie(y.key.id_a, y.key.id_b, y.key.feature);
    });
    integrate::StepperState s;
    s.stepper = name();
    s.rows = entries.size();
    integrate::StateArray id{
        "id", 2, true, {}, {}, "", "body id, then the partner's body id or -1 - wall index"};
    integrate::StateArray feature{
        "feature", 1, true, {}, {}, "", "feature key of the manifold point (its 64 bits)"};
    integrate::StateArray impulse{
        "impulse", 3, false, {}, {}, "N s", "the last step's impulse on the body, world frame"};
    id.ints.reserve(2 * s.rows);
    feature.ints.reserve(s.rows);
    impulse.reals.reserve(3 * s.rows);
    for (const auto& [key, j] : entries) {
        id.ints.insert(id.ints.end(), {key.id_a, key.id_b});
        feature.ints.push_back(static_cast<std::int64_t>(key.feature));
        impulse.reals.insert(impulse.reals.end(), {j.x(), j.y(), j.z()});
    }
    s.arrays = {std::move(id), std::move(feature), std::move(impulse)};
    return s;
}

void NscStepper::restore_state(const integrate::StepperState& s) {
    if (s.stepper != name())
        throw InputError(s.empty() ? "no state of the 'nsc' stepper"
                                   : "a state of the '" + s.stepper +
                                         "' stepper, not of the 'nsc' stepper of this run");
    for (const integrate::StateArray& a : s.arrays)
        if (a.name != "id" && a.name != "feature" && a.name != "impulse")
            throw InputError("array '" + a.name + "', which the 'nsc' stepper does not keep");
    const auto array = [&](const char* name, std::size_t width,
                           bool integer) -> const integrate::StateArray& {
        const integrate::StateArray* a = s.find(name);
        if (!a) throw InputError("no array '" + std::string(name) + "'");
        const std::size_t size = integer ? a->ints.size() : a->reals.size();
        if (a->width != width || a->integer != integer || size != width * s.rows)
            throw InputError("array '" + std::string(name) + "' is not " + std::to_string(s.rows) +
                             " rows of " + std::to_string(width) + " " +
                             (integer ? "integers" : "reals"));
        return *a;
    };
    const auto& id = array("id", 2, true).ints;
    const auto& feature = array("feature", 1, true).ints;
    const auto& impulse = array("impulse", 3, false).reals;
    NscWarmStarts warm;
    warm.reserve(s.rows);
    for (std::size_t r = 0; r < s.rows; ++r) {
        const WarmKey key{id[2 * r], id[2 * r + 1], static_cast<std::uint64_t>(feature[r])};
        const Vec3 j(impulse[3 * r], impulse[3 * r + 1], impulse[3 * r + 2]);
        if (!j.allFinite()) throw InputError("impulse row " + std::to_string(r) + " is not finite");
        if (!warm.insert(key, j))
            throw InputError("row " + std::to_string(r) + " repeats the key of an earlier row");
    }
    warm_ = std::move(warm);
}

} // namespace rubble::polyhedra
