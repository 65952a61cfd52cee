#include "krino/core/common/item_error.hpp"

#include "krino/core/common/status_code.hpp"

namespace krino::core {

boost::json::object ItemError::to_json() const {
  boost::json::object o;
  o["stage"] = stage;
  o["component"] = component;
  o["code"] = status_code_name(code);
  o["message"] = message;
  return o;
}

}  // namespace krino::core
