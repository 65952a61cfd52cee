// The plugin loader against deliberately broken plugins (tests/abi/broken/): each failure gives its
// specified one-line error, and one bad plugin never stops the others or the run.
#include "krino/core/common/error.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace krino::core;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

struct Host {
  Cancellation cancellation;
  HostServices services{cancellation, stderr, KRINO_LOG_ERROR};
};

fs::path broken(const std::string& name) {
  return fs::path(KRINO_BROKEN_PLUGIN_DIR) / name / ("krino-" + name + ".so");
}

// Loads one broken plugin and returns the problem the registry recorded ("" when it loaded).
std::string load_problem(const std::string& name) {
  Host host;
  PluginRegistry registry;
  if (registry.load_file(broken(name), *host.services.host_info())) return "";
  BOOST_REQUIRE(registry.problems().size() == 1u);
  BOOST_TEST(registry.problems()[0].to_string().find(broken(name).string() + ": ") == 0u);  // names the file
  return registry.problems()[0].message;
}

void check_problem(const std::string& name, const std::string& expected) {
  std::string problem = load_problem(name);
  BOOST_TEST(problem.find(expected) != std::string::npos, name << ": got '" << problem << "'");
  BOOST_TEST(problem.find('\n') == std::string::npos);  // one line
}

// Scores `testcase` with evaluator `evaluator` of broken plugin `name`.
std::variant<CheckedResult, ItemError> evaluate(const std::string& name, const std::string& evaluator,
                                               const std::string& testcase = R"({"inputs":{},"actualOutputs":{"output":"x"},"expectedOutputs":{},"metadata":{}})") {
  Host host;
  PluginRegistry registry;
  BOOST_REQUIRE(registry.load_file(broken(name), *host.services.host_info()));
  auto handle = make_evaluator(registry, ComponentUse{evaluator, {}}, host.services.host(), 2);
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = host.services.next_document_serial();
  return handle->evaluate(ctx, testcase);
}

ItemError evaluate_error(const std::string& name, const std::string& evaluator) {
  auto result = evaluate(name, evaluator);
  BOOST_REQUIRE(std::holds_alternative<ItemError>(result));
  return std::get<ItemError>(result);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(loader)

BOOST_AUTO_TEST_CASE(no_entry_symbol) { check_problem("no_entry", "not a krino plugin: no 'krino_plugin_entry' symbol"); }

BOOST_AUTO_TEST_CASE(abi_major_mismatch_names_both_versions) {
  check_problem("abi_major_mismatch", "ABI major version mismatch: plugin is built for ABI 2.0, this host speaks ABI 1." + std::to_string(KRINO_ABI_MINOR));
}

BOOST_AUTO_TEST_CASE(newer_minor_with_unmet_minimum_is_refused) {
  check_problem("newer_minor_unmet", "plugin needs a host with ABI 1.3 or newer; this host speaks ABI 1." + std::to_string(KRINO_ABI_MINOR));
}

BOOST_AUTO_TEST_CASE(newer_minor_with_met_minimum_loads_and_works) {
  BOOST_TEST(load_problem("newer_minor_ok").empty());
  auto result = evaluate("newer_minor_ok", "newer_minor_ok");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(result));
  BOOST_TEST(json::parse(std::get<CheckedResult>(result).json).at("score").to_number<double>() == 1.0);
}

BOOST_AUTO_TEST_CASE(a_plugin_that_refuses_says_why) {
  check_problem("refuses", "plugin refused to load: this host lacks the extension test.never/1");
}

BOOST_AUTO_TEST_CASE(duplicate_component_id_across_plugins) {
  Host host;
  PluginRegistry registry;
  PluginSearch search;
  search.plugin_dirs = {fs::path(KRINO_BROKEN_PLUGIN_DIR) / "duplicate_id"};
  search.include_install_dir = false;
  registry.load(search, *host.services.host_info());
  BOOST_TEST(registry.plugins().size() == 1u);
  BOOST_REQUIRE(registry.problems().size() == 1u);
  BOOST_TEST(registry.problems()[0].message.find("duplicate component id 'test.dup', already provided by") == 0u);
  BOOST_TEST(registry.problems()[0].path.filename() == "krino-duplicate_id_b.so");
}

BOOST_AUTO_TEST_CASE(duplicate_component_id_within_a_plugin) {
  check_problem("duplicate_id_within", "duplicate component id 'test.dup' within the plugin");
}

BOOST_AUTO_TEST_CASE(invalid_descriptors) {
  check_problem("invalid_descriptor_null_id", "invalid descriptor: component 0 has no id");
  check_problem("invalid_descriptor_bad_kind", "has unknown kind 99");
  check_problem("invalid_descriptor_null_vtable", "has no vtable");
  check_problem("invalid_descriptor_schema_not_json", "config schema is not valid JSON");
  check_problem("invalid_descriptor_schema_unusable", "config schema is not a usable JSON Schema");
}

BOOST_AUTO_TEST_CASE(bigger_structs_from_a_newer_header_load_and_work) {
  BOOST_TEST(load_problem("bigger_structs").empty());
  for (const char* name : {"bigger_structs", "bigger_structs_second"}) {
    auto result = evaluate("bigger_structs", name);
    BOOST_REQUIRE(std::holds_alternative<CheckedResult>(result));
    BOOST_TEST(json::parse(std::get<CheckedResult>(result).json).at("score").to_number<double>() == 1.0);
  }
}

BOOST_AUTO_TEST_CASE(a_throwing_evaluator_becomes_an_internal_item_error) {
  ItemError e = evaluate_error("throwing_evaluator", "throwing_evaluator");
  BOOST_TEST(e.code == KRINO_INTERNAL);
  BOOST_TEST(e.message == "boom");
  BOOST_TEST(e.stage == "evaluator");
}

BOOST_AUTO_TEST_CASE(a_non_ok_status_keeps_its_code_and_message) {
  ItemError e = evaluate_error("status_evaluator", "status_evaluator");
  BOOST_TEST(e.code == KRINO_FAILED_PRECONDITION);
  BOOST_TEST(e.message == "status_evaluator needs expectedOutputs.output");
}

BOOST_AUTO_TEST_CASE(malformed_results_are_caught_by_the_host) {
  ItemError truncated = evaluate_error("malformed_json_evaluator", "malformed_json_evaluator");
  BOOST_TEST(truncated.code == KRINO_INTERNAL);
  BOOST_TEST(truncated.message.find("returned a malformed result: not valid JSON") == 0u, truncated.message);
  ItemError high = evaluate_error("bad_score_evaluator", "bad_score_high");
  BOOST_TEST(high.message.find("outside 0..1") != std::string::npos, high.message);
  ItemError text = evaluate_error("bad_score_evaluator", "bad_score_string");
  BOOST_TEST(text.message.find("neither a number nor null") != std::string::npos, text.message);
}

BOOST_AUTO_TEST_CASE(invalid_user_config_is_rejected_before_create) {
  Host host;
  PluginRegistry registry;
  BOOST_REQUIRE(registry.load_file(broken("strict_config"), *host.services.host_info()));
  for (const char* bad : {R"({})", R"({"limit":0})", R"({"limit":"3"})", R"({"limit":3,"lmit":1})"}) {
    try {
      make_evaluator(registry, ComponentUse{"strict_config", json::parse(bad).as_object()}, host.services.host(), 1);
      BOOST_FAIL(std::string("accepted ") + bad);
    } catch (const KrinoError& e) {
      BOOST_TEST((e.kind() == ErrorKind::configuration));
      BOOST_TEST(std::string(e.what()).find("evaluator 'strict_config' has invalid options") == 0u, e.what());
    }
  }
  BOOST_CHECK_NO_THROW(make_evaluator(registry, ComponentUse{"strict_config", json::parse(R"({"limit":3})").as_object()},
                                      host.services.host(), 1));
}

BOOST_AUTO_TEST_CASE(one_bad_plugin_never_stops_the_others) {
  Host host;
  PluginRegistry registry;
  PluginSearch search;
  for (const auto& entry : fs::directory_iterator(KRINO_BROKEN_PLUGIN_DIR)) search.plugin_dirs.push_back(entry.path());
  search.plugin_dirs.push_back(KRINO_EXAMPLE_PLUGIN_DIR);
  search.include_install_dir = false;
  registry.load(search, *host.services.host_info());
  BOOST_TEST(registry.problems().size() == 11u);  // every broken case but the two that load
  BOOST_TEST(registry.try_find(ComponentKind::evaluator, "word_count") != nullptr);
  BOOST_TEST(registry.try_find(ComponentKind::evaluator, "newer_minor_ok") != nullptr);
  BOOST_TEST(registry.try_find(ComponentKind::evaluator, "bigger_structs_second") != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
