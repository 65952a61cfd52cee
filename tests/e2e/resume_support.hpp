#pragma once
// What resume tests compare: a report's items (run, index and the line as written) and its final
// summaries, read from the JSON Lines file a run wrote.
#include "process.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>

namespace krino::test {

struct ReportContent {
  std::map<std::pair<uint64_t, uint64_t>, int> item_counts;  // (run, index) -> lines
  std::map<std::pair<uint64_t, uint64_t>, bool> success;
  std::string experiment_summary;  // serialised, durations left out
  std::string run_statuses;        // "completed,completed"
  uint64_t lines = 0;
};

// Durations differ between two runs of the same items; everything else must not.
inline void drop_durations(boost::json::value& v) {
  if (auto* o = v.if_object()) {
    for (const char* key : {"durationMs", "latencyMs", "latency"}) o->erase(key);
    for (auto& member : *o) drop_durations(member.value());
  } else if (auto* a = v.if_array()) {
    for (auto& e : *a) drop_durations(e);
  }
}

inline ReportContent read_report(const std::string& path) {
  ReportContent content;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    ++content.lines;
    boost::json::object e = boost::json::parse(line).as_object();
    const auto kind = e.at("event").as_string();
    if (kind == "item_finished") {
      const auto key = std::make_pair(e.at("run_index").to_number<uint64_t>(), e.at("index").to_number<uint64_t>());
      ++content.item_counts[key];
      content.success[key] = e.at("success").as_bool();
    } else if (kind == "run_finished") {
      if (!content.run_statuses.empty()) content.run_statuses += ',';
      content.run_statuses += std::string(e.at("status").as_string());
    } else if (kind == "experiment_finished") {
      boost::json::value summary = e.at("summary");
      drop_durations(summary);
      content.experiment_summary = boost::json::serialize(summary);
    }
  }
  return content;
}

}  // namespace krino::test
