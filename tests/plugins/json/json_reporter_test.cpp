#include "json_options.hpp"
#include "json_reporter.hpp"
#include "json_test_support.hpp"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <unistd.h>

using namespace krino::jsonl;
namespace t = krino::jsonl::testing;

namespace {

JsonOptions json_reporter_options_from(const std::string& json) {
  return JsonOptions::from_config(krino::Config(boost::json::parse(json).as_object()));
}

// A host-side sink, as the host would hand one to a plugin (the SDK helper's own).
using TestSink = krino::detail::StringSink;

std::string config_for(const std::filesystem::path& path, bool append = false) {
  return boost::json::serialize(boost::json::object{{"path", path.string()}, {"append", append}});
}

// Drives `vtable` through a whole run into `path`.
void run_through(const krino_reporter_vtable* vtable, const std::string& config) {
  TestSink error;
  void* instance = nullptr;
  BOOST_REQUIRE_MESSAGE(vtable->create(nullptr, config.data(), config.size(), &instance, &error.sink) == KRINO_OK,
                        error.text);
  for (const auto& event : t::two_item_run())
    BOOST_REQUIRE(vtable->on_event(instance, event.data(), event.size(), &error.sink) == KRINO_OK);
  BOOST_TEST(vtable->flush(instance, &error.sink) == KRINO_OK);
  vtable->destroy(instance);
  BOOST_TEST(error.text.empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_reporter)

BOOST_AUTO_TEST_CASE(options_have_defaults_and_are_checked) {
  const JsonOptions defaults = json_reporter_options_from("{}");
  BOOST_TEST(defaults.path == "krino-results.jsonl");
  BOOST_TEST(!defaults.append);
  const JsonOptions set = json_reporter_options_from(R"({"path": "out/results.jsonl", "append": true})");
  BOOST_TEST(set.path == "out/results.jsonl");
  BOOST_TEST(set.append);
  for (const char* bad : {R"({"path": ""})", R"({"path": 3})", R"({"append": "yes"})", R"({"file": "x.jsonl"})"}) {
    BOOST_CHECK_EXCEPTION(json_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
}

BOOST_AUTO_TEST_CASE(the_schema_is_draft_7_closed_and_matches_the_defaults) {
  const boost::json::object schema = boost::json::parse(kJsonOptionsSchema).as_object();
  BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  const auto& properties = schema.at("properties").as_object();
  BOOST_TEST(properties.size() == 2u);
  BOOST_TEST(properties.at("path").at("default").as_string() == JsonOptions{}.path);
  BOOST_TEST(properties.at("append").at("default").as_bool() == JsonOptions{}.append);
  for (const auto& p : properties) BOOST_TEST(p.value().as_object().contains("description"));
}

BOOST_AUTO_TEST_CASE(events_are_written_verbatim_without_reparsing) {
  t::ScratchDirectory dir;
  const auto path = dir / "results.jsonl";
  // Spacing, key order and number spelling are the host's and stay as they are.
  const std::string odd = R"({ "schema" : "krino.event/1", "event" : "run_started", "run_index" : 0, "n": 1.50e0 })";
  {
    JsonReporter reporter(json_reporter_options_from(config_for(path)));
    reporter.on_event(krino::Event(odd));
    for (const auto& event : t::two_item_run()) reporter.on_event(krino::Event(event));
    reporter.flush();
    BOOST_TEST(t::read_file(path) == odd + "\n" + t::as_lines(t::two_item_run()));
  }
}

BOOST_AUTO_TEST_CASE(the_default_path_is_in_the_working_directory) {
  t::ScratchDirectory dir;
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  {
    JsonReporter reporter(krino::Config{});
    reporter.on_event(krino::Event(t::two_item_run()[0]));
  }
  std::filesystem::current_path(previous);
  BOOST_TEST(t::read_file(dir / "krino-results.jsonl") == t::two_item_run()[0] + "\n");
}

BOOST_AUTO_TEST_CASE(trampolines_write_a_run_and_report_a_bad_path) {
  using Trampolines = krino::detail::ReporterTrampolines<JsonReporter>;
  t::ScratchDirectory dir;
  const auto path = dir / "nested/results.jsonl";
  run_through(Trampolines::vtable(), config_for(path));
  BOOST_TEST(t::read_file(path) == t::as_lines(t::two_item_run()));
  run_through(Trampolines::vtable(), config_for(path, true));
  BOOST_TEST(t::read_file(path) == t::as_lines(t::two_item_run()) + t::as_lines(t::two_item_run()));

  TestSink error;
  void* instance = nullptr;
  const std::string bad = config_for(dir.path());
  BOOST_TEST(Trampolines::vtable()->create(nullptr, bad.data(), bad.size(), &instance, &error.sink) ==
             KRINO_FAILED_PRECONDITION);
  BOOST_TEST(instance == nullptr);
  BOOST_TEST(error.text == "cannot open '" + dir.path().string() + "' for writing: Is a directory");
}

BOOST_AUTO_TEST_CASE(the_built_module_describes_one_reporter_and_writes_lines) {
  krino::testing::reports::ReporterModule module("krino-json.so");
  const krino_plugin_descriptor& descriptor = module.descriptor();
  BOOST_TEST(std::string(descriptor.id) == "krino.json");
  BOOST_TEST(std::string(descriptor.version) == "1.0.0");
  BOOST_REQUIRE(descriptor.component_count == 1u);
  const krino_component& component = module.component();
  BOOST_TEST(component.kind == KRINO_KIND_REPORTER);
  BOOST_TEST(std::string(component.id) == "krino.json");
  BOOST_TEST(std::string(component.name) == "json");
  BOOST_TEST(std::string(component.version) == "1.0.0");
  BOOST_TEST(std::string(component.config_schema) == kJsonOptionsSchema);

  t::ScratchDirectory dir;
  const auto path = dir / "from-module.jsonl";
  run_through(&module.vtable(), config_for(path));
  BOOST_TEST(t::read_file(path) == t::as_lines(t::two_item_run()));
}

BOOST_AUTO_TEST_SUITE_END()
