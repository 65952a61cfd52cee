#include "openjudge_unit_option.h"

#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <string>

namespace krino::agent::openjudge {

double read_unit_option(const Config& config, std::string_view key) {
  const double value = config.get_double(key);
  if (!(value >= 0.0 && value <= 1.0))
    throw invalid_argument("option '" + std::string(key) + "' must be between 0 and 1, got " +
                           json::to_compact_json(boost::json::value(value)));
  return value;
}

}  // namespace krino::agent::openjudge
