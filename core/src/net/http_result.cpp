#include "krino/core/net/http_result.hpp"

#include <boost/algorithm/string/predicate.hpp>

namespace krino::core {

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& header : headers) {
    if (boost::algorithm::iequals(header.name, name)) return header.value;
  }
  return std::nullopt;
}

}  // namespace krino::core
