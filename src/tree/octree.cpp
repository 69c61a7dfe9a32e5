// SPDX-License-Identifier: MIT
#include "rubble/tree/octree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <parallel/algorithm>

#include "rubble/tree/morton.hpp"
#include "rubble/tree/multipole_finish.hpp"

namespace rubble::tree {
namespace {

constexpr std::uint32_t max_cell = (1u << morton_levels) - 1;

double clamp01(double v) {
    return std::clamp(v, 0.0, 1.0);
}

} // namespace

double segment_distance2(const Vec3& p0, const Vec3& u, const Vec3& q0, const Vec3& w) {
    // Closest points p0 + s u and q0 + t w (Ericson 2005, sec. 5.1.9), with the degenerate
    // cases (a point, parallel segments) handled explicitly.
    const Vec3 r = p0 - q0;
    const double a = u.squaredNorm(), e = w.squaredNorm(), f = w.dot(r);
    double s = 0.0, t = 0.0;
    if (a == 0.0 && e == 0.0) return r.squaredNorm();
    if (a == 0.0) {
        t = clamp01(f / e);
    } else {
        const double c = u.dot(r);
        if (e == 0.0) {
            s = clamp01(-c / a);
        } else {
            const double b = u.dot(w);
            const double denom = a * e - b * b;
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    return (p0 + s * u - (q0 + t * w)).squaredNorm();
}

void Octree::build(const TreeInputs& in, int bucket_size, int order) {
    const std::size_t n = in.pos.size();
    with_mass_ = !in.mass.empty();
    multipole_order_ = order;
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 hi = -lo;
    for (const Vec3& p : in.pos) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    const double side = n ? (hi - lo).maxCoeff() : 0.0;
    const double scale = side > 0.0 ? static_cast<double>(max_cell) / side : 0.0;

    std::vector<std::pair<std::uint64_t, std::int32_t>> keyed(n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c = (in.pos[i] - lo) * scale;
        const auto cell = [](double v) {
            return static_cast<std::uint32_t>(std::min(v, static_cast<double>(max_cell)));
        };
        keyed[i] = {morton_key(cell(c.x()), cell(c.y()), cell(c.z())),
                    static_cast<std::int32_t>(i)};
    }
    // (key, index) pairs are unique, so any correct sort gives the same order.
    __gnu_parallel::sort(keyed.begin(), keyed.end());

    order_.resize(n);
    keys_.resize(n);
    for (auto* v : {&x_, &y_, &z_, &m_, &r_, &vx_, &vy_, &vz_})
        v->resize(n);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(keyed[k].second);
        order_[k] = keyed[k].second;
        keys_[k] = keyed[k].first;
        x_[k] = in.pos[i].x();
        y_[k] = in.pos[i].y();
        z_[k] = in.pos[i].z();
        m_[k] = with_mass_ ? in.mass[i] : 0.0;
        r_[k] = in.radius.empty() ? 0.0 : in.radius[i];
        const Vec3 v = in.vel.empty() ? Vec3::Zero() : in.vel[i];
        vx_[k] = v.x();
        vy_[k] = v.y();
        vz_[k] = v.z();
    }

    nodes_.clear();
    leaves_.clear();
    nodes_.reserve(2 * n / static_cast<std::size_t>(std::max(bucket_size, 1)) + 16);
    Node root;
    root.end = static_cast<std::int32_t>(n);
    nodes_.push_back(root);
    if (n > 0) split(0, 0, std::max(bucket_size, 1));
    for (std::size_t k = 0; k < nodes_.size(); ++k)
        if (nodes_[k].leaf() && nodes_[k].count() > 0)
            leaves_.push_back(static_cast<std::int32_t>(k));

    multipoles_.assign(with_mass_ ? nodes_.size() : 0, Multipole{});
    const auto node_count = static_cast<std::ptrdiff_t>(nodes_.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::ptrdiff_t k = 0; k < node_count; ++k)
        summarise(static_cast<std::int32_t>(k));
}

void Octree::split(std::int32_t node, int level, int bucket_size) {
    const std::int32_t begin = nodes_[static_cast<std::size_t>(node)].begin;
    const std::int32_t end = nodes_[static_cast<std::size_t>(node)].end;
    if (end - begin <= bucket_size) return;
    std::int32_t bounds[9];
    const int nonempty = split_octants(keys_.data(), begin, end, level, bounds);
    if (nonempty <= 1) return; // identical keys: one (over-full) leaf
    const auto first_child = static_cast<std::int32_t>(nodes_.size());
    nodes_[static_cast<std::size_t>(node)].first_child = first_child;
    nodes_[static_cast<std::size_t>(node)].child_count = nonempty;
    for (int o = 0; o < 8; ++o) {
        if (bounds[o + 1] == bounds[o]) continue;
        Node child;
        child.begin = bounds[o];
        child.end = bounds[o + 1];
        nodes_.push_back(child);
    }
    for (std::int32_t c = 0; c < nonempty; ++c)
        split(first_child + c, level + 1, bucket_size);
}

void Octree::summarise(std::int32_t index) {
    Node& node = nodes_[static_cast<std::size_t>(index)];
    double mass = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    double lo[3] = {std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity()};
    double hi[3] = {-lo[0], -lo[1], -lo[2]};
    double r_max = 0.0, v2_max = 0.0;
    for (std::int32_t k = node.begin; k < node.end; ++k) {
        const double p[3] = {x_[k], y_[k], z_[k]};
        for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], p[d]);
            hi[d] = std::max(hi[d], p[d]);
        }
        mass += m_[k];
        cx += m_[k] * p[0];
        cy += m_[k] * p[1];
        cz += m_[k] * p[2];
        r_max = std::max(r_max, r_[k]);
        v2_max = std::max(v2_max, vx_[k] * vx_[k] + vy_[k] * vy_[k] + vz_[k] * vz_[k]);
    }
    for (int d = 0; d < 3; ++d) {
        node.lo[d] = lo[d];
        node.hi[d] = hi[d];
    }
    node.size = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    node.r_max = r_max;
    node.v_max = std::sqrt(v2_max);
    if (!with_mass_) return;
    // Centre of mass; the geometric centre for massless sets.
    const double com[3] = {mass > 0 ? cx / mass : 0.5 * (lo[0] + hi[0]),
                           mass > 0 ? cy / mass : 0.5 * (lo[1] + hi[1]),
                           mass > 0 ? cz / mass : 0.5 * (lo[2] + hi[2])};
    RawMoments raw;
    double b2 = 0.0;
    for (std::int32_t k = node.begin; k < node.end; ++k) {
        const double dx = x_[k] - com[0], dy = y_[k] - com[1], dz = z_[k] - com[2];
        b2 = std::max(b2, dx * dx + dy * dy + dz * dz);
        switch (multipole_order_) {
        case 1:
            break;
        case 2:
            raw.add<2>(m_[k], dx, dy, dz);
            break;
        case 3:
            raw.add<3>(m_[k], dx, dy, dz);
            break;
        default:
            raw.add<4>(m_[k], dx, dy, dz);
            break;
        }
    }
    node.b_max = std::sqrt(b2);
    Multipole& mp = multipoles_[static_cast<std::size_t>(index)];
    mp.mass = mass;
    for (int d = 0; d < 3; ++d)
        mp.com[d] = com[d];
    finish_multipole(raw, mp);
}

template <class Accept, class Visit> void Octree::traverse(Accept&& accept, Visit&& visit) const {
    if (nodes_.empty() || nodes_[0].count() == 0) return;
    std::int32_t stack[8 * morton_levels + 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[static_cast<std::size_t>(stack[--top])];
        if (!accept(node)) continue;
        if (node.leaf()) {
            visit(node);
            continue;
        }
        // Push in reverse so children are visited in key order (deterministic output order).
        for (std::int32_t c = node.child_count - 1; c >= 0; --c)
            stack[top++] = node.first_child + c;
    }
}

void Octree::groups(int max_bodies, std::vector<std::int32_t>& out) const {
    out.clear();
    if (nodes_.empty()) return;
    // Depth-first in key order, stopping at the first node small enough (or a leaf).
    std::int32_t stack[8 * morton_levels + 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const std::int32_t k = stack[--top];
        const Node& node = nodes_[static_cast<std::size_t>(k)];
        if (node.leaf() || node.count() <= max_bodies) {
            if (node.count() > 0) out.push_back(k);
            continue;
        }
        for (std::int32_t c = node.child_count - 1; c >= 0; --c)
            stack[top++] = node.first_child + c;
    }
}

std::vector<std::int32_t> Octree::bodies_within(const Vec3& c, double r) const {
    std::vector<std::int32_t> out;
    const double r2 = r * r;
    traverse(
        [&](const Node& node) {
            double d2 = 0.0;
            for (int d = 0; d < 3; ++d) {
                const double v = std::max({node.lo[d] - c[d], 0.0, c[d] - node.hi[d]});
                d2 += v * v;
            }
            return d2 <= r2;
        },
        [&](const Node& node) {
            for (std::int32_t k = node.begin; k < node.end; ++k) {
                const double dx = x_[k] - c.x(), dy = y_[k] - c.y(), dz = z_[k] - c.z();
                if (dx * dx + dy * dy + dz * dz <= r2)
                    out.push_back(order_[static_cast<std::size_t>(k)]);
            }
        });
    std::sort(out.begin(), out.end());
    return out;
}

template <class Pred>
std::vector<std::pair<std::int32_t, std::int32_t>> Octree::all_pairs(double h, Pred&& pred) const {
    std::vector<std::pair<std::int32_t, std::int32_t>> out;
    const auto n = static_cast<std::ptrdiff_t>(size());
#pragma omp parallel
    {
        std::vector<std::pair<std::int32_t, std::int32_t>> local;
#pragma omp for schedule(dynamic, 256)
        for (std::ptrdiff_t a = 0; a < n; ++a) {
            // The body's swept box, tested against each node's box grown by its largest
            // radius and largest drift.
            const double p[3] = {x_[a], y_[a], z_[a]};
            const double q[3] = {x_[a] + vx_[a] * h, y_[a] + vy_[a] * h, z_[a] + vz_[a] * h};
            double qlo[3], qhi[3];
            for (int d = 0; d < 3; ++d) {
                qlo[d] = std::min(p[d], q[d]) - r_[a];
                qhi[d] = std::max(p[d], q[d]) + r_[a];
            }
            traverse(
                [&](const Node& node) {
                    if (node.end <= a + 1) return false; // only partners later in the order
                    const double grow = node.r_max + node.v_max * h;
                    for (int d = 0; d < 3; ++d)
                        if (node.lo[d] - grow > qhi[d] || node.hi[d] + grow < qlo[d]) return false;
                    return true;
                },
                [&](const Node& node) {
                    for (std::int32_t b =
                             std::max<std::int32_t>(node.begin, static_cast<std::int32_t>(a) + 1);
                         b < node.end; ++b) {
                        if (!pred(static_cast<std::int32_t>(a), b)) continue;
                        const std::int32_t i = order_[static_cast<std::size_t>(a)];
                        const std::int32_t j = order_[static_cast<std::size_t>(b)];
                        local.emplace_back(std::min(i, j), std::max(i, j));
                    }
                });
        }
#pragma omp critical
        out.insert(out.end(), local.begin(), local.end());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::pair<std::int32_t, std::int32_t>> Octree::overlapping_pairs() const {
    return all_pairs(0.0, [&](std::int32_t a, std::int32_t b) {
        const double dx = x_[a] - x_[b], dy = y_[a] - y_[b], dz = z_[a] - z_[b];
        const double s = r_[a] + r_[b];
        return dx * dx + dy * dy + dz * dz < s * s;
    });
}

std::vector<std::pair<std::int32_t, std::int32_t>> Octree::swept_pairs(double h) const {
    return all_pairs(h, [&](std::int32_t a, std::int32_t b) {
        const double s = r_[a] + r_[b];
        return segment_distance2(Vec3(x_[a], y_[a], z_[a]), h * Vec3(vx_[a], vy_[a], vz_[a]),
                                 Vec3(x_[b], y_[b], z_[b]),
                                 h * Vec3(vx_[b], vy_[b], vz_[b])) <= s * s;
    });
}

std::vector<std::int32_t> Octree::swept_neighbours(std::int32_t i, double h) const {
    const auto it = std::find(order_.begin(), order_.end(), i);
    std::vector<std::int32_t> out;
    if (it == order_.end()) return out;
    const auto a = static_cast<std::size_t>(it - order_.begin());
    const Vec3 pa(x_[a], y_[a], z_[a]), ua = h * Vec3(vx_[a], vy_[a], vz_[a]);
    double qlo[3], qhi[3];
    for (int d = 0; d < 3; ++d) {
        qlo[d] = std::min(pa[d], pa[d] + ua[d]) - r_[a];
        qhi[d] = std::max(pa[d], pa[d] + ua[d]) + r_[a];
    }
    traverse(
        [&](const Node& node) {
            const double grow = node.r_max + node.v_max * h;
            for (int d = 0; d < 3; ++d)
                if (node.lo[d] - grow > qhi[d] || node.hi[d] + grow < qlo[d]) return false;
            return true;
        },
        [&](const Node& node) {
            for (std::int32_t b = node.begin; b < node.end; ++b) {
                if (static_cast<std::size_t>(b) == a) continue;
                const double s = r_[a] + r_[b];
                if (segment_distance2(pa, ua, Vec3(x_[b], y_[b], z_[b]),
                                      h * Vec3(vx_[b], vy_[b], vz_[b])) <= s * s)
                    out.push_back(order_[static_cast<std::size_t>(b)]);
            }
        });
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace rubble::tree
