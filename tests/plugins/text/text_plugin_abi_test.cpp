// The text evaluators through the C ABI: the trampolines the plugin registers, with JSON text in
// and out, and the built krino-text.so itself.
#include "exact_match_evaluator.h"
#include "regex_evaluator.h"
#include "retrieval_evaluator.h"
#include "structural_match_evaluator.h"
#include "test_paths.hpp"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <cstring>
#include <map>
#include <string>

using namespace krino::text;

namespace {

// A host-side sink, as the host would hand one to a plugin (the SDK helper's own).
using TestSink = krino::detail::StringSink;

struct Outcome {
  krino_status status;
  std::string result;
  std::string error;
};

// Creates an instance through `vtable`, scores one test case document, destroys the instance.
Outcome run(const krino_evaluator_vtable* vtable, const std::string& config, const std::string& test_case,
            uint64_t document_serial = 0) {
  TestSink create_error;
  void* instance = nullptr;
  const krino_status created = vtable->create(nullptr, config.data(), config.size(), &instance, &create_error.sink);
  if (created != KRINO_OK) return {created, "", create_error.text};
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = document_serial;
  TestSink result;
  TestSink error;
  const krino_status status = vtable->evaluate(instance, &ctx, test_case.data(), test_case.size(), &result.sink, &error.sink);
  vtable->destroy(instance);
  return {status, result.text, error.text};
}

template <class T>
const krino_evaluator_vtable* trampolines() {
  return krino::detail::EvaluatorTrampolines<T>::vtable();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(text_plugin_abi)

BOOST_AUTO_TEST_CASE(a_result_comes_back_as_an_evalresult_document) {
  const Outcome o = run(trampolines<ExactMatchEvaluator>(), "{}",
                        R"({"inputs": {}, "actualOutputs": {"output": 5}, "expectedOutputs": {"output": 5.0}, "metadata": {}})");
  BOOST_TEST(o.status == KRINO_OK);
  BOOST_TEST(o.error.empty());
  BOOST_TEST(boost::json::parse(o.result) ==
             boost::json::parse(R"({"name": "exact_match", "score": 0.0, "success": false, "threshold": 1.0,
                                    "reason": "expected 5.0, got 5", "metadata": {}})"));
}

// Outputs written with the same bytes are one parse in the test case, and exact_match takes them as
// equal without writing either out: they must match under every option, as their texts do.
BOOST_AUTO_TEST_CASE(outputs_with_the_same_bytes_match_under_every_option) {
  for (const char* options : {"{}", R"({"ignore_case":true})", R"({"trim_whitespace":true,"ignore_case":true})"}) {
    for (const char* output : {R"({"a":[1,2.50,123456789012345678901234567890],"b":"Caf\u00e9"})", "null", R"(" Paris ")", "1e400"}) {
      const std::string test_case = std::string(R"({"inputs":{},"actualOutputs":{"output":)") + output +
                                    R"(},"expectedOutputs":{"output":)" + output + R"(},"metadata":{}})";
      const Outcome o = run(trampolines<ExactMatchEvaluator>(), options, test_case);
      BOOST_TEST_REQUIRE(o.status == KRINO_OK, o.error);
      const boost::json::value r = boost::json::parse(o.result);
      BOOST_TEST(r.at("score").to_number<double>() == 1.0, options << " " << output);
      BOOST_TEST(r.at("reason").as_string().starts_with("the actual output equals the expected output"));
    }
  }
}

BOOST_AUTO_TEST_CASE(structural_match_through_the_abi) {
  const Outcome o = run(trampolines<StructuralMatchEvaluator>(), R"({"match_mode": "lenient"})",
                        R"({"inputs": {}, "actualOutputs": {"output": "{\"a\": 1, \"extra\": true}"},
                            "expectedOutputs": {"output": {"a": 1.0}}, "metadata": {}})");
  BOOST_TEST(o.status == KRINO_OK);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("score").as_double() == 1.0);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("matchMode").as_string() == "lenient");
}

BOOST_AUTO_TEST_CASE(a_bad_configuration_is_invalid_argument_from_create) {
  const Outcome bad_pattern = run(trampolines<RegexEvaluator>(), R"({"pattern": "a(b"})", "{}");
  BOOST_TEST(bad_pattern.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad_pattern.error == "invalid regular expression at offset 3: missing closing parenthesis");
  const Outcome not_json = run(trampolines<RegexEvaluator>(), "{pattern", "{}");
  BOOST_TEST(not_json.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(not_json.error.rfind("configuration is not valid JSON", 0) == 0u);
  const Outcome unknown = run(trampolines<PrecisionEvaluator>(), R"({"k": 5})", "{}");
  BOOST_TEST(unknown.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unknown.error.rfind("unknown option 'k'", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(a_broken_test_case_is_invalid_argument_from_evaluate) {
  const Outcome missing = run(trampolines<StructuralMatchEvaluator>(), "{}",
                              R"({"inputs": {}, "actualOutputs": {"output": 1}, "expectedOutputs": {}, "metadata": {}})");
  BOOST_TEST(missing.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(missing.result.empty());
  BOOST_TEST(missing.error == "the test case has no expected output 'output' (expectedOutputs.output)");
  const Outcome duplicate = run(trampolines<StructuralMatchEvaluator>(), "{}",
                                R"({"inputs": {}, "actualOutputs": {"output": "{\"a\":1,\"a\":1}"},
                                    "expectedOutputs": {"output": {"a": 1}}, "metadata": {}})");
  BOOST_TEST(duplicate.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(duplicate.error ==
             "the actual output 'output' is a string but not valid JSON: duplicate object key \"a\" at offset 9");
  const Outcome not_json = run(trampolines<ExactMatchEvaluator>(), "{}", "[1, 2]");
  BOOST_TEST(not_json.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(not_json.error == "test case must be a JSON object");
}

BOOST_AUTO_TEST_CASE(a_cached_document_is_reused_by_serial) {
  // The helper layer caches the parse per thread by document serial; a second evaluator handed
  // the same serial and bytes sees the same document.
  const std::string document =
      R"({"inputs": {}, "actualOutputs": {"retrieved": ["a", "b"]}, "expectedOutputs": {"relevant": ["a"]}, "metadata": {}})";
  const Outcome precision = run(trampolines<PrecisionEvaluator>(), "{}", document, 77);
  const Outcome recall = run(trampolines<RecallEvaluator>(), "{}", document, 77);
  BOOST_TEST(boost::json::parse(precision.result).at("score").as_double() == 0.5);
  BOOST_TEST(boost::json::parse(recall.result).at("score").as_double() == 1.0);
}

BOOST_AUTO_TEST_CASE(the_built_module_registers_seven_evaluators) {
  const std::string path = std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-text.so";
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  BOOST_TEST_REQUIRE(library != nullptr, "dlopen failed: " << dlerror());
  auto entry = reinterpret_cast<krino_plugin_entry_fn>(dlsym(library, KRINO_PLUGIN_ENTRY_SYMBOL));
  BOOST_TEST_REQUIRE(entry != nullptr);

  krino_host host{};
  host.struct_size = sizeof(host);
  krino_host_info info{};
  info.struct_size = sizeof(info);
  info.abi_major = KRINO_ABI_MAJOR;
  info.abi_minor = KRINO_ABI_MINOR;
  info.host_name = "test";
  info.host_version = "0";
  info.host = &host;
  TestSink error;
  const krino_plugin_descriptor* d = entry(&info, &error.sink);
  BOOST_TEST_REQUIRE(d != nullptr, error.text);
  BOOST_TEST(std::string(d->id) == "krino.text");
  BOOST_TEST(std::string(d->name) == "text");
  BOOST_TEST_REQUIRE(d->component_count == 7u);

  const std::map<std::string, std::string> expected_ids = {
      {"exact_match", "krino.exact_match"}, {"regex", "krino.regex"},     {"contains", "krino.contains"},
      {"length", "krino.length"},           {"structural_match", "krino.structural_match"},
      {"precision", "krino.precision"},     {"recall", "krino.recall"}};
  for (size_t i = 0; i < d->component_count; ++i) {
    const krino_component& c = d->components[i];
    BOOST_TEST_CONTEXT(c.name) {
      BOOST_TEST(c.kind == KRINO_KIND_EVALUATOR);
      BOOST_TEST(expected_ids.at(c.name) == c.id);
      BOOST_TEST(std::string(c.version) == "1.0.0");
      BOOST_TEST(c.capabilities == (KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC));
      BOOST_TEST(boost::json::parse(c.config_schema).at("title").as_string() == c.name);
      BOOST_TEST(std::strlen(c.description) > 10u);
    }
  }

  // Score one case through the module's own vtable.
  const auto* contains = static_cast<const krino_evaluator_vtable*>(d->components[2].vtable);
  BOOST_TEST(std::string(d->components[2].name) == "contains");
  const Outcome o = run(contains, R"({"values": ["a", "z"], "mode": "any"})",
                        R"({"inputs": {}, "actualOutputs": {"output": "abc"}, "expectedOutputs": {}, "metadata": {}})");
  BOOST_TEST(o.status == KRINO_OK);
  BOOST_TEST(boost::json::parse(o.result).at("score").as_double() == 1.0);
  const Outcome bad = run(contains, R"({"values": []})", "{}");
  BOOST_TEST(bad.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad.error == "option 'values' must list at least one text");
  if (d->deinit != nullptr) d->deinit();
  dlclose(library);
}

BOOST_AUTO_TEST_SUITE_END()
