// SPDX-License-Identifier: MIT
#include "rubble/run/drift_over_ranks.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <span>
#include <tuple>
#include <utility>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/rank_errors.hpp"
#include "rubble/domain/migration.hpp"

namespace rubble::run {
namespace {

using collisions::BodyChange;

// An axis-aligned box (empty: lo above hi).
struct Box {
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());
    void add(const Vec3& p, double r) {
        lo = lo.cwiseMin(p - Vec3::Constant(r));
        hi = hi.cwiseMax(p + Vec3::Constant(r));
    }
    void add(const Box& b) {
        lo = lo.cwiseMin(b.lo);
        hi = hi.cwiseMax(b.hi);
    }
    [[nodiscard]] bool meets(const Box& o) const {
        return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
    }
};

// A change on the wire: the body's place in the serial order, the time, its line and its
// contact state (the row is the receiver's to find).
constexpr std::size_t change_doubles = 18;

void put_change(std::vector<double>& out, std::int64_t order, const BodyChange& c) {
    const collisions::detail::Moving& m = c.moving;
    const collisions::detail::Rigid& r = c.rigid;
    out.insert(out.end(),
               {static_cast<double>(order), c.time, m.pos.x(), m.pos.y(), m.pos.z(), m.time,
                m.vel.x(), m.vel.y(), m.vel.z(), m.radius, r.spin.x(), r.spin.y(), r.spin.z(),
                r.mass, r.inertia, r.free_path, r.turned, r.speed});
}

BodyChange get_change(const double* v, std::int64_t& order) {
    order = static_cast<std::int64_t>(v[0]);
    BodyChange c;
    c.time = v[1];
    c.moving =
        collisions::detail::Moving{Vec3(v[2], v[3], v[4]), v[5], Vec3(v[6], v[7], v[8]), v[9]};
    c.rigid =
        collisions::detail::Rigid{Vec3(v[10], v[11], v[12]), v[13], v[14], v[15], v[16], v[17]};
    return c;
}

template <class T> void put_bytes(std::vector<std::byte>& out, std::span<const T> values) {
    const std::size_t at = out.size(), n = values.size_bytes();
    out.resize(at + n);
    if (n > 0) std::memcpy(out.data() + at, values.data(), n);
}

// One collision record with the places of its bodies in the serial order (lower first), by
// which records of one time are ordered as the serial run processes them.
struct OrderedRecord {
    integrate::ContactRecord record;
    std::int64_t first = 0, second = 0;
};

// The bodies a rank drifts: its own and its ghosts, rows in the serial order.
struct LocalBodies {
    Bodies bodies;
    std::vector<std::int64_t> order;
    std::vector<std::uint8_t> ghost;
    std::vector<std::int64_t> own_row; // per row: the row in the rank's own bodies, or -1

    LocalBodies(const Bodies& own, std::span<const std::int64_t> own_order, const Bodies& ghosts,
                std::span<const std::int64_t> ghost_order) {
        Bodies all = own;
        all.append(ghosts);
        std::vector<std::int64_t> all_order(own_order.begin(), own_order.end());
        all_order.insert(all_order.end(), ghost_order.begin(), ghost_order.end());
        std::vector<std::size_t> rows(all.size());
        std::iota(rows.begin(), rows.end(), std::size_t{0});
        std::sort(rows.begin(), rows.end(),
                  [&](std::size_t a, std::size_t b) { return all_order[a] < all_order[b]; });
        bodies = all.select(rows);
        for (const std::size_t r : rows) {
            order.push_back(all_order[r]);
            ghost.push_back(r >= own.size() ? 1 : 0);
            own_row.push_back(r < own.size() ? static_cast<std::int64_t>(r) : -1);
        }
    }
    [[nodiscard]] std::int32_t row_of(std::int64_t o) const {
        const auto at = std::lower_bound(order.begin(), order.end(), o);
        if (at == order.end() || *at != o)
            throw std::logic_error("drift over ranks: a change of a body this rank does not hold");
        return static_cast<std::int32_t>(at - order.begin());
    }
};

// Every rank's records on rank 0, appended to `log` in the serial run's order: by time, and
// at one time by the pair's places in the serial order (the queue's order, LaterEvent).
void gather_log(const std::vector<OrderedRecord>& mine, core::Communicator& world,
                std::vector<integrate::ContactRecord>& log) {
    std::vector<std::byte> bytes;
    for (const OrderedRecord& r : mine) {
        put_bytes(bytes, std::span<const double>(&r.record.time, 1));
        put_bytes(bytes, std::span<const std::int64_t>(
                             std::array{r.record.id1, r.record.id2, r.first, r.second}));
        put_bytes(bytes, std::span<const double>(std::array{r.record.normal_speed,
                                                            r.record.tangential_speed,
                                                            r.record.impact_parameter}));
    }
    const auto all = world.all_gather_bytes(bytes);
    if (world.rank() != 0) return;
    constexpr std::size_t record_bytes = 4 * sizeof(double) + 4 * sizeof(std::int64_t);
    std::vector<OrderedRecord> merged;
    for (const std::vector<std::byte>& from : all)
        for (std::size_t at = 0; at + record_bytes <= from.size(); at += record_bytes) {
            std::array<double, 4> d{};
            std::array<std::int64_t, 4> i{};
            std::memcpy(&d[0], from.data() + at, sizeof(double));
            std::memcpy(i.data(), from.data() + at + sizeof(double), sizeof i);
            std::memcpy(&d[1], from.data() + at + sizeof(double) + sizeof i, 3 * sizeof(double));
            merged.push_back(
                {integrate::ContactRecord{d[0], i[0], i[1], d[1], d[2], d[3]}, i[2], i[3]});
        }
    std::stable_sort(merged.begin(), merged.end(),
                     [](const OrderedRecord& a, const OrderedRecord& b) {
                         return std::tie(a.record.time, a.first, a.second) <
                                std::tie(b.record.time, b.first, b.second);
                     });
    for (const OrderedRecord& r : merged)
        log.push_back(r.record);
}

} // namespace

bool drift_spreads_over_ranks(const collisions::CollisionConfig& c, bool all_free_spheres) {
    return all_free_spheres && c.walls.empty() && !(c.periodic_box > 0.0) &&
           c.outcome == collisions::ContactOutcome::bounce;
}

DriftOverRanks::DriftOverRanks(const collisions::CollisionConfig& config, RunRanks& ranks,
                               std::unique_ptr<integrate::Stepper> on_root)
    : config_(config), ranks_(ranks), root_(std::move(on_root)) {}

std::string DriftOverRanks::summary(const Bodies& b) const {
    return root_ ? root_->summary(b) : std::string();
}

void DriftOverRanks::discard() {
    if (root_) root_->discard();
}

std::vector<integrate::ContactRecord> DriftOverRanks::take_log() {
    std::vector<integrate::ContactRecord> out;
    out.swap(log_);
    return out;
}

integrate::StepperState DriftOverRanks::save_state() const {
    return root_ ? root_->save_state() : integrate::StepperState{};
}

void DriftOverRanks::restore_state(const integrate::StepperState& s) {
    if (root_) root_->restore_state(s);
}

integrate::StepStats DriftOverRanks::advance(Bodies& b, double h, double t0, bool /*may_abandon*/) {
    integrate::StepStats stats;
    if (drift_spread(b, h, t0, stats)) {
        ++spread_;
        return stats;
    }
    ++on_root_drifts_;
    return drift_on_root(b, h, t0);
}

integrate::StepStats DriftOverRanks::drift_on_root(Bodies& b, double h, double t0) {
    Bodies all = ranks_.gather_to_root(b);
    integrate::StepStats stats;
    core::together(ranks_.world(), [&] {
        if (!root_) return;
        stats = root_->advance(all, h, t0, false);
        std::vector<integrate::ContactRecord> log = root_->take_log();
        log_.insert(log_.end(), log.begin(), log.end());
    });
    ranks_.hold_on_root(b, std::move(all));
    stats.work.push_back({"rounds", 0.0});
    return stats;
}

bool DriftOverRanks::drift_spread(Bodies& b, double h, double t0, integrate::StepStats& stats) {
    core::Communicator& world = ranks_.world();
    const auto ranks = static_cast<std::size_t>(world.size());
    const auto me = static_cast<std::size_t>(world.rank());
    const std::vector<std::int64_t>& order = ranks_.order();
    const std::size_t n = b.size();

    // The boxes swept by this rank's bodies (grown by their radii): on their lines at the
    // start, then on their paths of the last round. A contact of two bodies lies in both.
    std::vector<Box> swept(n);
    for (std::size_t k = 0; k < n; ++k) {
        swept[k].add(b.pos[k], b.radius[k]);
        swept[k].add(b.pos[k] + h * b.vel[k], b.radius[k]);
    }
    std::vector<std::vector<std::uint8_t>> ghost_on(ranks, std::vector<std::uint8_t>(n, 0));
    Bodies ghosts = b.select({});
    std::vector<std::int64_t> ghost_order;
    std::vector<std::vector<std::byte>> told(ranks); // each rank's changes of the last round
    std::vector<std::pair<std::size_t, BodyChange>> changes; // own row, change: last round's
    std::unique_ptr<LocalBodies> local;
    Bodies result;
    std::vector<OrderedRecord> records;
    collisions::DriftStats drifted;

    for (int round = 0; round <= max_rounds; ++round) {
        // What each rank must hear: the bodies whose paths now come within reach of its bodies'
        // paths, as new ghosts, and the last round's changes of every body it holds as a ghost.
        Box region;
        for (const Box& s : swept)
            region.add(s);
        const std::array<double, 6> mine{region.lo.x(), region.lo.y(), region.lo.z(),
                                         region.hi.x(), region.hi.y(), region.hi.z()};
        const auto regions = world.all_gather_bytes(std::as_bytes(std::span(mine)));
        std::vector<std::vector<std::byte>> to_rank(ranks);
        for (std::size_t r = 0; r < ranks; ++r) {
            if (r == me) continue;
            std::array<double, 6> v{};
            std::memcpy(v.data(), regions[r].data(), sizeof v);
            Box theirs;
            theirs.lo = Vec3(v[0], v[1], v[2]);
            theirs.hi = Vec3(v[3], v[4], v[5]);
            std::vector<std::size_t> rows;
            std::vector<std::int64_t> rows_order;
            for (std::size_t k = 0; k < n; ++k)
                if (ghost_on[r][k] == 0 && swept[k].meets(theirs)) {
                    ghost_on[r][k] = 1;
                    rows.push_back(k);
                    rows_order.push_back(order[k]);
                }
            const std::vector<std::byte> packed =
                rows.empty() ? std::vector<std::byte>{}
                             : domain::pack_bodies(b.select(rows), rows_order);
            std::vector<double> said;
            for (const auto& [k, c] : changes)
                if (ghost_on[r][k] != 0) put_change(said, order[k], c);
            const std::uint64_t size = packed.size();
            put_bytes(to_rank[r], std::span<const std::uint64_t>(&size, 1));
            put_bytes(to_rank[r], std::span<const std::byte>(packed));
            put_bytes(to_rank[r], std::span<const double>(said));
        }
        const auto heard = world.exchange(to_rank);
        bool news = false;
        for (std::size_t r = 0; r < ranks; ++r) {
            if (r == me) continue;
            std::uint64_t size = 0;
            std::memcpy(&size, heard[r].data(), sizeof size);
            const std::span<const std::byte> bytes(heard[r]);
            if (size > 0) {
                domain::unpack_bodies(bytes.subspan(sizeof size, size), ghosts, ghost_order);
                news = true;
                local.reset();
            }
            const auto said = bytes.subspan(sizeof size + size);
            if (!std::equal(said.begin(), said.end(), told[r].begin(), told[r].end())) {
                told[r].assign(said.begin(), said.end());
                news = true;
            }
        }
        // No rank heard anything new: the last round drifted with what every body did.
        if (world.max(news ? 1 : 0) == 0 && round > 0) {
            b = std::move(result);
            stats.contacts = world.sum(drifted.collisions);
            stats.work = {{"rounds", static_cast<double>(round)},
                          {"ghosts", static_cast<double>(
                                         world.sum(static_cast<std::int64_t>(ghosts.size())))}};
            if (config_.log) gather_log(records, world, log_);
            return true;
        }
        if (round == max_rounds) break;

        // This round's drift: the rank's bodies and its ghosts, each ghost moving as its owner
        // said in the last round.
        if (!local) local = std::make_unique<LocalBodies>(b, order, ghosts, ghost_order);
        collisions::GhostedDrift ghosted;
        ghosted.ghost = local->ghost;
        for (std::size_t r = 0; r < ranks; ++r) {
            std::vector<double> v(told[r].size() / sizeof(double));
            if (!v.empty()) std::memcpy(v.data(), told[r].data(), told[r].size());
            for (std::size_t at = 0; at + change_doubles <= v.size(); at += change_doubles) {
                std::int64_t o = 0;
                BodyChange c = get_change(v.data() + at, o);
                c.row = local->row_of(o);
                ghosted.updates.push_back(c);
            }
        }
        std::stable_sort(ghosted.updates.begin(), ghosted.updates.end(),
                         [](const BodyChange& a, const BodyChange& c) { return a.time < c.time; });
        result = local->bodies;
        bool failed = false;
        try {
            collisions::EventDrivenDrift engine(config_);
            drifted = engine.drift_with_ghosts(result, h, t0, ghosted);
            records.clear();
            for (const integrate::ContactRecord& c : engine.take_log()) {
                const auto place = [&](std::int64_t id) {
                    return local->order[*result.index_of(id)];
                };
                const std::int64_t p1 = place(c.id1), p2 = place(c.id2);
                records.push_back({c, std::min(p1, p2), std::max(p1, p2)});
            }
        } catch (const std::exception&) {
            failed = true;
        }
        if (world.max(failed || ghosted.overlaps ? 1 : 0) != 0) return false;

        changes.clear();
        for (std::size_t k = 0; k < n; ++k) {
            swept[k] = Box{};
            swept[k].add(b.pos[k], b.radius[k]);
        }
        for (const BodyChange& c : ghosted.changes) {
            const auto k =
                static_cast<std::size_t>(local->own_row[static_cast<std::size_t>(c.row)]);
            changes.emplace_back(k, c);
            swept[k].add(c.moving.pos, b.radius[k]);
        }
        std::vector<std::size_t> own_rows;
        for (std::size_t row = 0; row < local->ghost.size(); ++row)
            if (local->ghost[row] == 0) {
                own_rows.push_back(row);
                const auto k = static_cast<std::size_t>(local->own_row[row]);
                swept[k].add(result.pos[row], b.radius[k]);
            }
        result = result.select(own_rows);
    }
    return false;
}

} // namespace rubble::run
