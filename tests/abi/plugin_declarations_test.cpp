// What KRINO_PLUGIN's companion lines declare (KRINO_PLUGIN_DEINIT, KRINO_PLUGIN_MIN_HOST_ABI_MINOR,
// KRINO_PLUGIN_EXTENSION; <krino/plugin/entry.hpp>), seen from the host's loader, with the test
// plugins of tests/abi/declarations/. And what KRINO_PLUGIN alone declares: none of them. And the
// reserved KRINO_CAP_BATCH: the host never calls evaluate_batch.
#include "deinit_probe.h"

#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <variant>

using namespace krino::core;
namespace fs = std::filesystem;

namespace {

struct DeclarationsHost {
  Cancellation cancellation;
  HostServices services{cancellation, stderr, KRINO_LOG_ERROR};
};

fs::path declaring_plugin(const std::string& name) {
  return fs::path(KRINO_BINARY_DIR) / "tests" / "abi" / "declaring-plugins" / name / ("krino-" + name + ".so");
}

// A C++ plugin with KRINO_PLUGIN alone.
fs::path plain_plugin() { return fs::path(KRINO_BROKEN_PLUGIN_DIR) / "throwing_evaluator" / "krino-throwing_evaluator.so"; }

static_assert(KRINO_ABI_MINOR >= 1, "the minimum-minor case needs an older minor to refuse");

}  // namespace

BOOST_AUTO_TEST_SUITE(plugin_declarations)

BOOST_AUTO_TEST_CASE(the_host_finds_a_declared_extension_and_unloading_runs_the_declared_deinits) {
  int counter = 0;
  {
    DeclarationsHost host;
    PluginRegistry registry;
    BOOST_REQUIRE(registry.load_file(declaring_plugin("declaring"), *host.services.host_info()));
    const LoadedPlugin& plugin = *registry.plugins().at(0);
    BOOST_REQUIRE(plugin.get_extension != nullptr);
    BOOST_TEST(plugin.get_extension("test.unknown/1") == nullptr);
    BOOST_TEST(plugin.get_extension("test.deinit_probe") == nullptr);  // the version is part of the id
    const auto* probe = static_cast<const test_deinit_probe*>(plugin.get_extension(TEST_DEINIT_PROBE_ID));
    BOOST_REQUIRE(probe != nullptr);
    BOOST_TEST(probe->struct_size == sizeof(test_deinit_probe));
    probe->watch(&counter);
    BOOST_TEST(plugin.deinit != nullptr);
    BOOST_TEST(counter == 0);  // nothing runs before the host unloads the plugin
  }
  BOOST_TEST(counter == 21);  // both deinit functions, once each, the last declared first
}

BOOST_AUTO_TEST_CASE(a_host_older_than_the_declared_minimum_minor_refuses_the_plugin) {
  DeclarationsHost host;
  krino_host_info older = *host.services.host_info();
  older.abi_minor = KRINO_ABI_MINOR - 1;
  PluginRegistry registry;
  BOOST_TEST(!registry.load_file(declaring_plugin("declaring"), older));
  BOOST_REQUIRE(registry.problems().size() == 1u);
  const std::string expected = "plugin needs a host with ABI 1." + std::to_string(KRINO_ABI_MINOR) +
                               " or newer; this host speaks ABI 1." + std::to_string(KRINO_ABI_MINOR - 1);
  BOOST_TEST(registry.problems()[0].message == expected);

  PluginRegistry current;  // a host of the minor the plugin needs loads it
  BOOST_TEST(current.load_file(declaring_plugin("declaring"), *host.services.host_info()));
}

BOOST_AUTO_TEST_CASE(a_wrong_declaration_makes_the_entry_refuse_with_the_reason) {
  DeclarationsHost host;
  PluginRegistry registry;
  BOOST_TEST(!registry.load_file(declaring_plugin("declaration_problem"), *host.services.host_info()));
  BOOST_REQUIRE(registry.problems().size() == 1u);
  BOOST_TEST(registry.problems()[0].message ==
             "plugin refused to load: KRINO_PLUGIN_EXTENSION: '" TEST_DEINIT_PROBE_ID "' is declared twice");
}

BOOST_AUTO_TEST_CASE(krino_plugin_alone_declares_no_deinit_no_extension_and_minimum_minor_0) {
  DeclarationsHost host;
  krino_host_info oldest = *host.services.host_info();
  oldest.abi_minor = 0;
  PluginRegistry registry;
  BOOST_REQUIRE(registry.load_file(plain_plugin(), oldest));
  const LoadedPlugin& plugin = *registry.plugins().at(0);
  BOOST_TEST(plugin.deinit == nullptr);
  BOOST_TEST(plugin.get_extension == nullptr);
}

BOOST_AUTO_TEST_CASE(batch_is_reserved_and_the_host_scores_through_evaluate_alone) {
  DeclarationsHost host;
  PluginRegistry registry;
  BOOST_REQUIRE(registry.load_file(declaring_plugin("batch_declaring"), *host.services.host_info()));
  auto handle = make_evaluator(registry, ComponentUse{"batch_declaring", {}}, host.services.host(), 2);
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = host.services.next_document_serial();
  auto result = handle->evaluate(ctx, R"({"inputs":{},"actualOutputs":{"output":"x"},"expectedOutputs":{},"metadata":{}})");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(result));  // evaluate_batch would have failed the item
  BOOST_TEST(boost::json::parse(std::get<CheckedResult>(result).json).at("score").to_number<double>() == 1.0);
}

BOOST_AUTO_TEST_CASE(the_batch_bit_without_its_slot_is_refused) {
  DeclarationsHost host;
  PluginRegistry registry;
  BOOST_TEST(!registry.load_file(declaring_plugin("batch_without_slot"), *host.services.host_info()));
  BOOST_REQUIRE(registry.problems().size() == 1u);
  BOOST_TEST(registry.problems()[0].message ==
             "invalid descriptor: component 'test.batch_without_slot' declares KRINO_CAP_BATCH without evaluate_batch");
}

BOOST_AUTO_TEST_SUITE_END()
