#include "krino/core/runner/result_line_writer.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

namespace krino::core {

void ResultLineWriter::on_item(const krino::event::ItemFinished& item) {
  std::string line;
  if (item.error) {
    const boost::json::object error{{"line", item.index + 1},
                                    {"error", boost::json::object{{"code", item.error->code}, {"message", item.error->message}}}};
    line = ::krino::json::to_compact_json(error);
  } else if (!item.results.empty()) {
    line = item.results.front().json;
  }
  line += '\n';
  std::lock_guard lock(mutex_);
  all_passed_ = all_passed_ && item.success;
  buffer_ += line;
  if (input_idle_) {
    write_out_locked();
  } else if (buffer_.size() >= (1u << 16)) {
    std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
    buffer_.clear();
  }
}

void ResultLineWriter::set_input_idle(bool idle) {
  std::lock_guard lock(mutex_);
  input_idle_ = idle;
  // Lines finished before the reader ran dry go out now; those still being scored go out as they
  // arrive (on_item sees input_idle_).
  if (idle) write_out_locked();
}

void ResultLineWriter::finish() {
  std::lock_guard lock(mutex_);
  write_out_locked();
}

void ResultLineWriter::write_out_locked() {
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  buffer_.clear();
  std::fflush(out_);
}

}  // namespace krino::core
