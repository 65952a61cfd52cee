// <krino/plugin.h> and <krino/plugin.hpp> as C++17 (-std=c++17 -Wall -Wextra -Wpedantic -Werror):
// the layout checks, then a plugin written with the helper layer (evaluators, a reporter and a
// dataset resolver registered with the macros, plus the entry point), driven by a fake host in
// main(). Besides keeping plugin.hpp C++17-clean it checks at run time that:
//  - an exception thrown by an evaluator becomes KRINO_INTERNAL with its message;
//  - a call suspended inside host->judge() keeps its test case while the same thread evaluates
//    other documents meanwhile (what the host's scheduler does while a judge call is in flight).
#include "abi_layout.h"

#include <krino/plugin.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

// --- the plugin ---------------------------------------------------------------------------------

class OutputEquals {
 public:
  explicit OutputEquals(const krino::Config& config)
      : key_(config.get_string("output_key", "output")),
        threshold_(config.get_double("threshold", 1.0)),
        max_length_(config.get_int("max_length", 1000)),
        ignore_case_(config.get_bool("ignore_case", false)),
        stop_words_(config.get_strings("stop_words")) {}

  krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext& ctx) const {
    if (ctx.is_cancelled()) throw krino::Error(KRINO_CANCELLED, "cancelled");
    const auto* actual = krino::TestCase::lookup(test_case.actual_outputs(), key_);
    const auto* expected = test_case.expected_output();
    if (actual == nullptr || expected == nullptr) throw krino::invalid_argument("needs '" + key_ + "' and 'output'");
    krino::EvalResult r = krino::EvalResult::scored("output_equals", *actual == *expected ? 1.0 : 0.0, threshold_);
    r.metadata["max_length"] = max_length_;
    r.metadata["ignore_case"] = ignore_case_;
    r.metadata["stop_words"] = stop_words_.size();
    return r;
  }

 private:
  std::string key_;
  double threshold_;
  int64_t max_length_;
  bool ignore_case_;
  std::vector<std::string> stop_words_;
};

class Throwing {
 public:
  explicit Throwing(const krino::Config&) {}
  krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&) const { throw std::runtime_error("boom"); }
};

// Asks the judge, then reports the output of the test case it was given.
class Judged {
 public:
  explicit Judged(const krino::Config&) {}
  krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext& ctx) const {
    boost::json::value reply = ctx.judge({{"messages", {{{"role", "user"}, {"content", "score this"}}}}});
    ctx.log(KRINO_LOG_DEBUG, "judged");
    krino::EvalResult r = krino::EvalResult::unscored("judged", std::nullopt, "no score");
    r.reason = boost::json::serialize(*test_case.actual_output());
    r.metadata["model"] = reply.at("model");
    return r;
  }
};

class Counter {
 public:
  explicit Counter(const krino::Config&) {}
  void on_event(const krino::Event& event) { count_ += event.type() == "run_started" ? 1 : 0; }
  void flush() {}

 private:
  int count_ = 0;
};

class TwoLines {
 public:
  TwoLines(const krino_host*, std::string uri, const krino::Config&, krino::DatasetInfo& info) {
    info.name = std::move(uri);
    info.size_hint = 2;
  }
  krino::Next next(std::string& record, std::string& location, std::string&) {
    if (emitted_ == 2) return krino::Next::end;
    ++emitted_;
    record = "line " + std::to_string(emitted_);
    location = "lines.txt:" + std::to_string(emitted_);
    return krino::Next::record;
  }
  boost::json::object decode(std::string_view record) const {
    return {{"inputs", {{"input", record}}}, {"expectedOutputs", boost::json::object()}, {"metadata", boost::json::object()}};
  }

 private:
  int emitted_ = 0;
};

}  // namespace

KRINO_EVALUATOR(OutputEquals, "test.cxx17.output_equals", "output_equals", "1.0.0", "output == expected",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, R"({"type":"object"})");
KRINO_EVALUATOR(Throwing, "test.cxx17.throwing", "throwing", "1.0.0", "always throws", 0, nullptr);
KRINO_EVALUATOR(Judged, "test.cxx17.judged", "judged", "1.0.0", "calls the judge", KRINO_CAP_NEEDS_JUDGE, nullptr);
KRINO_REPORTER(Counter, "test.cxx17.counter", "counter", "1.0.0", "counts runs", nullptr);
KRINO_DATASET_RESOLVER(TwoLines, "test.cxx17.two_lines", "two_lines", "1.0.0", "two records", "file", ".txt",
                       nullptr);
KRINO_PLUGIN("test.cxx17", "cxx17", "1.0.0", "krino", "Apache-2.0", "header test plugin")

// --- the fake host ------------------------------------------------------------------------------

namespace {

int failures = 0;
void expect(bool condition, const char* what, int line) {
  if (condition) return;
  std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, line, what);
  ++failures;
}
#define EXPECT(condition) expect((condition), #condition, __LINE__)

const krino_plugin_descriptor* plugin = nullptr;

const krino_component* component(const char* name) {
  for (size_t i = 0; i < plugin->component_count; ++i)
    if (std::string(plugin->components[i].name) == name) return &plugin->components[i];
  return nullptr;
}

const krino_evaluator_vtable& evaluator(const char* name) {
  return *static_cast<const krino_evaluator_vtable*>(component(name)->vtable);
}

struct Evaluation {
  krino_status status;
  std::string result;
  std::string error;
};

Evaluation evaluate(const char* name, void* instance, uint64_t serial, const std::string& testcase) {
  krino_call_context ctx{};
  ctx.struct_size = sizeof ctx;
  ctx.document_serial = serial;
  krino::detail::StringSink result;
  krino::detail::StringSink error;
  krino_status status =
      evaluator(name).evaluate(instance, &ctx, testcase.data(), testcase.size(), &result.sink, &error.sink);
  return {status, result.text, error.text};
}

const std::string kCaseA = R"({"inputs":{},"actualOutputs":{"output":"A"},"expectedOutputs":{"output":"A"},"metadata":{}})";
const std::string kCaseB = R"({"inputs":{},"actualOutputs":{"output":"B"},"expectedOutputs":{"output":"A"},"metadata":{}})";
void* output_equals_instance = nullptr;
int judge_calls = 0;

// While "suspended" in the judge, the thread scores other documents, as the host's scheduler would.
krino_status fake_judge(const krino_host*, const krino_call_context*, const char*, size_t, krino_sink* response,
                        krino_sink*) {
  ++judge_calls;
  EXPECT(evaluate("output_equals", output_equals_instance, 900, kCaseB).status == KRINO_OK);
  EXPECT(evaluate("output_equals", output_equals_instance, 0, kCaseB).status == KRINO_OK);
  krino::write(response, R"({"content":"1","model":"fake","usage":{"tokensIn":1,"tokensOut":1},"costUsd":null,"cached":false})");
  return KRINO_OK;
}

}  // namespace

int main() {
  krino_host host{};
  host.struct_size = sizeof host;
  host.log = [](const krino_host*, int32_t, const char*, const char*, size_t) {};
  host.is_cancelled = [](const krino_host*, const krino_call_context*) -> int32_t { return 0; };
  host.judge = fake_judge;
  host.get_extension = [](const krino_host*, const char*) -> const void* { return nullptr; };
  krino_host_info info{};
  info.struct_size = sizeof info;
  info.abi_major = KRINO_ABI_MAJOR;
  info.abi_minor = KRINO_ABI_MINOR;
  info.host_name = "krino";
  info.host_version = "0.0.0-test";
  info.host = &host;
  krino::detail::StringSink error;

  krino_plugin_entry_fn entry = &krino_plugin_entry;
  plugin = entry(&info, &error.sink);
  EXPECT(plugin != nullptr);
  if (plugin == nullptr) return 1;
  EXPECT(plugin->component_count == 5 && std::string(plugin->id) == "test.cxx17");
  EXPECT(component("output_equals")->kind == KRINO_KIND_EVALUATOR);
  EXPECT(component("counter")->kind == KRINO_KIND_REPORTER);
  EXPECT(component("two_lines")->kind == KRINO_KIND_DATASET_RESOLVER);

  const std::string config = R"({"output_key":"output","threshold":1,"max_length":3.0,"ignore_case":false})";
  EXPECT(evaluator("output_equals").create(&host, config.data(), config.size(), &output_equals_instance,
                                           &error.sink) == KRINO_OK);
  Evaluation equal = evaluate("output_equals", output_equals_instance, 1, kCaseA);
  EXPECT(equal.status == KRINO_OK && equal.result.find("\"success\":true") != std::string::npos);
  Evaluation broken = evaluate("output_equals", output_equals_instance, 2, "{\"inputs\":");
  EXPECT(broken.status == KRINO_INVALID_ARGUMENT && broken.error.find("not valid JSON") != std::string::npos);

  void* throwing = nullptr;
  EXPECT(evaluator("throwing").create(&host, "{}", 2, &throwing, &error.sink) == KRINO_OK);
  Evaluation boom = evaluate("throwing", throwing, 3, kCaseA);
  EXPECT(boom.status == KRINO_INTERNAL && boom.error == "boom" && boom.result.empty());
  evaluator("throwing").destroy(throwing);

  void* judged = nullptr;
  EXPECT(evaluator("judged").create(&host, "{}", 2, &judged, &error.sink) == KRINO_OK);
  Evaluation suspended = evaluate("judged", judged, 4, kCaseA);
  EXPECT(judge_calls == 1);
  EXPECT(suspended.status == KRINO_OK);
  EXPECT(suspended.result.find(R"("reason":"\"A\"")") != std::string::npos);
  EXPECT(suspended.result.find(R"("model":"fake")") != std::string::npos);
  evaluator("judged").destroy(judged);
  evaluator("output_equals").destroy(output_equals_instance);

  const auto& reporter = *static_cast<const krino_reporter_vtable*>(component("counter")->vtable);
  void* counter = nullptr;
  const std::string event = R"({"event":"run_started","schema":"krino.event/1"})";
  EXPECT(reporter.create(&host, "{}", 2, &counter, &error.sink) == KRINO_OK);
  EXPECT(reporter.on_event(counter, event.data(), event.size(), &error.sink) == KRINO_OK);
  EXPECT(reporter.flush(counter, &error.sink) == KRINO_OK);
  reporter.destroy(counter);

  const auto& resolver = *static_cast<const krino_dataset_resolver_vtable*>(component("two_lines")->vtable);
  void* stream = nullptr;
  krino::detail::StringSink dataset_info;
  EXPECT(resolver.open(&host, "lines.txt", "{}", 2, &stream, &dataset_info.sink, &error.sink) == KRINO_OK);
  EXPECT(dataset_info.text == R"({"name":"lines.txt","description":"","sizeHint":2})");
  krino::detail::StringSink record;
  krino::detail::StringSink location;
  int32_t outcome = -1;
  EXPECT(resolver.next(stream, &record.sink, &location.sink, &outcome, &error.sink) == KRINO_OK);
  EXPECT(outcome == KRINO_NEXT_RECORD && record.text == "line 1" && location.text == "lines.txt:1");
  krino::detail::StringSink example;
  EXPECT(resolver.decode != nullptr &&
         resolver.decode(stream, record.text.data(), record.text.size(), &example.sink, &error.sink) == KRINO_OK);
  EXPECT(example.text.find(R"("input":"line 1")") != std::string::npos);
  resolver.close(stream);

  if (failures == 0) std::puts("header_cxx17: ok");
  return failures == 0 ? 0 : 1;
}
