// SPDX-License-Identifier: MIT
#include "rubble/campaign/run_claims.hpp"

#include <filesystem>

namespace rubble::campaign {

std::string claims_path(const Campaign& c) {
    return (std::filesystem::path(c.directory) / "campaign.claims").string();
}

storage::FileLock claim_run(const Campaign& c, std::size_t k) {
    return storage::FileLock::try_acquire_byte(claims_path(c), static_cast<std::int64_t>(k),
                                               "the campaign's claims file");
}

bool run_is_claimed(const Campaign& c, std::size_t k) {
    return storage::FileLock::byte_is_locked(claims_path(c), static_cast<std::int64_t>(k),
                                             "the campaign's claims file");
}

} // namespace rubble::campaign
