// krino C++ helper layer: header-only, wraps the C ABI of plugin.h. Never part of the ABI itself:
// a plugin built with any version of these headers talks to the host only through plugin.h.
//
// This is the umbrella (as CLAP's all.h): it includes one header per concept, under krino/plugin/,
// each of which may also be included on its own.
//
//   krino/plugin/error.hpp             krino::Error, invalid_argument; the exception guard
//   krino/plugin/sink.hpp              write / write_json to a host sink; StringSink
//   krino/plugin/config.hpp            krino::Config, a component's validated options
//   krino/plugin/test_case.hpp         krino::TestCase, Section: the lazy view of krino.testcase/1
//   krino/plugin/test_case_document.hpp  (detail) its arena-backed document and per-thread cache
//   krino/plugin/eval_result.hpp       krino::EvalResult, krino.evalresult/1
//   krino/plugin/call_context.hpp      krino::CallContext: seed, cancellation, log, judge
//   krino/plugin/registry.hpp          (detail) what the registration macros declare
//   krino/plugin/evaluator.hpp         KRINO_EVALUATOR
//   krino/plugin/dataset_resolver.hpp  KRINO_DATASET_RESOLVER, DatasetInfo, Next
//   krino/plugin/trace_extractor.hpp   KRINO_TRACE_EXTRACTOR
//   krino/plugin/reporter.hpp          KRINO_REPORTER, krino::Event
//   krino/plugin/entry.hpp             KRINO_PLUGIN, KRINO_PLUGIN_DEINIT, KRINO_PLUGIN_MIN_HOST_ABI_MINOR,
//                                      KRINO_PLUGIN_EXTENSION
//
// An evaluator is one class plus one registration line:
//
//   class WordCount {
//    public:
//     explicit WordCount(const krino::Config& config) : max_(config.get_int("max_words", 100)) {}
//     krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext& ctx);
//   };
//   KRINO_EVALUATOR(WordCount, "com.acme.word_count", "word_count", "1.0.0", "Counts words",
//                   KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, R"({"type":"object"})");
//   KRINO_PLUGIN("com.acme.words", "words", "1.0.0", "ACME", "MIT", "Word evaluators");
//
// Dataset resolvers, trace extractors and reporters register the same way (KRINO_DATASET_RESOLVER,
// KRINO_TRACE_EXTRACTOR, KRINO_REPORTER).
//
// Every trampoline catches every exception: a krino::Error becomes its status code and message,
// any other exception KRINO_INTERNAL. Requires C++17 and Boost.JSON (one translation unit of the
// plugin must include <boost/json/src.hpp>; krino_add_plugin() adds it). What these headers
// promise from one release to the next: docs/sdk.md, "Stability".
#ifndef KRINO_PLUGIN_HPP
#define KRINO_PLUGIN_HPP

#include <krino/plugin.h>
#include <krino/plugin/call_context.hpp>
#include <krino/plugin/config.hpp>
#include <krino/plugin/dataset_resolver.hpp>
#include <krino/plugin/entry.hpp>
#include <krino/plugin/error.hpp>
#include <krino/plugin/eval_result.hpp>
#include <krino/plugin/evaluator.hpp>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/reporter.hpp>
#include <krino/plugin/sink.hpp>
#include <krino/plugin/test_case.hpp>
#include <krino/plugin/test_case_document.hpp>
#include <krino/plugin/trace_extractor.hpp>

// What this header included before it was split, kept so code that relied on getting them through
// it keeps compiling.
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#endif  // KRINO_PLUGIN_HPP
