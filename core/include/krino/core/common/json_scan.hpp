#pragma once
// Reading JSON documents without building them. The host passes most of what crosses it (examples,
// eval results) straight into other documents, so it validates once with a SAX pass and then works
// with byte spans of the top-level members instead of a DOM.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

// True when `text` is exactly one valid JSON value (surrounding white space allowed) and that value
// is an object. Nesting deeper than `max_depth` is refused. When `repeated_member_key` is given, it
// is set to whether an object that is a member of that object (an example's section) has a key
// twice: found in the same pass, for the caller to refuse without a second scan.
bool is_json_object(std::string_view text, size_t max_depth = 512, bool* repeated_member_key = nullptr);

// One top-level member of an object: its key (unescaped) and the exact bytes of its value.
struct JsonMember {
  std::string key;
  std::string_view value;
};

// The top-level members of `object_text`, in order. Only for text that is_json_object() accepted:
// it trusts the syntax and only tracks strings and nesting.
std::vector<JsonMember> top_level_members(std::string_view object_text);

// is_json_object() and top_level_members() in one pass: the members of `text` when it is one JSON
// object (nested at most `max_depth` deep), nullopt otherwise. `repeated_member_key` as for
// is_json_object().
std::optional<std::vector<JsonMember>> json_object_members(std::string_view text, size_t max_depth = 512,
                                                          bool* repeated_member_key = nullptr);

// The value bytes of `key` among `members` (the last one when repeated, as a JSON parser keeps).
std::optional<std::string_view> member(const std::vector<JsonMember>& members, std::string_view key);

// Whether a value span is an object / a string, by its first byte.
inline bool is_object_span(std::string_view v) { return !v.empty() && v.front() == '{'; }
inline bool is_string_span(std::string_view v) { return !v.empty() && v.front() == '"'; }

}  // namespace krino::core
