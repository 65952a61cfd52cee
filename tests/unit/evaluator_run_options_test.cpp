// The host's keys of an evaluator entry (isolation, timeout_ms, memory_mb, workers, and a
// subprocess's command): taken out before the evaluator's schema sees the rest, each checked.
#include "krino/core/common/error.hpp"
#include "krino/core/runner/evaluator_run_options.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

EvaluatorRunOptions read_run_options(const std::string& component, const std::string& options,
                                     EvaluatorIsolation fallback = EvaluatorIsolation::none) {
  return read_evaluator_run_options(ComponentUse{component, json::parse(options).as_object()}, fallback, "/tmp");
}

bool refused_with(const std::string& component, const std::string& options, const std::string& part) {
  try {
    read_run_options(component, options);
  } catch (const KrinoError& e) {
    BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what());
    return true;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(evaluator_run_options)

BOOST_AUTO_TEST_CASE(host_keys_are_taken_out_and_the_rest_is_the_evaluators) {
  const auto run = read_run_options("tool_error", R"({"isolation":"process","timeout_ms":250,"memory_mb":64,"workers":3,"threshold":0.5})");
  BOOST_TEST((run.isolation == EvaluatorIsolation::process));
  BOOST_TEST(run.timeout.has_value());
  BOOST_TEST(run.limits.timeout.count() == 250);
  BOOST_TEST(run.memory_limit_bytes == 64ull << 20);
  BOOST_TEST(run.workers.value_or(0) == 3u);
  BOOST_TEST(run.options == json::parse(R"({"threshold":0.5})").as_object());
  BOOST_TEST(!run.command.has_value());
}

BOOST_AUTO_TEST_CASE(the_experiments_isolation_is_the_default) {
  BOOST_TEST((read_run_options("x", "{}", EvaluatorIsolation::process).isolation == EvaluatorIsolation::process));
  BOOST_TEST((read_run_options("x", R"({"isolation":"none"})", EvaluatorIsolation::process).isolation ==
              EvaluatorIsolation::none));
  BOOST_TEST(!read_run_options("x", "{}").timeout.has_value());  // no in-process timeout unless asked
}

BOOST_AUTO_TEST_CASE(a_subprocess_has_a_command_and_keeps_no_isolation_key) {
  const auto run = read_run_options("subprocess", R"({"command":["sh","-c","true"],"kill_grace_ms":5,"pattern":"x"})");
  BOOST_TEST_REQUIRE(run.command.has_value());
  BOOST_TEST(run.command->process.executable.ends_with("/sh"));  // looked up on PATH now
  BOOST_TEST(run.limits.kill_grace.count() == 5);
  BOOST_TEST(run.options == json::parse(R"({"pattern":"x"})").as_object());
  BOOST_TEST(refused_with("subprocess", "{}", "'command' is required"));
  BOOST_TEST(refused_with("subprocess", R"({"command":["true"],"isolation":"process"})", "'isolation' applies to plugins"));
}

BOOST_AUTO_TEST_CASE(bad_values_are_configuration_errors_naming_the_key) {
  BOOST_TEST(refused_with("x", R"({"isolation":"thread"})", "'isolation': expected none or process"));
  BOOST_TEST(refused_with("x", R"({"memory_mb":64})", "'memory_mb' needs isolation: process"));
  BOOST_TEST(refused_with("x", R"({"workers":2})", "'workers' needs isolation: process"));
  BOOST_TEST(refused_with("x", R"({"isolation":"process","memory_mb":1})", "'memory_mb' must be a whole number of megabytes"));
  BOOST_TEST(refused_with("x", R"({"timeout_ms":-1})", "'timeout_ms' must be a whole number"));
  // command is the evaluator's own option for a plugin, not krino's
  BOOST_TEST(read_run_options("x", R"({"command":"ls"})").options.contains("command"));
}

BOOST_AUTO_TEST_SUITE_END()
