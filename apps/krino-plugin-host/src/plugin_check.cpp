#include "plugin_check.hpp"

#include "payload_schemas.hpp"

#include "krino/core/common/status_code.hpp"
#include "krino/core/common/string_sink.hpp"
#include "krino/core/plugin/config_validator.hpp"
#include "krino/core/runner/eval_result_check.hpp"
#include "krino/core/runner/result_sink.hpp"

#include <krino/event/values.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <boost/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <fstream>
#include <string>
#include <vector>

namespace krino::plugin_host {
namespace {

namespace json = boost::json;

// Test cases every evaluator should take without crashing: empty maps, a plain question and
// answer, empty strings, and text far from ASCII (accents, CJK, an emoji, a combining mark, a
// right-to-left script). An evaluator may refuse one with a status and a message; it may not crash,
// print, or answer with something that is not an eval result.
struct SampleCase {
  const char* what;
  const char* document;
};
constexpr SampleCase kSampleCases[] = {
    {"an empty test case", R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{}})"},
    {"a question and its answer",
     R"({"inputs":{"input":"What is 2 + 2?"},"actualOutputs":{"output":"4"},"expectedOutputs":{"output":"4"},"metadata":{}})"},
    {"empty strings", R"({"inputs":{"input":""},"actualOutputs":{"output":""},"expectedOutputs":{"output":""},"metadata":{}})"},
    {"a unicode test case",
     "{\"inputs\":{\"input\":\"Caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E \xF0\x9F\x99\x82 e\xCC\x81\"},"
     "\"actualOutputs\":{\"output\":\"\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xF0\x9F\x99\x82\"},"
     "\"expectedOutputs\":{\"output\":\"Caf\xC3\xA9\"},\"metadata\":{\"note\":\"\xE2\x80\x94\"}}"},
};

// Raw outputs a trace extractor's detect and extract should take without crashing.
constexpr SampleCase kSampleRaw[] = {
    {"an empty document", ""},
    {"an empty object", "{}"},
    {"text that is not JSON", "not json \xE2\x80\x94 \xF0\x9F\x99\x82"},
    {"a chat message list", R"([{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}])"},
};

class Checker {
 public:
  Checker(const core::Component& component, std::FILE* out, int plugin_stdout)
      : component_(component), out_(out), plugin_stdout_(plugin_stdout) {}

  // Announces a call before it is made: if the plugin crashes or hangs in it, this is the last line.
  // `detail` (which item) goes in the call line only, so the same finding on many items is one line.
  void call(const std::string& what, const std::string& detail = {}) {
    current_ = what;
    line("call", detail.empty() ? what : what + " " + detail);
    std::fflush(stdout);
    stdout_size_ = stdout_bytes();
  }
  // After a call: whatever the plugin printed to stdout is a problem (stdout belongs to krino).
  void returned() {
    std::fflush(stdout);
    const long long now = stdout_bytes();
    if (now > stdout_size_)
      problem("wrote to stdout, which is krino's (log through the host's log function, or write to stderr)",
              " (" + std::to_string(now - stdout_size_) + " bytes)");
    stdout_size_ = now;
  }
  // A finding about the current call. The same finding on another call (another sample, another
  // item) is not repeated: `finding` is what is compared, `specifics` only shown the first time.
  void problem(const std::string& finding, const std::string& specifics = {}) { say("problem", finding, specifics); }
  void note(const std::string& finding, const std::string& specifics = {}) { say("note", finding, specifics); }
  // A finding not about one call.
  void problem_overall(const std::string& text) {
    if (said_.insert("problem " + text).second) line("problem", text);
  }
  void note_overall(const std::string& text) {
    if (said_.insert("note " + text).second) line("note", text);
  }

  // A non-OK status must come with a readable message.
  void check_failure(krino_status status, const core::StringSink& error) {
    const std::string_view code = core::status_code_name(status);
    if (code == "UNKNOWN" && status != KRINO_UNKNOWN)
      problem("returned status " + std::to_string(static_cast<int>(status)) + ", which is not a krino_status");
    if (error.text().empty()) problem("failed (" + std::string(code) + ") without a message in the error sink");
    else if (!utf8::is_valid(error.text())) problem("wrote ill-formed UTF-8 in its error message");
    else note("refused it: " + std::string(code) + ": " + utf8::excerpt(error.text(), 160));
  }

  // A document the plugin wrote: valid UTF-8, one JSON object, valid against the schema `schema`.
  void check_document(const std::string& text, std::string_view schema, const std::string& what) {
    if (!utf8::is_valid(text)) problem("wrote ill-formed UTF-8 in " + what);
    json::error_code ec;
    const json::value parsed = krino::json::parse(utf8::repaired(text), ec);
    if (ec || !parsed.is_object()) {
      problem("wrote " + what + " that is not a JSON object", ": " + utf8::excerpt(text, 120));
      return;
    }
    // valijson lists the innermost violation first, then each schema around it: the first says it.
    const std::vector<std::string> violations = payload_violations(schema, parsed);
    if (!violations.empty())
      problem("wrote " + what + " that breaks krino." + std::string(schema) + "/1: " + violations.front());
  }

  void finish() {
    std::fputs("{\"done\":true}\n", out_);
    std::fflush(out_);
  }

  const core::Component& component() const { return component_; }

 private:
  void say(std::string_view kind, const std::string& finding, const std::string& specifics) {
    if (said_.insert(std::string(kind) + " " + finding).second) line(kind, current_ + " " + finding + specifics);
  }
  void line(std::string_view key, std::string_view text) {
    std::string out = "{";
    krino::json::append_json_string(out, key);
    out.push_back(':');
    krino::json::append_json_string(out, utf8::repaired(text));
    out.append("}\n");
    std::fwrite(out.data(), 1, out.size(), out_);
    std::fflush(out_);
  }
  long long stdout_bytes() const {
    struct stat info {};
    return ::fstat(plugin_stdout_, &info) == 0 ? static_cast<long long>(info.st_size) : 0;
  }

  const core::Component& component_;
  std::FILE* out_;
  int plugin_stdout_;
  std::string current_;
  long long stdout_size_ = 0;
  std::set<std::string> said_;
};

// Options {} where the schema accepts them; the host never creates an instance with options its
// schema refuses, so neither does the check.
bool empty_options_allowed(Checker& check) {
  const std::vector<std::string> violations = check.component().validator().validate(json::object());
  if (violations.empty()) return true;
  check.note_overall("no call made: its schema refuses options {} (" + violations.front() + ")");
  return false;
}

// Creates an instance with options {} (which the caller found the schema allows), checking what
// create answered; nullptr, the problem told, when it gave none.
template <class Vtable>
void* create_with_empty_options(Checker& check, const Vtable& v, const krino_host* host) {
  void* instance = nullptr;
  core::StringSink error;
  check.call("create with options {}");
  const krino_status created = v.create(host, "{}", 2, &instance, error.sink());
  check.returned();
  if (created == KRINO_OK && instance != nullptr) return instance;
  if (created == KRINO_OK) check.problem("returned OK without an instance");
  else check.check_failure(created, error);
  return nullptr;
}

// Resident memory of this process in MB (0 when /proc is not there).
long long resident_mb() {
  std::ifstream statm("/proc/self/statm");
  long long pages = 0;
  long long resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * ::sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

// The same call with the result offered as values (krino_sink::write_eval_result) must keep the
// contract (after KRINO_OK nothing more is written, after a refusal the text is) and give the result
// the text-only call gave: the host takes values whenever a plugin hands them, so a plugin whose two
// ways disagree scores differently under `krino run` than under a worker or an older host.
void check_values_way(Checker& check, krino_status text_status, const std::string& text, krino_status status,
                      core::ResultSink& offered, const core::StringSink& failure) {
  if (status != KRINO_OK) {
    if (text_status == KRINO_OK)
      check.problem("failed (" + std::string(core::status_code_name(status)) +
                    ") when its result could be taken as values, where the same call without that offer succeeded");
    else check.check_failure(status, failure);
    return;
  }
  if (text_status != KRINO_OK)
    check.problem("succeeded when its result could be taken as values, where the same call without that offer failed (" +
                  std::string(core::status_code_name(text_status)) + ")");
  if (offered.wrote_after_taken()) {
    check.problem("wrote more after write_eval_result answered KRINO_OK (the host had kept the result; text written "
                  "after it replaces the values)");
    return;
  }
  if (offered.values_offer() == core::ResultSink::ValuesOffer::refused && !offered.wrote_text()) {
    check.problem("wrote no text after write_eval_result refused its values (any status but KRINO_OK means: write the "
                  "result's text)");
    return;
  }
  // The text-only call's own check already said what is wrong with its text; only a difference is new.
  if (text_status != KRINO_OK) return;
  const std::string name = check.component().name;
  const core::StatusOr<core::CheckedResult> as_text = core::check_eval_result(text, name);
  if (!as_text.ok()) return;
  core::WrittenResult written = offered.take();
  const core::StatusOr<core::CheckedResult> taken =
      std::holds_alternative<core::CheckedResult>(written)
          ? core::StatusOr<core::CheckedResult>(std::move(std::get<core::CheckedResult>(written)))
          : core::check_eval_result(std::get<std::string>(written), name);
  if (!taken.ok()) {
    check.problem("wrote an eval result the host refuses when it could be taken as values, where the same call "
                  "without that offer wrote a valid one",
                  ": " + utf8::excerpt(taken.error().message, 160));
    return;
  }
  if (as_text.value().json == taken.value().json) return;
  const auto& a = taken.value().record;
  const auto& b = as_text.value().record;
  const auto fields = [](const krino::event::ItemResult& r) {
    std::string out = "score ";
    krino::event::append_optional(out, r.score);
    out += ", success ";
    krino::event::append_bool(out, r.success);
    out += ", threshold ";
    krino::event::append_optional(out, r.threshold);
    return out;
  };
  if (a.score != b.score || a.success != b.success || a.threshold != b.threshold)
    check.problem("gives another result when it can hand it over as values than when it writes text",
                  ": " + fields(a) + " as values; " + fields(b) + " as text");
  else
    check.note("writes another reason or metadata when it can hand its result over as values than when it writes text "
               "(the same score and success)",
               ": " + utf8::excerpt(taken.value().json, 120) + " against " + utf8::excerpt(as_text.value().json, 120));
}

// Growth of resident memory over the evaluate calls past which the check calls it a leak: far more
// than any working set of the samples, far less than a leak of a few MB per call.
constexpr long long kLeakMb = 64;

// Each sample goes in this many times with the next item_index, as in a run: a plugin that fails
// only on some items, or after some calls, is caught by more than one call per sample.
constexpr int kEvaluateRounds = 16;

void check_evaluator(Checker& check, const krino_host* host) {
  const krino_evaluator_vtable& v = check.component().evaluator();
  if (!empty_options_allowed(check)) return;
  void* instance = create_with_empty_options(check, v, host);
  if (instance == nullptr) {
    check.problem_overall("create refused options {}, which its schema accepts; evaluate was not called");
    return;
  }
  uint64_t item = 0;
  const long long resident_before = resident_mb();
  for (int call = 0; call < kEvaluateRounds * static_cast<int>(std::size(kSampleCases)); ++call) {
    const SampleCase& sample = kSampleCases[static_cast<size_t>(call) % std::size(kSampleCases)];
    krino_call_context ctx{};
    ctx.struct_size = sizeof(krino_call_context);
    ctx.seed = 42;
    ctx.item_index = item++;
    ctx.document_serial = item;
    const std::string document = sample.document;
    const std::string detail = "(item " + std::to_string(ctx.item_index) + ")";
    // As a host before ABI 1.2 (or a worker) takes it: text only.
    core::StringSink result;
    core::StringSink failure;
    check.call("evaluate on " + std::string(sample.what), detail);
    const krino_status status =
        v.evaluate(instance, &ctx, document.data(), document.size(), result.sink(), failure.sink());
    check.returned();
    if (status == KRINO_OK) check.check_document(result.text(), "evalresult", "its eval result");
    else check.check_failure(status, failure);
    // As `krino run` takes it: the same call, the result offered to be taken as values.
    core::ResultSink offered(check.component().name);
    core::StringSink offered_failure;
    check.call("evaluate on " + std::string(sample.what) + " with its result taken as values", detail);
    const krino_status offered_status =
        v.evaluate(instance, &ctx, document.data(), document.size(), offered.sink(), offered_failure.sink());
    check.returned();
    check_values_way(check, status, result.text(), offered_status, offered, offered_failure);
    // Measured after every item, and the calls stop at a leak: a plugin that leaks tens of MB a
    // call would otherwise spend the component's time limit touching pages.
    if (const long long grown = resident_mb() - resident_before; grown > kLeakMb) {
      check.problem_overall("its resident memory grew by " + std::to_string(grown) + " MB over " +
                            std::to_string(2 * item) + " evaluate calls (a leak?); no more were made");
      break;
    }
  }
  check.call("destroy");
  v.destroy(instance);
  check.returned();
}

void check_resolver(Checker& check, const krino_host* host) {
  const krino_dataset_resolver_vtable& v = check.component().resolver();
  if (v.schemes == nullptr || !utf8::is_valid(v.schemes)) check.problem_overall("its schemes are missing or not UTF-8");
  if (v.extensions != nullptr && !utf8::is_valid(v.extensions)) check.problem_overall("its extensions are not UTF-8");
  // An empty file with the resolver's first extension, and a file that does not exist: either may
  // be refused, with a message, or read; neither may crash.
  std::string extension = v.extensions != nullptr ? v.extensions : "";
  extension = extension.substr(0, extension.find(','));
  char folder_template[] = "/tmp/krino-plugins-check-XXXXXX";
  const char* folder = ::mkdtemp(folder_template);
  if (folder == nullptr) {
    check.note_overall("the resolver was not opened: no temporary folder");
    return;
  }
  const std::string empty_file = std::string(folder) + "/empty" + extension;
  std::ofstream(empty_file).close();
  for (const auto& [what, uri] : {std::pair<std::string, std::string>{"an empty file", empty_file},
                                  {"a file that does not exist", std::string(folder) + "/missing" + extension}}) {
    void* stream = nullptr;
    core::StringSink info;
    core::StringSink error;
    check.call("open on " + what);
    const krino_status opened = v.open(host, uri.c_str(), "{}", 2, &stream, info.sink(), error.sink());
    check.returned();
    if (opened != KRINO_OK || stream == nullptr) {
      if (opened == KRINO_OK) check.problem("returned OK without a stream");
      else check.check_failure(opened, error);
      continue;
    }
    check.check_document(info.text(), "datasetinfo", "its dataset info");
    for (int record = 0; record < 100; ++record) {
      core::StringSink text;
      core::StringSink location;
      core::StringSink failure;
      int32_t outcome = KRINO_NEXT_END;
      check.call("next on " + what);
      const krino_status status = v.next(stream, text.sink(), location.sink(), &outcome, failure.sink());
      check.returned();
      if (status != KRINO_OK) {
        check.check_failure(status, failure);
        break;
      }
      if (outcome == KRINO_NEXT_END) break;
      if (outcome == KRINO_NEXT_RECORD && v.decode == nullptr) check.check_document(text.text(), "example", "a record");
    }
    check.call("close on " + what);
    v.close(stream);
    check.returned();
  }
  std::filesystem::remove_all(folder);
}

void check_extractor(Checker& check) {
  const krino_trace_extractor_vtable& v = check.component().extractor();
  for (const SampleCase& sample : kSampleRaw) {
    const std::string raw = sample.document;
    check.call(std::string("detect on ") + sample.what);
    const int32_t confidence = v.detect(raw.data(), raw.size());
    check.returned();
    if (confidence < 0 || confidence > 100)
      check.problem("returned a confidence outside 0..100", " (" + std::to_string(confidence) + ")");
    core::StringSink trace;
    core::StringSink error;
    check.call(std::string("extract on ") + sample.what);
    const krino_status status = v.extract(raw.data(), raw.size(), trace.sink(), error.sink());
    check.returned();
    if (status == KRINO_OK) check.check_document(trace.text(), "trace", "its trace");
    else check.check_failure(status, error);
  }
}

void check_reporter(Checker& check, const krino_host* host) {
  const krino_reporter_vtable& v = check.component().reporter();
  if (!empty_options_allowed(check)) return;
  void* instance = create_with_empty_options(check, v, host);
  if (instance == nullptr) return;
  if (v.flush != nullptr) {
    core::StringSink failure;
    check.call("flush before any event");
    const krino_status status = v.flush(instance, failure.sink());
    check.returned();
    if (status != KRINO_OK) check.check_failure(status, failure);
  }
  check.call("destroy");
  v.destroy(instance);
  check.returned();
  check.note_overall("create, flush and destroy checked; no event was sent (a reporter's output needs a real run)");
}

}  // namespace

int check_component(const core::Component& component, const krino_host* host, std::FILE* out, int plugin_stdout) {
  Checker check(component, out, plugin_stdout);
  // Whatever the plugin writes into files, it writes into a folder of its own.
  char folder_template[] = "/tmp/krino-plugins-check-cwd-XXXXXX";
  const char* folder = ::mkdtemp(folder_template);
  if (folder != nullptr && ::chdir(folder) != 0) folder = nullptr;
  switch (component.kind) {
    case core::ComponentKind::evaluator: check_evaluator(check, host); break;
    case core::ComponentKind::dataset_resolver: check_resolver(check, host); break;
    case core::ComponentKind::trace_extractor: check_extractor(check); break;
    case core::ComponentKind::reporter: check_reporter(check, host); break;
  }
  if (folder != nullptr) {
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  }
  check.finish();
  return 0;
}

}  // namespace krino::plugin_host
