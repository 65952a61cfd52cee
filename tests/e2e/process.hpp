#pragma once
// Runs the real krino binary as a child process for end-to-end tests: arguments, optional stdin,
// captured stdout/stderr, exit code, and optionally a signal sent once stderr/the file shows progress.
#include "run_as.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace krino::test {

// Whether the krino under test is built with AddressSanitizer (the asan preset builds the tests and
// krino alike): the few cases it cannot run say why where they are left out.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
};

struct ProcessOptions {
  std::string stdin_text;
  std::vector<std::string> environment;  // extra NAME=value entries
  // When set, polled every 10 ms while the child runs; once it returns true the child gets
  // `interrupt_signal` (SIGINT: Ctrl-C; SIGKILL: kill -9).
  std::function<bool()> interrupt_when;
  int interrupt_signal = 2;  // SIGINT
  // When above 0, the signal is sent a second time this long after the first (a second Ctrl-C).
  int interrupt_again_after_ms = 0;
  // When set, the child runs as this user (the caller must be root); it exits with 126 if it cannot.
  std::optional<RunAs> run_as = std::nullopt;
  // When set, the child starts in this directory instead of the caller's (one the user can enter).
  std::string working_directory = {};
  // (The `= ...` on the last two keep brace-initialised options free of -Wmissing-field-initializers.)
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

std::string krino_binary();
std::string source_path(const std::string& relative);
std::string temp_path(const std::string& name);
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

}  // namespace krino::test
