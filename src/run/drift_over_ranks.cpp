// SPDX-License-Identifier: MIT
#include "rubble/run/drift_over_ranks.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "rubble/collisions/event_drift.hpp"
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

// Where a rank's bodies go in a drift, as boxes to send: the bodies binned by where they start
// on a grid of cells_per_side^3 over their bounding box, each cell the union of its bodies'
// swept boxes; the first box is the union of all (a quick test before the cells'). Six
// doubles per box.
constexpr int cells_per_side = 4;

std::vector<std::byte> region_of(std::span<const Vec3> start, std::span<const Box> swept) {
    Box all, at;
    for (std::size_t k = 0; k < start.size(); ++k) {
        all.add(swept[k]);
        at.add(start[k], 0.0);
    }
    constexpr int g = cells_per_side;
    std::vector<Box> cells(static_cast<std::size_t>(g * g * g));
    const Vec3 size = (at.hi - at.lo).cwiseMax(Vec3::Constant(1e-300));
    for (std::size_t k = 0; k < start.size(); ++k) {
        std::size_t cell = 0;
        for (int d = 0; d < 3; ++d) {
            const int c =
                std::clamp(static_cast<int>(g * (start[k][d] - at.lo[d]) / size[d]), 0, g - 1);
            cell = cell * g + static_cast<std::size_t>(c);
        }
        cells[cell].add(swept[k]);
    }
    std::vector<double> out;
    const auto put = [&](const Box& c) {
        out.insert(out.end(), {c.lo.x(), c.lo.y(), c.lo.z(), c.hi.x(), c.hi.y(), c.hi.z()});
    };
    put(all);
    for (const Box& c : cells)
        if ((c.lo.array() <= c.hi.array()).all()) put(c);
    std::vector<std::byte> bytes(out.size() * sizeof(double));
    if (!out.empty()) std::memcpy(bytes.data(), out.data(), bytes.size());
    return bytes;
}

std::vector<Box> boxes_of(std::span<const std::byte> bytes) {
    std::vector<double> v(bytes.size() / sizeof(double));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    std::vector<Box> boxes(v.size() / 6);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        boxes[i].lo = Vec3(v[6 * i], v[6 * i + 1], v[6 * i + 2]);
        boxes[i].hi = Vec3(v[6 * i + 3], v[6 * i + 4], v[6 * i + 5]);
    }
    return boxes;
}

// Whether a box meets a region of boxes_of (the union first, then its cells).
bool meets_any(const Box& b, std::span<const Box> region) {
    if (region.empty() || !b.meets(region[0])) return false;
    for (std::size_t i = 1; i < region.size(); ++i)
        if (b.meets(region[i])) return true;
    return false;
}

// The same in a periodic box of side L (L > 0): whether any periodic image of the box meets
// the region. Paths are not wrapped during a drift (the engine wraps positions at its end), so
// a body near one face meets the region near the opposite one through the image a period
// away, as the engine's neighbour lists find the pair.
bool meets_any(const Box& b, std::span<const Box> region, double L) {
    if (!(L > 0.0)) return meets_any(b, region);
    for (int x = -1; x <= 1; ++x)
        for (int y = -1; y <= 1; ++y)
            for (int z = -1; z <= 1; ++z) {
                const Vec3 shift = L * Vec3(x, y, z);
                Box image = b;
                image.lo += shift;
                image.hi += shift;
                if (meets_any(image, region)) return true;
            }
    return false;
}

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

// The changes the ranks told this one, as updates of its ghosts' rows, in time order (at one
// time in the order each owner made them; two owners never change one body).
std::vector<BodyChange> updates_from(const std::vector<std::vector<std::byte>>& told,
                                     const LocalBodies& local) {
    std::vector<BodyChange> updates;
    for (const std::vector<std::byte>& bytes : told) {
        std::vector<double> v(bytes.size() / sizeof(double));
        if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
        for (std::size_t at = 0; at + change_doubles <= v.size(); at += change_doubles) {
            std::int64_t o = 0;
            BodyChange c = get_change(v.data() + at, o);
            c.row = local.row_of(o);
            updates.push_back(c);
        }
    }
    std::stable_sort(updates.begin(), updates.end(),
                     [](const BodyChange& a, const BodyChange& c) { return a.time < c.time; });
    return updates;
}

bool same_change(const BodyChange& a, const BodyChange& c) {
    const auto& m = a.moving;
    const auto& n = c.moving;
    const auto& r = a.rigid;
    const auto& q = c.rigid;
    return a.time == c.time && a.row == c.row && m.pos == n.pos && m.time == n.time &&
           m.vel == n.vel && m.radius == n.radius && r.spin == q.spin && r.mass == q.mass &&
           r.inertia == q.inertia && r.free_path == q.free_path && r.turned == q.turned &&
           r.speed == q.speed;
}

// One rank's drift with its ghosts, round after round, window after window: the engine is
// copied at checkpoints (the drift's start and the end of every window, h / windows apart), so
// that a round whose ghosts' changes first differ from the last round's at time t goes back to
// the last checkpoint at or before t, not to the start: what lay before t is unchanged, since
// events are resolved in time order. A round drifts only to the end of the current window.
class RankDrift {
public:
    RankDrift(const collisions::CollisionConfig& config, const Bodies& own,
              std::span<const std::int64_t> own_order, const Bodies& ghosts,
              std::span<const std::int64_t> ghost_order, double h, double t0, int windows)
        : local_(own, own_order, ghosts, ghost_order), config_(config), h_(h), t0_(t0),
          windows_(windows) {
        ghosted_.ghost = local_.ghost;
    }

    [[nodiscard]] const LocalBodies& local() const { return local_; }
    [[nodiscard]] bool overlaps() const { return ghosted_.overlaps; }
    /// This rank's bodies' changes in the last redo(), in the order made.
    [[nodiscard]] const std::vector<BodyChange>& changes() const { return ghosted_.changes; }

    /// Drifts again with `updates` to the end of window `window` (nothing when they are the
    /// last round's and it is there already).
    void redo(std::vector<BodyChange> updates, int window) {
        if (!saved_.empty()) {
            std::size_t same = 0;
            const auto& old = ghosted_.updates;
            while (same < updates.size() && same < old.size() &&
                   same_change(updates[same], old[same]))
                ++same;
            if (same == updates.size() && same == old.size()) {
                run_to(window); // (on from where it is, if the window moved on)
                return;
            }
            const double first = std::min(same < updates.size() ? updates[same].time : h_,
                                          same < old.size() ? old[same].time : h_);
            std::size_t back = 0; // the last checkpoint at or before `first`
            while (back + 1 < saved_.size() && saved_[back + 1].time <= first)
                ++back;
            saved_.erase(saved_.begin() + static_cast<std::ptrdiff_t>(back) + 1, saved_.end());
            const Saved& s = saved_.back();
            engine_ = s.engine;
            work_ = s.work;
            ghosted_.changes.resize(s.changes);
            ghosted_.updates = std::move(updates);
            engine_.use_ghosts(ghosted_);
            reached_ = s.window;
            run_to(window);
            return;
        }
        ghosted_.updates = std::move(updates);
        engine_ = collisions::EventDrivenDrift(config_);
        work_ = local_.bodies;
        if (!engine_.begin_with_ghosts(work_, h_, t0_, ghosted_)) return;
        saved_.push_back({0.0, 0, engine_, work_, 0});
        reached_ = 0;
        run_to(window);
    }

    /// The drift ended: this rank's own bodies in `b`, its collision records (their bodies'
    /// places in the serial order beside them) in `records`.
    collisions::DriftStats finish(Bodies& b, std::vector<OrderedRecord>& records) {
        const collisions::DriftStats stats = engine_.end_with_ghosts(work_);
        for (const integrate::ContactRecord& c : engine_.take_log()) {
            const auto place = [&](std::int64_t id) { return local_.order[*work_.index_of(id)]; };
            if (c.id1 < 0) {
                // Wall k's record (-1 - k, body id), placed as the serial queue orders it
                // among the body's events of one time: walls before bodies, highest k first
                // (event_queue.hpp, Partner: its code -2 - k).
                records.push_back({c, place(c.id2), c.id1 - 1});
                continue;
            }
            const std::int64_t p1 = place(c.id1), p2 = place(c.id2);
            records.push_back({c, std::min(p1, p2), std::max(p1, p2)});
        }
        std::vector<std::size_t> own_rows;
        for (std::size_t row = 0; row < local_.ghost.size(); ++row)
            if (local_.ghost[row] == 0) own_rows.push_back(row);
        b = work_.select(own_rows);
        return stats;
    }

private:
    struct Saved {
        double time;
        int window; // windows done at `time`
        collisions::EventDrivenDrift engine;
        Bodies work;
        std::size_t changes;
    };
    // The events on to the end of window `window` (the last: to the drift's end), a checkpoint
    // at the end of each window passed.
    void run_to(int window) {
        for (; reached_ <= window && reached_ < windows_; ++reached_) {
            if (reached_ + 1 == windows_) {
                engine_.ghosted_until(work_, std::numeric_limits<double>::infinity());
                continue;
            }
            const double t = h_ * (reached_ + 1) / windows_;
            engine_.ghosted_until(work_, t);
            saved_.push_back({t, reached_ + 1, engine_, work_, ghosted_.changes.size()});
        }
    }

    LocalBodies local_;
    collisions::CollisionConfig config_;
    double h_, t0_;
    int windows_;
    int reached_ = 0; // windows done
    collisions::GhostedDrift ghosted_;
    collisions::EventDrivenDrift engine_{config_};
    Bodies work_;
    std::vector<Saved> saved_;
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
    return all_free_spheres && c.outcome == collisions::ContactOutcome::bounce &&
           c.stepper != collisions::ContactStepper::nsc;
}

DriftOverRanks::DriftOverRanks(const collisions::CollisionConfig& config, RunRanks& ranks,
                               std::unique_ptr<integrate::Stepper> on_root, Placement placement)
    : config_(config), ranks_(ranks), root_(std::move(on_root), ranks), placement_(placement) {}

std::string DriftOverRanks::summary(const Bodies& b) const {
    return root_.summary(b);
}

void DriftOverRanks::discard() {
    root_.discard();
}

std::vector<integrate::ContactRecord> DriftOverRanks::take_log() {
    std::vector<integrate::ContactRecord> out;
    out.swap(log_);
    return out;
}

integrate::StepperState DriftOverRanks::save_state() const {
    return root_.save_state();
}

void DriftOverRanks::restore_state(const integrate::StepperState& s) {
    root_.restore_state(s);
}

bool DriftOverRanks::choose_spread() {
    ++drifts_;
    if (placement_ == Placement::spread) return true;
    if (spread_seconds_ < 0.0) return true; // each measured once first
    if (root_seconds_ < 0.0) return false;
    // Now and then the slower one again: its time may have changed with the state.
    const bool faster = spread_seconds_ <= root_seconds_;
    return drifts_ % probe_every == 0 ? !faster : faster;
}

void DriftOverRanks::note_seconds(double& estimate, std::chrono::steady_clock::time_point start) {
    // The slowest rank's time, the same on every rank (so is every choice that follows).
    const double local =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double seconds =
        static_cast<double>(ranks_.world().max(static_cast<std::int64_t>(local * 1e6))) * 1e-6;
    estimate = estimate < 0.0 ? seconds : 0.7 * estimate + 0.3 * seconds;
}

integrate::StepStats DriftOverRanks::advance(Bodies& b, double h, double t0, bool /*may_abandon*/) {
    integrate::StepStats stats;
    const auto start = std::chrono::steady_clock::now();
    if (choose_spread()) {
        const bool spread = drift_spread(b, h, t0, stats);
        note_seconds(spread_seconds_, start);
        if (spread) {
            ++spread_;
            return stats;
        }
    }
    ++on_root_drifts_;
    const auto root_start = std::chrono::steady_clock::now();
    stats = drift_on_root(b, h, t0);
    note_seconds(root_seconds_, root_start);
    return stats;
}

integrate::StepStats DriftOverRanks::drift_on_root(Bodies& b, double h, double t0) {
    integrate::StepStats stats = root_.advance(b, h, t0, false);
    const std::vector<integrate::ContactRecord> log = root_.take_log(); // (rank 0's)
    log_.insert(log_.end(), log.begin(), log.end());
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
    // At first each path is taken to stay within twice its reach on its line (collisions
    // turn paths; a path that leaves the box makes its body a ghost in a later round, which
    // costs that rank's drift a restart).
    std::vector<Box> swept(n);
    for (std::size_t k = 0; k < n; ++k)
        swept[k].add(b.pos[k], b.radius[k] + 2.0 * h * b.vel[k].norm());
    std::vector<std::vector<std::uint8_t>> ghost_on(ranks, std::vector<std::uint8_t>(n, 0));
    Bodies ghosts = b.select({});
    std::vector<std::int64_t> ghost_order;
    std::vector<std::vector<std::byte>> told(ranks); // each rank's changes of the last round
    std::vector<std::pair<std::size_t, BodyChange>> changes; // own row, change: last round's
    std::unique_ptr<RankDrift> drift;
    bool failed_last = false; // this rank's last drift threw

    int window = 0, window_round = 0; // the window drifted to, the round that began it
    for (int round = 0;; ++round) {
        // What each rank must hear: the bodies whose paths now come within reach of its bodies'
        // paths, as new ghosts, and the last round's changes of every body it holds as a ghost.
        const auto regions = world.all_gather_bytes(region_of(b.pos, swept));
        std::vector<std::vector<std::byte>> to_rank(ranks);
        for (std::size_t r = 0; r < ranks; ++r) {
            if (r == me) continue;
            const std::vector<Box> theirs = boxes_of(regions[r]);
            std::vector<std::size_t> rows;
            std::vector<std::int64_t> rows_order;
            for (std::size_t k = 0; k < n; ++k)
                if (ghost_on[r][k] == 0 && meets_any(swept[k], theirs, config_.periodic_box)) {
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
        bool news = false, new_ghosts = false;
        for (std::size_t r = 0; r < ranks; ++r) {
            if (r == me) continue;
            std::uint64_t size = 0;
            std::memcpy(&size, heard[r].data(), sizeof size);
            const std::span<const std::byte> bytes(heard[r]);
            if (size > 0) {
                domain::unpack_bodies(bytes.subspan(sizeof size, size), ghosts, ghost_order);
                new_ghosts = true;
            }
            const auto said = bytes.subspan(sizeof size + size);
            if (!std::equal(said.begin(), said.end(), told[r].begin(), told[r].end())) {
                told[r].assign(said.begin(), said.end());
                news = true;
            }
        }
        // No rank heard anything new: the last round drifted to the window's end with what
        // every body did; on to the next window, or the drift is done.
        const bool quiet = world.max(news || new_ghosts || failed_last ? 1 : 0) == 0;
        if (quiet && round > window_round && window + 1 < windows_) {
            ++window;
            window_round = round;
        } else if (quiet && round > window_round) {
            std::vector<OrderedRecord> records;
            const collisions::DriftStats drifted = drift->finish(b, records);
            stats.contacts = world.sum(drifted.collisions);
            stats.work = {{"rounds", static_cast<double>(round)},
                          {"ghosts", static_cast<double>(
                                         world.sum(static_cast<std::int64_t>(ghosts.size())))}};
            if (config_.log) gather_log(records, world, log_);
            // (The same on every rank: so are the rounds.)
            if (round > 5 * windows_)
                windows_ = std::min(2 * windows_, max_windows);
            else if (round < 3 * windows_)
                windows_ = std::max(windows_ / 2, 1);
            return true;
        }
        if (round - window_round == max_rounds) {
            windows_ = std::min(2 * windows_, max_windows);
            break;
        }

        // This round's drift: the rank's bodies and its ghosts, each ghost moving as its owner
        // said in the last round; from the start when the ghosts are new, else from the last
        // checkpoint before the first change that differs from the last round's.
        bool failed = false;
        try {
            if (new_ghosts || !drift)
                drift = std::make_unique<RankDrift>(config_, b, order, ghosts, ghost_order, h, t0,
                                                    windows_);
            drift->redo(updates_from(told, drift->local()), window);
        } catch (const std::exception&) {
            // Told wrong changes, a rank's drift can meet what no body did (a ghost put where
            // one of its bodies is: a collapse, a renewal without end). It says what its bodies
            // did before (events come in time order, so that part is as good as any round's:
            // exact up to the first wrong change it was told) and the rounds go on: saying
            // nothing new instead can leave the ranks where they were, the same wrong changes
            // told again and the same failure, round after round (measured: a gas of 32,768
            // spheres over two ranks). A failure that does not pass is the serial run's,
            // which rank 0 meets after the last round.
            failed = true;
        }
        if (world.max(drift && drift->overlaps() ? 1 : 0) != 0) return false;
        failed_last = failed;
        failed_rounds_ += world.sum(failed ? 1 : 0);
        if (failed && !drift) continue; // (nothing drifted: it keeps what it said last)

        changes.clear();
        for (std::size_t k = 0; k < n; ++k) {
            swept[k] = Box{};
            swept[k].add(b.pos[k], b.radius[k]);
        }
        // (Each body's path: its start, each change, and its last line to the drift's end.)
        std::vector<Vec3> end = b.pos;
        for (std::size_t k = 0; k < n; ++k)
            end[k] += h * b.vel[k];
        for (const BodyChange& c : drift->changes()) {
            const auto k =
                static_cast<std::size_t>(drift->local().own_row[static_cast<std::size_t>(c.row)]);
            changes.emplace_back(k, c);
            swept[k].add(c.moving.pos, b.radius[k]);
            end[k] = c.moving.pos + (h - c.moving.time) * c.moving.vel;
        }
        for (std::size_t k = 0; k < n; ++k)
            swept[k].add(end[k], b.radius[k]);
        if (failed) drift.reset(); // (its engine stopped part-way: the next round starts afresh)
    }
    return false;
}

} // namespace rubble::run
