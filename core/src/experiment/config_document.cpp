#include "krino/core/experiment/config_document.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

namespace krino::core {
namespace {

// YAML 1.2 core schema resolution for plain scalars.
boost::json::value plain_scalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  static const std::regex integer(R"([-+]?[0-9]+)");
  static const std::regex floating(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (std::regex_match(s, integer)) {
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno == 0 && end != nullptr && *end == '\0') return static_cast<int64_t>(v);
  }
  if (std::regex_match(s, floating)) {
    double v = std::strtod(s.c_str(), nullptr);
    if (std::isfinite(v)) return v;
  }
  return boost::json::string(s);
}

boost::json::value to_json(const YAML::Node& node, const std::string& source) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nullptr;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags quoted scalars "!", plain ones "?".
      if (node.Tag() == "!") return boost::json::string(node.Scalar());
      return plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      boost::json::array array;
      for (const auto& item : node) array.push_back(to_json(item, source));
      return array;
    }
    case YAML::NodeType::Map: {
      boost::json::object object;
      for (const auto& entry : node) {
        if (!entry.first.IsScalar())
          throw config_error(source + ":" + std::to_string(entry.first.Mark().line + 1) + ": keys must be scalars");
        const std::string& key = entry.first.Scalar();
        if (object.contains(key))
          throw config_error(source + ":" + std::to_string(entry.first.Mark().line + 1) + ": duplicate key '" + key + "'");
        object[key] = to_json(entry.second, source);
      }
      return object;
    }
  }
  return nullptr;
}

}  // namespace

boost::json::value parse_config_text(std::string_view text, const std::string& source_name) {
  try {
    YAML::Node root = YAML::Load(std::string(text));
    return to_json(root, source_name);
  } catch (const YAML::ParserException& e) {
    throw config_error(source_name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                       ": " + e.msg);
  }
}

boost::json::value load_config_document(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw config_error("cannot read experiment file " + file.string() + ": " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_config_text(buffer.str(), file.string());
}

void apply_override(boost::json::value& document, std::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw usage_error("--set expects key=value, got '" + std::string(assignment) + "'");
  std::string_view path = assignment.substr(0, eq);
  std::string value_text(assignment.substr(eq + 1));
  boost::json::value value = parse_config_text(value_text, "--set " + std::string(path));

  if (!document.is_object()) document = boost::json::object();
  boost::json::value* cursor = &document;
  while (true) {
    size_t dot = path.find('.');
    std::string key(path.substr(0, dot));
    if (key.empty()) throw usage_error("--set: empty key in '" + std::string(assignment) + "'");
    boost::json::value* next = nullptr;
    if (cursor->is_array()) {
      char* end = nullptr;
      unsigned long index = std::strtoul(key.c_str(), &end, 10);
      auto& array = cursor->get_array();
      if (*end != '\0' || index > array.size())
        throw usage_error("--set: '" + key + "' is not a valid index into a list of " + std::to_string(array.size()));
      if (index == array.size()) array.emplace_back(nullptr);
      next = &array[index];
    } else {
      if (!cursor->is_object()) *cursor = boost::json::object();
      next = &cursor->get_object()[key];
    }
    if (dot == std::string_view::npos) {
      *next = std::move(value);
      return;
    }
    cursor = next;
    path.remove_prefix(dot + 1);
  }
}

}  // namespace krino::core
