// SPDX-License-Identifier: MIT
#pragma once
// One interface, several backends (direct, tree, gpu-direct, gpu-tree). Gravity acts between
// mass points: free spheres, the centres of mass of polyhedra, and the spheres of an aggregate
// or its centre of mass (gravity.aggregates). The caller (integrate::Simulation) sums point
// forces into body forces and torques.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "rubble/core/enum_names.hpp"
#include "rubble/core/types.hpp"

namespace rubble::gravity {

/// Backends selectable by gravity.backend. Cost noted per backend (REBOUND's convention).
enum class Backend {
    direct,     ///< O(N^2) pairwise sum, exact to round-off, OpenMP over targets
    tree,       ///< O(N log N) Barnes-Hut octree with multipoles, error set by theta and order
    automatic,  ///< direct below auto_tree_threshold bodies, tree above
    none,       ///< no self-gravity (granular gases in a periodic box)
    gpu_direct, ///< O(N^2) on a CUDA GPU (gpu/), the seeds' baseline
    gpu_tree,   ///< the tree built and walked on a CUDA GPU (gpu/)
};

/// gravity.backend's names.
inline constexpr EnumNames<Backend, 6> backend_names{{{"auto", Backend::automatic},
                                                      {"direct", Backend::direct},
                                                      {"tree", Backend::tree},
                                                      {"none", Backend::none},
                                                      {"gpu-direct", Backend::gpu_direct},
                                                      {"gpu-tree", Backend::gpu_tree}}};

/// The mass points of an aggregate (gravity.aggregates).
enum class AggregateGravity {
    spheres, ///< each sphere a mass point: the body feels the field's gradient as a torque
    centres, ///< the body's mass at its centre of mass, as polyhedra (no gravitational torque)
};

/// gravity.aggregates' names.
inline constexpr EnumNames<AggregateGravity, 2> aggregate_gravity_names{
    {{"spheres", AggregateGravity::spheres}, {"centres", AggregateGravity::centres}}};

/// gravity.gpu_precision's names, for GravityConfig::gpu_mixed_precision.
inline constexpr EnumNames<bool, 2> gpu_precision_names{{{"double", false}, {"mixed", true}}};

/// Number of bodies from which `auto` picks the tree: the measured crossover where the tree
/// (theta = 0.5, hexadecapole, groups of 64) becomes faster than direct summation (AVX-512),
/// about 4000 on the 2-core development machine (docs/tree.md, BM_DirectGravity vs
/// BM_TreeGravity).
inline constexpr std::size_t auto_tree_threshold = 4000;

/// Number of bodies from which `auto` picks gpu-tree when a CUDA GPU is present: where the GPU
/// tree (build, walk and transfers) beats the CPU tree on all 16 cores of the GPU machine,
/// about 3,500 on an H100 host (docs/gpu.md, BM_GpuTree vs BM_CpuTreeSameMachine); fewer
/// host cores move it lower.
inline constexpr std::size_t auto_gpu_threshold = 5000;

struct GravityConfig {
    Backend backend = Backend::automatic;
    double G = G_SI;         ///< m^3 kg^-1 s^-2
    double softening = 0.0;  ///< m, Plummer softening length (0: Newtonian)
    double theta = 0.5;      ///< opening angle: node size / distance below which a node is used
    int multipole_order = 4; ///< 1 monopole, 2 quadrupole, 3 octupole, 4 hexadecapole
    int bucket_size = 16;    ///< bodies per tree leaf
    int group_size = 64;     ///< CPU tree: bodies per walk group (one interaction list each)
    bool gpu_mixed_precision = false; ///< gpu-tree: float far field, double near field
    AggregateGravity aggregates = AggregateGravity::spheres; ///< an aggregate's mass points
};

class GravitySolver {
public:
    virtual ~GravitySolver() = default;

    /// Accelerations (m/s^2) and specific potentials (J/kg) at every mass point from all the
    /// others. pos in m, mass in kg; acc and potential must have pos.size() elements.
    /// Deterministic: the same input (and thread count) gives bitwise the same output.
    virtual void compute(std::span<const Vec3> pos, std::span<const double> mass,
                         std::span<Vec3> acc, std::span<double> potential) = 0;

    /// Name of the backend as written in the parameter file (e.g. "direct").
    [[nodiscard]] virtual std::string name() const = 0;
};

} // namespace rubble::gravity
