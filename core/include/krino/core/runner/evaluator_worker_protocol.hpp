#pragma once
// The host's side of krino.evaluatorworker/1 (docs/sdk.md, "Evaluators in worker processes";
// sdk/schemas/evaluatorworker.json): JSON Lines over a worker's stdin and stdout. The worker speaks
// first with its handshake; the host answers with `configure` and waits for `configured`; then
// each request carries one test case and gets one eval result or one error back, matched by id.
// The test case and the eval result are the ABI's documents (krino.testcase/1,
// krino.evalresult/1), so the plugin host passes them straight through.
#include "krino/core/common/status.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

inline constexpr std::string_view kEvaluatorWorkerProtocol = "krino.evaluatorworker/1";
// Requests in flight per worker when its handshake gives no "concurrency": enough to keep a worker
// that answers in microseconds busy while answers travel back.
inline constexpr std::size_t kDefaultWorkerConcurrency = 64;
// The sections of a test case, in the order of krino_call_context::testcase_sections: the names a
// handshake's "reads" may give.
inline constexpr std::array<std::string_view, 4> kTestCaseSectionKeys = {"inputs", "actualOutputs", "expectedOutputs",
                                                                         "metadata"};

// What a worker says about itself in its first line.
struct WorkerHandshake {
  std::string id;           // like a plugin component's id: "acme.tool_error_py"
  std::string name;         // the short name; the display name unless the options give one
  std::string version;
  std::string description;
  std::string config_schema = "{}";  // JSON Schema text of the options `configure` sends
  uint64_t capabilities = 0;         // KRINO_CAP_* bits named in "capabilities"
  // How many requests krino may have in flight at one worker (pipelining: it reads them in turn,
  // or works on several at once), kDefaultWorkerConcurrency when the handshake does not say; and,
  // if it says so, how many copies of it may run (a worker holding a large model says 1).
  std::size_t concurrency = kDefaultWorkerConcurrency;
  std::optional<std::size_t> max_workers;
  // The test-case sections the worker reads, when its handshake says ("reads"): bit k stands for
  // kTestCaseSectionKeys[k]. Requests then carry only those (a worker that parses its requests
  // pays for every byte it is sent); without it, the whole test case.
  std::optional<unsigned> reads;
};

// The first line, checked: the protocol, an evaluator with an id and name, a schema that is an
// object. INVALID_ARGUMENT with a one-line reason otherwise.
StatusOr<WorkerHandshake> read_worker_handshake(std::string_view line);

// {"configure":{options}}\n
std::string worker_configure_line(const boost::json::object& options);
// {"configured":true}, or the worker's refusal {"error":{"message":...}} as FAILED_PRECONDITION.
Status read_worker_configured(std::string_view line);

// {"id":N,"testCase":{...},"context":{"seed":..,"runIndex":..,"itemIndex":..,"deadlineUnixMs":..}}\n
// `testcase` is a krino.testcase/1 document; its raw line breaks (white space between tokens in
// valid JSON) become spaces. With `reads` (WorkerHandshake::reads), "testCase" holds only those
// sections, each copied as its bytes from `testcase` (found through ctx.testcase_sections, or by
// scanning when they are not given). Without it, the context carries ctx.testcase_sections when
// they are given, as "testCaseSections": [offset, size] of each section, flattened.
std::string worker_evaluate_line(uint64_t id, const krino_call_context& ctx, std::string_view testcase,
                                 std::optional<unsigned> reads = std::nullopt);

struct WorkerAnswer {
  enum class Kind {
    result,        // `text` is the eval result document: its bytes as the worker wrote them (written anew
                   // only when the line had ill-formed UTF-8, or is read through worker_answer_from)
    error,         // the worker's own error: `code` and `text` (its message)
    not_an_answer, // `text` says what is wrong: the worker is out of step with the protocol
  };
  Kind kind = Kind::not_an_answer;
  krino_status code = KRINO_UNKNOWN;
  std::string text;
};
// Reads the answer to request `id`.
WorkerAnswer read_worker_answer(std::string_view line, uint64_t id);
// The answer in an answer object already parsed and matched to its request (the HTTP transport
// reads many from one reply); `quoted` is the text a message about a broken answer quotes.
WorkerAnswer worker_answer_from(const boost::json::object& answer, std::string_view quoted);

// "INVALID_ARGUMENT" -> KRINO_INVALID_ARGUMENT; an unknown name is KRINO_UNKNOWN.
krino_status status_code_from_name(std::string_view name);

}  // namespace krino::core
