// Benchmark (b): the exact_match evaluator called through the plugin ABI (loaded from krino-text.so,
// called through the host's EvaluatorHandle, result checked by the host) against the same class
// called in-process (linked from krino_text_logic, handed an already parsed test case).
//
// Three ABI figures, because the host hands one serialized test case to every evaluator and the
// SDK helper caches its parse per document:
//   fresh   : a new document every call (the plugin parses it each time; one evaluator per item),
//   cached  : the same document again (what the 2nd..nth evaluator of a plugin pays),
//   item/4  : four evaluators of one plugin on one item, per evaluator;
//   lent    : a new document every call, parsed by the host (krino.host.document/1, the parse
//             counted in the call) and read by the plugin from that parse instead of the text.
//
// krino_abi_overhead_bench [CALLS] [--path NAME] [--case equal|different]: --path measures one path
// only (in-process, json, fresh, cached, item4, lent), so that a profiler run counts that path alone.
#include "exact_match_evaluator.h"
#include "test_paths.hpp"

#include "krino/core/host/call_handle.hpp"
#include "krino/core/host/host_document.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/component_factory.hpp"

#include <boost/json.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

using namespace krino::core;
namespace json = boost::json;

namespace {

// Two cases: the outputs equal (the plugin's parse then shares one value for both, and exact_match
// compares nothing), and the outputs different (both written out and compared, as the bare call
// always does).
const char* kCaseSame = R"({"inputs":{"input":"Which city is the capital of France? Answer with the city name only."},
"actualOutputs":{"output":"Paris","reasoning":"France's seat of government and largest city is Paris."},
"expectedOutputs":{"output":"Paris"},"metadata":{"source":"bench","difficulty":"easy","tags":["geo","capitals"]}})";
const char* kCaseDiffers = R"({"inputs":{"input":"Which city is the capital of France? Answer with the city name only."},
"actualOutputs":{"output":"paris","reasoning":"France's seat of government and largest city is Paris."},
"expectedOutputs":{"output":"Paris"},"metadata":{"source":"bench","difficulty":"easy","tags":["geo","capitals"]}})";

struct Options {
  uint64_t calls = 2000000;
  std::string path;       // empty: every path
  std::string case_name;  // empty: both cases
};

// Nanoseconds per call of `f`, or nothing when --path asked for another path.
template <class F>
std::optional<double> ns_per_call(const Options& options, std::string_view path, F&& f) {
  if (!options.path.empty() && options.path != path) return std::nullopt;
  for (uint64_t i = 0; i < options.calls / 10; ++i) f(i);  // warm up
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < options.calls; ++i) f(i);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(options.calls);
}

void print_row(const char* label, std::optional<double> ns, std::optional<double> in_process,
               std::optional<double> in_process_json = std::nullopt) {
  if (!ns) return;
  std::printf("  %-23s %8.1f ns/call", label, *ns);
  if (in_process) {
    std::printf("  (%.2fx in-process", *ns / *in_process);
    if (in_process_json) std::printf(", %.2fx in-process with JSON in/out", *ns / *in_process_json);
    std::printf(")");
  }
  std::printf("\n");
}

bool measure(const char* label, const char* case_text, const Options& options) {
  const std::string testcase = json::serialize(json::parse(case_text));

  // In-process: the class itself on a parsed document, producing the result object a host reports.
  krino::Config config(json::object{{"ignore_case", true}});
  krino::text::ExactMatchEvaluator direct(config);
  const json::object parsed = json::parse(testcase).as_object();
  krino::CallContext no_host(nullptr, nullptr);
  volatile size_t sink = 0;
  const std::optional<double> in_process = ns_per_call(options, "in-process", [&](uint64_t) {
    krino::EvalResult r = direct.evaluate(krino::TestCase(parsed), no_host);
    sink = sink + (r.score ? 1 : 0) + r.reason.size();  // the result, as an in-process framework would keep it
  });

  // In-process with the same data flow as the ABI: the test case arrives as JSON text and the result
  // leaves as JSON text, but no boundary is crossed (no trampolines, sinks or host-side check).
  const std::optional<double> in_process_json = ns_per_call(options, "json", [&](uint64_t) {
    json::monotonic_resource arena;
    json::value doc = json::parse(testcase, &arena);
    krino::EvalResult r = direct.evaluate(krino::TestCase(doc.as_object()), no_host);
    std::string text;
    r.append_json(text);
    sink = sink + text.size();
  });

  // Through the ABI, exactly as the runner calls it.
  Cancellation cancellation;
  HostServices host(cancellation);
  PluginRegistry registry;
  if (!registry.load_file(std::filesystem::path(KRINO_PLUGIN_BUILD_DIR) / "krino-text.so", *host.host_info())) {
    std::fprintf(stderr, "cannot load krino-text.so: %s\n", registry.problems().at(0).message.c_str());
    return false;
  }
  auto handle = make_evaluator(registry, ComponentUse{"exact_match", json::object{{"ignore_case", true}}}, host.host(), 1);
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  const std::optional<double> abi_fresh = ns_per_call(options, "fresh", [&](uint64_t) {
    ctx.document_serial = host.next_document_serial();
    auto r = handle->evaluate(ctx, testcase);
    sink = sink + r.index();
  });
  ctx.document_serial = host.next_document_serial();
  const std::optional<double> abi_cached = ns_per_call(options, "cached", [&](uint64_t) {
    auto r = handle->evaluate(ctx, testcase);
    sink = sink + r.index();
  });
  const std::optional<double> abi_item4 = ns_per_call(options, "item4", [&](uint64_t i) {
    if (i % 4 == 0) ctx.document_serial = host.next_document_serial();
    auto r = handle->evaluate(ctx, testcase);
    sink = sink + r.index();
  });

  // The host's parse lent, as the runner lends it for each item: built and parsed within the call.
  krino_span sections[4];
  {
    const char* keys[4] = {"inputs", "actualOutputs", "expectedOutputs", "metadata"};
    for (int k = 0; k < 4; ++k) {
      const auto raw = krino::json::find_member(testcase, keys[k]);
      sections[k] = raw ? krino_span{static_cast<uint64_t>(raw->data() - testcase.data()), raw->size()} : krino_span{0, 0};
    }
  }
  for (int k = 0; k < 4; ++k) ctx.testcase_sections[k] = sections[k];
  const std::optional<double> abi_lent = ns_per_call(options, "lent", [&](uint64_t) {
    ctx.document_serial = host.next_document_serial();
    HostTestCase parse(testcase, sections);
    CallAttribution attribution;
    CallHandle call{&attribution, &parse};
    ctx.host_handle = &call;
    auto r = handle->evaluate(ctx, testcase);
    ctx.host_handle = nullptr;
    sink = sink + r.index();
  });

  std::printf("exact_match on a %zu-byte test case, outputs %s, %llu calls each\n", testcase.size(), label,
              static_cast<unsigned long long>(options.calls));
  print_row("in-process", in_process, std::nullopt);
  print_row("in-process, JSON in/out", in_process_json, in_process);
  print_row("ABI, fresh document", abi_fresh, in_process, in_process_json);
  print_row("ABI, cached document", abi_cached, in_process);
  print_row("ABI, 4 evaluators/item", abi_item4, in_process);
  print_row("ABI, host's parse lent", abi_lent, in_process);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const auto usage = [&] {
    std::fprintf(stderr,
                 "usage: %s [CALLS] [--path in-process|json|fresh|cached|item4|lent] [--case equal|different]\n"
                 "  CALLS: a positive number of calls per figure (default 2000000)\n",
                 argv[0]);
    return 2;
  };
  bool calls_seen = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if ((arg == "--path" || arg == "--case") && i + 1 < argc) {
      (arg == "--path" ? options.path : options.case_name) = argv[++i];
    } else if (!calls_seen && !arg.empty() && arg.front() != '-') {
      char* end = nullptr;
      options.calls = std::strtoull(argv[i], &end, 10);
      if (end == argv[i] || *end != '\0' || options.calls == 0) return usage();
      calls_seen = true;
    } else {
      return usage();
    }
  }
  static constexpr std::string_view paths[] = {"in-process", "json", "fresh", "cached", "item4", "lent"};
  if (!options.path.empty() && std::find(std::begin(paths), std::end(paths), options.path) == std::end(paths)) return usage();
  if (!options.case_name.empty() && options.case_name != "equal" && options.case_name != "different") return usage();
  bool ok = true;
  if (options.case_name != "different") ok = ok && measure("equal", kCaseSame, options);
  if (options.case_name != "equal") ok = ok && measure("different", kCaseDiffers, options);
  return ok ? 0 : 1;
}
