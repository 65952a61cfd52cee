#include "krino/core/common/item_error.hpp"

#include "krino/core/common/status_code.hpp"

namespace krino::core {

krino::event::ItemError ItemError::to_event() const {
  return krino::event::ItemError{stage, component, std::string(status_code_name(code)), message};
}

}  // namespace krino::core
