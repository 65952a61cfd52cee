#include "krino/testing/example.hpp"

#include "krino/testing/error.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <ostream>

namespace krino::testing {
namespace json = boost::json;

namespace {

std::string identifier_of(std::string_view id, std::size_t index) {
  if (id.empty()) return "example_" + std::to_string(index);
  std::string name;
  name.reserve(id.size());
  for (const char c : id) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    name.push_back(keep ? c : '_');
  }
  return name;
}

json::object parse_object(std::string_view text, const char* what) {
  boost::system::error_code ec;
  json::value value = krino::json::parse(text, ec);
  if (ec || !value.is_object()) throw Error(std::string(what).append(" must be a JSON object: ").append(text));
  return std::move(value.get_object());
}

std::string string_member(const json::object& example, std::string_view section, std::string_view key,
                          const std::string& example_name) {
  const json::value* object = example.if_contains(section);
  const json::value* value = object != nullptr && object->is_object() ? object->get_object().if_contains(key) : nullptr;
  if (value == nullptr || !value->is_string())
    throw Error(std::string("example ").append(example_name).append(" has no string \"").append(section).append(
        "\".\"").append(key).append("\""));
  return std::string(value->get_string());
}

}  // namespace

Example::Example(std::string json, std::string id, std::size_t index, std::string location)
    : json_(std::move(json)), id_(std::move(id)), index_(index), location_(std::move(location)),
      test_name_(identifier_of(id_, index_)) {}

Example Example::unreadable(std::string error) {
  Example example;
  example.test_name_ = "dataset_error";
  example.error_ = std::move(error);
  return example;
}

void Example::require_readable() const {
  if (!error_.empty()) throw Error(error_);
}

const std::string& Example::json() const {
  require_readable();
  return json_;
}
const std::string& Example::id() const {
  require_readable();
  return id_;
}
std::size_t Example::index() const {
  require_readable();
  return index_;
}
const std::string& Example::location() const {
  require_readable();
  return location_;
}

std::string Example::section(std::string_view key) const {
  require_readable();
  const json::object example = parse_object(json_, "an example");
  const json::value* value = example.if_contains(key);
  return value != nullptr && value->is_object() ? json::serialize(*value) : std::string("{}");
}

std::string Example::input(std::string_view key) const {
  require_readable();
  return string_member(parse_object(json_, "an example"), "inputs", key, test_name_);
}

std::string Example::expected_output(std::string_view key) const {
  require_readable();
  return string_member(parse_object(json_, "an example"), "expectedOutputs", key, test_name_);
}

std::string Example::test_case(std::string_view actual_outputs_json) const {
  require_readable();
  const json::object example = parse_object(json_, "an example");
  json::object test_case;
  for (const char* key : {"inputs", "expectedOutputs", "metadata"}) {
    const json::value* value = example.if_contains(key);
    test_case[key] = value != nullptr && value->is_object() ? *value : json::object();
  }
  test_case["actualOutputs"] = parse_object(actual_outputs_json, "the actual outputs");
  return json::serialize(test_case);
}

std::string Example::test_case_with_output(std::string_view actual_output) const {
  json::object actual;
  actual["output"] = actual_output;
  return test_case(json::serialize(actual));
}

std::ostream& operator<<(std::ostream& out, const Example& example) {
  if (!example.error().empty()) return out << "unreadable dataset: " << example.error();
  out << example.test_name();
  if (!example.location().empty()) out << " (" << example.location() << ")";
  return out;
}

std::string make_test_case(std::string_view actual_output, std::optional<std::string_view> expected_output,
                           std::optional<std::string_view> input) {
  auto section = [](const char* key, std::optional<std::string_view> value) {
    json::object object;
    if (value) object[key] = *value;
    return object;
  };
  json::object test_case;
  test_case["inputs"] = section("input", input);
  test_case["actualOutputs"] = section("output", actual_output);
  test_case["expectedOutputs"] = section("output", expected_output);
  test_case["metadata"] = json::object();
  return json::serialize(test_case);
}

}  // namespace krino::testing
