#include "krino/core/shard/shard_file.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/text_number.hpp"
#include "krino/core/common/json_scan.hpp"

#include <krino/json_spans.hpp>

#include <cstring>

namespace krino::core {
namespace {

bool known_event(const std::string& e) {
  return e == "run_started" || e == "item_finished" || e == "run_finished" || e == "experiment_finished";
}

}  // namespace

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
    std::optional<std::string_view> schema, event, run_index, index;
    krino::json::for_each_member(line_, [&](std::string_view key, std::string_view value) {
      if (krino::json::key_equals(key, "schema")) schema = value;
      else if (krino::json::key_equals(key, "event")) event = value;
      else if (krino::json::key_equals(key, "run_index")) run_index = value;
      else if (krino::json::key_equals(key, "index")) index = value;
      return true;
    });
    if (!schema || krino::json::key_text(*schema) != "krino.event/1")
      throw runtime_error(where() + ": not a krino.event/1 line (\"schema\" is " +
                          (schema ? std::string(*schema) : std::string("missing")) + ")");
    event_ = event ? krino::json::key_text(*event) : std::string();
    if (!known_event(event_)) continue;  // events added later are not this merge's business
    run_index_.reset();
    if (run_index && *run_index != "null") {
      run_index_ = parse_whole_number<uint32_t>(*run_index);
      if (!run_index_) throw runtime_error(where() + ": \"run_index\" is not a run number");
    }
    if (event_ == "item_finished") {
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
