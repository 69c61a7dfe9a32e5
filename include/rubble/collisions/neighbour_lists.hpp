// SPDX-License-Identifier: MIT
#pragma once
// Which pairs can collide: the neighbour finder of the event-driven drift, after the
// neighbour-list method of Donev, Torquato & Stillinger 2005 (J. Comput. Phys. 202, 737,
// sec. 3.2) for event-driven hard particles.
//
// Each body i owns a neighbourhood: a sphere of radius R_i (1 + skin) around a fixed centre
// c_i. The body's sphere stays inside it, because the engine queues an exit event for the
// moment its centre would have moved skin R_i from c_i, and then gives it a new neighbourhood
// around where it is (renew). Two bodies are neighbours when their neighbourhoods meet; two
// bodies that touch lie inside neighbourhoods that meet, so every pair that can collide is a
// listed pair, whatever the velocities. That makes the lists independent of velocity: kicks
// leave them valid, and they are kept from one drift to the next, rebuilt only when the set
// of bodies changes. Centres sit in a cell grid (wrapped when periodic; cells hashed into
// Morton-ordered buckets, so open space is unbounded) with cells at least one neighbourhood
// diameter wide, so a body's new neighbours are among the
// bodies of the 27 cells around its centre: O(1) per renewal, O(N) per rebuild. Bodies of
// different sizes sit at different levels of a hierarchical grid (Ogarko & Luding 2012), so a
// size distribution or a body grown by merging does not make the cells coarse for everyone.
#include <cstdint>
#include <vector>

#include "rubble/boundaries/periodic.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

class NeighbourLists {
public:
    /// Readies the lists for a drift of h seconds over bodies b. Rebuilt when bodies were
    /// added, removed, reordered or resized, or skin or box changed (box > 0: periodic cube of
    /// that side centred at the origin); otherwise kept, with a new neighbourhood for any body
    /// found outside its own. Returns true when rebuilt. Throws PhysicsError when the periodic
    /// box is too small for one image per pair.
    bool prepare(const Bodies& b, double h, double skin, double box);

    /// The largest skin prepare() accepts for these bodies, drift h and periodic box
    /// (+infinity when open; <= 0 when none fits).
    [[nodiscard]] static double largest_skin(const Bodies& b, double h, double box);

    /// Rebuilds everything from the bodies' present positions and radii.
    void rebuild(const Bodies& b, double skin, double box);

    /// Calls f(j, image) for every neighbour j of i, with the periodic image through which i
    /// sees j (image_of; kept with the entry, so the caller need not read j's neighbourhood).
    template <class F> void for_each_neighbour(std::int32_t i, F&& f) const {
        const std::uint32_t* row = row_of(static_cast<std::size_t>(i));
        for (std::uint32_t k = 1; k <= row[0]; ++k)
            f(body_of(row[k]), image_in(row[k]));
    }

    /// Starts loading i's list and neighbourhood (a hint for the cache; no effect).
    void prefetch(std::int32_t i) const {
        // Every line of the row: in a dense pile a list spans two.
        const std::size_t first = static_cast<std::size_t>(i) * row_lines_;
        for (std::size_t k = 0; k < row_lines_; ++k)
            __builtin_prefetch(&rows_[first + k]);
        prefetch_hood(i);
    }

    /// Starts loading i's neighbourhood (a hint for the cache; no effect).
    void prefetch_hood(std::int32_t i) const {
        __builtin_prefetch(&hood_[static_cast<std::size_t>(i)]);
    }

    /// The most bodies the lists can hold (an entry packs a body index and an image).
    static constexpr std::size_t max_bodies = std::size_t{1} << 27;

    /// The periodic image (boundaries/periodic.hpp) through which i sees its neighbour j: the one
    /// that brings their neighbourhoods together (boundaries::self_image when open).
    [[nodiscard]] std::int8_t image_of(std::int32_t i, std::int32_t j) const {
        if (box_ <= 0.0) return boundaries::self_image;
        const Vec3 d =
            hood_[static_cast<std::size_t>(j)].centre - hood_[static_cast<std::size_t>(i)].centre;
        int k = 0;
        for (int a = 0; a < 3; ++a) {
            // j is seen shifted by +-L or not at all: the image nearest to i (prepare() keeps
            // centres within a quarter box of the box, so |d| < 1.5 L).
            const int comp = d[a] > 0.5 * box_ ? -1 : (d[a] < -0.5 * box_ ? 1 : 0);
            k = 3 * k + comp + 1;
        }
        return static_cast<std::int8_t>(k);
    }

    /// Whether a body of i's at x is strictly inside the room its neighbourhood leaves it
    /// (with the margin exit_time() keeps).
    [[nodiscard]] bool inside(std::int32_t i, const Vec3& x) const;

    /// Time (s, >= 0) until a body of i's at x moving with v reaches the edge of the room its
    /// neighbourhood leaves it, or +infinity when it does not move.
    [[nodiscard]] double exit_time(std::int32_t i, const Vec3& x, const Vec3& v) const;

    /// Gives body i (radius r, now at x) a new neighbourhood centred at x and finds its
    /// neighbours.
    void renew(std::int32_t i, const Vec3& x, double r);

    /// Like renew(), but the new neighbourhood lies ahead of the body (now at x, moving with
    /// v): its centre is nearly the whole room away along v, so the body crosses it, about
    /// twice the room, before it has to be renewed again.
    void renew_ahead(std::int32_t i, const Vec3& x, const Vec3& v, double r);

    /// A neighbour and the periodic image through which it is seen (image_of).
    struct Seen {
        std::int32_t body;
        std::int8_t image;
    };
    /// The neighbours the last renew() found that were not neighbours before it.
    [[nodiscard]] const std::vector<Seen>& added() const { return added_; }

    /// Takes body i out of every list and the grid (it merged into another during a drift;
    /// the lists are rebuilt before the next one).
    void remove(std::int32_t i);

    /// Moves i's neighbourhood with the body when its position is wrapped into the box.
    void shift(std::int32_t i, const Vec3& s);

    /// Neighbourhoods renewed since the last prepare().
    [[nodiscard]] std::int64_t renewals() const { return renewals_; }

    /// Number of neighbouring pairs.
    [[nodiscard]] std::int64_t pair_count() const;

    /// m, side of the periodic cube the lists were built for (0: open).
    [[nodiscard]] double box() const { return box_; }

    /// How many times i's neighbourhood has been renewed (an exit event predicted before a
    /// renewal is stale).
    [[nodiscard]] std::uint32_t generation(std::int32_t i) const {
        return hood_[static_cast<std::size_t>(i)].generation;
    }

private:
    // A body in a grid bucket, with a copy of what the distance test needs (contiguous: the
    // centre wrapped into the box when periodic) and the key of its cell (buckets are shared
    // by hashed cells).
    struct Member {
        Vec3 centre;
        double reach;
        std::uint64_t key;
        std::int32_t body;
        // The whole periods the wrapping took off the neighbourhood's centre, (P_x, P_y, P_z)
        // coded 9 P_x + 3 P_y + P_z (0 when open): with the query's own, the scan knows the
        // image through which it sees the member without reading its neighbourhood.
        std::int8_t periods;
    };
    // One level of the hierarchical grid.
    struct Level {
        double side = 0.0;         // m, cell side
        std::int64_t per_side = 0; // cells per box side (periodic only)
        std::int64_t bodies = 0;   // bodies at this level
    };
    [[nodiscard]] int level_for(double reach); // adds levels as needed
    // Where the grid keeps a centre: wrapped into the box when periodic.
    [[nodiscard]] Vec3 grid_point(const Vec3& c) const;
    void cell_of(int level, const Vec3& g, std::int64_t cell[3]) const;
    // A cell's key (unique to the cell) and its bucket in the table.
    struct CellCode {
        std::uint64_t key;
        std::size_t bucket;
    };
    [[nodiscard]] CellCode code_of(int level, const std::int64_t cell[3]) const;
    [[nodiscard]] CellCode code_of(std::size_t i) const; // of body i's centre
    [[nodiscard]] std::size_t bucket_of_spot(std::uint64_t spot) const;
    // Whole periods between a centre coordinate c and its grid coordinate g (0 when open).
    [[nodiscard]] int whole_periods(double c, double g) const;
    // Member::periods of a centre c kept in the grid at g.
    [[nodiscard]] std::int8_t periods_of(const Vec3& c, const Vec3& g) const;
    static constexpr std::int8_t unknown_image = -1;
    [[nodiscard]] double nearest_image(double d) const; // periodic coordinate difference
    [[nodiscard]] bool meet(const Vec3& ci, double ri, const Vec3& ck, double rk) const;
    void insert(std::size_t i, const CellCode& code);
    void unlink(std::size_t i);
    // Calls f(k, meets, image) for bodies k (i itself included) at i's level and coarser ones
    // (and finer ones too when `finer`), with meets true for every k whose neighbourhood meets
    // i's (and false for some that do not, offered so that the caller need not branch), and,
    // where meets, the image through which i sees k (image_of) or unknown_image.
    template <class F> void visit_neighbours(std::size_t i, bool finer, F&& f) const;
    // A cell of a query's common case: its code, the query point as seen from it (moved by a
    // period across a periodic face), and the image of its members less their periods.
    struct NearCell {
        CellCode code;
        Vec3 at;
        int image_base;
    };
    // The cells of level l that a neighbourhood of radius `reach` at grid point q (body i's,
    // for its periods) may meet, in the common case of 27 around it: their number, or -1 when
    // the level needs the general search.
    int near_cells(int l, const Vec3& q, double reach, std::int32_t i, NearCell out[27]) const;

    // What renewals and exits read of one body, in one cache line.
    struct alignas(64) Hood {
        Vec3 centre;            // m
        double reach = 0.0;     // m, neighbourhood radius R (1 + skin)
        double limit = 0.0;     // m, how far the body may move: skin R less a round-off margin
        std::size_t bucket = 0; // of the grid table
        std::int32_t slot = -1; // in its bucket
        std::int32_t level = 0; // of the grid
        std::uint32_t generation = 0;
    };
    std::vector<Hood> hood_;
    // How far from its centre a body may go before it is renewed: the room less the margin
    // that keeps round-off inside, relative to the room and to the coordinates' size (the one
    // radius prepare(), inside() and exit_time() share).
    [[nodiscard]] static double room_limit(const Hood& hd);
    // The lists, one fixed-length row per body in one array (a row is a few whole cache lines:
    // a body's list costs one miss, not a vector header and its heap block): row[0] is the
    // count, row[1..] the neighbours. Rows grow together when one fills (rare).
    // An entry is the neighbour's index in the low 27 bits and its image in the top 5.
    static constexpr int image_shift = 27;
    static constexpr std::uint32_t body_mask = (std::uint32_t{1} << image_shift) - 1;
    static constexpr std::uint32_t unknown_slot = 31; // image bits of an entry still to make
    [[nodiscard]] static std::uint32_t entry_of(std::int32_t body, std::uint32_t image_bits) {
        return static_cast<std::uint32_t>(body) | image_bits << image_shift;
    }
    [[nodiscard]] static std::int32_t body_of(std::uint32_t e) {
        return static_cast<std::int32_t>(e & body_mask);
    }
    [[nodiscard]] static std::int8_t image_in(std::uint32_t e) {
        return static_cast<std::int8_t>(e >> image_shift);
    }
    [[nodiscard]] std::uint32_t entry(std::int32_t i, std::int32_t j) const {
        return entry_of(j, static_cast<std::uint32_t>(image_of(i, j)));
    }
    static constexpr std::size_t words_per_line = 16;
    struct alignas(64) Line {
        std::uint32_t v[words_per_line];
    };
    std::vector<Line> rows_;
    std::size_t row_lines_ = 1;
    [[nodiscard]] const std::uint32_t* row_of(std::size_t i) const {
        return rows_[i * row_lines_].v;
    }
    [[nodiscard]] std::uint32_t* row_of(std::size_t i) { return rows_[i * row_lines_].v; }
    void lay_out_rows(std::size_t lines);        // keeps the lists
    void make_room(std::size_t entries);         // rows grow until a list of `entries` fits
    void append(std::size_t i, std::uint32_t e); // entry e to i's list
    void erase(std::size_t i, std::int32_t j);   // j from i's list
    // j's entry in i's list, or nullptr (a list names each neighbour once).
    [[nodiscard]] std::uint32_t* entry_in_row(std::size_t i, std::int32_t j);
    std::vector<std::uint32_t> found_; // scratch of renew(): the new entries (and room after)
    // Hierarchical cell grid of the centres, all levels hashed into one bucket table.
    std::vector<Level> levels_;
    double base_side_ = 1.0; // m, cell side of level 0
    std::vector<std::vector<Member>> members_;
    int bucket_bits_ = 6;                 // the table has 2^bits buckets
    std::vector<std::uint32_t> previous_; // scratch of renew(): the old entries
    std::vector<Seen> added_;
    std::vector<std::uint32_t> changed_; // scratch of renew(): kept, through a new image
    std::vector<std::int32_t> departed_; // scratch of renew(): no longer neighbours
    // What the lists were built for.
    std::vector<std::int64_t> ids_;
    std::vector<double> radius_;
    double skin_ = -1.0;
    double box_ = 0.0;
    std::int64_t renewals_ = 0;
};

} // namespace rubble::collisions
