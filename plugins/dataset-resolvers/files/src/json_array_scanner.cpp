#include "json_array_scanner.hpp"

#include "byte_scan.hpp"

#include <krino/plugin.hpp>

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <optional>
#include <string_view>

namespace krino::files {
namespace {

constexpr int kEnd = -1;

bool is_scalar_char(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' ||
         c == '.';
}

std::string describe(int c) {
  if (c == kEnd) return "the end of the file";
  if (c >= 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
  return "byte 0x" + std::string(1, "0123456789ABCDEF"[(c >> 4) & 0xF]) + "0123456789ABCDEF"[c & 0xF];
}

// The text of a JSON string token (quotes included), unescaped; nothing for an invalid escape.
std::optional<std::string> unescape(std::string_view token) {
  if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
  boost::system::error_code ec;
  boost::json::value value = krino::json::parse(token, ec);
  if (ec || !value.is_string()) return std::nullopt;
  return std::string(value.get_string());
}

}  // namespace

JsonArrayScanner::JsonArrayScanner(BufferedFile file) : file_(std::move(file)) {
  while (size_ < kByteOrderMark.size() && refill()) {
  }
  if (std::string_view(data_, size_).substr(0, kByteOrderMark.size()) == kByteOrderMark) pos_ = kByteOrderMark.size();
  skip_whitespace();
  const int root = peek();
  if (root == '[') {
    ++pos_;
    fields_.root_is_array = true;
    return;
  }
  if (root == kEnd) throw invalid_argument("'" + file_.path() + "' is empty");
  if (root != '{')
    fail("the root must be an object with an \"examples\" array, or an array of examples; found " + describe(root));
  ++pos_;
  skip_whitespace();
  if (peek() != '}') {
    for (;;) {
      if (read_member(false)) return;
      skip_whitespace();
      const int c = peek();
      if (c == '}') break;
      if (c != ',') fail("expected ',' or '}' after a member of the root object, found " + describe(c));
      ++pos_;
    }
  }
  throw invalid_argument("'" + file_.path() + "' has no \"examples\" array");
}

void JsonArrayScanner::fail(const std::string& reason) const { fail_at(line_, reason); }

void JsonArrayScanner::fail_at(uint64_t line, const std::string& reason) const {
  throw invalid_argument(file_.path() + ":" + std::to_string(line) + ": " + reason);
}

bool JsonArrayScanner::refill() {
  const bool more = file_.read_more();
  const std::string_view window = file_.window();
  data_ = window.data();
  size_ = window.size();
  return more;
}

int JsonArrayScanner::peek() {
  while (pos_ >= size_) {
    if (!refill()) return kEnd;
  }
  return static_cast<unsigned char>(data_[pos_]);
}

// Forgets everything before pos_, so the buffer holds at most one example at a time.
void JsonArrayScanner::release_scanned() {
  file_.consume(pos_);
  pos_ = 0;
  const std::string_view window = file_.window();
  data_ = window.data();
  size_ = window.size();
}

void JsonArrayScanner::skip_whitespace() {
  for (;;) {
    const int c = peek();
    if (c == '\n') ++line_;
    else if (c != ' ' && c != '\t' && c != '\r') return;
    ++pos_;
  }
}

// From just after an opening quote to just after the closing one, jumping from quote to backslash
// with memchr. A raw line break is invalid JSON but still counted, so later line numbers stay
// right; the example's own parse reports it.
void JsonArrayScanner::skip_string_body() {
  const uint64_t start_line = line_;
  size_t quote = 0;
  bool quote_known = false;  // whether `quote` is the first '"' at or after pos_ (or size_: none)
  for (;;) {
    if (!quote_known) {
      quote = find_byte(data_, pos_, size_, '"');
      quote_known = true;
    }
    const size_t backslash = find_byte(data_, pos_, quote, '\\');
    line_ += count_newlines(data_, pos_, backslash);
    if (backslash < quote) {
      pos_ = backslash + 1;  // the escaped byte
      if (pos_ >= size_ && !refill()) break;
      if (data_[pos_] == '\n') ++line_;
      if (pos_ >= quote) quote_known = false;  // it was that quote, or none was loaded yet
      ++pos_;
      continue;
    }
    if (quote < size_) {
      pos_ = quote + 1;
      return;
    }
    pos_ = size_;
    quote_known = false;
    if (!refill()) break;
  }
  fail_at(start_line, "a string starting on this line never ends (the file is truncated?)");
}

void JsonArrayScanner::skip_container() {
  const uint64_t start_line = line_;
  closers_.clear();
  closers_.push_back(data_[pos_++] == '{' ? '}' : ']');
  for (;;) {
    while (pos_ < size_) {
      const char c = data_[pos_++];
      switch (c) {
        case '"':
          skip_string_body();
          break;
        case '{':
          closers_.push_back('}');
          break;
        case '[':
          closers_.push_back(']');
          break;
        case '}':
        case ']':
          if (c != closers_.back())
            fail(std::string("'") + c + "' closes a bracket that needs '" + closers_.back() + "'");
          closers_.pop_back();
          if (closers_.empty()) return;
          break;
        case '\n':
          ++line_;
          break;
        default:
          break;
      }
    }
    if (!refill())
      fail_at(start_line, "a value starting on this line never ends (the file is truncated?)");
  }
}

void JsonArrayScanner::skip_scalar() {
  while (is_scalar_char(peek())) ++pos_;
}

void JsonArrayScanner::skip_value() {
  const int c = peek();
  if (c == '"') {
    ++pos_;
    skip_string_body();
  } else if (c == '{' || c == '[') {
    skip_container();
  } else if (is_scalar_char(c)) {
    skip_scalar();
  } else {
    fail("expected a JSON value, found " + describe(c));
  }
}

std::string JsonArrayScanner::read_key() {
  const int c = peek();
  if (c != '"') fail("expected a quoted key, found " + describe(c));
  const size_t start = pos_++;
  skip_string_body();
  const std::string_view token(data_ + start, pos_ - start);
  std::optional<std::string> key = unescape(token);
  if (!key) fail("invalid string " + std::string(token));
  return *key;
}

bool JsonArrayScanner::read_member(bool examples_seen) {
  skip_whitespace();
  const std::string key = read_key();
  skip_whitespace();
  if (const int c = peek(); c != ':') fail("expected ':' after \"" + key + "\", found " + describe(c));
  ++pos_;
  skip_whitespace();
  if (key == "examples") {
    if (examples_seen) fail("\"examples\" appears twice in the root object");
    if (const int c = peek(); c != '[') fail("\"examples\" must be an array, found " + describe(c));
    ++pos_;
    release_scanned();
    return true;
  }
  const size_t start = pos_;
  skip_value();
  if (key == "name" || key == "description") {
    const std::string_view token(data_ + start, pos_ - start);
    if (token.front() == '"') {
      std::optional<std::string> text = unescape(token);
      if (!text) fail("\"" + key + "\" is not a valid JSON string");
      (key == "name" ? fields_.name : fields_.description) = std::move(text);
    } else if (token != "null") {
      fail("\"" + key + "\" must be a string");
    }
  }
  release_scanned();
  return false;
}

bool JsonArrayScanner::next_element(std::string* element, uint64_t& line) {
  if (examples_done_) return false;
  skip_whitespace();
  int c = peek();
  if (c == kEnd) fail("the file ends inside the examples array (truncated?)");
  if (!first_element_ && c == ',') {
    ++pos_;
    skip_whitespace();
    c = peek();
    if (c == ']') fail("a comma after the last example is not valid JSON");
  } else if (c == ']') {
    ++pos_;
    examples_done_ = true;
    release_scanned();
    return false;
  } else if (!first_element_) {
    fail("expected ',' or ']' after an example, found " + describe(c));
  }
  if (c == kEnd) fail("the file ends inside the examples array (truncated?)");
  first_element_ = false;
  release_scanned();
  line = line_;
  skip_value();
  if (element != nullptr) element->assign(data_, pos_);
  release_scanned();
  return true;
}

void JsonArrayScanner::finish() {
  if (finished_) return;
  uint64_t element_line = 0;
  while (next_element(nullptr, element_line)) {
  }
  finished_ = true;
  if (!fields_.root_is_array) {
    for (;;) {
      skip_whitespace();
      const int c = peek();
      if (c == '}') {
        ++pos_;
        break;
      }
      if (c != ',') fail("expected ',' or '}' after the examples array, found " + describe(c));
      ++pos_;
      read_member(true);
    }
  }
  skip_whitespace();
  if (const int c = peek(); c != kEnd) fail("unexpected " + describe(c) + " after the end of the root value");
}

}  // namespace krino::files
