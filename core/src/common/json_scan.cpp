#include "krino/core/common/json_scan.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>
#include <krino/json_spans.hpp>

#include <cstdint>
#include <cstring>

namespace krino::core {
namespace {

using boost::json::error_code;
using boost::json::string_view;

// Accepts everything; the parser itself checks the syntax. Records whether the root is an object.
struct ValidatingHandler {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);
  bool root_seen = false;
  bool root_is_object = false;
  bool track_member_keys = false;
  bool repeated_member_key = false;
  // The root object's members, found during the pass (see json_object_members): the keys come as
  // views into `text` when they hold no escape, and each value runs from after its key's colon to
  // before the comma ahead of the next key. A key read into the parser's own buffer (an escape)
  // stops the recording; the caller then scans.
  std::vector<JsonMember>* members = nullptr;
  std::string_view text;

  void value_start(bool object) {
    if (!root_seen) {
      root_seen = true;
      root_is_object = object;
    }
  }
  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) {
    value_start(true);
    // A member object of the root: its keys are collected afresh (the buffers keep their memory).
    if (++depth_ == 2 && track_member_keys) keys_used_ = 0;
    return true;
  }
  bool on_object_end(std::size_t, error_code&) {
    --depth_;
    return true;
  }
  bool on_array_begin(error_code&) { value_start(false); ++depth_; return true; }
  bool on_array_end(std::size_t, error_code&) { --depth_; return true; }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    if (depth_ == 2 && track_member_keys) pending_key_.append(s.data(), s.size());
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code&) {
    if (depth_ == 2 && track_member_keys) note_key(s);
    if (depth_ == 1 && members != nullptr) note_root_key(s);
    return true;
  }
  // After the parse: the last member's value ends before the root's closing brace.
  void finish_members(std::size_t used) {
    if (members == nullptr || members->empty()) return;
    std::size_t end = used;
    while (end > 0 && text[end - 1] != '}') --end;
    close_last_member(end - 1);
  }
  bool on_string_part(string_view, std::size_t, error_code&) { return true; }
  bool on_string(string_view, std::size_t, error_code&) { value_start(false); return true; }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, string_view, error_code&) { value_start(false); return true; }
  bool on_uint64(std::uint64_t, string_view, error_code&) { value_start(false); return true; }
  bool on_double(double, string_view, error_code&) { value_start(false); return true; }
  bool on_bool(bool, error_code&) { value_start(false); return true; }
  bool on_null(error_code&) { value_start(false); return true; }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  void note_root_key(string_view key) {
    const char* const first = text.data();
    if (key.data() <= first || key.data() + key.size() >= first + text.size()) {
      members = nullptr;  // escaped or split: not a view into the text
      return;
    }
    const std::size_t open_quote = static_cast<std::size_t>(key.data() - first) - 1;
    if (!members->empty()) {
      std::size_t end = open_quote;
      while (text[end - 1] != ',') --end;
      close_last_member(end - 1);
    }
    // Where the key ends: the colon and the value are not read yet (the text may still prove invalid).
    members->push_back(JsonMember{std::string(key.data(), key.size()), text.substr(open_quote + key.size() + 2, 0)});
  }
  // The last member's value, once it has been read whole: from after its key's colon to the last
  // non-space byte before `stop`.
  void close_last_member(std::size_t stop) {
    JsonMember& last = members->back();
    std::size_t begin = static_cast<std::size_t>(last.value.data() - text.data());
    while (text[begin] != ':') ++begin;
    ++begin;
    while (krino::json::detail::is_space(text[begin])) ++begin;
    std::size_t end = stop;
    while (end > begin && krino::json::detail::is_space(text[end - 1])) --end;
    last.value = text.substr(begin, end - begin);
  }

  void note_key(string_view last_part) {
    pending_key_.append(last_part.data(), last_part.size());
    for (std::size_t i = 0; i < keys_used_ && !repeated_member_key; ++i) repeated_member_key = keys_[i] == pending_key_;
    if (keys_used_ == keys_.size()) keys_.emplace_back();
    keys_[keys_used_++].swap(pending_key_);
    pending_key_.clear();
  }

  int depth_ = 0;
  std::vector<std::string> keys_;  // the keys of the current member object, the first keys_used_
  std::size_t keys_used_ = 0;
  std::string pending_key_;
};

bool is_space(char c) { return krino::json::detail::is_space(c); }

}  // namespace

bool is_json_object(std::string_view text, size_t max_depth, bool* repeated_member_key) {
  boost::json::parse_options options;
  options.max_depth = max_depth;
  boost::json::basic_parser<ValidatingHandler> parser(options);
  parser.handler().track_member_keys = repeated_member_key != nullptr;
  error_code ec;
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (repeated_member_key != nullptr) *repeated_member_key = parser.handler().repeated_member_key;
  if (ec || !parser.done() || !parser.handler().root_is_object) return false;
  for (size_t i = used; i < text.size(); ++i) {
    if (!is_space(text[i])) return false;
  }
  return true;
}

std::optional<std::vector<JsonMember>> json_object_members(std::string_view text, size_t max_depth,
                                                          bool* repeated_member_key) {
  boost::json::parse_options options;
  options.max_depth = max_depth;
  boost::json::basic_parser<ValidatingHandler> parser(options);
  std::vector<JsonMember> members;
  ValidatingHandler& handler = parser.handler();
  handler.track_member_keys = repeated_member_key != nullptr;
  handler.members = &members;
  handler.text = text;
  error_code ec;
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (repeated_member_key != nullptr) *repeated_member_key = handler.repeated_member_key;
  if (ec || !parser.done() || !handler.root_is_object) return std::nullopt;
  for (size_t i = used; i < text.size(); ++i) {
    if (!is_space(text[i])) return std::nullopt;
  }
  if (handler.members == nullptr) return top_level_members(text);
  handler.finish_members(used);
  return members;
}

std::vector<JsonMember> top_level_members(std::string_view t) {
  std::vector<JsonMember> members;
  krino::json::for_each_member(t, [&](std::string_view key_token, std::string_view value) {
    members.push_back(JsonMember{krino::json::key_text(key_token), value});
    return true;
  });
  return members;
}

std::optional<std::string_view> member(const std::vector<JsonMember>& members, std::string_view key) {
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return it->value;
  }
  return std::nullopt;
}

}  // namespace krino::core
