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

#include <chrono>
#include <cstdio>
#include <filesystem>

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

template <class F>
double ns_per_call(uint64_t calls, F&& f) {
  for (uint64_t i = 0; i < calls / 10; ++i) f(i);  // warm up
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < calls; ++i) f(i);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(calls);
}

bool measure(const char* label, const char* case_text, uint64_t calls) {
  const std::string testcase = json::serialize(json::parse(case_text));

  // In-process: the class itself on a parsed document, producing the result object a host reports.
  krino::Config config(json::object{{"ignore_case", true}});
  krino::text::ExactMatchEvaluator direct(config);
  const json::object parsed = json::parse(testcase).as_object();
  krino::CallContext no_host(nullptr, nullptr);
  volatile size_t sink = 0;
  const double in_process = ns_per_call(calls, [&](uint64_t) {
    krino::EvalResult r = direct.evaluate(krino::TestCase(parsed), no_host);
    sink = sink + (r.score ? 1 : 0) + r.reason.size();  // the result, as an in-process framework would keep it
  });

  // In-process with the same data flow as the ABI: the test case arrives as JSON text and the result
  // leaves as JSON text, but no boundary is crossed (no trampolines, sinks or host-side check).
  const double in_process_json = ns_per_call(calls, [&](uint64_t) {
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
  const double abi_fresh = ns_per_call(calls, [&](uint64_t) {
    ctx.document_serial = host.next_document_serial();
    auto r = handle->evaluate(ctx, testcase);
    sink = sink + r.index();
  });
  ctx.document_serial = host.next_document_serial();
  const double abi_cached = ns_per_call(calls, [&](uint64_t) {
    auto r = handle->evaluate(ctx, testcase);
    sink = sink + r.index();
  });
  const double abi_item4 = ns_per_call(calls, [&](uint64_t i) {
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
  const double abi_lent = ns_per_call(calls, [&](uint64_t) {
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
              static_cast<unsigned long long>(calls));
  std::printf("  in-process              %8.1f ns/call\n", in_process);
  std::printf("  in-process, JSON in/out %8.1f ns/call\n", in_process_json);
  std::printf("  ABI, fresh document     %8.1f ns/call  (%.2fx in-process, %.2fx in-process with JSON in/out)\n",
              abi_fresh, abi_fresh / in_process, abi_fresh / in_process_json);
  std::printf("  ABI, cached document    %8.1f ns/call  (%.2fx in-process)\n", abi_cached, abi_cached / in_process);
  std::printf("  ABI, 4 evaluators/item  %8.1f ns/call  (%.2fx in-process)\n", abi_item4, abi_item4 / in_process);
  std::printf("  ABI, host's parse lent  %8.1f ns/call  (%.2fx in-process)\n", abi_lent, abi_lent / in_process);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // krino_abi_overhead_bench [CALLS]   (default 2,000,000 calls per figure)
  char* end = nullptr;
  const uint64_t calls = argc > 1 ? std::strtoull(argv[1], &end, 10) : 2000000;
  if (argc > 2 || (argc > 1 && (end == argv[1] || *end != '\0' || calls == 0))) {
    std::fprintf(stderr, "usage: %s [CALLS]   (a positive number of calls per figure; default 2000000)\n", argv[0]);
    return 2;
  }
  const bool ok = measure("equal", kCaseSame, calls) && measure("different", kCaseDiffers, calls);
  return ok ? 0 : 1;
}
