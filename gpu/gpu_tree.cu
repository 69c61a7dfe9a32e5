// SPDX-License-Identifier: MIT
// gpu-tree: the Barnes-Hut octree of the CPU backend, built and walked on the device
// (docs/gpu.md). Stages, all on the GPU: bounding box (block reductions), 63-bit Morton keys
// and a stable radix sort (CUB), a top-down build one tree level per pass with the CPU's
// octant split (split_octants), leaf summaries from the bodies, internal summaries bottom-up
// by shifting the children's raw moments (shift_raw_moments), then a walk with one warp per
// leaf bucket that builds interaction lists in shared memory (Bedorf, Gaburov & Portegies
// Zwart 2012, Bonsai, sec. 3; Stadel 2001 for lists per bucket). Every physics function is a
// RUBBLE_HD function that the CPU tree and the CPU unit tests also run.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "device_bodies.cuh"
#include "device_engines.hpp"
#include "rubble/gravity/pair_kernel.hpp"
#include "rubble/tree/morton.hpp"
#include "rubble/tree/multipole.hpp"
#include "rubble/tree/multipole_finish.hpp"
#include "rubble/tree/walk_criteria.hpp"

namespace rubble::gpu {
namespace {

constexpr int block = 256;
constexpr int warp = 32;
constexpr int walk_warps = 4;           // warps per walk block
constexpr int stack_capacity = 8192;    // nodes per warp's traversal stack
constexpr int list_capacity = 2 * warp; // interaction-list entries per warp
constexpr unsigned full_mask = 0xffffffffu;
constexpr std::uint32_t max_cell = (1u << tree::morton_levels) - 1;

unsigned blocks_for(std::size_t n) {
    return static_cast<unsigned>((n + block - 1) / block);
}

struct Box {
    double lo[3], hi[3];
};

// A body as the walk reads it: (x, y, z, m) in one 32-byte aligned load.
struct alignas(32) Body {
    double x, y, z, m;
};

// Node topology (the build) and the walk's view of a node: centre of mass and squared
// opening radius packed with the range and children, as in the CPU walk (WalkNode).
struct Topo {
    std::int32_t begin, end, first_child, child_count;
};
struct WalkNode {
    double com[3];
    double open2;
    std::int32_t begin, end, first_child, child_count;
};
// What the bottom-up pass needs of a node besides its raw moments.
struct Summary {
    double lo[3], hi[3], com[3];
    double mass, b_max;
};

// ---- bounding box: per-block minima and maxima, then one block over the partials ----------

__device__ void reduce_box(Box& mine, Box* shared) {
    shared[threadIdx.x] = mine;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            for (int d = 0; d < 3; ++d) {
                shared[threadIdx.x].lo[d] =
                    fmin(shared[threadIdx.x].lo[d], shared[threadIdx.x + stride].lo[d]);
                shared[threadIdx.x].hi[d] =
                    fmax(shared[threadIdx.x].hi[d], shared[threadIdx.x + stride].hi[d]);
            }
        __syncthreads();
    }
}

__global__ void box_partials(const double* __restrict__ pos, std::size_t n, Box* partial) {
    __shared__ Box shared[block];
    Box mine;
    for (int d = 0; d < 3; ++d) {
        mine.lo[d] = INFINITY;
        mine.hi[d] = -INFINITY;
    }
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(block) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * block)
        for (int d = 0; d < 3; ++d) {
            mine.lo[d] = fmin(mine.lo[d], pos[3 * i + d]);
            mine.hi[d] = fmax(mine.hi[d], pos[3 * i + d]);
        }
    reduce_box(mine, shared);
    if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

__global__ void box_final(Box* partial, int count) {
    __shared__ Box shared[block];
    Box mine;
    for (int d = 0; d < 3; ++d) {
        mine.lo[d] = INFINITY;
        mine.hi[d] = -INFINITY;
    }
    for (int i = static_cast<int>(threadIdx.x); i < count; i += block)
        for (int d = 0; d < 3; ++d) {
            mine.lo[d] = fmin(mine.lo[d], partial[i].lo[d]);
            mine.hi[d] = fmax(mine.hi[d], partial[i].hi[d]);
        }
    reduce_box(mine, shared);
    if (threadIdx.x == 0) partial[0] = shared[0];
}

// ---- keys and sorted copies ----------------------------------------------------------------

// The CPU tree's keys bit for bit: the same cube (the box's largest side) and cell rounding.
__global__ void make_keys(const double* __restrict__ pos, std::size_t n, const Box* box,
                          std::uint64_t* keys, std::int32_t* index) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(block) + threadIdx.x;
    if (i >= n) return;
    const Box b = *box;
    const double side = fmax(fmax(b.hi[0] - b.lo[0], b.hi[1] - b.lo[1]), b.hi[2] - b.lo[2]);
    const double scale = side > 0.0 ? static_cast<double>(max_cell) / side : 0.0;
    std::uint32_t cell[3];
    for (int d = 0; d < 3; ++d) {
        const double c = __dmul_rn(__dsub_rn(pos[3 * i + d], b.lo[d]), scale);
        cell[d] = static_cast<std::uint32_t>(fmin(c, static_cast<double>(max_cell)));
    }
    keys[i] = tree::morton_key(cell[0], cell[1], cell[2]);
    index[i] = static_cast<std::int32_t>(i);
}

__global__ void gather_sorted(const double* __restrict__ pos, const double* __restrict__ mass,
                              const std::int32_t* __restrict__ order, std::size_t n, Body* body) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(block) + threadIdx.x;
    if (k >= n) return;
    const auto i = static_cast<std::size_t>(order[k]);
    body[k] = {pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], mass[i]};
}

// ---- top-down build, one level of nodes per pass ------------------------------------------

__global__ void init_root(Topo* topo, std::int32_t* level, std::int32_t n) {
    topo[0] = {0, n, -1, 0};
    level[0] = 0;
}

// Splits the frontier nodes [f0, f0 + count) exactly as Octree::split does; a node with at
// most bucket_size bodies, or with all keys equal, stays a leaf.
__global__ void split_frontier(const std::uint64_t* __restrict__ keys, Topo* topo,
                               const std::int32_t* __restrict__ level, std::int32_t f0,
                               std::int32_t count, int bucket_size, std::int32_t* bounds,
                               std::int32_t* child_level, std::int32_t* child_count) {
    const std::int32_t f = static_cast<std::int32_t>(blockIdx.x * block + threadIdx.x);
    if (f >= count) return;
    const Topo t = topo[f0 + f];
    int split_level = level[f0 + f];
    int children = 0;
    if (t.end - t.begin > bucket_size) {
        const int nonempty = tree::split_octants(keys, t.begin, t.end, split_level, bounds + 9 * f);
        children = nonempty > 1 ? nonempty : 0;
    }
    child_count[f] = children;
    child_level[f] = split_level + 1;
}

__global__ void write_children(Topo* topo, std::int32_t* level, std::int32_t f0, std::int32_t count,
                               std::int32_t next, const std::int32_t* __restrict__ bounds,
                               const std::int32_t* __restrict__ child_level,
                               const std::int32_t* __restrict__ child_count,
                               const std::int32_t* __restrict__ offset) {
    const std::int32_t f = static_cast<std::int32_t>(blockIdx.x * block + threadIdx.x);
    if (f >= count || child_count[f] == 0) return;
    const std::int32_t first = next + offset[f];
    topo[f0 + f].first_child = first;
    topo[f0 + f].child_count = child_count[f];
    const std::int32_t* b = bounds + 9 * f;
    std::int32_t c = first;
    for (int o = 0; o < 8; ++o) {
        if (b[o + 1] == b[o]) continue;
        topo[c] = {b[o], b[o + 1], -1, 0};
        level[c] = child_level[f];
        ++c;
    }
}

struct IsLeaf {
    const Topo* topo;
    __device__ bool operator()(std::int32_t k) const { return topo[k].child_count == 0; }
};

// ---- summaries: leaves from their bodies, internal nodes from their children --------------

template <int Order>
__global__ void summarise_leaves(const std::int32_t* __restrict__ leaves, std::int32_t count,
                                 const Topo* __restrict__ topo, const Body* __restrict__ body,
                                 Summary* summary, tree::RawMoments* raw) {
    const std::int32_t l = static_cast<std::int32_t>(blockIdx.x * block + threadIdx.x);
    if (l >= count) return;
    const std::int32_t k = leaves[l];
    const Topo t = topo[k];
    // As Octree::summarise: box of centres, mass, centre of mass (the box centre when massless),
    // raw moments about it and the largest body distance b_max.
    Summary s;
    double cx = 0.0, cy = 0.0, cz = 0.0, mass = 0.0;
    for (int d = 0; d < 3; ++d) {
        s.lo[d] = INFINITY;
        s.hi[d] = -INFINITY;
    }
    for (std::int32_t i = t.begin; i < t.end; ++i) {
        const Body bi = body[i];
        const double p[3] = {bi.x, bi.y, bi.z};
        for (int d = 0; d < 3; ++d) {
            s.lo[d] = fmin(s.lo[d], p[d]);
            s.hi[d] = fmax(s.hi[d], p[d]);
        }
        mass += bi.m;
        cx += bi.m * p[0];
        cy += bi.m * p[1];
        cz += bi.m * p[2];
    }
    s.mass = mass;
    s.com[0] = mass > 0 ? cx / mass : 0.5 * (s.lo[0] + s.hi[0]);
    s.com[1] = mass > 0 ? cy / mass : 0.5 * (s.lo[1] + s.hi[1]);
    s.com[2] = mass > 0 ? cz / mass : 0.5 * (s.lo[2] + s.hi[2]);
    tree::RawMoments r;
    double b2 = 0.0;
    for (std::int32_t i = t.begin; i < t.end; ++i) {
        const Body bi = body[i];
        const double dx = bi.x - s.com[0], dy = bi.y - s.com[1], dz = bi.z - s.com[2];
        b2 = fmax(b2, dx * dx + dy * dy + dz * dz);
        if constexpr (Order >= 2) r.add<Order>(bi.m, dx, dy, dz);
    }
    s.b_max = sqrt(b2);
    summary[k] = s;
    raw[k] = r;
}

using LeafKernel = void (*)(const std::int32_t*, std::int32_t, const Topo*, const Body*, Summary*,
                            tree::RawMoments*);

// Internal nodes of one level, whose children (the next level) are done. b_max becomes an
// upper bound: the smaller of max_c(|com_c - com| + b_max_c) and the distance from com to the
// farthest corner of the box; for theta <= 1/sqrt(3) the opening radius size/theta exceeds
// both, so the acceptance decisions equal the CPU tree's exact b_max (docs/gpu.md).
__global__ void summarise_internal(const Topo* __restrict__ topo, std::int32_t k0,
                                   std::int32_t count, int order, Summary* summary,
                                   tree::RawMoments* raw) {
    const std::int32_t k = k0 + static_cast<std::int32_t>(blockIdx.x * block + threadIdx.x);
    if (k >= k0 + count) return;
    const Topo t = topo[k];
    if (t.child_count == 0) return;
    Summary s;
    double mass = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    for (int d = 0; d < 3; ++d) {
        s.lo[d] = INFINITY;
        s.hi[d] = -INFINITY;
    }
    for (std::int32_t c = t.first_child; c < t.first_child + t.child_count; ++c) {
        const Summary& sc = summary[c];
        for (int d = 0; d < 3; ++d) {
            s.lo[d] = fmin(s.lo[d], sc.lo[d]);
            s.hi[d] = fmax(s.hi[d], sc.hi[d]);
        }
        mass += sc.mass;
        cx += sc.mass * sc.com[0];
        cy += sc.mass * sc.com[1];
        cz += sc.mass * sc.com[2];
    }
    s.mass = mass;
    s.com[0] = mass > 0 ? cx / mass : 0.5 * (s.lo[0] + s.hi[0]);
    s.com[1] = mass > 0 ? cy / mass : 0.5 * (s.lo[1] + s.hi[1]);
    s.com[2] = mass > 0 ? cz / mass : 0.5 * (s.lo[2] + s.hi[2]);
    tree::RawMoments r;
    double bound = 0.0;
    for (std::int32_t c = t.first_child; c < t.first_child + t.child_count; ++c) {
        const Summary& sc = summary[c];
        const double sx = sc.com[0] - s.com[0], sy = sc.com[1] - s.com[1],
                     sz = sc.com[2] - s.com[2];
        bound = fmax(bound, sqrt(sx * sx + sy * sy + sz * sz) + sc.b_max);
        if (order >= 2) tree::shift_raw_moments(raw[c], sc.mass, sx, sy, sz, order, r);
    }
    double corner2 = 0.0;
    for (int d = 0; d < 3; ++d) {
        const double far = fmax(s.com[d] - s.lo[d], s.hi[d] - s.com[d]);
        corner2 += far * far;
    }
    s.b_max = fmin(bound, sqrt(corner2));
    summary[k] = s;
    raw[k] = r;
}

// Walk data and traceless weights of every node.
__global__ void finish_nodes(const Topo* __restrict__ topo, const Summary* __restrict__ summary,
                             const tree::RawMoments* __restrict__ raw, std::int32_t count,
                             double inv_theta2, WalkNode* walk, tree::Multipole* multipole,
                             Box* box) {
    const std::int32_t k = static_cast<std::int32_t>(blockIdx.x * block + threadIdx.x);
    if (k >= count) return;
    const Summary s = summary[k];
    const Topo t = topo[k];
    const double size = fmax(fmax(s.hi[0] - s.lo[0], s.hi[1] - s.lo[1]), s.hi[2] - s.lo[2]);
    walk[k] = {{s.com[0], s.com[1], s.com[2]},
               tree::open_radius2(size, s.b_max, inv_theta2),
               t.begin,
               t.end,
               t.first_child,
               t.child_count};
    tree::Multipole mp;
    mp.mass = s.mass;
    for (int d = 0; d < 3; ++d) {
        mp.com[d] = s.com[d];
        box[k].lo[d] = s.lo[d];
        box[k].hi[d] = s.hi[d];
    }
    tree::finish_multipole(raw[k], mp);
    multipole[k] = mp;
}

// ---- the walk ------------------------------------------------------------------------------

// Inclusive prefix sum of v over the lanes of a full warp (Hillis-Steele with shuffles).
__device__ int warp_inclusive_sum(int v, int lane) {
    for (int o = 1; o < warp; o *= 2) {
        const int u = __shfl_up_sync(full_mask, v, o);
        if (lane >= o) v += u;
    }
    return v;
}

struct WalkArgs {
    const WalkNode* walk;
    const tree::Multipole* multipole;
    const Box* box;
    const std::int32_t* leaves;
    std::int32_t leaf_count;
    const Body* body;
    double eps2;
    std::int32_t* stacks;
    double *ax, *ay, *az, *phi; // sorted order, without G
    unsigned long long* counts; // [0] body-body, [1] body-node interactions, [2] batches
    int* overflow;
};

// Per-warp shared memory of the walk: the interaction lists (node indices) and the staging
// areas into which the warp copies a chunk of 32 list entries with independent loads (one
// memory latency per chunk instead of one per entry), from which every lane then reads.
template <int Order, class Far> struct WalkShared {
    // What the evaluation reads of a node: mass and centre of mass (double, so offsets keep
    // full precision far from the origin) and the weights (Far: float in mixed precision).
    static constexpr int weights =
        Order >= 2 ? tree::weight_offset(Order) + tree::monomial_count(Order) : 0;
    std::int32_t cells[list_capacity];
    std::int32_t leaves[list_capacity];
    std::int32_t leaf_begin[list_capacity];
    std::int32_t leaf_end[list_capacity]; // inclusive prefix sum of the leaves' body counts
    double cell_head[4][warp];            // [mass, com x, y, z][slot]: conflict-free
    Far cell_w[weights > 0 ? weights : 1][warp];
    Body bodies[warp];
};

// Evaluates cells[0, count) (count <= 32) at the lane's target: the lanes stage one node each,
// then each lane sums its replica's share (entries replica, replica + replicas, ...). In mixed
// precision (Far = float) the expansion is evaluated in float from double offsets and each
// chunk's float sum is added to the double accumulators.
template <int Order, class Far>
__device__ void eval_cell_chunk(const WalkArgs& a, WalkShared<Order, Far>& sh, int count, int lane,
                                int replica, int replicas, double xi, double yi, double zi,
                                double& ax, double& ay, double& az, double& phi) {
    using Shared = WalkShared<Order, Far>;
    if (lane < count) {
        const tree::Multipole& mp = a.multipole[sh.cells[lane]];
        sh.cell_head[0][lane] = mp.mass;
#pragma unroll
        for (int d = 0; d < 3; ++d)
            sh.cell_head[d + 1][lane] = mp.com[d];
#pragma unroll
        for (int v = 0; v < Shared::weights; ++v)
            sh.cell_w[v][lane] = static_cast<Far>(mp.w[v]);
    }
    __syncwarp();
    if constexpr (std::is_same_v<Far, double>) {
        for (int j = replica; j < count; j += replicas)
            tree::multipole_field<Order, double>(xi - sh.cell_head[1][j], yi - sh.cell_head[2][j],
                                                 zi - sh.cell_head[3][j], sh.cell_head[0][j],
                                                 &sh.cell_w[0][j], warp, phi, ax, ay, az, a.eps2);
    } else {
        Far fx = 0, fy = 0, fz = 0, fphi = 0;
        for (int j = replica; j < count; j += replicas)
            tree::multipole_field<Order, Far>(
                static_cast<Far>(xi - sh.cell_head[1][j]),
                static_cast<Far>(yi - sh.cell_head[2][j]),
                static_cast<Far>(zi - sh.cell_head[3][j]), static_cast<Far>(sh.cell_head[0][j]),
                &sh.cell_w[0][j], warp, fphi, fx, fy, fz, static_cast<Far>(a.eps2));
        ax += static_cast<double>(fx);
        ay += static_cast<double>(fy);
        az += static_cast<double>(fz);
        phi += static_cast<double>(fphi);
    }
    __syncwarp();
}

// Evaluates every body of leaves[0, count): the inclusive prefix sum of their body counts
// maps each of 32 staging slots to a (leaf, body) pair, so a chunk of 32 bodies is loaded at
// once, whatever the leaves' sizes.
template <int Order, class Far>
__device__ void eval_leaf_list(const WalkArgs& a, WalkShared<Order, Far>& sh, int count, int lane,
                               int replica, int replicas, double xi, double yi, double zi,
                               double& ax, double& ay, double& az, double& phi) {
    // Inclusive scan of the counts (count <= list_capacity, in chunks of 32 lanes).
    int carry = 0;
    for (int base = 0; base < count; base += warp) {
        const int e = base + lane;
        int v = 0;
        if (e < count) {
            const WalkNode& leaf = a.walk[sh.leaves[e]];
            sh.leaf_begin[e] = leaf.begin;
            v = leaf.end - leaf.begin;
        }
        v = warp_inclusive_sum(v, lane);
        if (e < count) sh.leaf_end[e] = carry + v;
        carry += __shfl_sync(full_mask, v, warp - 1);
    }
    __syncwarp();
    const int total = carry;
    for (int base = 0; base < total; base += warp) {
        const int g = base + lane;
        if (g < total) {
            // First entry whose inclusive end exceeds g.
            int lo = 0, hi = count - 1;
            while (lo < hi) {
                const int mid = (lo + hi) / 2;
                if (sh.leaf_end[mid] > g)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            const int before = lo > 0 ? sh.leaf_end[lo - 1] : 0;
            sh.bodies[lane] = a.body[sh.leaf_begin[lo] + (g - before)];
        }
        __syncwarp();
        const int chunk = min(warp, total - base);
        for (int j = replica; j < chunk; j += replicas) {
            const Body s = sh.bodies[j];
            gravity::add_body_field(s.x - xi, s.y - yi, s.z - zi, s.m, a.eps2, ax, ay, az, phi);
        }
        __syncwarp();
    }
}

// Occupancy the walk is compiled for: more warps hide the traversal's memory latency; the
// octupole and hexadecapole kernels need more registers and staging memory.
template <int Order> constexpr int walk_min_blocks() {
    return Order <= 2 ? 8 : 5;
}

// One warp per leaf bucket (a persistent grid strides over the leaves). The warp pops up to 32
// nodes at a time from its stack, each lane tests one with the CPU's acceptance test for the
// bucket's box; accepted nodes go to the cell list, opened leaves to the leaf list, opened
// internal nodes push their children. Lists are evaluated by all lanes: a bucket of c bodies
// gets S = the power of two >= c target slots and 32 / S lanes per target, each summing every
// (32 / S)-th entry, then a butterfly sum over the lanes of a target. Buckets hold fewer than
// 32 bodies (16 by default), so this keeps every lane busy; the summation order is fixed, so
// the result does not depend on scheduling (deterministic).
template <int Order, class Far>
__global__ void __launch_bounds__(walk_warps* warp, walk_min_blocks<Order>())
    walk_tree(WalkArgs a) {
    __shared__ WalkShared<Order, Far> shared[walk_warps];
    const int lane = static_cast<int>(threadIdx.x) % warp;
    const int w = static_cast<int>(threadIdx.x) / warp;
    const int warp_id = static_cast<int>(blockIdx.x) * walk_warps + w;
    const int warp_total = static_cast<int>(gridDim.x) * walk_warps;
    std::int32_t* stack = a.stacks + static_cast<std::size_t>(warp_id) * stack_capacity;
    WalkShared<Order, Far>& sh = shared[w];
    const unsigned below = (1u << lane) - 1u;
    unsigned long long body_count = 0, cell_count = 0, batches = 0;

    for (std::int32_t l = warp_id; l < a.leaf_count; l += warp_total) {
        const std::int32_t leaf = a.leaves[l];
        const WalkNode bucket = a.walk[leaf];
        const Box bb = a.box[leaf];
        for (std::int32_t t0 = bucket.begin; t0 < bucket.end; t0 += warp) {
            const int c = min(bucket.end - t0, warp);
            int slots = 1;
            while (slots < c)
                slots *= 2;
            const int replicas = warp / slots, replica = lane / slots;
            const int t = lane % slots;
            const std::int32_t ti = t0 + t;
            const bool active = t < c;
            const Body target = active ? a.body[ti] : Body{0.0, 0.0, 0.0, 0.0};
            const double xi = target.x, yi = target.y, zi = target.z;
            double ax = 0.0, ay = 0.0, az = 0.0, phi = 0.0;
            unsigned long long cells_seen = 0, bodies_seen = 0;
            int top = 1, nc = 0, nl = 0;
            if (lane == 0) stack[0] = 0;
            __syncwarp();
            while (top > 0) {
                const int take = min(top, warp);
                if (lane == 0) ++batches;
                const std::int32_t node = lane < take ? stack[top - take + lane] : -1;
                __syncwarp();
                top -= take;
                bool accepted = false, open_leaf = false;
                int children = 0;
                std::int32_t first_child = 0;
                if (node >= 0) {
                    const WalkNode& n = a.walk[node];
                    accepted = tree::accepts_node(bb.lo, bb.hi, bucket.begin, bucket.end, n.begin,
                                                  n.end, n.com, n.open2);
                    open_leaf = !accepted && n.child_count == 0;
                    children = accepted ? 0 : n.child_count;
                    first_child = n.first_child;
                    if (open_leaf) bodies_seen += static_cast<unsigned long long>(n.end - n.begin);
                }
                const unsigned acc_mask = __ballot_sync(full_mask, accepted);
                if (accepted) sh.cells[nc + __popc(acc_mask & below)] = node;
                nc += __popc(acc_mask);
                const unsigned leaf_mask = __ballot_sync(full_mask, open_leaf);
                if (open_leaf) sh.leaves[nl + __popc(leaf_mask & below)] = node;
                nl += __popc(leaf_mask);
                // Where each lane's children go on the stack.
                const int prefix = warp_inclusive_sum(children, lane);
                const int pushed = __shfl_sync(full_mask, prefix, warp - 1);
                if (top + pushed > stack_capacity) {
                    if (lane == 0) atomicExch(a.overflow, 1);
                    top = 0;
                    break;
                }
                for (int k = 0; k < children; ++k)
                    stack[top + prefix - children + k] = first_child + k;
                top += pushed;
                __syncwarp();
                if (nc >= warp) {
                    // Evaluate the first 32 entries, keep the rest (fewer than 32) for later.
                    eval_cell_chunk<Order, Far>(a, sh, warp, lane, replica, replicas, xi, yi, zi,
                                                ax, ay, az, phi);
                    const std::int32_t rest = lane + warp < nc ? sh.cells[lane + warp] : 0;
                    __syncwarp();
                    if (lane + warp < nc) sh.cells[lane] = rest;
                    nc -= warp;
                    cells_seen += warp;
                    __syncwarp();
                }
                if (nl >= list_capacity - warp) {
                    eval_leaf_list<Order, Far>(a, sh, nl, lane, replica, replicas, xi, yi, zi, ax,
                                               ay, az, phi);
                    nl = 0;
                }
            }
            if (nc > 0)
                eval_cell_chunk<Order, Far>(a, sh, nc, lane, replica, replicas, xi, yi, zi, ax, ay,
                                            az, phi);
            cells_seen += static_cast<unsigned long long>(nc);
            if (nl > 0)
                eval_leaf_list<Order, Far>(a, sh, nl, lane, replica, replicas, xi, yi, zi, ax, ay,
                                           az, phi);
            // Sum the replicas of each target (lanes t, t + S, t + 2S, ...).
            for (int o = slots; o < warp; o *= 2) {
                ax += __shfl_xor_sync(full_mask, ax, o);
                ay += __shfl_xor_sync(full_mask, ay, o);
                az += __shfl_xor_sync(full_mask, az, o);
                phi += __shfl_xor_sync(full_mask, phi, o);
            }
            // Per target: every entry of the lists was evaluated once for each active target;
            // each opened leaf was counted by the one lane that tested it.
            for (int o = 1; o < warp; o *= 2)
                bodies_seen += __shfl_xor_sync(full_mask, bodies_seen, o);
            if (active && replica == 0) {
                a.ax[ti] = ax;
                a.ay[ti] = ay;
                a.az[ti] = az;
                a.phi[ti] = phi;
                body_count += bodies_seen;
                cell_count += cells_seen;
            }
        }
    }
    // Interaction counts (per target body) for the benchmarks: one atomic per warp.
    for (int o = warp / 2; o > 0; o /= 2) {
        body_count += __shfl_down_sync(full_mask, body_count, o);
        cell_count += __shfl_down_sync(full_mask, cell_count, o);
        batches += __shfl_down_sync(full_mask, batches, o);
    }
    if (lane == 0) {
        atomicAdd(a.counts, body_count);
        atomicAdd(a.counts + 1, cell_count);
        atomicAdd(a.counts + 2, batches);
    }
}

// The walk kernel of a multipole order (1..4) and precision.
using WalkKernel = void (*)(WalkArgs);
WalkKernel walk_kernel(int order, bool mixed) {
    constexpr WalkKernel kernels[2][tree::max_multipole_order] = {
        {walk_tree<1, double>, walk_tree<2, double>, walk_tree<3, double>, walk_tree<4, double>},
        {walk_tree<1, float>, walk_tree<2, float>, walk_tree<3, float>, walk_tree<4, float>}};
    return kernels[mixed ? 1 : 0][order - 1];
}

__global__ void scatter(const std::int32_t* __restrict__ order, std::size_t n, double G,
                        const double* __restrict__ ax, const double* __restrict__ ay,
                        const double* __restrict__ az, const double* __restrict__ phi, double* acc,
                        double* pot) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(block) + threadIdx.x;
    if (k >= n) return;
    const auto i = static_cast<std::size_t>(order[k]);
    acc[3 * i] = G * ax[k];
    acc[3 * i + 1] = G * ay[k];
    acc[3 * i + 2] = G * az[k];
    pot[i] = G * phi[k];
}

} // namespace

struct TreeEngine::State {
    double G = 0, eps2 = 0, inv_theta2 = 0;
    int order = 4, bucket_size = 16;
    bool mixed = false; // float far field (gravity.gpu_precision = "mixed")
    int walk_blocks = 0;
    DeviceBodies bodies;
    DeviceBuffer<double> ax, ay, az, phi;
    DeviceBuffer<Body> body;
    DeviceBuffer<Box> box_partial, node_box;
    DeviceBuffer<std::uint64_t> keys, keys_sorted;
    DeviceBuffer<std::int32_t> index, order_sorted;
    DeviceBuffer<Topo> topo;
    DeviceBuffer<std::int32_t> level, bounds, child_level, child_count, offset, leaves, scalars;
    DeviceBuffer<Summary> summary;
    DeviceBuffer<tree::RawMoments> raw;
    DeviceBuffer<WalkNode> walk;
    DeviceBuffer<tree::Multipole> multipole;
    DeviceBuffer<std::int32_t> stacks;
    DeviceBuffer<unsigned long long> counters;
    DeviceBuffer<int> overflow;
    DeviceBuffer<unsigned char> temp;
    EventTimer timer{5};
    StageTimes times;
    TreeCounts counts;

    void ensure_temp(std::size_t bytes) { temp.reserve(bytes); }
    void build(std::size_t n);
    void walk_and_scatter(std::size_t n);
};

void TreeEngine::State::build(std::size_t n) {
    const auto ni = static_cast<std::int32_t>(n);
    // Bounding box.
    const unsigned partials = std::min(blocks_for(n), 1024u);
    box_partial.reserve(partials);
    box_partials<<<partials, block>>>(bodies.pos.get(), n, box_partial.get());
    box_final<<<1, block>>>(box_partial.get(), static_cast<int>(partials));
    // Keys, stable sort (equal keys keep index order, as the CPU's (key, index) sort).
    keys.reserve(n);
    keys_sorted.reserve(n);
    index.reserve(n);
    order_sorted.reserve(n);
    make_keys<<<blocks_for(n), block>>>(bodies.pos.get(), n, box_partial.get(), keys.get(),
                                        index.get());
    std::size_t temp_bytes = 0;
    RUBBLE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(),
                                                      keys_sorted.get(), index.get(),
                                                      order_sorted.get(), ni, 0, 63));
    ensure_temp(temp_bytes);
    RUBBLE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(),
                                                      keys_sorted.get(), index.get(),
                                                      order_sorted.get(), ni, 0, 63));
    for (auto* v : {&ax, &ay, &az, &phi})
        v->reserve(n);
    body.reserve(n);
    gather_sorted<<<blocks_for(n), block>>>(bodies.pos.get(), bodies.mass.get(), order_sorted.get(),
                                            n, body.get());

    // Top-down build: a frontier of nodes per pass; counts come back to size the next pass.
    // Every internal node has two children or more, so there are fewer than 2n nodes.
    const std::size_t node_cap = 2 * n + 1;
    topo.reserve(node_cap);
    level.reserve(node_cap);
    scalars.reserve(2);
    init_root<<<1, 1>>>(topo.get(), level.get(), ni);
    std::vector<std::int32_t> level_begin{0};
    std::int32_t f0 = 0, count = 1, node_count = 1;
    while (count > 0) {
        bounds.reserve(9 * static_cast<std::size_t>(count));
        child_level.reserve(static_cast<std::size_t>(count));
        child_count.reserve(static_cast<std::size_t>(count));
        offset.reserve(static_cast<std::size_t>(count));
        split_frontier<<<blocks_for(static_cast<std::size_t>(count)), block>>>(
            keys_sorted.get(), topo.get(), level.get(), f0, count, bucket_size, bounds.get(),
            child_level.get(), child_count.get());
        std::size_t scan_bytes = 0;
        RUBBLE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, child_count.get(),
                                                        offset.get(), count));
        ensure_temp(scan_bytes);
        RUBBLE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.get(), scan_bytes, child_count.get(),
                                                        offset.get(), count));
        std::int32_t last[2] = {0, 0};
        RUBBLE_CUDA_CHECK(cudaMemcpy(&last[0], offset.get() + count - 1, sizeof(std::int32_t),
                                     cudaMemcpyDeviceToHost));
        RUBBLE_CUDA_CHECK(cudaMemcpy(&last[1], child_count.get() + count - 1, sizeof(std::int32_t),
                                     cudaMemcpyDeviceToHost));
        const std::int32_t added = last[0] + last[1];
        if (added == 0) break;
        if (static_cast<std::size_t>(node_count) + static_cast<std::size_t>(added) > node_cap)
            throw std::logic_error("gpu-tree: node count exceeds 2n");
        write_children<<<blocks_for(static_cast<std::size_t>(count)), block>>>(
            topo.get(), level.get(), f0, count, node_count, bounds.get(), child_level.get(),
            child_count.get(), offset.get());
        f0 = node_count;
        count = added;
        node_count += added;
        level_begin.push_back(f0);
    }
    level_begin.push_back(node_count);
    const auto nodes = static_cast<std::size_t>(node_count);

    // Leaves: nodes without children, in node order.
    leaves.reserve(nodes);
    std::size_t select_bytes = 0;
    thrust::counting_iterator<std::int32_t> first(0);
    RUBBLE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes, first, leaves.get(),
                                            scalars.get(), node_count, IsLeaf{topo.get()}));
    ensure_temp(select_bytes);
    RUBBLE_CUDA_CHECK(cub::DeviceSelect::If(temp.get(), select_bytes, first, leaves.get(),
                                            scalars.get(), node_count, IsLeaf{topo.get()}));
    std::int32_t leaf_count = 0;
    RUBBLE_CUDA_CHECK(
        cudaMemcpy(&leaf_count, scalars.get(), sizeof(std::int32_t), cudaMemcpyDeviceToHost));

    // Summaries: leaves, then internal nodes level by level from the deepest.
    summary.reserve(nodes);
    raw.reserve(nodes);
    const unsigned leaf_blocks = blocks_for(static_cast<std::size_t>(leaf_count));
    constexpr LeafKernel leaf_kernels[tree::max_multipole_order] = {
        summarise_leaves<1>, summarise_leaves<2>, summarise_leaves<3>, summarise_leaves<4>};
    leaf_kernels[order - 1]<<<leaf_blocks, block>>>(leaves.get(), leaf_count, topo.get(),
                                                    body.get(), summary.get(), raw.get());
    const auto depth = static_cast<int>(level_begin.size()) - 1;
    for (int d = depth - 1; d >= 0; --d) {
        const std::int32_t k0 = level_begin[static_cast<std::size_t>(d)];
        const std::int32_t kn = level_begin[static_cast<std::size_t>(d) + 1] - k0;
        summarise_internal<<<blocks_for(static_cast<std::size_t>(kn)), block>>>(
            topo.get(), k0, kn, order, summary.get(), raw.get());
    }
    walk.reserve(nodes);
    multipole.reserve(nodes);
    node_box.reserve(nodes);
    finish_nodes<<<blocks_for(nodes), block>>>(topo.get(), summary.get(), raw.get(), node_count,
                                               inv_theta2, walk.get(), multipole.get(),
                                               node_box.get());
    RUBBLE_CUDA_CHECK(cudaGetLastError());
    counts.nodes = nodes;
    counts.leaves = static_cast<std::size_t>(leaf_count);
    counts.depth = static_cast<std::size_t>(depth);
}

void TreeEngine::State::walk_and_scatter(std::size_t n) {
    if (walk_blocks == 0) {
        // A persistent grid: as many walk blocks as the device holds at once for this order.
        int device = 0, sms = 0, per_sm = 0;
        RUBBLE_CUDA_CHECK(cudaGetDevice(&device));
        RUBBLE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        const void* kernel = reinterpret_cast<const void*>(walk_kernel(order, mixed));
        RUBBLE_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, walk_warps * warp, 0));
        walk_blocks = sms * std::max(per_sm, 1);
    }
    const std::size_t warps = static_cast<std::size_t>(walk_blocks) * walk_warps;
    stacks.reserve(warps * stack_capacity);
    counters.reserve(3);
    overflow.reserve(1);
    RUBBLE_CUDA_CHECK(cudaMemset(counters.get(), 0, 3 * sizeof(unsigned long long)));
    RUBBLE_CUDA_CHECK(cudaMemset(overflow.get(), 0, sizeof(int)));
    const WalkArgs args{walk.get(),
                        multipole.get(),
                        node_box.get(),
                        leaves.get(),
                        static_cast<std::int32_t>(counts.leaves),
                        body.get(),
                        eps2,
                        stacks.get(),
                        ax.get(),
                        ay.get(),
                        az.get(),
                        phi.get(),
                        counters.get(),
                        overflow.get()};
    const unsigned blocks = static_cast<unsigned>(walk_blocks);
    const unsigned threads = walk_warps * warp;
    walk_kernel(order, mixed)<<<blocks, threads>>>(args);
    RUBBLE_CUDA_CHECK(cudaGetLastError());
    scatter<<<blocks_for(n), block>>>(order_sorted.get(), n, G, ax.get(), ay.get(), az.get(),
                                      phi.get(), bodies.acc.get(), bodies.pot.get());
    RUBBLE_CUDA_CHECK(cudaGetLastError());
}

TreeEngine::TreeEngine(double G, double softening, double theta, int order, int bucket_size,
                       bool mixed)
    : s_(std::make_unique<State>()) {
    s_->mixed = mixed;
    if (!(theta > 0.0 && theta < 1.0)) throw std::invalid_argument("gpu-tree: theta in (0, 1)");
    if (order < 1 || order > tree::max_multipole_order)
        throw std::invalid_argument("gpu-tree: multipole order in [1, 4]");
    if (bucket_size < 1) throw std::invalid_argument("gpu-tree: bucket size >= 1");
    s_->G = G;
    s_->eps2 = softening * softening;
    s_->inv_theta2 = 1.0 / (theta * theta);
    s_->order = order;
    s_->bucket_size = bucket_size;
}
TreeEngine::~TreeEngine() = default;

void TreeEngine::compute(const HostArrays& a) {
    const std::size_t n = a.n;
    if (n == 0) return;
    if (n > static_cast<std::size_t>(INT32_MAX / 2))
        throw std::invalid_argument("gpu-tree: at most 2^30 bodies");
    State& s = *s_;
    s.timer.record(0);
    s.bodies.upload(a);
    s.timer.record(1);
    s.build(n);
    s.timer.record(2);
    s.walk_and_scatter(n);
    s.timer.record(3);
    s.bodies.download(a);
    s.timer.record(4);
    s.times = {s.timer.seconds(0), s.timer.seconds(1), s.timer.seconds(2), s.timer.seconds(3)};
    int overflow = 0;
    unsigned long long counters[3] = {0, 0, 0};
    RUBBLE_CUDA_CHECK(cudaMemcpy(&overflow, s.overflow.get(), sizeof(int), cudaMemcpyDeviceToHost));
    RUBBLE_CUDA_CHECK(
        cudaMemcpy(counters, s.counters.get(), sizeof counters, cudaMemcpyDeviceToHost));
    if (overflow != 0)
        throw std::runtime_error("gpu-tree: a traversal stack overflowed (" +
                                 std::to_string(stack_capacity) + " nodes per warp)");
    s.counts.body_interactions = static_cast<double>(counters[0]);
    s.counts.node_interactions = static_cast<double>(counters[1]);
    s.counts.walk_batches = static_cast<double>(counters[2]);
}

StageTimes TreeEngine::times() const {
    return s_->times;
}
TreeCounts TreeEngine::counts() const {
    return s_->counts;
}

} // namespace rubble::gpu
