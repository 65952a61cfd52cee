#pragma once
// What to start: the program, its arguments, where, and with which environment. Resolved once,
// when the task is configured, so a typo in a command is a configuration error before the run and
// not ten thousand item errors during it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct ProcessSpec {
  std::string executable;                  // an absolute path
  std::vector<std::string> arguments;      // argv, with argv[0] as the user wrote it
  std::filesystem::path working_directory; // absolute
  std::vector<std::string> environment;    // NAME=value entries, exactly what the child gets
  // RLIMIT_AS of the child in bytes (0: inherited). An address-space bound, not resident memory: a
  // leaking program fails its next allocation instead of pushing the machine into swap.
  std::uint64_t memory_limit_bytes = 0;
};

// The program `name` names, as execvp() would find it: a name with a slash is a path (relative to
// `working_directory`), any other name is looked up in the directories of `search_path` (a PATH
// value; empty entries mean the working directory). nullopt when no executable file is found.
std::optional<std::string> find_executable(const std::string& name, const std::filesystem::path& working_directory,
                                           std::string_view search_path);

}  // namespace krino::core
