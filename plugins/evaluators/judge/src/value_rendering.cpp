#include "value_rendering.h"

#include <krino/json_text.hpp>

namespace krino::judge {

std::string pretty_json(const boost::json::value& value) { return json::to_pretty_json(value); }

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
