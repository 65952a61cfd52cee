#include "krino/core/common/status_code.hpp"

namespace krino::core {

std::string_view status_code_name(krino_status code) {
  switch (code) {
    case KRINO_OK: return "OK";
    case KRINO_CANCELLED: return "CANCELLED";
    case KRINO_UNKNOWN: return "UNKNOWN";
    case KRINO_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case KRINO_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case KRINO_NOT_FOUND: return "NOT_FOUND";
    case KRINO_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case KRINO_PERMISSION_DENIED: return "PERMISSION_DENIED";
    case KRINO_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case KRINO_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case KRINO_ABORTED: return "ABORTED";
    case KRINO_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case KRINO_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case KRINO_INTERNAL: return "INTERNAL";
    case KRINO_UNAVAILABLE: return "UNAVAILABLE";
    case KRINO_DATA_LOSS: return "DATA_LOSS";
    default: return "UNKNOWN";
  }
}

}  // namespace krino::core
