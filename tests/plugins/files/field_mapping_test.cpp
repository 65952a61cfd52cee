// The `fields` option: examples built from records of any shape (tau-bench trajectories here).
#include "field_mapping.hpp"
#include "json_resolver.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

using krino::files::FieldMapping;

namespace {

FieldMapping mapping(const char* fields) {
  return *FieldMapping::from_options(krino::Config(boost::json::object{{"fields", boost::json::parse(fields)}}));
}

std::string error_of(const FieldMapping& fields, const char* record) {
  try {
    fields.apply(boost::json::parse(record));
  } catch (const krino::Error& e) {
    return e.what();
  }
  return "no error";
}

std::string option_error(const char* fields) {
  try {
    mapping(fields);
  } catch (const krino::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(files_field_mapping)

BOOST_AUTO_TEST_CASE(a_tau_bench_record_becomes_a_replayable_example) {
  const FieldMapping fields = mapping(R"({"id": "{/task_id}-{/trial}", "trace": "/traj",
    "expectedOutputs.toolCalls": "/info/task/actions", "inputs.input": "/info/task/instruction",
    "metadata.reward": "/reward", "metadata.user": "/info/task/user_id"})");
  const boost::json::object example = fields.apply(boost::json::parse(R"({"task_id": 7, "trial": 2, "reward": 1.0,
    "info": {"task": {"user_id": "u1", "instruction": "book", "actions": [{"name": "book", "kwargs": {"n": 1}}]}},
    "traj": [{"role": "user", "content": "hi"}]})"));
  BOOST_TEST(boost::json::value(example) == boost::json::parse(R"({"id": "7-2", "inputs": {"input": "book"},
    "expectedOutputs": {"toolCalls": [{"name": "book", "kwargs": {"n": 1}}]}, "metadata": {"reward": 1.0, "user": "u1"},
    "trace": [{"role": "user", "content": "hi"}]})"));
}

BOOST_AUTO_TEST_CASE(whole_sections_then_their_keys_and_the_whole_record) {
  const FieldMapping fields = mapping(R"({"metadata.extra": "/b", "metadata": "/a", "actualOutputs.output": "/c",
    "inputs.record": ""})");
  const boost::json::object example = fields.apply(boost::json::parse(R"({"a": {"x": 1, "extra": 0}, "b": 2, "c": "out"})"));
  BOOST_TEST(example.at("metadata") == boost::json::parse(R"({"x": 1, "extra": 2})"));
  BOOST_TEST(example.at("actualOutputs") == boost::json::parse(R"({"output": "out"})"));
  BOOST_TEST(example.at("inputs").at("record").at("b") == 2);
  BOOST_TEST(!example.contains("id"));
  BOOST_TEST(!example.contains("trace"));
}

BOOST_AUTO_TEST_CASE(nulls_leave_fields_out_and_missing_values_are_item_errors) {
  const FieldMapping fields = mapping(R"({"id": "/id", "trace": "/trace", "metadata.note": "/note"})");
  const boost::json::object example = fields.apply(boost::json::parse(R"({"id": null, "trace": null, "note": null})"));
  BOOST_TEST(!example.contains("id"));
  BOOST_TEST(!example.contains("trace"));
  BOOST_TEST(example.at("metadata").as_object().empty());
  BOOST_TEST(error_of(fields, R"({"id": "a", "note": 1})") == "fields.trace: the record has nothing at '/trace'");
  BOOST_TEST(error_of(fields, R"({"id": 1.5, "trace": 1, "note": 1})") == "fields.id: the id must be a string or an integer");
  BOOST_TEST(error_of(mapping(R"({"id": "{/a}-{/b}"})"), R"({"a": 1})") == "fields.id: the record has nothing at '/b'");
  BOOST_TEST(error_of(mapping(R"({"inputs": "/a"})"), R"({"a": [1]})") ==
             "fields.inputs: the value must be an object to become inputs");
}

BOOST_AUTO_TEST_CASE(bad_mappings_are_refused_when_the_dataset_opens) {
  BOOST_TEST(option_error(R"({"ids": "/x"})").find("fields: unknown target 'ids'") == 0u);
  BOOST_TEST(option_error(R"({"trace.x": "/x"})") == "fields: 'trace.x' has no keys; map 'trace' itself");
  BOOST_TEST(option_error(R"({"inputs.": "/x"})") == "fields: 'inputs.' names no key after the dot");
  BOOST_TEST(option_error(R"({"trace": "traj"})").find("is neither a JSON pointer") != std::string::npos);
  BOOST_TEST(option_error(R"({"id": "{task_id}"})") == "fields.id: placeholder {task_id} must be a JSON pointer such as {/task_id}");
  BOOST_TEST(option_error(R"({"id": "{/a"})") == "fields.id: '{' without '}' in '{/a'");
  BOOST_TEST(option_error(R"({"trace": "/a~2"})").find("is not a valid JSON pointer") != std::string::npos);
  BOOST_TEST(option_error(R"({"trace": 3})") == "fields.trace must be a JSON pointer or a template");
  BOOST_TEST(option_error("{}").find("option 'fields' must map") == 0u);
  BOOST_TEST(!FieldMapping::from_options(krino::Config()).has_value());
}

BOOST_AUTO_TEST_CASE(the_json_resolver_streams_tau_bench_through_a_mapping) {
  krino::DatasetInfo info;
  krino::files::JsonResolver resolver(nullptr,
                                            std::string(KRINO_SHARED_DATA_DIR) + "/tau-bench/tau1_historical_gpt-4o-airline.json",
                                            krino::Config(boost::json::parse(R"({"fields": {"id": "{/task_id}-{/trial}",
                                              "trace": "/traj", "expectedOutputs.toolCalls": "/info/task/actions"}})").as_object()),
                                            info);
  BOOST_TEST(*info.size_hint == 200u);
  std::string record, location, error;
  BOOST_TEST_REQUIRE((resolver.next(record, location, error) == krino::Next::record));
  BOOST_TEST(!resolver.record_is_example(record));  // mapped records are always rebuilt
  const boost::json::object example = boost::json::parse(resolver.decode(record)).as_object();
  BOOST_TEST(example.at("id") == "0-0");
  BOOST_TEST(example.at("trace").as_array().size() == 32u);
  BOOST_TEST(example.at("expectedOutputs").at("toolCalls").at(0).at("name") == "book_reservation");
}

BOOST_AUTO_TEST_SUITE_END()
