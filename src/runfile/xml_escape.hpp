// SPDX-License-Identifier: MIT
#pragma once
// Text as XML character data or an attribute value (the five predefined entities, XML 1.0
// section 2.4): for names a user chose (run files, snapshots) in the XDMF sidecars.
#include <string>
#include <string_view>

namespace rubble::runfile {

inline std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace rubble::runfile
