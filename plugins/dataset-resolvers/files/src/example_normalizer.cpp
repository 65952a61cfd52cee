#include "example_normalizer.hpp"

#include <krino/json_spans.hpp>
#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::files {
namespace {

// What the bytes of a valid JSON value are, by their first byte (and, for a number, its form).
const char* kind_of_value(std::string_view value) {
  switch (value.empty() ? '\0' : value.front()) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return value.find_first_of(".eE") == std::string_view::npos ? "an integer" : "a floating-point number";
  }
}

bool is_integer_token(std::string_view value) {
  return !value.empty() && (value.front() == '-' || (value.front() >= '0' && value.front() <= '9')) &&
         value.find_first_of(".eE") == std::string_view::npos;
}

// A member's bytes; absent and null read the same.
using Span = std::optional<std::string_view>;

bool present(const Span& value) { return value && *value != "null"; }

struct Member {
  std::string_view key_token;  // quotes included, as written
  std::string_view value;
};

std::vector<Member> members_of(std::string_view object) {
  std::vector<Member> members;
  json::for_each_member(object, [&](std::string_view key, std::string_view value) {
    members.push_back({key, value});
    return true;
  });
  return members;
}

void append_member(std::string& out, bool& first, std::string_view key_token, std::string_view value) {
  if (!first) out += ',';
  first = false;
  out += key_token;
  out += ':';
  out += value;
}

// Writes "name":{...} from the plural map (its members as written), then the extra members that
// the map does not already have.
void write_map(std::string& out, const char* name, const Span& map, const std::vector<Member>& extras) {
  std::vector<Member> members;
  if (present(map)) {
    if (map->front() != '{')
      throw invalid_argument(std::string("'") + name + "' must be an object, not " + kind_of_value(*map));
    members = members_of(*map);
  }
  out += ",\"";
  out += name;
  out += "\":{";
  bool first = true;
  for (const Member& m : members) append_member(out, first, m.key_token, m.value);
  const std::size_t own = members.size();
  for (const Member& extra : extras) {
    bool taken = false;
    for (std::size_t i = 0; i < own && !taken; ++i) taken = json::key_text(members[i].key_token) == json::key_text(extra.key_token);
    if (!taken) append_member(out, first, extra.key_token, extra.value);
  }
  out += '}';
}

}  // namespace

std::string normalize_example(std::string_view row) {
  Span id, input, inputs, expected, expected_map, actual, actual_map, metadata, trace;
  std::vector<Member> extra_keys;
  json::for_each_member(row, [&](std::string_view key, std::string_view value) {
    if (json::key_equals(key, "id")) id = value;
    else if (json::key_equals(key, "input")) input = value;
    else if (json::key_equals(key, "inputs")) inputs = value;
    else if (json::key_equals(key, "expectedOutput")) expected = value;
    else if (json::key_equals(key, "expectedOutputs")) expected_map = value;
    else if (json::key_equals(key, "actualOutput")) actual = value;
    else if (json::key_equals(key, "actualOutputs")) actual_map = value;
    else if (json::key_equals(key, "metadata")) metadata = value;
    else if (json::key_equals(key, "trace")) trace = value;
    else extra_keys.push_back({key, value});
    return true;
  });

  std::string out;
  out.reserve(row.size() + 64);
  out += '{';
  if (present(id)) {
    if (id->front() == '"') {
      if (id->size() > 2) out.append("\"id\":").append(*id).append(",");
    } else if (is_integer_token(*id)) {
      // Written as its digits, however many: an id is a name, not a quantity.
      out.append("\"id\":\"").append(*id).append("\",");
    } else {
      throw invalid_argument(std::string("'id' must be a string or an integer, not ") + kind_of_value(*id));
    }
  }
  // Each shortcut is a one-member extra of its map: "input" under inputs, "output" under the others.
  auto shortcut = [](std::string_view key_token, const Span& value) {
    std::vector<Member> extra;
    if (present(value)) extra.push_back({key_token, *value});
    return extra;
  };
  std::string body;
  write_map(body, "inputs", inputs, shortcut("\"input\"", input));
  write_map(body, "expectedOutputs", expected_map, shortcut("\"output\"", expected));
  write_map(body, "metadata", metadata, extra_keys);
  if (present(actual_map) || present(actual)) write_map(body, "actualOutputs", actual_map, shortcut("\"output\"", actual));
  if (present(trace)) body.append(",\"trace\":").append(*trace);
  out.append(body, 1, std::string::npos);  // body starts with the separator the first member does not need
  out += '}';
  return out;
}

}  // namespace krino::files
