#include "value_rendering.h"

#include <krino/json_text.hpp>

namespace krino::judge {
namespace {

void indent(std::string& out, int depth) { out.append(static_cast<std::size_t>(depth) * 2, ' '); }

void append_pretty(std::string& out, const boost::json::value& value, int depth) {
  if (value.is_object()) {
    const boost::json::object& object = value.get_object();
    if (object.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    bool first = true;
    for (const auto& member : object) {
      if (!first) out += ",\n";
      first = false;
      indent(out, depth + 1);
      json::append_json_string(out, member.key());
      out += ": ";
      append_pretty(out, member.value(), depth + 1);
    }
    out += '\n';
    indent(out, depth);
    out += '}';
  } else if (value.is_array()) {
    const boost::json::array& array = value.get_array();
    if (array.empty()) {
      out += "[]";
      return;
    }
    out += "[\n";
    bool first = true;
    for (const auto& element : array) {
      if (!first) out += ",\n";
      first = false;
      indent(out, depth + 1);
      append_pretty(out, element, depth + 1);
    }
    out += '\n';
    indent(out, depth);
    out += ']';
  } else {
    json::append_compact_json(out, value);
  }
}

}  // namespace

std::string pretty_json(const boost::json::value& value) {
  std::string out;
  append_pretty(out, value, 0);
  return out;
}

std::string render_value(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  return pretty_json(value);
}

std::string render_chunks(const std::vector<std::string>& chunks) {
  std::string out;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0) out += "\n\n";
    out += "[" + std::to_string(i + 1) + "] " + chunks[i];
  }
  return out;
}

}  // namespace krino::judge
