#pragma once
// What an exec program printed, read as a reply (docs/tasks/exec.md): the actual outputs, or the
// reply envelope with outputs, an error, metrics and usage; the cost priced when the program gave
// tokens and a model but no cost.
#include "krino/core/task/task.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

class PriceTable;

struct ExecReplyRules {
  // Worker mode: every reply is an envelope that echoes this request id.
  std::optional<std::uint64_t> request_id;
  const PriceTable* prices = nullptr;
  std::string_view default_model;  // the task's `model` option
  bool raw = false;  // hand the outputs over as they are (for a trace extractor), never wrapped
};

struct ExecReply {
  enum class Kind {
    outputs,           // `output` holds the actual outputs (and metrics, without latency)
    program_error,     // the envelope's `error`: the program says this example failed
    invalid_envelope,  // JSON, but the envelope is malformed (a worker that sent it is still in step)
    not_a_reply,       // not JSON, or (workers) not an object echoing the request id: out of step
  };
  Kind kind = Kind::not_a_reply;
  TaskOutput output;
  std::string message;  // what is wrong, for every kind but `outputs`
};

ExecReply read_exec_reply(std::string_view text, const ExecReplyRules& rules);

}  // namespace krino::core
