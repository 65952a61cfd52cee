#include "krino/core/runner/result_line_writer.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

namespace krino::core {

void ResultLineWriter::on_item(const krino::event::ItemFinished& item) {
  std::lock_guard lock(mutex_);
  all_passed_ = all_passed_ && item.success;
  if (item.error) {
    const boost::json::object line{{"line", item.index + 1},
                                   {"error", boost::json::object{{"code", item.error->code}, {"message", item.error->message}}}};
    buffer_ += ::krino::json::to_compact_json(line);
  } else if (!item.results.empty()) {
    buffer_ += item.results.front().json;
  }
  buffer_ += '\n';
  if (input_idle_ || buffer_.size() >= (1u << 16)) write_out_locked(input_idle_);
}

void ResultLineWriter::set_input_idle(bool idle) {
  std::lock_guard lock(mutex_);
  input_idle_ = idle;
  // Lines finished before the reader ran dry go out now; those still being scored go out as they
  // arrive (on_item sees input_idle_).
  if (idle) write_out_locked(true);
}

void ResultLineWriter::finish() {
  std::lock_guard lock(mutex_);
  write_out_locked(true);
}

void ResultLineWriter::write_out_locked(bool flush) {
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  buffer_.clear();
  if (flush) std::fflush(out_);
}

}  // namespace krino::core
