// SPDX-License-Identifier: MIT
#include "rubble/core/rank_errors.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/core/stop_request.hpp"

namespace rubble::core {
namespace {

// The kinds an error travels as; the first byte of its message.
enum class Kind : std::uint8_t { input = 1, io, physics, interrupted, other };

Kind kind_of(const std::exception_ptr& e, std::string& text) {
    try {
        std::rethrow_exception(e);
    } catch (const InputError& x) {
        text = x.what();
        return Kind::input;
    } catch (const IoError& x) {
        text = x.what();
        return Kind::io;
    } catch (const PhysicsError& x) {
        text = x.what();
        return Kind::physics;
    } catch (const Interrupted& x) {
        text = x.what();
        return Kind::interrupted;
    } catch (const std::exception& x) {
        text = x.what();
        return Kind::other;
    } catch (...) {
        text = "an error that is not a std::exception";
        return Kind::other;
    }
}

[[noreturn]] void throw_as(Kind kind, const std::string& text) {
    switch (kind) {
    case Kind::input:
        throw InputError(text);
    case Kind::io:
        throw IoError(text);
    case Kind::physics:
        throw PhysicsError(text);
    case Kind::interrupted:
        throw Interrupted(text);
    case Kind::other:
        break;
    }
    throw std::runtime_error(text);
}

} // namespace

void throw_together(Communicator& world, std::exception_ptr local) {
    if (world.size() == 1) {
        if (local) std::rethrow_exception(local);
        return;
    }
    // One integer collective on the common path; the text travels only when some rank failed.
    if (world.max(local ? 1 : 0) == 0) return;
    std::vector<std::byte> message;
    if (local) {
        std::string text;
        const Kind kind = kind_of(local, text);
        message.resize(1 + text.size());
        message[0] = static_cast<std::byte>(kind);
        std::memcpy(message.data() + 1, text.data(), text.size());
    }
    const auto all = world.all_gather_bytes(message);
    for (std::size_t r = 0; r < all.size(); ++r) {
        const auto& m = all[r];
        if (m.empty()) continue;
        // The lowest failing rank keeps its own error with its exact type.
        if (static_cast<int>(r) == world.rank()) std::rethrow_exception(local);
        throw_as(static_cast<Kind>(m[0]),
                 std::string(reinterpret_cast<const char*>(m.data()) + 1, m.size() - 1));
    }
}

} // namespace rubble::core
