#pragma once
// Names of the ABI status codes, as they appear in reports ("INVALID_ARGUMENT").
#include <krino/plugin.h>

#include <string_view>

namespace krino::core {

std::string_view status_code_name(krino_status code);

}  // namespace krino::core
