#include "plugin_worker.hpp"

#include "request_context.hpp"

#include "krino/core/common/json_scan.hpp"
#include "krino/core/common/status_code.hpp"
#include "krino/core/common/string_sink.hpp"
#include "krino/core/runner/evaluator_worker_protocol.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <boost/json.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <new>
#include <optional>
#include <string>

namespace krino::plugin_host {
namespace {

namespace json = boost::json;

// Each answer is flushed at once: krino takes the oldest request without an answer for the one a
// crash or a hang happened in, so an answer must not wait in this process's buffer while the next
// request is evaluated. (Requests are still read in batches, and never waited for.)
void send(std::FILE* out, const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), out);
  std::fputc('\n', out);
  std::fflush(out);
}

// A request as krino writes it (worker_evaluate_line):
//   {"id":N,"testCase":<document>,"context":{...}}
// read without parsing the test case, whose bytes go to the plugin as they are. Anything else
// (another writer, another layout) is parsed as JSON.
struct QuickRequest {
  std::string_view id;
  std::string_view testcase;
  std::string_view context;
};
std::optional<QuickRequest> quick_request(std::string_view line) {
  constexpr std::string_view kHead = "{\"id\":";
  constexpr std::string_view kTestCase = ",\"testCase\":";
  constexpr std::string_view kContext = ",\"context\":";
  if (line.substr(0, kHead.size()) != kHead) return std::nullopt;
  std::size_t at = kHead.size();
  while (at < line.size() && line[at] >= '0' && line[at] <= '9') ++at;
  if (at == kHead.size() || line.substr(at, kTestCase.size()) != kTestCase) return std::nullopt;
  QuickRequest request;
  request.id = line.substr(kHead.size(), at - kHead.size());
  const std::size_t begin = at + kTestCase.size();
  // The context is the last member and holds only numbers, so the last ,"context": is its own.
  const std::size_t context = line.rfind(kContext);
  if (context == std::string_view::npos || context <= begin || line.size() < 2 || line.back() != '}') return std::nullopt;
  request.testcase = line.substr(begin, context - begin);
  request.context = line.substr(context + kContext.size(), line.size() - 1 - context - kContext.size());
  if (request.testcase.empty() || request.testcase.front() != '{' || request.testcase.back() != '}') return std::nullopt;
  return request;
}

std::string error_line(const json::value* id, krino_status code, std::string_view message) {
  std::string line = "{";
  if (id != nullptr) {
    line.append("\"id\":");
    krino::json::append_compact_json(line, *id);
    line.push_back(',');
  }
  line.append("\"error\":{\"code\":");
  krino::json::append_json_string(line, core::status_code_name(code));
  line.append(",\"message\":");
  krino::json::append_json_string(line, utf8::repaired(message));
  line.append("}}");
  return line;
}

double address_space_used();

std::string handshake_line(const core::Component& component) {
  std::string line = "{\"protocol\":";
  krino::json::append_json_string(line, core::kEvaluatorWorkerProtocol);
  line.append(",\"evaluator\":{\"id\":");
  krino::json::append_json_string(line, component.id);
  line.append(",\"name\":");
  krino::json::append_json_string(line, component.name);
  line.append(",\"version\":");
  krino::json::append_json_string(line, component.version);
  line.append(",\"description\":");
  krino::json::append_json_string(line, component.description);
  line.append(",\"configSchema\":");
  // The loader checked it is a JSON object; compact, so the handshake stays one line.
  line.append(krino::json::to_compact_json(krino::json::parse(component.config_schema)));
  line.append(",\"capabilities\":[");
  bool first = true;
  for (std::string_view name : core::capability_names(component.capabilities)) {
    if (!first) line.push_back(',');
    first = false;
    krino::json::append_json_string(line, name);
  }
  // Requests are served in turn, but krino may queue this many (pipelining) so the worker never
  // waits for the next one to travel. Under a memory limit, one at a time: the worker may stop
  // after any answer (see serve), and requests it had read by then would be lost with it.
  const std::size_t concurrency = address_space_used() > 0 ? 1 : core::kDefaultWorkerConcurrency;
  line.append("]},\"concurrency\":").append(std::to_string(concurrency)).append("}");
  return line;
}

// The share of RLIMIT_AS in use, or 0 without a limit: a failed call close to the limit is most
// likely a plugin that ran out of it.
double address_space_used() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  std::ifstream statm("/proc/self/statm");
  unsigned long pages = 0;
  if (!(statm >> pages)) return 0;
  return static_cast<double>(pages) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / static_cast<double>(limit.rlim_cur);
}

std::string memory_note() {
  struct rlimit limit {};
  ::getrlimit(RLIMIT_AS, &limit);
  return "; the worker has used most of its memory_mb limit (" + std::to_string(limit.rlim_cur >> 20) +
         " MB of address space) and stops, a new one takes the next request";
}

}  // namespace

int serve(const core::Component& component, const krino_host* host, std::istream& in, std::FILE* out) {
  const krino_evaluator_vtable& vtable = component.evaluator();
  send(out, handshake_line(component));
  void* instance = nullptr;
  uint64_t serial = 0;
  std::string line;
  while (true) {
    if (!std::getline(in, line)) break;
    if (line.empty()) continue;
    json::value id_value;
    json::value context_value;
    std::string parsed_document;
    std::string_view document;
    const json::value* id = nullptr;
    const json::value* context = nullptr;
    std::string_view context_text;
    json::error_code ec;
    std::string_view raw_id;
    if (auto quick = quick_request(line)) {
      raw_id = quick->id;
      document = quick->testcase;
      context_text = quick->context;
    } else {
      json::value message = krino::json::parse(line, ec);
      if (ec || !message.is_object()) {
        send(out, error_line(nullptr, KRINO_INVALID_ARGUMENT, "krino-plugin-host: a request that is not a JSON object"));
        continue;
      }
      json::object& request = message.get_object();
      if (const json::value* options = request.if_contains("configure"); options != nullptr) {
        if (instance != nullptr) vtable.destroy(instance);
        instance = nullptr;
        core::StringSink error;
        const std::string config = options->is_object() ? krino::json::to_compact_json(*options) : std::string("{}");
        const krino_status status = vtable.create(host, config.data(), config.size(), &instance, error.sink());
        if (status != KRINO_OK || instance == nullptr) {
          instance = nullptr;
          send(out, error_line(nullptr, status, error.text().empty() ? "no reason given" : error.message()));
        } else {
          send(out, "{\"configured\":true}");
        }
        continue;
      }
      if (json::value* found = request.if_contains("id"); found != nullptr) {
        id_value = std::move(*found);
        id = &id_value;
      }
      const json::value* testcase = request.if_contains("testCase");
      if (id == nullptr || testcase == nullptr || !testcase->is_object() || instance == nullptr) {
        send(out, error_line(id, KRINO_FAILED_PRECONDITION,
                             instance == nullptr ? "krino-plugin-host: a request before configure"
                                                 : "krino-plugin-host: a request needs an id and a testCase object"));
        continue;
      }
      parsed_document = krino::json::to_compact_json(*testcase);
      document = parsed_document;
      if (const json::value* found = request.if_contains("context"); found != nullptr) {
        context_value = *found;
        context = &context_value;
      }
    }
    if (id == nullptr) {
      id_value = krino::json::parse(raw_id, ec);
      id = &id_value;
    }
    if (instance == nullptr) {
      send(out, error_line(id, KRINO_FAILED_PRECONDITION, "krino-plugin-host: a request before configure"));
      continue;
    }
    krino_call_context ctx{};
    ctx.struct_size = sizeof(krino_call_context);
    ctx.document_serial = ++serial;
    // krino's "testCaseSections" become the call's testcase_sections, as krino gives them in
    // process: the plugin then reads the sections it needs without scanning the whole test case.
    if (context != nullptr) apply_request_context(*context, document.size(), ctx);
    else if (!context_text.empty()) read_request_context(context_text, document.size(), ctx);
    core::StringSink result;
    core::StringSink error;
    krino_status status = KRINO_OK;
    bool out_of_memory = false;
    try {
      status = vtable.evaluate(instance, &ctx, document.data(), document.size(), result.sink(), error.sink());
    } catch (const std::bad_alloc&) {
      status = KRINO_RESOURCE_EXHAUSTED;
      out_of_memory = true;
    }
    if (status != KRINO_OK) {
      std::string why = out_of_memory ? "out of memory" : error.text().empty() ? "evaluator failed without a message"
                                                                                : error.message();
      // Under a memory limit, a plugin that says it ran out of a resource (or is close to the
      // limit) has most likely run out of that one: the worker stops so a fresh one starts clean.
      const bool limited = address_space_used() > 0;
      const bool stop = out_of_memory || (limited && (status == KRINO_RESOURCE_EXHAUSTED || address_space_used() > 0.75));
      if (stop) why += memory_note();
      send(out, error_line(id, stop ? KRINO_RESOURCE_EXHAUSTED : status, why));
      if (stop) return 3;
      continue;
    }
    // The result goes on one line, as valid JSON: ill-formed UTF-8 is repaired as the in-process
    // path repairs it; text that is not JSON at all is the host's to report. A valid object goes as
    // its bytes (krino parses the answer anyway): checked without building it, its raw line breaks
    // (white space between tokens) made spaces, rather than parsed and written out again.
    const std::string& text = result.text();
    if (utf8::is_valid(text) && core::is_json_object(text)) {
      std::string answer = "{\"id\":";
      if (raw_id.empty()) krino::json::append_compact_json(answer, *id);
      else answer.append(raw_id);
      answer.append(",\"result\":");
      const std::size_t start = answer.size();
      answer.append(text);
      std::replace_if(answer.begin() + static_cast<std::ptrdiff_t>(start), answer.end(),
                      [](char c) { return c == '\n' || c == '\r'; }, ' ');
      answer.push_back('}');
      send(out, answer);
      continue;
    }
    json::value parsed = utf8::is_valid(text) ? krino::json::parse(text, ec) : krino::json::parse(utf8::repaired(text), ec);
    if (ec || !parsed.is_object()) {
      send(out, error_line(id, KRINO_INTERNAL, "returned a malformed result: " + utf8::excerpt(text, 200)));
      continue;
    }
    std::string answer = "{\"id\":";
    krino::json::append_compact_json(answer, *id);
    answer.append(",\"result\":");
    krino::json::append_compact_json(answer, parsed);
    answer.push_back('}');
    send(out, answer);
  }
  if (instance != nullptr) vtable.destroy(instance);
  return 0;
}

}  // namespace krino::plugin_host
