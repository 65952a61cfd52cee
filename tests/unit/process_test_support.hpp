#pragma once
// Helpers for the process machinery's tests: scratch directories with scripts, specs for /bin/sh,
// and checks on what is left of a process (nothing, when krino is done with it).
#include "krino/core/process/process_spec.hpp"

#include "process_checks.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace krino::test {

class ScratchDir {
 public:
  ScratchDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("krino-process-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return file(name);
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path_ / name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::filesystem::path path_;
};

inline std::vector<std::string> current_environment() {
  std::vector<std::string> entries;
  for (char** e = environ; *e != nullptr; ++e) entries.emplace_back(*e);
  return entries;
}

// `script` run by /bin/sh -c in `cwd`, with krino's environment.
inline core::ProcessSpec shell(const std::string& script, const std::filesystem::path& cwd = "/tmp") {
  return core::ProcessSpec{"/bin/sh", {"sh", "-c", script}, cwd, current_environment()};
}

// A pid a script wrote to a file, waiting for the file to appear.
inline pid_t pid_from_file(const ScratchDir& dir, const std::string& name) {
  for (int i = 0; i < 500; ++i) {
    std::string text = dir.read(name);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

}  // namespace krino::test
