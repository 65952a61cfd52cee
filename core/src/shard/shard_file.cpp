#include "krino/core/shard/shard_file.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/text_number.hpp"
#include "krino/core/common/json_scan.hpp"

#include <krino/event/event_head.hpp>
#include <krino/json_spans.hpp>

#include <cstring>

namespace krino::core {
ShardFile::ShardFile(std::string path) : path_(std::move(path)), in_(path_, std::ios::binary) {
  if (!in_) throw runtime_error("cannot open " + path_ + ": " + std::strerror(errno));
}

bool ShardFile::advance() {
  while (std::getline(in_, line_)) {
    ++line_number_;
    if (in_.eof()) {
      throw runtime_error(where() + ": the last line is incomplete (the run was killed while writing); run this "
                                    "shard again");
    }
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    if (!is_json_object(line_)) throw runtime_error(where() + ": not a JSON object; is this a krino.event/1 file?");
    krino::event::EventHead head;
    try {
      head = krino::event::read_event_head(line_);
    } catch (const krino::event::DecodeError&) {
      throw runtime_error(where() + ": \"run_index\" is not a run number");
    }
    if (!head.has_schema) {
      const auto schema = krino::json::find_member(line_, "schema");
      throw runtime_error(where() + ": not a krino.event/1 line (\"schema\" is " +
                          (schema ? std::string(*schema) : std::string("missing")) + ")");
    }
    event_ = std::string(head.name);
    if (head.kind == krino::event::EventKind::other) continue;  // events added later are not this merge's business
    run_index_ = head.run_index;
    if (head.kind == krino::event::EventKind::item_finished) {
      const auto index = krino::json::find_member(line_, "index");
      auto parsed = index ? parse_whole_number<uint64_t>(*index) : std::nullopt;
      if (!parsed || !run_index_) throw runtime_error(where() + ": an item_finished line without \"run_index\" and \"index\"");
      index_ = *parsed;
    }
    return true;
  }
  if (in_.bad()) throw runtime_error("reading " + path_ + " failed: " + std::strerror(errno));
  event_.clear();
  return false;
}

}  // namespace krino::core
