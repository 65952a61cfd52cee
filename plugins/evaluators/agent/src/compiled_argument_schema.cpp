#include "compiled_argument_schema.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

// The JSON Schema type names, as bits.
enum TypeBit : unsigned {
  kNullBit = 1u << 0,
  kBooleanBit = 1u << 1,
  kObjectBit = 1u << 2,
  kArrayBit = 1u << 3,
  kStringBit = 1u << 4,
  kIntegerBit = 1u << 5,
  kNumberBit = 1u << 6,
  kAnyTypeBits = (1u << 7) - 1,
};

std::optional<unsigned> type_bit(std::string_view name) {
  if (name == "null") return kNullBit;
  if (name == "boolean") return kBooleanBit;
  if (name == "object") return kObjectBit;
  if (name == "array") return kArrayBit;
  if (name == "string") return kStringBit;
  if (name == "integer") return kIntegerBit;
  if (name == "number") return kNumberBit;
  return std::nullopt;
}

// The same test tool_argument_schema.cpp uses to make a double an integer before valijson sees it.
bool integral_double(double number) {
  return std::isfinite(number) && number == std::trunc(number) && number >= -9.2e18 && number <= 9.2e18;
}

// What valijson's strong types say a value is; 0 for a value this does not read (an unsigned
// 64-bit integer, which valijson's Boost.JSON adapter calls a number but never an integer).
unsigned value_bits(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null: return kNullBit;
    case boost::json::kind::bool_: return kBooleanBit;
    case boost::json::kind::object: return kObjectBit;
    case boost::json::kind::array: return kArrayBit;
    case boost::json::kind::string: return kStringBit;
    case boost::json::kind::int64: return kIntegerBit | kNumberBit;
    case boost::json::kind::double_: return integral_double(value.get_double()) ? kIntegerBit | kNumberBit : kNumberBit;
    case boost::json::kind::uint64: return 0;
  }
  return 0;
}

// valijson's u8_strlen: characters up to the first NUL, a character being a byte and the
// continuation bytes after it.
std::uint64_t valijson_length(std::string_view text) {
  std::uint64_t count = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] != '\0') {
    ++i;
    while (i < text.size() && text[i] != '\0' && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
    ++count;
  }
  return count;
}

bool has_nul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

std::optional<double> schema_number(const boost::json::value& value) {
  if (value.is_int64()) return static_cast<double>(value.get_int64());
  if (value.is_double()) return value.get_double();
  return std::nullopt;
}

std::optional<std::uint64_t> schema_count(const boost::json::value& value) {
  if (value.is_int64() && value.get_int64() >= 0) return static_cast<std::uint64_t>(value.get_int64());
  return std::nullopt;
}

bool is_annotation(std::string_view keyword) {
  return keyword == "title" || keyword == "description" || keyword == "default" || keyword == "examples" ||
         keyword == "$comment" || keyword == "$schema";
}

}  // namespace

struct CompiledArgumentSchema::Node {
  unsigned types = kAnyTypeBits;
  bool has_enum = false;
  std::vector<std::string> enum_strings;
  std::vector<std::string> required;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> properties;
  enum class Additional { allowed, forbidden, schema } additional = Additional::allowed;
  std::unique_ptr<Node> additional_schema;
  std::unique_ptr<Node> items;
  std::optional<double> minimum;
  std::optional<double> maximum;
  std::optional<std::uint64_t> min_length;
  std::optional<std::uint64_t> max_length;

  // nullptr when `schema` is not one this handles.
  static std::unique_ptr<Node> build(const boost::json::value& schema) {
    if (!schema.is_object()) return nullptr;
    auto node = std::make_unique<Node>();
    for (const auto& member : schema.get_object()) {
      const std::string_view keyword = member.key();
      const boost::json::value& value = member.value();
      if (is_annotation(keyword)) continue;
      if (keyword == "type") {
        if (!node->read_types(value)) return nullptr;
      } else if (keyword == "enum") {
        if (!value.is_array()) return nullptr;
        node->has_enum = true;
        for (const boost::json::value& allowed : value.get_array()) {
          if (!allowed.is_string()) continue;  // a non-string member never lets a string through
          if (has_nul(allowed.get_string())) return nullptr;
          node->enum_strings.emplace_back(allowed.get_string());
        }
      } else if (keyword == "required") {
        if (!value.is_array()) return nullptr;
        for (const boost::json::value& name : value.get_array()) {
          // valijson reads names up to a NUL in places; such a name is left to it.
          if (!name.is_string() || has_nul(name.get_string())) return nullptr;
          node->required.emplace_back(name.get_string());
        }
      } else if (keyword == "properties") {
        if (!value.is_object()) return nullptr;
        for (const auto& property : value.get_object()) {
          if (has_nul(property.key())) return nullptr;
          std::unique_ptr<Node> child = build(property.value());
          if (child == nullptr) return nullptr;
          node->properties.emplace_back(std::string(property.key()), std::move(child));
        }
      } else if (keyword == "additionalProperties") {
        if (value.is_bool()) {
          node->additional = value.get_bool() ? Additional::allowed : Additional::forbidden;
        } else {
          node->additional_schema = build(value);
          if (node->additional_schema == nullptr) return nullptr;
          node->additional = Additional::schema;
        }
      } else if (keyword == "items") {
        node->items = build(value);
        if (node->items == nullptr) return nullptr;
      } else if (keyword == "minimum") {
        if (!(node->minimum = schema_number(value))) return nullptr;
      } else if (keyword == "maximum") {
        if (!(node->maximum = schema_number(value))) return nullptr;
      } else if (keyword == "minLength") {
        if (!(node->min_length = schema_count(value))) return nullptr;
      } else if (keyword == "maxLength") {
        if (!(node->max_length = schema_count(value))) return nullptr;
      } else {
        return nullptr;
      }
    }
    return node;
  }

  bool read_types(const boost::json::value& value) {
    if (value.is_string()) {
      const std::optional<unsigned> bit = type_bit(value.get_string());
      if (!bit) return false;
      types = *bit;
      return true;
    }
    if (!value.is_array() || value.get_array().empty()) return false;
    types = 0;
    for (const boost::json::value& name : value.get_array()) {
      if (!name.is_string()) return false;
      const std::optional<unsigned> bit = type_bit(name.get_string());
      if (!bit) return false;
      types |= *bit;
    }
    return true;
  }

  const Node* property(std::string_view name) const {
    for (const auto& [key, child] : properties)
      if (key == name) return child.get();
    return nullptr;
  }

  bool accepts(const boost::json::value& value) const {
    const unsigned bits = value_bits(value);
    if ((bits & types) == 0) return false;  // also every unsigned 64-bit integer: not proven
    if (value.is_string()) return accepts_string(value.get_string());
    if (has_enum) return false;  // only string members are compared here
    if (value.is_object()) return accepts_object(value.get_object());
    if (value.is_array()) {
      if (items != nullptr)
        for (const boost::json::value& element : value.get_array())
          if (!items->accepts(element)) return false;
      return true;
    }
    if ((bits & kNumberBit) != 0) {
      const double number = value.is_int64() ? static_cast<double>(value.get_int64()) : value.get_double();
      if (minimum && number < *minimum) return false;
      if (maximum && number > *maximum) return false;
    }
    return true;
  }

  bool accepts_string(std::string_view text) const {
    if (has_enum) {
      if (has_nul(text)) return false;
      bool listed = false;
      for (const std::string& allowed : enum_strings) listed = listed || allowed == text;
      if (!listed) return false;
    }
    if (min_length || max_length) {
      const std::uint64_t length = valijson_length(text);
      if (min_length && length < *min_length) return false;
      if (max_length && length > *max_length) return false;
    }
    return true;
  }

  // An object value: the checks of accepts() that apply to one, then its members.
  bool accepts_object_value(const boost::json::object& object) const {
    return (types & kObjectBit) != 0 && !has_enum && accepts_object(object);
  }

  bool accepts_object(const boost::json::object& object) const {
    for (const std::string& name : required)
      if (!object.contains(name)) return false;
    for (const auto& member : object) {
      if (const Node* child = property(member.key())) {
        if (!child->accepts(member.value())) return false;
      } else if (additional == Additional::forbidden) {
        return false;
      } else if (additional == Additional::schema && !additional_schema->accepts(member.value())) {
        return false;
      }
    }
    return true;
  }
};

CompiledArgumentSchema::CompiledArgumentSchema(std::unique_ptr<Node> root) : root_(std::move(root)) {}
CompiledArgumentSchema::~CompiledArgumentSchema() = default;

std::unique_ptr<const CompiledArgumentSchema> CompiledArgumentSchema::compile(const boost::json::value& schema) {
  std::unique_ptr<Node> root = Node::build(schema);
  if (root == nullptr) return nullptr;
  return std::unique_ptr<const CompiledArgumentSchema>(new CompiledArgumentSchema(std::move(root)));
}

bool CompiledArgumentSchema::accepts(const boost::json::value& value) const { return root_->accepts(value); }

bool CompiledArgumentSchema::accepts(const boost::json::object& arguments) const {
  return root_->accepts_object_value(arguments);
}

}  // namespace krino::agent
