#include "example_normalizer.hpp"

#include <krino/plugin.hpp>

#include <string>
#include <string_view>

namespace krino::files {
namespace {

const char* kind_name(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::object: return "an object";
    case boost::json::kind::array: return "an array";
    case boost::json::kind::string: return "a string";
    case boost::json::kind::bool_: return "a boolean";
    case boost::json::kind::double_: return "a floating-point number";
    case boost::json::kind::null: return "null";
    default: return "an integer";
  }
}

bool is_nonempty_string(const boost::json::value& value) {
  return value.is_string() && !value.get_string().empty();
}

// A row that needs no rebuilding: only canonical keys, with the three maps present.
bool is_canonical(const boost::json::object& row) {
  int maps = 0;
  for (const auto& field : row) {
    const std::string_view key = field.key();
    const boost::json::value& value = field.value();
    if (key == "inputs" || key == "expectedOutputs" || key == "metadata") {
      if (!value.is_object()) return false;
      ++maps;
    } else if (key == "actualOutputs") {
      if (!value.is_object()) return false;
    } else if (key == "id") {
      if (!is_nonempty_string(value)) return false;
    } else if (key == "trace") {
      if (value.is_null()) return false;
    } else {
      return false;
    }
  }
  return maps == 3;
}

// The plural map of `row` (moved out), or an empty one; null counts as absent.
boost::json::object take_map(boost::json::value* value, const char* key, const boost::json::storage_ptr& storage) {
  if (value == nullptr || value->is_null()) return boost::json::object(storage);
  if (!value->is_object())
    throw invalid_argument(std::string("'") + key + "' must be an object, not " + kind_name(*value));
  return std::move(value->get_object());
}

// Adds the singular shortcut under `entry` unless the plural map already has it.
void merge_shortcut(boost::json::object& map, std::string_view entry, boost::json::value* shortcut) {
  if (shortcut == nullptr || shortcut->is_null()) return;
  if (map.contains(entry)) return;
  map.emplace(entry, std::move(*shortcut));
}

void write_id(boost::json::object& out, const boost::json::value& id) {
  switch (id.kind()) {
    case boost::json::kind::null: return;
    case boost::json::kind::string:
      if (!id.get_string().empty()) out.emplace("id", id.get_string());
      return;
    case boost::json::kind::int64: out.emplace("id", std::to_string(id.get_int64())); return;
    case boost::json::kind::uint64: out.emplace("id", std::to_string(id.get_uint64())); return;
    default: throw invalid_argument(std::string("'id' must be a string or an integer, not ") + kind_name(id));
  }
}

}  // namespace

boost::json::object normalize_example(boost::json::object row) {
  if (is_canonical(row)) return row;

  boost::json::value* id = nullptr;
  boost::json::value* input = nullptr;
  boost::json::value* inputs = nullptr;
  boost::json::value* expected = nullptr;
  boost::json::value* expected_map = nullptr;
  boost::json::value* actual = nullptr;
  boost::json::value* actual_map = nullptr;
  boost::json::value* metadata = nullptr;
  boost::json::value* trace = nullptr;
  size_t extra_keys = 0;
  for (auto& field : row) {
    const std::string_view key = field.key();
    boost::json::value* value = &field.value();
    if (key == "id") id = value;
    else if (key == "input") input = value;
    else if (key == "inputs") inputs = value;
    else if (key == "expectedOutput") expected = value;
    else if (key == "expectedOutputs") expected_map = value;
    else if (key == "actualOutput") actual = value;
    else if (key == "actualOutputs") actual_map = value;
    else if (key == "metadata") metadata = value;
    else if (key == "trace") trace = value;
    else ++extra_keys;
  }

  const boost::json::storage_ptr& storage = row.storage();
  boost::json::object out(storage);
  out.reserve(6);
  if (id != nullptr) write_id(out, *id);

  boost::json::object inputs_out = take_map(inputs, "inputs", storage);
  merge_shortcut(inputs_out, "input", input);
  out.emplace("inputs", std::move(inputs_out));

  boost::json::object expected_out = take_map(expected_map, "expectedOutputs", storage);
  merge_shortcut(expected_out, "output", expected);
  out.emplace("expectedOutputs", std::move(expected_out));

  boost::json::object metadata_out = take_map(metadata, "metadata", storage);
  if (extra_keys > 0) {
    for (auto& field : row) {
      boost::json::value& value = field.value();
      if (&value == id || &value == input || &value == inputs || &value == expected || &value == expected_map ||
          &value == actual || &value == actual_map || &value == metadata || &value == trace)
        continue;
      if (!metadata_out.contains(field.key())) metadata_out.emplace(field.key(), std::move(value));
    }
  }
  out.emplace("metadata", std::move(metadata_out));

  const bool has_actual = (actual_map != nullptr && !actual_map->is_null()) || (actual != nullptr && !actual->is_null());
  if (has_actual) {
    boost::json::object actual_out = take_map(actual_map, "actualOutputs", storage);
    merge_shortcut(actual_out, "output", actual);
    out.emplace("actualOutputs", std::move(actual_out));
  }
  if (trace != nullptr && !trace->is_null()) out.emplace("trace", std::move(*trace));
  return out;
}

}  // namespace krino::files
