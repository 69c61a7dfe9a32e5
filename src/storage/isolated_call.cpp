// SPDX-License-Identifier: MIT
#include "rubble/storage/isolated_call.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rubble::storage {

std::string IsolatedOutcome::describe() const {
    if (timed_out) return "took longer than its time limit";
    if (signal != 0) return "crashed (signal " + std::to_string(signal) + ")";
    if (exit_code != 0) return "exited with status " + std::to_string(exit_code);
    return "";
}

IsolatedOutcome run_isolated(const std::function<void()>& f, std::chrono::seconds limit) {
    IsolatedOutcome out;
    std::fflush(nullptr); // what stdio holds is written once, not once more by the child
    const pid_t pid = ::fork();
    if (pid < 0) return out;
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) {
            ::dup2(null, STDOUT_FILENO);
            ::dup2(null, STDERR_FILENO);
        }
        try {
            f();
        } catch (...) {
        }
        ::_exit(0); // no exit handlers, no flush of the parent's buffered streams
    }
    out.ran = true;
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + limit;
    auto pause = std::chrono::microseconds(50);
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) { // reaped elsewhere: nothing is known
            out.ran = false;
            return out;
        }
        if (clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            out.timed_out = true;
            return out;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(2 * pause, std::chrono::microseconds(20000));
    }
    if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    out.clean = WIFEXITED(status) && out.exit_code == 0;
    return out;
}

} // namespace rubble::storage
