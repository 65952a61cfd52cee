#pragma once
// The options of the exec task (docs/tasks/exec.md), checked and resolved: the command's program
// is found and the environment is built once, when the experiment is loaded.
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/process_spec.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

namespace krino::core {

struct ExecOptions {
  enum class Mode {
    per_example,  // a process per example: the example on stdin, the reply on stdout
    worker,       // persistent workers answering one JSON line per request line
  };

  Mode mode = Mode::per_example;
  ProcessSpec process;
  std::string command_text;  // the command as the user wrote it, for messages
  ProcessLimits limits;      // timeout, kill grace, output bound (no cancellation probe yet)
  std::uint32_t workers = 1; // worker mode: at most this many worker processes
  std::string model;         // prices a reply that gives tokens but no model (or cost)

  // `options` is the task section without `kind`; `base_dir` resolves a relative `cwd` and is the
  // default working directory; `parallelism` is the default number of workers. Throws a
  // configuration error that names the key.
  static ExecOptions parse(const boost::json::object& options, const std::filesystem::path& base_dir,
                           std::uint32_t parallelism);
};

}  // namespace krino::core
