// SPDX-License-Identifier: MIT
#pragma once
// Runs the rubble binary as a child process, for the tests that need what only a separate
// process has: signals, kill -9, a file size limit (RLIMIT_FSIZE, as a full disk would fail).
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace rubble::test {

struct ChildOptions {
    std::uint64_t file_size_limit = 0; ///< bytes (0: none): writes beyond it fail
    std::string output_path;           ///< stdout and stderr go here ("" : /dev/null)
    std::vector<std::pair<std::string, std::string>> environment; ///< set in the child
};

/// Starts `program` with `args` (without the program name).
inline pid_t spawn_program(const std::string& program, const std::vector<std::string>& args,
                           const ChildOptions& o = {}) {
    std::vector<const char*> argv{program.c_str()};
    for (const auto& a : args)
        argv.push_back(a.c_str());
    argv.push_back(nullptr);
    const pid_t child = fork();
    if (child != 0) return child;
    const std::string sink = o.output_path.empty() ? "/dev/null" : o.output_path;
    const int fd = open(sink.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    for (const auto& [name, value] : o.environment)
        setenv(name.c_str(), value.c_str(), 1);
    if (o.file_size_limit > 0) {
        // SIGXFSZ keeps its default action (end the process): rubble ignores it itself
        // (cli.cpp), so that the write fails with EFBIG as on a full disk.
        signal(SIGXFSZ, SIG_DFL);
        const rlimit limit{o.file_size_limit, o.file_size_limit};
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    execv(program.c_str(), const_cast<char* const*>(argv.data()));
    _exit(127);
}

/// Starts RUBBLE_BINARY with `args` (without the program name).
inline pid_t spawn_rubble(const std::vector<std::string>& args, const ChildOptions& o = {}) {
    return spawn_program(RUBBLE_BINARY, args, o);
}

/// Whether `child` has not ended yet (it is not reaped: wait_for_child still reports it).
inline bool still_running(pid_t child) {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == 0;
}

struct ChildExit {
    bool exited = false; ///< ended by exit (else by a signal, or still running at the timeout)
    int code = -1;       ///< exit status, or the signal number
    double seconds = 0;  ///< from the call of wait_for_child to the end
};

/// Waits for `child` at most `timeout`; a child still running then is killed (exited false,
/// code -1).
inline ChildExit wait_for_child(pid_t child, std::chrono::duration<double> timeout) {
    const auto start = std::chrono::steady_clock::now();
    ChildExit r;
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() - start > timeout) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            return r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.exited = WIFEXITED(status);
    r.code = r.exited ? WEXITSTATUS(status) : WTERMSIG(status);
    return r;
}

} // namespace rubble::test
