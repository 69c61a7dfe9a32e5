// SPDX-License-Identifier: MIT
#include "rubble/campaign/campaign.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "rubble/config/run_config.hpp"
#include "rubble/core/error.hpp"

namespace rubble::campaign {
namespace {

// Which of v0, w0, Omega each of Ferrari et al. 2017's sets varies (sec. 3.2).
struct SetFamily {
    const char* name;
    bool v0, w0, omega;
};
constexpr SetFamily families[] = {{"0", false, false, false},  {"1.1", true, false, false},
                                  {"1.2", false, true, false}, {"1.3", false, false, true},
                                  {"2.1", true, true, false},  {"2.2", true, false, true},
                                  {"2.3", false, true, true},  {"3", true, true, true}};

// Keys each run gets from the campaign, which the shared parameters must leave alone.
const char* const per_run_keys[] = {"random.seed",       "ic.motion.v0", "ic.motion.w0",
                                    "ic.motion.omega",   "output.file",  "output.overwrite",
                                    "ic.scenario.model", "campaign.id",  "campaign.set"};

std::string where(const std::string& path, const toml::node& n) {
    return path + ":" + std::to_string(n.source().begin.line);
}

// A number as the file may have written it (shortest round-trip form).
std::string number_text(double x) {
    std::ostringstream os;
    os << std::setprecision(17) << x;
    std::string shortest = os.str();
    for (int digits = 1; digits <= 17; ++digits) {
        std::ostringstream t;
        t << std::setprecision(digits) << x;
        if (std::stod(t.str()) == x) return t.str();
    }
    return shortest;
}

InputError bad(const std::string& path, const toml::node& n, const std::string& key,
               const std::string& why) {
    return InputError(where(path, n) + ": campaign." + key + ": " + why);
}

std::string string_of(const std::string& path, const toml::node& n, const std::string& key) {
    const auto* s = n.as_string();
    if (!s) throw bad(path, n, key, "must be a string");
    if (s->get().empty()) throw bad(path, n, key, "must not be empty");
    return s->get();
}

double number_of(const std::string& path, const toml::node& n, const std::string& key) {
    if (const auto* i = n.as_integer()) return static_cast<double>(i->get());
    if (const auto* d = n.as_floating_point()) {
        if (std::isfinite(d->get())) return d->get();
        throw bad(path, n, key, "must be a finite number");
    }
    throw bad(path, n, key, "must be a number");
}

const toml::array& array_of(const std::string& path, const toml::node& n, const std::string& key) {
    const auto* a = n.as_array();
    if (!a) throw bad(path, n, key, "must be an array");
    if (a->empty()) throw bad(path, n, key, "must not be empty");
    return *a;
}

// Refuses a list that names something twice: two runs would write one file.
template <class T>
void check_distinct(const std::string& path, const toml::node& n, const std::string& key,
                    const std::vector<T>& v) {
    std::set<T> seen(v.begin(), v.end());
    if (seen.size() != v.size()) throw bad(path, n, key, "lists a value twice");
}

std::string level_text(double level) {
    char s[32];
    std::snprintf(s, sizeof s, "%g", level);
    return s;
}

// FNV-1a, 64 bits (Fowler, Noll, Vo): the campaign's id from its resolved parameters and
// sweep, so that editing comments or moving lines does not change it, and any change of a
// value does.
std::string fnv1a_hex(const std::string& text) {
    std::uint64_t h = 14695981039346656037ULL;
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(h));
    return s;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char u[8];
            std::snprintf(u, sizeof u, "\\u%04x", static_cast<unsigned>(c));
            out += u;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string json_number(double x) {
    char s[32];
    std::snprintf(s, sizeof s, "%.17g", x);
    return s;
}

struct Sweep {
    std::vector<std::string> families;
    std::vector<double> levels;
    double v0 = 0.15, w0 = 1e-2, omega = 5e-5; // Ferrari et al. 2017's largest values
};

void read_sweep(const std::string& path, const toml::table& t, Campaign& c, Sweep& sw) {
    for (auto&& [k, node] : t) {
        const std::string key(k.str());
        if (key == "name") {
            c.name = string_of(path, node, key);
        } else if (key == "directory") {
            c.directory = string_of(path, node, key);
        } else if (key == "models") {
            c.models.clear();
            for (const toml::node& m : array_of(path, node, key)) {
                const auto model = enum_value(ic::representation_names, string_of(path, m, key));
                if (!model)
                    throw bad(path, m, key,
                              "\"" + m.as_string()->get() +
                                  "\" is not a grain model (sphere, aggregate, polyhedron)");
                c.models.push_back(*model);
            }
            check_distinct(path, node, key, c.models);
        } else if (key == "seeds") {
            c.seeds.clear();
            for (const toml::node& s : array_of(path, node, key)) {
                const auto* i = s.as_integer();
                if (!i || i->get() < 0)
                    throw bad(path, s, key, "each seed must be an integer >= 0");
                c.seeds.push_back(i->get());
            }
            check_distinct(path, node, key, c.seeds);
        } else if (key == "sets") {
            sw.families.clear();
            for (const toml::node& s : array_of(path, node, key)) {
                const std::string name = string_of(path, s, key);
                const auto& known = ferrari2017_sets();
                if (std::find(known.begin(), known.end(), name) == known.end())
                    throw bad(path, s, key,
                              "\"" + name +
                                  "\" is not one of Ferrari et al. 2017's sets (0, 1.1, 1.2, "
                                  "1.3, 2.1, 2.2, 2.3, 3)");
                sw.families.push_back(name);
            }
            check_distinct(path, node, key, sw.families);
        } else if (key == "levels") {
            sw.levels.clear();
            for (const toml::node& l : array_of(path, node, key)) {
                const double x = number_of(path, l, key);
                if (!(x > 0.0 && x <= 1.0))
                    throw bad(path, l, key,
                              "each level must be in (0, 1], a fraction of the maxima; " +
                                  number_text(x) + " is not");
                sw.levels.push_back(x);
            }
            check_distinct(path, node, key, sw.levels);
        } else if (key == "sphere_eps_t") {
            const double x = number_of(path, node, key);
            if (!(x >= -1.0 && x <= 1.0))
                throw bad(path, node, key, "must be in [-1, 1]; " + number_text(x) + " is not");
            c.sphere_eps_t = x;
        } else if (key == "v0" || key == "w0" || key == "omega") {
            const double x = number_of(path, node, key);
            if (key != "omega" && x < 0.0)
                throw bad(path, node, key, "must be >= 0; " + number_text(x) + " is not");
            (key == "v0" ? sw.v0 : key == "w0" ? sw.w0 : sw.omega) = x;
        } else {
            throw InputError(
                where(path, node) + ": campaign." + key +
                ": unknown key (name, directory, models, seeds, sets, levels, v0, "
                "w0, omega, sphere_eps_t; the runs' campaign.id and campaign.set are set by "
                "rubble campaign)");
        }
    }
}

void expand(Campaign& c, const Sweep& sw) {
    for (const std::string& name : sw.families) {
        const auto* f = std::find_if(std::begin(families), std::end(families),
                                     [&](const SetFamily& s) { return name == s.name; });
        const bool varies = f->v0 || f->w0 || f->omega;
        for (const double level : varies ? sw.levels : std::vector<double>{0.0}) {
            CampaignSet s;
            s.family = name;
            s.level = level;
            s.name = varies ? name + "@" + level_text(level) : name;
            s.v0 = f->v0 ? level * sw.v0 : 0.0;
            s.w0 = f->w0 ? level * sw.w0 : 0.0;
            s.omega = f->omega ? level * sw.omega : 0.0;
            c.sets.push_back(s);
        }
    }
    for (std::size_t k = 0; k < c.sets.size(); ++k) {
        for (const std::int64_t seed : c.seeds) {
            for (const ic::Representation m : c.models) {
                CampaignRun r;
                r.set = k;
                r.seed = seed;
                r.model = m;
                r.file = "set" + c.sets[k].name + "_seed" + std::to_string(seed) + "_" +
                         std::string(enum_name(ic::representation_names, m)) + ".h5";
                c.runs.push_back(r);
            }
        }
    }
}

void check_shared(const Campaign& c) {
    for (const char* key : per_run_keys) {
        if (c.shared.given(key))
            throw c.shared.error(key, "is set by the campaign for each run; leave it out of "
                                      "the campaign file (docs/campaigns.md)");
    }
    if (c.shared.given("ic.type") && c.shared.string("ic.type") != "scenario")
        throw c.shared.error("ic.type", "a campaign runs ic.type = \"scenario\" (one set of "
                                        "grains in several grain models)");
}

// Everything that makes the runs what they are, in one text: each shared value and the sweep.
std::string identity_text(const Campaign& c) {
    std::ostringstream os;
    os << c.name << '\n' << json_number(c.sphere_eps_t) << '\n';
    for (const auto& s : config::parameter_specs())
        os << s.key << '=' << config::to_toml_text(c.shared.value(s.key)) << '\n';
    for (std::size_t w = 0; w < c.shared.wall_count(); ++w) {
        for (const auto& key : c.shared.wall_keys(w))
            os << "walls[" << w << "]." << key << '='
               << config::to_toml_text(*c.shared.wall_value(w, key)) << '\n';
    }
    for (const CampaignRun& r : c.runs)
        os << r.file << ' ' << json_number(c.sets[r.set].v0) << ' ' << json_number(c.sets[r.set].w0)
           << ' ' << json_number(c.sets[r.set].omega) << '\n';
    return os.str();
}

} // namespace

const std::vector<std::string>& ferrari2017_sets() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& f : families)
            v.emplace_back(f.name);
        return v;
    }();
    return names;
}

Campaign load_campaign(const std::string& path) {
    const std::string text = config::read_parameter_text(path);
    Campaign c;
    c.path = path;
    c.shared = config::parse_parameters(text, path, "campaign"); // malformed TOML is refused here
    const toml::table table = toml::parse(text, path);
    c.name = std::filesystem::path(path).stem().string();
    c.models = {ic::Representation::sphere, ic::Representation::aggregate,
                ic::Representation::polyhedron};
    c.seeds = {1};
    Sweep sw;
    sw.families = ferrari2017_sets();
    sw.levels = {0.25, 0.5, 0.75, 1.0};
    if (const auto* node = table.get("campaign")) {
        const auto* t = node->as_table();
        if (!t) throw InputError(where(path, *node) + ": campaign: must be a table ([campaign])");
        read_sweep(path, *t, c, sw);
    } else {
        throw InputError(path + ": no [campaign] table: a campaign file is a parameter file with "
                                "a [campaign] table saying what to sweep (docs/campaigns.md)");
    }
    if (c.directory.empty()) c.directory = c.name;
    check_shared(c);
    c.shared.set("ic.type", std::string("scenario"), path + " (campaign)");
    // The shared keys checked together, as a run would.
    c.one_contact_law =
        config::make_run_config(c.shared).collisions.stepper == collisions::ContactStepper::nsc;
    expand(c, sw);
    c.id = fnv1a_hex(identity_text(c));
    return c;
}

config::ParameterSet run_parameters(const Campaign& c, std::size_t k) {
    const CampaignRun& r = c.runs.at(k);
    const CampaignSet& s = c.sets.at(r.set);
    config::ParameterSet p = c.shared;
    const std::string src =
        c.path + " (campaign set " + s.name + ", seed " + std::to_string(r.seed) + ")";
    p.set("random.seed", r.seed, src);
    p.set("ic.scenario.model", std::string(enum_name(ic::representation_names, r.model)), src);
    p.set("ic.motion.v0", s.v0, src);
    p.set("ic.motion.w0", s.w0, src);
    p.set("ic.motion.omega", s.omega, src);
    p.set("output.file", run_path(c, k), src);
    p.set("campaign.id", c.id, src);
    p.set("campaign.set", s.name, src);
    if (r.model == ic::Representation::sphere && !c.one_contact_law) {
        p.set("collisions.mu", 0.0, src + " (spheres: no Coulomb law)");
        p.set("collisions.eps_t", c.sphere_eps_t, src + " (campaign.sphere_eps_t)");
    }
    return p;
}

std::string run_path(const Campaign& c, std::size_t k) {
    return (std::filesystem::path(c.directory) / c.runs.at(k).file).string();
}

std::string index_path(const Campaign& c) {
    return (std::filesystem::path(c.directory) / "campaign.json").string();
}

std::string index_json(const Campaign& c) {
    std::ostringstream os;
    os << "{\n \"format\": \"rubble campaign index\",\n \"version\": 1,\n \"name\": "
       << json_string(c.name) << ",\n \"id\": " << json_string(c.id) << ",\n \"campaign_file\": "
       << json_string(std::filesystem::absolute(c.path).lexically_normal().string())
       << ",\n \"sphere_eps_t\": " << json_number(c.sphere_eps_t) << ",\n \"models\": [";
    for (std::size_t i = 0; i < c.models.size(); ++i)
        os << (i ? ", " : "")
           << json_string(std::string(enum_name(ic::representation_names, c.models[i])));
    os << "],\n \"seeds\": [";
    for (std::size_t i = 0; i < c.seeds.size(); ++i)
        os << (i ? ", " : "") << c.seeds[i];
    os << "],\n \"sets\": [";
    for (std::size_t i = 0; i < c.sets.size(); ++i) {
        const CampaignSet& s = c.sets[i];
        os << (i ? ",\n  " : "\n  ") << "{\"name\": " << json_string(s.name)
           << ", \"family\": " << json_string(s.family) << ", \"level\": " << json_number(s.level)
           << ", \"v0\": " << json_number(s.v0) << ", \"w0\": " << json_number(s.w0)
           << ", \"omega\": " << json_number(s.omega) << "}";
    }
    os << "],\n \"runs\": [";
    for (std::size_t i = 0; i < c.runs.size(); ++i) {
        const CampaignRun& r = c.runs[i];
        os << (i ? ",\n  " : "\n  ") << "{\"file\": " << json_string(r.file)
           << ", \"set\": " << json_string(c.sets[r.set].name) << ", \"seed\": " << r.seed
           << ", \"model\": "
           << json_string(std::string(enum_name(ic::representation_names, r.model))) << "}";
    }
    os << "]\n}\n";
    return os.str();
}

std::string read_index_id(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw IoError("cannot read the campaign index '" + path + "'");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string tag = "\"id\": \"";
    const auto at = text.find(tag);
    if (at == std::string::npos) return "";
    const auto end = text.find('"', at + tag.size());
    return end == std::string::npos ? "" : text.substr(at + tag.size(), end - at - tag.size());
}

} // namespace rubble::campaign
