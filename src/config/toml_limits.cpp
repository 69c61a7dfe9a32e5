// SPDX-License-Identifier: MIT
#include "toml_limits.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "rubble/core/error.hpp"

namespace rubble::config {
namespace {

int line_of(const std::string& text, std::size_t pos) {
    return 1 +
           static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// A conservative scan of TOML structure that only needs to be right about depth: it skips
// strings and comments, counts the components of dotted keys (in table headers, before `=`
// and after `{` or `,` in inline tables) and the nesting of arrays and inline tables. Text
// it misreads is malformed TOML, which toml++ then reports with its own message.
class DepthScanner {
public:
    DepthScanner(const std::string& text, const std::string& origin)
        : text_(text), origin_(origin) {}

    void run() {
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '"' || c == '\'') {
                skip_string(c);
                continue;
            }
            if (c == '#') {
                skip_comment();
                continue;
            }
            structural(c);
            ++i_;
        }
    }

private:
    void structural(char c) {
        switch (c) {
        case '\n':
            ++line_;
            if (open_.empty()) start_key(); // a new statement
            in_header_ = false;
            break;
        case '[':
            if (open_.empty() && key_mode_ && !in_header_) {
                in_header_ = true; // `[table]` or `[[array.of.tables]]`
                key_parts_ = 1;
            } else if (!in_header_) {
                open(c);
            }
            break;
        case ']':
            if (in_header_) {
                in_header_ = false;
                key_mode_ = false;
            } else {
                close();
            }
            break;
        case '{':
            open(c);
            start_key();
            break;
        case '}':
            close();
            break;
        case ',':
            if (!open_.empty() && open_.back() == '{') start_key();
            break;
        case '=':
            key_mode_ = false;
            break;
        case '.':
            if ((key_mode_ || in_header_) && ++key_parts_ > max_toml_depth)
                fail("a key or table header with more than " + std::to_string(max_toml_depth) +
                     " dotted parts (rubble's keys have at most 3)");
            break;
        default:
            break;
        }
    }

    void start_key() {
        key_mode_ = true;
        key_parts_ = 1;
    }
    void open(char c) {
        open_.push_back(c);
        if (open_.size() > static_cast<std::size_t>(max_toml_depth))
            fail("arrays or inline tables nested more than " + std::to_string(max_toml_depth) +
                 " deep");
    }
    void close() {
        if (!open_.empty()) open_.pop_back();
    }

    void skip_comment() {
        while (i_ < text_.size() && text_[i_] != '\n')
            ++i_;
    }

    // Skips a basic ("...", """...""") or literal ('...', '''...''') string.
    void skip_string(char quote) {
        const std::string triple(3, quote);
        const bool multi = std::string_view(text_).substr(i_, 3) == triple;
        i_ += multi ? 3 : 1;
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '\\' && quote == '"') {
                i_ += 2;
                continue;
            }
            if (c == '\n') {
                if (!multi) return; // unterminated: toml++ reports it
                ++line_;
            }
            if (c == quote && (!multi || std::string_view(text_).substr(i_, 3) == triple)) {
                i_ += multi ? 3 : 1;
                return;
            }
            ++i_;
        }
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(origin_ + ":" + std::to_string(line_) + ": " + what);
    }

    const std::string& text_;
    const std::string& origin_;
    std::size_t i_ = 0;
    int line_ = 1;
    std::vector<char> open_; ///< open arrays and inline tables of values
    bool key_mode_ = true;   ///< reading a key: dots separate its parts
    bool in_header_ = false; ///< inside `[...]` of a table header
    int key_parts_ = 1;
};

} // namespace

void check_toml_text(const std::string& text, const std::string& origin) {
    if (text.size() > max_parameter_file_bytes)
        throw InputError(origin + ": more than " + std::to_string(max_parameter_file_bytes) +
                         " bytes: too large for a parameter file (they are a few kB of text)");
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw InputError(origin + ":" + std::to_string(line_of(text, nul)) +
                         ": contains a NUL byte: a parameter file must be TOML text");
    DepthScanner(text, origin).run();
}

} // namespace rubble::config
