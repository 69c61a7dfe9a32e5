// SPDX-License-Identifier: MIT
#pragma once
// Which sphere of a rigid body takes a contact's impulse (kind_rigid_pair.cpp,
// kind_rigid_wall.cpp), for pairs of bodies and for a body against a wall. Internal to
// src/collisions.
//
// Bodies can touch at several spheres at once (a face on a face, a cube on a floor), some
// approaching and some not, and the prediction found one that approaches. Of the candidates in
// contact (gap within the overlap tolerance, as the prediction's own round-off leaves them),
// the one approaching fastest at the physical spins is picked; with none in contact (cannot
// happen but by round-off), the one with the smallest gap. Picking the smallest gap alone
// could take a receding pair beside the approaching one: no impulse, the same contact
// predicted again at the same time, and a drift that never ends.
#include <limits>

namespace rubble::collisions::detail {

class ContactPick {
public:
    /// Offers a candidate with gap `gap` (m), in contact when gap <= `tolerance` (m); `rate()`
    /// gives its normal velocity (m/s, < 0: approaching) and is called only for candidates in
    /// contact. True when it is the best so far: the caller keeps it.
    template <class Rate> [[nodiscard]] bool better(double gap, double tolerance, Rate rate) {
        if (gap <= tolerance) {
            const double r = rate();
            if (touching_ && !(r < approach_)) return false;
            touching_ = true;
            approach_ = r;
            return true;
        }
        if (touching_ || !(gap < gap_)) return false;
        gap_ = gap;
        return true;
    }

private:
    bool touching_ = false;
    double approach_ = 0.0;                                // m/s
    double gap_ = std::numeric_limits<double>::infinity(); // m
};

} // namespace rubble::collisions::detail
