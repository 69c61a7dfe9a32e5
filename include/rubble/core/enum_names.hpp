// SPDX-License-Identifier: MIT
#pragma once
// The names of a string option's values: one constexpr table per option, beside its enum,
// pairing each name (as written in the parameter file) with its value. The parameter table
// lists the allowed values from it (so the TOML reader, --help and docs/parameters.md do),
// config::RunConfig parses with it and messages print with it, so no two places can disagree.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rubble {

template <class E> struct EnumName {
    std::string_view name; ///< as written in the parameter file
    E value;
};

template <class E, std::size_t N> using EnumNames = std::array<EnumName<E>, N>;

/// The value named `name`, or nothing.
template <class E, std::size_t N>
[[nodiscard]] constexpr std::optional<E> enum_value(const EnumNames<E, N>& table,
                                                    std::string_view name) {
    for (const EnumName<E>& e : table)
        if (e.name == name) return e.value;
    return std::nullopt;
}

/// The name of `value` (the first, should two names share it).
template <class E, std::size_t N>
[[nodiscard]] constexpr std::string_view enum_name(const EnumNames<E, N>& table, E value) {
    for (const EnumName<E>& e : table)
        if (e.value == value) return e.name;
    return "?";
}

/// Every name, in table order (the allowed values of the option).
template <class E, std::size_t N>
[[nodiscard]] std::vector<std::string> enum_names(const EnumNames<E, N>& table) {
    std::vector<std::string> out;
    for (const EnumName<E>& e : table)
        out.emplace_back(e.name);
    return out;
}

} // namespace rubble
