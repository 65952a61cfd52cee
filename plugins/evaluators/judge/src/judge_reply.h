// Reading the JSON object a judge was asked for out of its reply text. Models wrap it in code fences,
// open with "Here is my evaluation:" or close with a remark; none of that should cost a usable
// judgment. The host's judge service already retries once with a repair instruction when
// a reply does not parse; what reaches an evaluator and still does not parse is an item error.
// See docs/plugins/judge.md#reading-replies-and-when-an-item-is-an-error.
//
// The reading is the SDK's (krino/json_extract.hpp), the same as the host's judge service uses.
#ifndef KRINO_JUDGE_JUDGE_REPLY_H
#define KRINO_JUDGE_JUDGE_REPLY_H

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::judge {

struct ReplyJson {
  std::optional<boost::json::object> object;
  std::string failure;  // when there is no object: why, in words fit for an item error
};

// The JSON object in `reply`, tried in this order: the whole reply; each ``` fenced block (with or
// without a language tag); the first balanced object in the text that parses, strings and escapes
// respected. Comments and trailing commas are tolerated. When `array_key` is not empty, a reply that is
// a bare array (whole, fenced or embedded) is returned wrapped as {array_key: [...]}.
ReplyJson extract_reply_object(std::string_view reply, std::string_view array_key = {});

// The start of `reply` for an error message: at most `limit` bytes, cut on a UTF-8 boundary, "..." when cut.
std::string reply_excerpt(std::string_view reply, std::size_t limit = 200);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_JUDGE_REPLY_H
