#include "field_mapping.hpp"

#include <krino/json_text.hpp>

#include <algorithm>
#include <string_view>

namespace krino::files {
namespace {

constexpr const char* kSections[] = {"inputs", "expectedOutputs", "actualOutputs", "metadata"};

bool is_section(std::string_view name) {
  return std::find(std::begin(kSections), std::end(kSections), name) != std::end(kSections);
}

// The value at `pointer`, or nullptr when the record has nothing there.
const boost::json::value* find(const boost::json::value& record, const std::string& pointer) {
  if (pointer.empty()) return &record;
  boost::system::error_code ec;
  return record.find_pointer(pointer, ec);
}

}  // namespace

FieldMapping::Field FieldMapping::parse_field(const std::string& target, const std::string& source) {
  Field field;
  field.target = target;
  const std::size_t dot = target.find('.');
  const std::string head = target.substr(0, dot);
  if (head == "id" || head == "trace") {
    if (dot != std::string::npos) throw invalid_argument("fields: '" + target + "' has no keys; map '" + head + "' itself");
  } else if (is_section(head)) {
    field.section = head;
    if (dot != std::string::npos) {
      field.key = target.substr(dot + 1);
      if (field.key.empty()) throw invalid_argument("fields: '" + target + "' names no key after the dot");
    }
  } else {
    throw invalid_argument("fields: unknown target '" + target +
                           "' (map id, trace, a section: inputs, expectedOutputs, actualOutputs, metadata, or section.key)");
  }
  if (source.empty() || source.front() == '/') {
    // A pointer; its syntax is checked here, once, rather than on every record.
    boost::system::error_code ec;
    boost::json::value(boost::json::object()).find_pointer(source, ec);
    if (ec == boost::json::error::invalid_escape)
      throw invalid_argument("fields." + target + ": '" + source + "' is not a valid JSON pointer ('~' must be followed by 0 or 1)");
    field.pointer = source;
    return field;
  }
  if (source.find('{') == std::string::npos)
    throw invalid_argument("fields." + target + ": '" + source +
                           "' is neither a JSON pointer (starting with '/', or \"\" for the whole record) nor a template "
                           "with {/pointer} placeholders");
  field.is_template = true;
  std::size_t at = 0;
  while (at < source.size()) {
    const std::size_t open = source.find('{', at);
    if (open == std::string::npos) {
      field.template_pieces.push_back({false, source.substr(at)});
      break;
    }
    if (open > at) field.template_pieces.push_back({false, source.substr(at, open - at)});
    const std::size_t close = source.find('}', open);
    if (close == std::string::npos) throw invalid_argument("fields." + target + ": '{' without '}' in '" + source + "'");
    const std::string pointer = source.substr(open + 1, close - open - 1);
    if (!pointer.empty() && pointer.front() != '/')
      throw invalid_argument("fields." + target + ": placeholder {" + pointer + "} must be a JSON pointer such as {/task_id}");
    field.template_pieces.push_back({true, pointer});
    at = close + 1;
  }
  return field;
}

std::optional<FieldMapping> FieldMapping::from_options(const Config& options) {
  const boost::json::value* fields = options.find("fields");
  if (fields == nullptr) return std::nullopt;
  if (!fields->is_object() || fields->get_object().empty())
    throw invalid_argument("option 'fields' must map targets (id, trace, inputs.KEY, ...) to JSON pointers");
  FieldMapping mapping;
  for (const auto& [target, source] : fields->get_object()) {
    if (!source.is_string()) throw invalid_argument("fields." + std::string(target) + " must be a JSON pointer or a template");
    mapping.fields_.push_back(parse_field(std::string(target), std::string(source.get_string())));
  }
  // Whole sections before their keys, so a key is laid over its section whatever the written order.
  std::stable_sort(mapping.fields_.begin(), mapping.fields_.end(),
                   [](const Field& a, const Field& b) { return a.key.empty() && !b.key.empty(); });
  return mapping;
}

boost::json::value FieldMapping::resolve(const Field& field, const boost::json::value& record) {
  if (!field.is_template) {
    const boost::json::value* value = find(record, field.pointer);
    if (value == nullptr)
      throw invalid_argument("fields." + field.target + ": the record has nothing at '" + field.pointer + "'");
    return *value;
  }
  std::string text;
  for (const Piece& piece : field.template_pieces) {
    if (!piece.is_pointer) {
      text += piece.text;
      continue;
    }
    const boost::json::value* value = find(record, piece.text);
    if (value == nullptr || value->is_null())
      throw invalid_argument("fields." + field.target + ": the record has nothing at '" + piece.text + "'");
    text += json::string_form(*value);
  }
  return boost::json::value(text);
}

boost::json::object FieldMapping::apply(const boost::json::value& record) const {
  boost::json::object sections[4];
  std::optional<boost::json::value> id;
  std::optional<boost::json::value> trace;
  for (const Field& field : fields_) {
    boost::json::value value = resolve(field, record);
    if (field.section.empty()) {
      if (value.is_null()) continue;
      (field.target == "id" ? id : trace) = std::move(value);
      continue;
    }
    const std::size_t index =
        static_cast<std::size_t>(std::find(std::begin(kSections), std::end(kSections), field.section) - std::begin(kSections));
    if (!field.key.empty()) {
      if (!value.is_null()) sections[index][field.key] = std::move(value);
      continue;
    }
    if (value.is_null()) continue;
    if (!value.is_object())
      throw invalid_argument("fields." + field.target + ": the value must be an object to become " + field.section);
    sections[index] = std::move(value.get_object());
  }
  boost::json::object example;
  if (id) {
    if (id->is_string()) {
      if (!id->get_string().empty()) example["id"] = std::move(*id);
    } else if (id->is_int64() || id->is_uint64()) {
      example["id"] = json::to_compact_json(*id);
    } else {
      throw invalid_argument("fields.id: the id must be a string or an integer");
    }
  }
  example["inputs"] = std::move(sections[0]);
  example["expectedOutputs"] = std::move(sections[1]);
  example["metadata"] = std::move(sections[3]);
  bool has_actual = false;
  for (const Field& field : fields_) has_actual = has_actual || field.section == "actualOutputs";
  if (has_actual) example["actualOutputs"] = std::move(sections[2]);
  if (trace) example["trace"] = std::move(*trace);
  return example;
}

}  // namespace krino::files
