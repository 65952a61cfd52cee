#include "krino/core/runner/evaluator_worker_protocol.hpp"

#include "krino/core/common/json_scan.hpp"
#include "krino/core/common/json_whole_number.hpp"
#include "krino/core/common/status_code.hpp"
#include "krino/core/plugin/component.hpp"
#include "krino/core/process/printable_text.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <utility>

namespace krino::core {
namespace {

namespace json = boost::json;

constexpr std::size_t kQuotedLineBytes = 200;

// A line as JSON: a worker may write any bytes, so ill-formed UTF-8 is repaired first (U+FFFD), as
// the in-process path does for a plugin's result.
std::optional<json::object> line_object(std::string_view line, std::string& why) {
  json::error_code ec;
  json::value value = utf8::is_valid(line) ? krino::json::parse(line, ec) : krino::json::parse(utf8::repaired(line), ec);
  if (ec || !value.is_object()) {
    why = "a line that is not a JSON object: " + printable_head(line, kQuotedLineBytes);
    return std::nullopt;
  }
  return std::move(value.get_object());
}

std::string string_member(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

// The worker's error object: {"message": str, "code"?: status name}.
std::pair<krino_status, std::string> error_member(const json::value& error) {
  if (!error.is_object()) return {KRINO_UNKNOWN, krino::json::to_compact_json(error)};
  const json::object& object = error.get_object();
  std::string message = string_member(object, "message");
  if (message.empty()) message = "the worker gave no message";
  krino_status code = KRINO_UNKNOWN;
  if (const json::value* name = object.if_contains("code"); name != nullptr && name->is_string())
    code = status_code_from_name(name->get_string());
  return {code, std::move(message)};
}

// The handshake's "reads": names of test-case sections, as bits of kTestCaseSectionKeys.
StatusOr<unsigned> read_sections(const json::value& reads) {
  std::string known;
  for (std::string_view key : kTestCaseSectionKeys) known.append(known.empty() ? "" : ", ").append(key);
  if (!reads.is_array())
    return error_status(KRINO_INVALID_ARGUMENT, "its handshake's 'reads' is not a list of test-case sections (" + known + ")");
  unsigned bits = 0;
  for (const json::value& name : reads.get_array()) {
    const auto* found = name.is_string() ? std::find(kTestCaseSectionKeys.begin(), kTestCaseSectionKeys.end(),
                                                     std::string_view(name.get_string()))
                                         : kTestCaseSectionKeys.end();
    if (found == kTestCaseSectionKeys.end())
      return error_status(KRINO_INVALID_ARGUMENT, "its handshake's 'reads' names " + krino::json::to_compact_json(name) +
                                                      ", which is not a test-case section (" + known + ")");
    bits |= 1U << static_cast<unsigned>(found - kTestCaseSectionKeys.begin());
  }
  return bits;
}

// Whether the caller gave every section's place in `testcase` (the runner records them while
// assembling it; other callers leave them zero).
bool sections_given(const krino_call_context& ctx, std::string_view testcase) {
  for (const krino_span& span : ctx.testcase_sections)
    if (span.size == 0 || span.offset > testcase.size() || span.size > testcase.size() - span.offset) return false;
  return true;
}

// Where each section's value lies in `testcase`: the spans the runner recorded, or a scan.
std::array<std::string_view, 4> section_values(const krino_call_context& ctx, std::string_view testcase) {
  std::array<std::string_view, 4> values;
  if (sections_given(ctx, testcase)) {
    for (std::size_t k = 0; k < values.size(); ++k)
      values[k] = testcase.substr(ctx.testcase_sections[k].offset, ctx.testcase_sections[k].size);
    return values;
  }
  const std::vector<JsonMember> members = top_level_members(testcase);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = member(members, kTestCaseSectionKeys[k]).value_or("{}");
  return values;
}

}  // namespace

krino_status status_code_from_name(std::string_view name) {
  for (int code = KRINO_OK; code <= KRINO_DATA_LOSS; ++code)
    if (status_code_name(static_cast<krino_status>(code)) == name) return static_cast<krino_status>(code);
  return KRINO_UNKNOWN;
}

StatusOr<WorkerHandshake> read_worker_handshake(std::string_view line) {
  std::string why;
  auto object = line_object(line, why);
  if (!object) return error_status(KRINO_INVALID_ARGUMENT, "its handshake is " + why);
  const std::string protocol = string_member(*object, "protocol");
  if (protocol != kEvaluatorWorkerProtocol)
    return error_status(KRINO_INVALID_ARGUMENT, "its handshake speaks protocol '" + protocol + "', not '" +
                                                    std::string(kEvaluatorWorkerProtocol) + "': " +
                                                    printable_head(line, kQuotedLineBytes));
  const json::value* evaluator = object->if_contains("evaluator");
  if (evaluator == nullptr || !evaluator->is_object())
    return error_status(KRINO_INVALID_ARGUMENT, "its handshake has no 'evaluator' object");
  const json::object& described = evaluator->get_object();
  WorkerHandshake handshake;
  handshake.id = string_member(described, "id");
  handshake.name = string_member(described, "name");
  if (handshake.id.empty() || handshake.name.empty())
    return error_status(KRINO_INVALID_ARGUMENT, "its handshake's evaluator needs a non-empty 'id' and 'name'");
  handshake.version = string_member(described, "version");
  handshake.description = string_member(described, "description");
  if (const json::value* schema = described.if_contains("configSchema"); schema != nullptr) {
    if (!schema->is_object())
      return error_status(KRINO_INVALID_ARGUMENT, "its handshake's 'configSchema' is not a JSON Schema object");
    handshake.config_schema = krino::json::to_compact_json(*schema);
  }
  if (const json::value* capabilities = described.if_contains("capabilities");
      capabilities != nullptr && capabilities->is_array()) {
    for (const json::value& name : capabilities->get_array()) {
      if (name.is_string()) handshake.capabilities |= capability_from_name(name.get_string());  // unknown: 0
    }
  }
  auto positive = [&](std::string_view key) -> std::optional<std::size_t> {
    const json::value* value = object->if_contains(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (value->is_int64() && value->get_int64() >= 1) return static_cast<std::size_t>(value->get_int64());
    if (value->is_uint64() && value->get_uint64() >= 1) return static_cast<std::size_t>(value->get_uint64());
    return std::size_t{0};
  };
  if (auto concurrency = positive("concurrency")) {
    if (*concurrency == 0) return error_status(KRINO_INVALID_ARGUMENT, "its handshake's 'concurrency' is not a whole number >= 1");
    handshake.concurrency = *concurrency;
  }
  if (auto max_workers = positive("maxWorkers")) {
    if (*max_workers == 0) return error_status(KRINO_INVALID_ARGUMENT, "its handshake's 'maxWorkers' is not a whole number >= 1");
    handshake.max_workers = *max_workers;
  }
  if (const json::value* reads = object->if_contains("reads"); reads != nullptr && !reads->is_null()) {
    StatusOr<unsigned> sections = read_sections(*reads);
    if (!sections.ok()) return sections.error();
    handshake.reads = sections.value();
  }
  return handshake;
}

std::string worker_configure_line(const json::object& options) {
  std::string line = "{\"configure\":";
  krino::json::append_compact_json(line, options);
  line.append("}\n");
  return line;
}

Status read_worker_configured(std::string_view line) {
  std::string why;
  auto object = line_object(line, why);
  if (!object) return error_status(KRINO_INVALID_ARGUMENT, "it answered configure with " + why);
  if (const json::value* error = object->if_contains("error"); error != nullptr) {
    auto [code, message] = error_member(*error);
    return error_status(KRINO_FAILED_PRECONDITION, std::move(message));
  }
  const json::value* configured = object->if_contains("configured");
  if (configured == nullptr || !configured->is_bool() || !configured->get_bool())
    return error_status(KRINO_INVALID_ARGUMENT,
                        "it answered configure with neither {\"configured\":true} nor an error: " +
                            printable_head(line, kQuotedLineBytes));
  return Status::ok_status();
}

std::string worker_evaluate_line(uint64_t id, const krino_call_context& ctx, std::string_view testcase,
                                 std::optional<unsigned> reads) {
  std::string line;
  line.reserve((reads ? 0 : testcase.size()) + 160);
  line.append("{\"id\":").append(std::to_string(id)).append(",\"testCase\":");
  const std::size_t start = line.size();
  if (!reads) {
    line.append(testcase);
  } else {
    // Only what the worker reads, each section's bytes as they are (numbers stay exactly as written).
    const std::array<std::string_view, 4> values = section_values(ctx, testcase);
    line.push_back('{');
    bool first = true;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if ((*reads & (1U << k)) == 0) continue;
      line.append(first ? "\"" : ",\"").append(kTestCaseSectionKeys[k]).append("\":").append(values[k]);
      first = false;
    }
    line.push_back('}');
  }
  // memchr, not a loop over every byte: most test cases have no raw line break at all, and this
  // runs for every case (a byte-wise replace_if was most of krino's own cost per request).
  for (char breaker : {'\n', '\r'}) {
    char* at = line.data() + start;
    char* const end = line.data() + line.size();
    while ((at = static_cast<char*>(std::memchr(at, breaker, static_cast<std::size_t>(end - at)))) != nullptr) *at++ = ' ';
  }
  line.append(",\"context\":{\"seed\":").append(std::to_string(ctx.seed));
  line.append(",\"runIndex\":").append(std::to_string(ctx.run_index));
  line.append(",\"itemIndex\":").append(std::to_string(ctx.item_index));
  line.append(",\"deadlineUnixMs\":").append(std::to_string(ctx.deadline_unix_ms));
  if (!reads && sections_given(ctx, testcase)) {
    // The whole test case goes as its bytes, so the runner's spans hold in "testCase" too: a worker
    // handing it to a parser that takes them (krino-plugin-host to a plugin, as
    // krino_call_context::testcase_sections) spares the plugin a scan of every byte.
    line.append(",\"testCaseSections\":[");
    for (std::size_t k = 0; k < kTestCaseSectionKeys.size(); ++k) {
      if (k > 0) line.push_back(',');
      line.append(std::to_string(ctx.testcase_sections[k].offset)).push_back(',');
      line.append(std::to_string(ctx.testcase_sections[k].size));
    }
    line.push_back(']');
  }
  line.append("}}\n");
  return line;
}

WorkerAnswer read_worker_answer(std::string_view line, uint64_t id) {
  WorkerAnswer answer;
  // The usual answer, {"id":N,"result":{...}}, in one validating pass: the result goes on as the
  // bytes the worker wrote (numbers digit for digit; check_eval_result reads them). Anything else
  // (an error, another id, ill-formed UTF-8) is read as a whole below.
  if (const auto members = json_object_members(line)) {
    const auto echoed = member(*members, "id");
    const auto result = member(*members, "result");
    uint64_t echoed_id = 0;
    if (echoed && result && is_object_span(*result)) {
      const auto [end, error] = std::from_chars(echoed->data(), echoed->data() + echoed->size(), echoed_id);
      if (error == std::errc() && end == echoed->data() + echoed->size() && echoed_id == id) {
        answer.kind = WorkerAnswer::Kind::result;
        answer.text.assign(*result);
        return answer;
      }
    }
  }
  auto object = line_object(line, answer.text);
  if (!object) return answer;
  const json::value* echoed = object->if_contains("id");
  const bool matches = json_whole_number(echoed) == id;
  if (!matches) {
    answer.text = "an answer to another request (id " + (echoed ? krino::json::to_compact_json(*echoed) : "missing") +
                  ", expected " + std::to_string(id) + ")";
    return answer;
  }
  return worker_answer_from(*object, line);
}

WorkerAnswer worker_answer_from(const json::object& object, std::string_view quoted) {
  WorkerAnswer answer;
  if (const json::value* result = object.if_contains("result"); result != nullptr) {
    if (!result->is_object()) {
      answer.text = "a 'result' that is not an object: " + printable_head(quoted, kQuotedLineBytes);
      return answer;
    }
    answer.kind = WorkerAnswer::Kind::result;
    answer.text = krino::json::to_compact_json(*result);
    return answer;
  }
  if (const json::value* error = object.if_contains("error"); error != nullptr) {
    answer.kind = WorkerAnswer::Kind::error;
    std::tie(answer.code, answer.text) = error_member(*error);
    return answer;
  }
  answer.text = "an answer with neither 'result' nor 'error': " + printable_head(quoted, kQuotedLineBytes);
  return answer;
}

}  // namespace krino::core
