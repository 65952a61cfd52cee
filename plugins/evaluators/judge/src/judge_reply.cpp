#include "judge_reply.h"

#include <krino/json_extract.hpp>

#include <utility>

namespace krino::judge {

ReplyJson extract_reply_object(std::string_view reply, std::string_view array_key) {
  using ::krino::json::JsonShape;
  ::krino::json::JsonExtraction found =
      ::krino::json::extract_json(reply, array_key.empty() ? JsonShape::object : JsonShape::object_or_array);
  if (!found.value) return {std::nullopt, std::move(found.failure)};
  if (found.value->is_object()) return {std::move(found.value->get_object()), {}};
  // A bare array where the evaluator accepts one: wrapped under the key the evaluator reads.
  boost::json::object wrapped;
  wrapped[array_key] = std::move(*found.value);
  return {std::move(wrapped), {}};
}

std::string reply_excerpt(std::string_view reply, std::size_t limit) { return ::krino::json::reply_excerpt(reply, limit); }

}  // namespace krino::judge
