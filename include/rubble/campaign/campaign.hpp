// SPDX-License-Identifier: MIT
#pragma once
// A campaign (issue 22, docs/campaigns.md): one scenario (ic.type = scenario) run in several
// grain models over a sweep of initial-condition sets and seeds. A campaign file is an ordinary
// parameter file, whose keys every run shares, plus a [campaign] table that says what to sweep:
//
//   [campaign]
//   name = "ferrari2017"             # the index's name; default: the file's stem
//   directory = "ferrari2017"        # where runs and index go (default: the name)
//   models = ["sphere", "aggregate", "polyhedron"]
//   seeds = [1, 2, 3]
//   sets = ["0", "1.1", "1.2", "1.3", "2.1", "2.2", "2.3", "3"]
//   levels = [0.25, 0.5, 0.75, 1.0] # fractions of the maxima each varied quantity takes
//   v0 = 0.15                        # m/s, maxima (Ferrari et al. 2017, sec. 3.2)
//   w0 = 1e-2                        # rad/s
//   omega = 5e-5                     # rad/s
//   sphere_eps_t = 0.8               # the sphere model's tangential restitution
//
// Ferrari et al. 2017's sets vary the initial relative speed v0, the grains' spin w0 and the
// cloud's rotation Omega one, two and three at a time: 0 none; 1.1 v0, 1.2 w0, 1.3 Omega; 2.1
// v0 and w0, 2.2 v0 and Omega, 2.3 w0 and Omega; 3 all three. Each set other than 0 is run at
// every level (the varied quantities at level x their maxima), each of those at every seed, in
// every model: one ordinary run each, with its own HDF5 file, whose parameters name the
// campaign (campaign.id, campaign.set), so that a file cannot be mistaken for another
// campaign's. The index (DIR/campaign.json) lists the runs for the analysis.
//
// Contact parameters are shared, with one exception when the spheres run in the event-driven
// drift: its free spheres have no Coulomb law (collisions.mu acts on aggregates and
// polyhedra), so the sphere model's runs take collisions.mu = 0 and their tangential
// restitution from campaign.sphere_eps_t; without it nothing would take up their tangential
// motion. With collisions.stepper = "nsc" every model has the same contact law (Coulomb's mu,
// eps_n above v_min, resting contacts held) and nothing is changed per model.
#include <cstdint>
#include <string>
#include <vector>

#include "rubble/config/parameters.hpp"
#include "rubble/ic/scenario.hpp"

namespace rubble::campaign {

/// Ferrari et al. 2017's set names, in their order.
[[nodiscard]] const std::vector<std::string>& ferrari2017_sets();

/// One initial condition of the sweep: a set at a level.
struct CampaignSet {
    std::string name;   ///< "0", or family@level: "1.1@0.5"
    std::string family; ///< "1.1"
    double level = 0.0; ///< fraction of the maxima (0 for set 0)
    double v0 = 0.0;    ///< m/s
    double w0 = 0.0;    ///< rad/s
    double omega = 0.0; ///< rad/s
};

struct CampaignRun {
    std::string file;    ///< relative to the campaign's directory
    std::size_t set = 0; ///< into Campaign::sets
    std::int64_t seed = 0;
    ic::Representation model = ic::Representation::polyhedron;
};

struct Campaign {
    std::string path; ///< the campaign file
    std::string name;
    std::string directory; ///< relative to the working directory (or absolute)
    std::string id;        ///< 16 hex digits from the shared parameters and the sweep
    std::vector<ic::Representation> models;
    std::vector<std::int64_t> seeds;
    std::vector<CampaignSet> sets; ///< expanded: one per set and level
    std::vector<CampaignRun> runs; ///< sets x seeds x models, in that nesting
    double sphere_eps_t = 0.8;     ///< the sphere model's collisions.eps_t (its mu is 0)
    config::ParameterSet shared;   ///< the file's parameters, common to every run
    /// collisions.stepper = "nsc" in the shared parameters: every model takes one contact law.
    bool one_contact_law = false;
};

/// Reads and checks a campaign file. Throws InputError naming the file, line, key and value:
/// an unknown [campaign] key or set name, an empty or repeated list, a model or level out of
/// range, and a shared parameter that the campaign sets per run (random.seed, ic.motion.*,
/// ic.scenario.model, output.file, output.overwrite, campaign.*) or a shared ic.type other
/// than "scenario".
[[nodiscard]] Campaign load_campaign(const std::string& path);

/// The parameters of run k: the shared ones with the run's seed, motion, model, output file
/// and campaign tag (and, for the sphere model without one_contact_law, mu = 0 and eps_t =
/// sphere_eps_t).
[[nodiscard]] config::ParameterSet run_parameters(const Campaign& c, std::size_t k);

/// The run's output file, the campaign's directory joined with its name.
[[nodiscard]] std::string run_path(const Campaign& c, std::size_t k);
/// DIR/campaign.json.
[[nodiscard]] std::string index_path(const Campaign& c);

/// The index as JSON (format in docs/campaigns.md).
[[nodiscard]] std::string index_json(const Campaign& c);
/// The id of an existing index file ("" when it has none). Throws IoError when unreadable.
[[nodiscard]] std::string read_index_id(const std::string& path);

} // namespace rubble::campaign
