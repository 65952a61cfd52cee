#include "krino/core/runner/result_line_writer.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

namespace krino::core {

void ResultLineWriter::on_item(const krino::event::ItemFinished& item) {
  all_passed_ = all_passed_ && item.success;
  if (item.error) {
    const boost::json::object line{{"line", item.index + 1},
                                   {"error", boost::json::object{{"code", item.error->code}, {"message", item.error->message}}}};
    buffer_ += ::krino::json::to_compact_json(line);
  } else if (!item.results.empty()) {
    buffer_ += item.results.front().json;
  }
  buffer_ += '\n';
  if (buffer_.size() >= (1u << 16)) {
    std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
    buffer_.clear();
  }
}

void ResultLineWriter::finish() {
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  buffer_.clear();
  std::fflush(out_);
}

}  // namespace krino::core
