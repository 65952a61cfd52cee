#include "jsonl_stream.hpp"

#include "byte_scan.hpp"

#include <cstring>

namespace krino::files {
namespace {

bool is_blank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

}  // namespace

bool JsonlStream::next(std::string_view& line, uint64_t& line_number) {
  file_.consume(consume_on_next_);
  consume_on_next_ = 0;
  for (;;) {
    std::string_view window = file_.window();
    const void* newline = std::memchr(window.data() + searched_, '\n', window.size() - searched_);
    size_t length = 0;
    size_t advance = 0;
    if (newline != nullptr) {
      length = static_cast<size_t>(static_cast<const char*>(newline) - window.data());
      advance = length + 1;
    } else if (file_.read_more()) {
      searched_ = window.size();
      continue;
    } else if (!window.empty()) {
      length = window.size();  // the last line has no line break
      advance = length;
    } else {
      return false;
    }
    searched_ = 0;
    ++lines_read_;
    std::string_view text = window.substr(0, length);
    if (lines_read_ == 1 && text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
      text.remove_prefix(kByteOrderMark.size());
    }
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (is_blank(text)) {
      file_.consume(advance);
      continue;
    }
    consume_on_next_ = advance;
    line = text;
    line_number = lines_read_;
    return true;
  }
}

uint64_t count_jsonl_records(const std::string& path) {
  JsonlStream stream{BufferedFile(path)};
  std::string_view line;
  uint64_t line_number = 0;
  uint64_t count = 0;
  while (stream.next(line, line_number)) ++count;
  return count;
}

}  // namespace krino::files
