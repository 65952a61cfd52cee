#include "krino/core/store/alert_types.hpp"

namespace krino::core::store {

std::string_view delivery_status_name(DeliveryStatus status) {
  switch (status) {
    case DeliveryStatus::pending:
      return "PENDING";
    case DeliveryStatus::delivered:
      return "DELIVERED";
    case DeliveryStatus::dead:
      return "DEAD";
  }
  return "PENDING";
}

}  // namespace krino::core::store
