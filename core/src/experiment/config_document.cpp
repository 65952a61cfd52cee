#include "krino/core/experiment/config_document.hpp"

#include "krino/core/common/error.hpp"

#include "yaml_to_json.hpp"

#include <krino/report/text.hpp>

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace krino::core {
namespace {

// The experiment file is text: a byte that is not UTF-8 would reach reports and events as it is,
// and fail the run there, far from its cause. Refused here with its line and column.
void check_utf8(std::string_view text, const std::string& source_name) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = report::utf8_sequence_length(text, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      std::string message = source_name;
      message.append(":").append(std::to_string(line)).append(":").append(std::to_string(i - line_start + 1));
      message.append(": not valid UTF-8 (byte ").append(byte).append("); an experiment file must be UTF-8 text");
      throw config_error(message);
    }
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += length;
  }
}

}  // namespace

boost::json::value parse_config_text(std::string_view text, const std::string& source_name) {
  check_utf8(text, source_name);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw config_error(source_name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                       ": " + e.msg);
  }
  return yaml_to_json(root, source_name);
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
