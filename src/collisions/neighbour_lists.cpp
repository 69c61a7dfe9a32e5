// SPDX-License-Identifier: MIT
#include "rubble/collisions/neighbour_lists.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "rubble/boundaries/periodic.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

// The engine renews a neighbourhood when its body has used all but this fraction of the room:
// positions carry round-off, and the margin keeps every body strictly inside, so two touching
// bodies always have neighbourhoods that meet.
constexpr double room_margin = 1e-8;

// Coordinates carry round-off relative to their own size, not to the room: a body far from the
// origin in units of its room (a ring or a cloud 1e8 radii out) has coordinates whose last
// digits are coarser than room_margin of the room, and a renewal ahead could then leave it on
// or beyond the edge of its new neighbourhood, so that its next exit came at once (issue 18).
// The margin is the larger of room_margin of the room and this many units of round-off of the
// largest coordinate involved (a centre's, plus the room its body may wander): a few roundings
// of a position, a difference and a square (Higham 2002, sec. 3.1).
constexpr double coordinate_ulps = 8.0;

// How far a body may go from a centre c with room `room` (m) before its renewal, less
// `margins` round-off margins (one for the exit, two for a body placed by renew_ahead, so that
// it starts strictly inside). Where room_margin covers the coordinates' round-off (every body
// within some 1e7 rooms of the origin) this is the room times (1 - margins room_margin), as it
// always was; 0 when the coordinates are too coarse for the room altogether.
double inner_radius(const Vec3& c, double room, double margins) {
    const double roundoff =
        coordinate_ulps * std::numeric_limits<double>::epsilon() * (c.cwiseAbs().maxCoeff() + room);
    if (roundoff <= room_margin * room) return room * (1.0 - margins * room_margin);
    return std::max(room - margins * roundoff, 0.0);
}

// Cells a little wider than the neighbourhoods they hold: two centres whose neighbourhoods
// meet are then never more than the computed number of cells apart, round-off included.
constexpr double cell_slack = 1e-6;

std::int64_t floor_to_cell(double x) {
    // Clamped so that bodies flung far away (open space) still get a cell.
    constexpr double limit = 4.0e18;
    return static_cast<std::int64_t>(std::floor(std::clamp(x, -limit, limit)));
}

// Cell coordinates within +-packed_half pack into a key exactly (code_of).
constexpr std::int64_t packed_half = std::int64_t{1} << 19;

std::int64_t wrap_cell(std::int64_t c, std::int64_t n) {
    c %= n;
    return c < 0 ? c + n : c;
}

} // namespace

int NeighbourLists::level_for(double reach) {
    // Level l has cells at least base_side_ 2^l wide and holds neighbourhoods of up to half
    // that (Ogarko & Luding 2012, Comput. Phys. Commun. 183, 931: a hierarchical grid keeps
    // the search cost independent of the size ratio).
    int l = 0;
    double nominal = base_side_;
    while (nominal < 2.0 * reach * (1.0 + cell_slack)) {
        nominal *= 2.0;
        ++l;
    }
    while (static_cast<int>(levels_.size()) <= l) {
        const double side = base_side_ * std::ldexp(1.0, static_cast<int>(levels_.size()));
        Level level;
        level.side = side;
        if (box_ > 0.0) {
            level.per_side = std::max<std::int64_t>(1, floor_to_cell(box_ / side));
            level.side = box_ / static_cast<double>(level.per_side);
        }
        levels_.push_back(level);
    }
    return l;
}

Vec3 NeighbourLists::grid_point(const Vec3& c) const {
    return box_ > 0.0 ? boundaries::wrap_into_box(c, box_) : c;
}

void NeighbourLists::cell_of(int level, const Vec3& g, std::int64_t cell[3]) const {
    const Level& lv = levels_[static_cast<std::size_t>(level)];
    for (int d = 0; d < 3; ++d) {
        if (box_ > 0.0) // g is in the box; clamped so that round-off at the top face stays
            cell[d] = std::clamp<std::int64_t>(floor_to_cell((g[d] + 0.5 * box_) / lv.side), 0,
                                               lv.per_side - 1);
        else
            cell[d] = floor_to_cell(g[d] / lv.side);
    }
}

namespace {
// The splitmix64 finaliser (Steele, Lea & Flood 2014, OOPSLA).
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
std::uint64_t level_seed(int level) {
    return mix(static_cast<std::uint64_t>(level) + 0x9E3779B97F4A7C15ULL);
}
std::uint64_t chain(std::uint64_t h, std::int64_t c) {
    return mix(h ^ static_cast<std::uint64_t>(c));
}
} // namespace

namespace {
// The low 10 bits of v spread to every third bit (Morton interleaving).
std::uint64_t spread3(std::uint64_t v) {
    v &= 0x3FF;
    v = (v | (v << 16)) & 0x30000FFULL;
    v = (v | (v << 8)) & 0x300F00FULL;
    v = (v | (v << 4)) & 0x30C30C3ULL;
    v = (v | (v << 2)) & 0x9249249ULL;
    return v;
}

// A packed cell code is built from one part per level and per axis, so the 27 cells of a
// query are coded by OR-ing precomputed parts (visit_neighbours) exactly as code_of codes one.
bool packs(int level, std::int64_t c) {
    return level < 7 && std::abs(c) < packed_half;
}
std::uint64_t level_key(int level) {
    return static_cast<std::uint64_t>(level + 1) << 60;
}
std::uint64_t axis_key(int axis, std::int64_t c) {
    return static_cast<std::uint64_t>(c + packed_half) << (40 - 20 * axis);
}
std::uint64_t level_spot(int level) {
    return static_cast<std::uint64_t>(level + 1) * 0x9E3779B97F4A7C15ULL;
}
std::uint64_t axis_spot(int axis, std::int64_t c) {
    return spread3(static_cast<std::uint64_t>(c + packed_half)) << (2 - axis);
}
} // namespace

NeighbourLists::CellCode NeighbourLists::code_of(int level, const std::int64_t cell[3]) const {
    // The key: the level and the cell coordinates packed when they fit (4 + 3 x 20 bits:
    // coordinates within +-2^19 cells, the first seven levels), else chained through a mixing
    // function and marked by the top bit. Distinct cells get distinct keys (or, beyond the
    // packed range, do except with probability ~2^-63); members carry the key, so cells
    // sharing a bucket stay apart.
    // The bucket of a packed cell: the Morton code of the low coordinate bits, so that cells
    // near in space share cache lines and pages of the bucket table (a plain hash scatters the
    // 27 cells of every query over the whole table, which dominates at 1e5 bodies and more);
    // the level picks a different stretch of the table. A mixed key is already scattered.
    if (packs(level, cell[0]) && packs(level, cell[1]) && packs(level, cell[2]))
        return {level_key(level) | axis_key(0, cell[0]) | axis_key(1, cell[1]) |
                    axis_key(2, cell[2]),
                bucket_of_spot(level_spot(level) + (axis_spot(0, cell[0]) | axis_spot(1, cell[1]) |
                                                    axis_spot(2, cell[2])))};
    const std::uint64_t key =
        chain(chain(chain(level_seed(level), cell[0]), cell[1]), cell[2]) | (1ULL << 63);
    return {key, bucket_of_spot(key)};
}

std::size_t NeighbourLists::bucket_of_spot(std::uint64_t spot) const {
    return static_cast<std::size_t>(spot & ((std::uint64_t{1} << bucket_bits_) - 1));
}

int NeighbourLists::whole_periods(double c, double g) const {
    // Centres stay within a sweep of the box (prepare()): one period at most each way.
    return box_ > 0.0 ? static_cast<int>(std::lround((c - g) / box_)) : 0;
}

std::int8_t NeighbourLists::periods_of(const Vec3& c, const Vec3& g) const {
    int code = 0;
    for (int a = 0; a < 3; ++a)
        code = 3 * code + whole_periods(c[a], g[a]);
    return static_cast<std::int8_t>(code);
}

NeighbourLists::CellCode NeighbourLists::code_of(std::size_t i) const {
    const Hood& hd = hood_[i];
    std::int64_t cell[3];
    cell_of(hd.level, grid_point(hd.centre), cell);
    return code_of(hd.level, cell);
}

void NeighbourLists::insert(std::size_t i, const CellCode& code) {
    Hood& hd = hood_[i];
    hd.bucket = code.bucket;
    hd.slot = static_cast<std::int32_t>(members_[code.bucket].size());
    const Vec3 g = grid_point(hd.centre);
    members_[code.bucket].push_back(
        Member{g, hd.reach, code.key, static_cast<std::int32_t>(i), periods_of(hd.centre, g)});
    ++levels_[static_cast<std::size_t>(hd.level)].bodies;
}

void NeighbourLists::unlink(std::size_t i) {
    Hood& hd = hood_[i];
    auto& bucket = members_[hd.bucket];
    const auto s = static_cast<std::size_t>(hd.slot);
    bucket[s] = bucket.back();
    hood_[static_cast<std::size_t>(bucket[s].body)].slot = static_cast<std::int32_t>(s);
    bucket.pop_back();
    hd.slot = -1;
    --levels_[static_cast<std::size_t>(hd.level)].bodies;
}

void NeighbourLists::shift(std::int32_t i, const Vec3& s) {
    // The grid holds the centre wrapped into the box, which a shift by whole periods keeps;
    // the images between i and its neighbours change by that period.
    if (s == Vec3::Zero()) return;
    const auto ui = static_cast<std::size_t>(i);
    Hood& hd = hood_[ui];
    hd.centre += s;
    Member& held = members_[hd.bucket][static_cast<std::size_t>(hd.slot)];
    held.periods = periods_of(hd.centre, held.centre);
    std::uint32_t* row = row_of(ui);
    for (std::uint32_t k = 1; k <= row[0]; ++k) {
        const std::int32_t j = body_of(row[k]);
        row[k] = entry(i, j);
        if (std::uint32_t* back = entry_in_row(static_cast<std::size_t>(j), i)) *back = entry(j, i);
    }
}

void NeighbourLists::lay_out_rows(std::size_t lines) {
    std::vector<Line> rows(hood_.size() * lines);
    for (std::size_t i = 0; i < hood_.size(); ++i) {
        std::uint32_t* to = rows[i * lines].v;
        if (rows_.empty()) {
            to[0] = 0;
            continue;
        }
        const std::uint32_t* from = row_of(i);
        std::copy(from, from + 1 + from[0], to);
    }
    rows_.swap(rows);
    row_lines_ = lines;
}

void NeighbourLists::make_room(std::size_t entries) {
    // A row holds its count and its entries; when one would overflow, every row grows.
    while (entries + 1 > words_per_line * row_lines_)
        lay_out_rows(2 * row_lines_);
}

void NeighbourLists::append(std::size_t i, std::uint32_t e) {
    make_room(static_cast<std::size_t>(row_of(i)[0]) + 1);
    std::uint32_t* row = row_of(i);
    row[1 + row[0]++] = e;
}

std::uint32_t* NeighbourLists::entry_in_row(std::size_t i, std::int32_t j) {
    std::uint32_t* row = row_of(i);
    std::uint32_t* end = row + 1 + row[0];
    std::uint32_t* it =
        std::find_if(row + 1, end, [&](std::uint32_t e) { return body_of(e) == j; });
    return it == end ? nullptr : it;
}

void NeighbourLists::erase(std::size_t i, std::int32_t j) {
    std::uint32_t* it = entry_in_row(i, j);
    if (!it) return;
    std::uint32_t* row = row_of(i);
    *it = row[row[0]]; // the last entry takes its place
    --row[0];
}

double NeighbourLists::nearest_image(double d) const {
    // Centres stay within a sweep of the box, so this loops at most once (no libm round).
    while (d > 0.5 * box_)
        d -= box_;
    while (d < -0.5 * box_)
        d += box_;
    return d;
}

bool NeighbourLists::meet(const Vec3& ci, double ri, const Vec3& ck, double rk) const {
    Vec3 d = ck - ci;
    if (box_ > 0.0)
        for (int a = 0; a < 3; ++a)
            d[a] = nearest_image(d[a]);
    const double s = ri + rk;
    return d.squaredNorm() <= s * s;
}

int NeighbourLists::near_cells(int l, const Vec3& q, double reach, std::int32_t i,
                               NearCell out[27]) const {
    const Level& lv = levels_[static_cast<std::size_t>(l)];
    if (box_ > 0.0 && lv.per_side < 3) return -1;
    // The common case, 27 cells. A periodic neighbour cell across a face is seen through one
    // period: the query moves by it instead of every member (grid points are wrapped into the
    // box), so the distance test needs no nearest-image step.
    std::int64_t cc[3];
    cell_of(l, q, cc);
    // The image through which a member is seen: the period the query moved by, and
    // the periods the wrapping took off both centres, give the whole periods between
    // the two neighbourhoods' centres, n = shift + P_k - P_i (|n| <= 1 a side, and the
    // pair's offset from n L is below a third of the box here, where image_of's
    // comparisons decide the same): image 13 - (9 n_x + 3 n_y + n_z).
    std::int64_t near[3][3];
    double moved[3][3];
    int image_part[3][3];
    const Vec3& own_centre = hood_[static_cast<std::size_t>(i)].centre;
    for (int d = 0; d < 3; ++d) {
        const int weight = d == 0 ? 9 : (d == 1 ? 3 : 1);
        const int own_periods = whole_periods(own_centre[d], q[d]);
        for (int o = 0; o < 3; ++o) {
            std::int64_t c = cc[d] + o - 1;
            int shift = 0; // periods the query moves by to see this cell
            if (box_ > 0.0 && c < 0) {
                c += lv.per_side;
                shift = 1;
            } else if (box_ > 0.0 && c >= lv.per_side) {
                c -= lv.per_side;
                shift = -1;
            }
            near[d][o] = c;
            moved[d][o] = q[d] + (shift == 0 ? 0.0 : (shift > 0 ? box_ : -box_));
            image_part[d][o] = (shift - own_periods) * weight;
        }
    }
    // Codes by parts when the cells pack (code_of), else one by one.
    bool packed = true;
    std::uint64_t key_part[3][3], spot_part[3][3];
    for (int d = 0; d < 3; ++d)
        for (int o = 0; o < 3; ++o) {
            packed = packed && packs(l, near[d][o]);
            key_part[d][o] = axis_key(d, near[d][o]);
            spot_part[d][o] = axis_spot(d, near[d][o]);
        }
    // Cells out of reach are skipped: the query sphere (radius reach plus the largest
    // reach this level holds, half its side) misses about a quarter of the 27 cells, the
    // corners and edges the query point is far from. gap[d][o]^2 is the squared distance
    // from the query point to the slab of cells at offset o along axis d.
    double gap[3][3];
    for (int d = 0; d < 3; ++d) {
        const double origin = box_ > 0.0 ? -0.5 * box_ : 0.0;
        const double below = q[d] - (origin + static_cast<double>(cc[d]) * lv.side);
        const double lo = std::max(0.0, below), hi = std::max(0.0, lv.side - below);
        gap[d][0] = lo * lo;
        gap[d][1] = 0.0;
        gap[d][2] = hi * hi;
    }
    const double rho = (reach + 0.5 * lv.side) * (1.0 + cell_slack);
    const double rho2 = rho * rho;
    const std::uint64_t key_base = level_key(l), spot_base = level_spot(l);
    int count = 0;
    for (int ox = 0; ox < 3; ++ox)
        for (int oy = 0; oy < 3; ++oy)
            for (int oz = 0; oz < 3; ++oz) {
                if (gap[0][ox] + gap[1][oy] + gap[2][oz] > rho2) continue;
                const std::int64_t cell[3] = {near[0][ox], near[1][oy], near[2][oz]};
                out[count++] = NearCell{
                    packed
                        ? CellCode{key_base | key_part[0][ox] | key_part[1][oy] | key_part[2][oz],
                                   bucket_of_spot(spot_base + (spot_part[0][ox] | spot_part[1][oy] |
                                                               spot_part[2][oz]))}
                        : code_of(l, cell),
                    Vec3(moved[0][ox], moved[1][oy], moved[2][oz]),
                    boundaries::self_image - image_part[0][ox] - image_part[1][oy] -
                        image_part[2][oz]};
            }
    return count;
}

template <class F> void NeighbourLists::visit_neighbours(std::size_t i, bool finer, F&& f) const {
    const int own = hood_[i].level;
    const Vec3 q = grid_point(hood_[i].centre);
    const double reach = hood_[i].reach;
    for (int l = finer ? 0 : own; l < static_cast<int>(levels_.size()); ++l) {
        const Level& lv = levels_[static_cast<std::size_t>(l)];
        if (lv.bodies == 0) continue;
        // Layers of cells within reach: one at the body's own level and above (cells there are
        // wider than any two neighbourhoods they hold), more at finer levels.
        std::int64_t m = 1;
        if (l < own)
            m = static_cast<std::int64_t>(
                std::ceil((reach + 0.5 * lv.side) / lv.side * (1.0 + cell_slack)));
        NearCell near[27];
        const int count = m == 1 ? near_cells(l, q, reach, static_cast<std::int32_t>(i), near) : -1;
        if (count >= 0) {
            // Each cell's members are requested before any is read: the misses overlap.
            for (int k = 0; k < count; ++k) {
                const auto& bucket = members_[near[k].code.bucket];
                if (bucket.empty()) continue;
                __builtin_prefetch(bucket.data());
                __builtin_prefetch(&bucket.back().body); // (a second line, if it spans two)
            }
            for (int k = 0; k < count; ++k) {
                const NearCell& c = near[k];
                // Every member is offered with its verdict, without a branch on it (which of
                // a cell's few members meet is unpredictable).
                for (const Member& mb : members_[c.code.bucket]) {
                    const double s = reach + mb.reach;
                    const bool meets =
                        (mb.key == c.code.key) & ((mb.centre - c.at).squaredNorm() <= s * s);
                    f(mb.body, meets, static_cast<std::int8_t>(c.image_base - mb.periods));
                }
            }
            continue;
        }
        std::int64_t cc[3];
        cell_of(l, q, cc);
        // Every distinct cell within m layers (a periodic grid of fewer than 2m + 1 cells a
        // side would otherwise repeat cells), with the nearest-image distance.
        const auto test = [&](const Member& mb) {
            f(mb.body, meet(q, reach, mb.centre, mb.reach), unknown_image);
        };
        std::vector<std::int64_t> axis[3];
        for (int d = 0; d < 3; ++d) {
            if (box_ > 0.0 && 2 * m + 1 >= lv.per_side) {
                for (std::int64_t c = 0; c < lv.per_side; ++c)
                    axis[d].push_back(c);
            } else {
                for (std::int64_t c = cc[d] - m; c <= cc[d] + m; ++c)
                    axis[d].push_back(box_ > 0.0 ? wrap_cell(c, lv.per_side) : c);
            }
        }
        const double cells = static_cast<double>(axis[0].size()) *
                             static_cast<double>(axis[1].size()) *
                             static_cast<double>(axis[2].size());
        if (cells > static_cast<double>(lv.bodies)) {
            // More cells than bodies at that level (a large body over a fine level): go
            // through the level's bodies instead.
            for (const Hood& hk : hood_)
                if (hk.level == l && hk.slot >= 0)
                    test(members_[hk.bucket][static_cast<std::size_t>(hk.slot)]);
            continue;
        }
        for (const std::int64_t x : axis[0])
            for (const std::int64_t y : axis[1])
                for (const std::int64_t z : axis[2]) {
                    const std::int64_t cell[3] = {x, y, z};
                    const CellCode code = code_of(l, cell);
                    for (const Member& mb : members_[code.bucket])
                        if (mb.key == code.key) test(mb);
                }
    }
}

void NeighbourLists::rebuild(const Bodies& b, double skin, double box) {
    const std::size_t n = b.size();
    if (n >= max_bodies)
        throw PhysicsError("collisions: " + std::to_string(n) +
                           " bodies; the neighbour lists hold at most " +
                           std::to_string(max_bodies - 1));
    skin_ = skin;
    box_ = box;
    ids_ = b.id;
    radius_ = b.radius;
    hood_.assign(n, Hood{});
    double smallest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        hood_[i].centre = b.pos[i];
        hood_[i].reach = b.radius[i] * (1.0 + skin);
        hood_[i].limit = inner_radius(b.pos[i], b.radius[i] * skin, 1.0);
        smallest = std::min(smallest, hood_[i].reach);
    }
    base_side_ = n > 0 ? 2.0 * smallest * (1.0 + cell_slack) : 1.0;
    levels_.clear();
    for (std::size_t i = 0; i < n; ++i)
        hood_[i].level = level_for(hood_[i].reach);
    std::size_t buckets = 64;
    bucket_bits_ = 6;
    while (buckets < 2 * n) {
        buckets *= 2;
        ++bucket_bits_;
    }
    members_.resize(buckets);
    for (auto& m : members_)
        m.clear();
    // Inserted in bucket order, so that the buckets' storage is laid out in that order too.
    std::vector<std::pair<CellCode, std::size_t>> by_bucket(n);
    for (std::size_t i = 0; i < n; ++i)
        by_bucket[i] = {code_of(i), i};
    std::sort(by_bucket.begin(), by_bucket.end(), [](const auto& x, const auto& y) {
        return x.first.bucket != y.first.bucket ? x.first.bucket < y.first.bucket
                                                : x.second < y.second;
    });
    for (const auto& [code, i] : by_bucket)
        insert(i, code);
    // Each body looks at its own level and coarser ones; a pair across levels is found from
    // the finer side only and entered on both sides afterwards.
    std::vector<std::vector<std::int32_t>> lists(n);
    std::vector<std::pair<std::int32_t, std::int32_t>> across;
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel
    {
        std::vector<std::pair<std::int32_t, std::int32_t>> mine;
#pragma omp for schedule(static)
        for (std::ptrdiff_t s = 0; s < count; ++s) {
            const auto i = static_cast<std::size_t>(s);
            visit_neighbours(i, false, [&](std::int32_t k, bool meets, std::int8_t) {
                if (!meets || k == s) return;
                if (hood_[static_cast<std::size_t>(k)].level == hood_[i].level)
                    lists[i].push_back(k); // the other side finds this pair too
                else
                    mine.emplace_back(static_cast<std::int32_t>(s), k);
            });
        }
#pragma omp critical
        across.insert(across.end(), mine.begin(), mine.end());
    }
    for (const auto& [i, k] : across) {
        lists[static_cast<std::size_t>(i)].push_back(k);
        lists[static_cast<std::size_t>(k)].push_back(i);
    }
    // Rows with room for the longest list and a third more (renewals change the counts).
    std::size_t longest = 0;
    for (const auto& l : lists)
        longest = std::max(longest, l.size());
    std::size_t lines = 1;
    while (words_per_line * lines < 2 + longest + longest / 3)
        lines *= 2;
    rows_.clear();
    lay_out_rows(lines);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t* row = row_of(i);
        row[0] = static_cast<std::uint32_t>(lists[i].size());
        for (std::size_t k = 0; k < lists[i].size(); ++k)
            row[1 + k] = entry(static_cast<std::int32_t>(i), lists[i][k]);
    }
    renewals_ = 0;
}

namespace {
// Positions are wrapped only at the end of a drift and neighbourhoods are centred where bodies
// are (or a room ahead), so centres stay within a sweep plus a neighbourhood radius of the box.
// One image per pair, seen through a shift of at most one period, needs that to be at most a
// quarter of the box (image_of).
constexpr double reach_of_box = 0.25;
} // namespace

double NeighbourLists::largest_skin(const Bodies& b, double h, double box) {
    double skin = std::numeric_limits<double>::infinity();
    if (!(box > 0.0)) return skin;
    const auto n = static_cast<std::ptrdiff_t>(b.size());
    // Each body's |v| h + R (1 + skin) <= L / 4 (prepare()).
#pragma omp parallel for schedule(static) reduction(min : skin)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(k);
        skin = std::min(skin, (reach_of_box * box - b.vel[i].norm() * h) / b.radius[i] - 1.0);
    }
    return skin;
}

bool NeighbourLists::prepare(const Bodies& b, double h, double skin, double box) {
    const std::size_t n = b.size();
    if (box > 0.0 && skin > largest_skin(b, h, box)) {
        // The same rule as largest_skin, turned round to name what overfills the box.
        double largest = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            largest = std::max(largest, b.vel[i].norm() * h + b.radius[i] * (1.0 + skin));
        throw PhysicsError("collisions.periodic_box = " + std::to_string(box) +
                           " m is smaller than four times the largest neighbourhood radius "
                           "plus the distance its body sweeps in one drift (" +
                           std::to_string(largest) +
                           " m): enlarge it, reduce integrator.dt or collisions.skin");
    }
    const bool same =
        skin == skin_ && box == box_ && n == ids_.size() && b.id == ids_ && b.radius == radius_;
    if (!same) {
        rebuild(b, skin, box);
        return true;
    }
    renewals_ = 0;
    // Normally every body ended the last drift inside its neighbourhood; one that did not
    // (moved by the caller since) gets a new one.
    for (std::size_t i = 0; i < n; ++i) {
        const double room = room_limit(hood_[i]);
        if ((b.pos[i] - hood_[i].centre).squaredNorm() > room * room)
            renew(static_cast<std::int32_t>(i), b.pos[i], b.radius[i]);
    }
    return false;
}

double NeighbourLists::room_limit(const Hood& hd) {
    return hd.limit;
}

bool NeighbourLists::inside(std::int32_t i, const Vec3& x) const {
    const Hood& hd = hood_[static_cast<std::size_t>(i)];
    const double rho = room_limit(hd);
    return (x - hd.centre).squaredNorm() < rho * rho;
}

double NeighbourLists::exit_time(std::int32_t i, const Vec3& x, const Vec3& v) const {
    // Smallest positive root of |p + v t|^2 = rho^2 with p = x - c inside (c0 = p^2 - rho^2
    // <= 0), in the form without cancellation (as in predict.hpp): the roots' product is
    // c0 / a <= 0, so one is >= 0.
    const Hood& hd = hood_[static_cast<std::size_t>(i)];
    const Vec3 p = x - hd.centre;
    const double rho = room_limit(hd);
    const double a = v.squaredNorm();
    if (!(a > 0.0)) return std::numeric_limits<double>::infinity();
    const double bb = p.dot(v);
    const double c0 = p.squaredNorm() - rho * rho;
    if (c0 >= 0.0) return 0.0;
    const double root = std::sqrt(bb * bb - a * c0);
    return bb > 0.0 ? -c0 / (bb + root) : (root - bb) / a;
}

void NeighbourLists::renew(std::int32_t i, const Vec3& x, double r) {
    const auto ui = static_cast<std::size_t>(i);
    ++renewals_;
    Hood& hd = hood_[ui];
    ++hd.generation;
    const std::uint32_t* old = row_of(ui);
    previous_.assign(old + 1, old + 1 + old[0]);
    hd.centre = x;
    hd.reach = r * (1.0 + skin_);
    hd.limit = inner_radius(x, r * skin_, 1.0);
    radius_[ui] = r;
    const int level = level_for(hd.reach); // a merged body may need a coarser level
    if (level == hd.level) {
        // Usually the new centre is in the same cell (a room is a fraction of a cell): the
        // grid entry is updated where it is.
        const CellCode code = code_of(ui);
        Member& held = members_[hd.bucket][static_cast<std::size_t>(hd.slot)];
        if (code.bucket == hd.bucket && code.key == held.key) {
            held.centre = grid_point(hd.centre);
            held.reach = hd.reach;
            held.periods = periods_of(hd.centre, held.centre);
        } else {
            unlink(ui);
            insert(ui, code);
        }
    } else {
        unlink(ui);
        hd.level = level;
        insert(ui, code_of(ui));
    }
    // Filled without a branch on each member's verdict (which of a cell's few members meet
    // is unpredictable): every member is written after the kept ones and kept by counting.
    std::size_t n = 0;
    visit_neighbours(ui, true, [&](std::int32_t k, bool meets, std::int8_t image) {
        if (n == found_.size()) found_.resize(2 * n + 64); // (grows a few times, then stays)
        // The entry, with the image where the scan knew it (else the marker, resolved below).
        const std::uint32_t known =
            image != unknown_image ? static_cast<std::uint32_t>(image) : unknown_slot;
        found_[n] = entry_of(k, known);
        n += static_cast<std::size_t>(meets && k != i);
    });
    const std::span<std::uint32_t> found(found_.data(), n);
    // Only the lists that change are touched: a body moved by a room keeps most neighbours.
    // A kept neighbour's entry changes only if the image between them did (possible only for
    // neighbourhoods near a quarter of the box).
    const auto previous_entry = [&](std::int32_t k) {
        for (const std::uint32_t& e : previous_)
            if (body_of(e) == k) return &e;
        return static_cast<const std::uint32_t*>(nullptr);
    };
    // First what changes, with the rows it touches requested at once (each is a miss, and
    // they are independent), then the changes.
    added_.clear();
    changed_.clear();
    departed_.clear();
    for (std::uint32_t& e : found) {
        const auto k = body_of(e);
        if ((e >> image_shift) == unknown_slot) e = entry(i, k);
        const std::uint32_t* was = previous_entry(k);
        if (!was) {
            added_.push_back(Seen{k, image_in(e)});
            __builtin_prefetch(row_of(static_cast<std::size_t>(k)));
        } else if (*was != e) {
            changed_.push_back(e);
            __builtin_prefetch(row_of(static_cast<std::size_t>(k)));
        }
    }
    for (const std::uint32_t e : previous_) {
        const std::int32_t j = body_of(e);
        if (std::none_of(found.begin(), found.end(),
                         [&](std::uint32_t f) { return body_of(f) == j; })) {
            departed_.push_back(j);
            __builtin_prefetch(row_of(static_cast<std::size_t>(j)));
        }
    }
    // k sees i through the image opposite to the one through which i sees k.
    const auto seen_from = [&](std::int8_t image) {
        return entry_of(i, static_cast<std::uint32_t>(boundaries::opposite_image(image)));
    };
    for (const Seen& a : added_)
        append(static_cast<std::size_t>(a.body), seen_from(a.image));
    for (const std::uint32_t e : changed_) // (rewritten in place, as shift() does)
        *entry_in_row(static_cast<std::size_t>(body_of(e)), i) = seen_from(image_in(e));
    for (const std::int32_t j : departed_)
        erase(static_cast<std::size_t>(j), i);
    make_room(found.size());
    std::uint32_t* row = row_of(ui);
    row[0] = static_cast<std::uint32_t>(found.size());
    std::copy(found.begin(), found.end(), row + 1);
}

void NeighbourLists::remove(std::int32_t i) {
    const auto ui = static_cast<std::size_t>(i);
    for_each_neighbour(i,
                       [&](std::int32_t j, std::int8_t) { erase(static_cast<std::size_t>(j), i); });
    row_of(ui)[0] = 0;
    unlink(ui);
    ++hood_[ui].generation;
}

void NeighbourLists::renew_ahead(std::int32_t i, const Vec3& x, const Vec3& v, double r) {
    const double speed = v.norm();
    const double room = r * skin_;
    if (speed > 0.0) {
        // Inside by a margin twice the exit's, so the body starts strictly within its room;
        // checked in the arithmetic inside() and exit_time() use, so that the next exit is
        // strictly later (EventDrivenDrift::renew_at_exit relies on it).
        const Vec3 ahead = x + (inner_radius(x, room, 2.0) / speed) * v;
        const double rho = inner_radius(ahead, room, 1.0);
        if ((x - ahead).squaredNorm() < rho * rho) {
            renew(i, ahead, r);
            return;
        }
    }
    // At rest, or the coordinates too coarse to place the centre ahead: centred on the body
    // (x - x is exactly 0, inside whenever the room exceeds the coordinates' round-off).
    renew(i, x, r);
}

std::int64_t NeighbourLists::pair_count() const {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < hood_.size(); ++i)
        total += row_of(i)[0];
    return total / 2;
}

} // namespace rubble::collisions
