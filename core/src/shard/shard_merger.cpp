#include "krino/core/shard/shard_merger.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/shard/item_line.hpp"
#include "krino/core/shard/shard_file.hpp"
#include "krino/core/statistics/experiment_statistics.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <queue>

namespace krino::core {
namespace json = boost::json;

namespace {

// What a shard's first line says about it, checked against the other shards.
struct ShardHeader {
  uint32_t index = 0;
  uint32_t count = 0;
  std::string experiment;
  uint32_t runs = 0;
  std::vector<std::string> evaluators;
};

json::object parse_line(const ShardFile& file) {
  boost::system::error_code ec;
  json::value v = json::parse(file.line(), ec);
  if (ec || !v.is_object()) throw runtime_error(file.where() + ": not a JSON object");
  return std::move(v.as_object());
}

std::string string_member(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

ShardHeader read_header(const ShardFile& file) {
  if (file.event() != "run_started" || file.run_index() != 0u)
    throw runtime_error(file.where() + ": expected the run_started event of run 0; is this a complete krino.event/1 file?");
  const json::object started = parse_line(file);
  const auto* shard = started.if_contains("shard");
  if (shard == nullptr || !shard->is_object())
    throw usage_error(file.path() + " was not written by a sharded run (its run_started has no \"shard\"); "
                      "krino merge combines the outputs of `krino run --shard K/N`");
  ShardHeader h;
  const auto& s = shard->get_object();
  if (!s.contains("index") || !s.contains("count") || !s.at("index").is_number() || !s.at("count").is_number())
    throw runtime_error(file.where() + ": \"shard\" needs a numeric \"index\" and \"count\"");
  h.index = s.at("index").to_number<uint32_t>();
  h.count = s.at("count").to_number<uint32_t>();
  if (h.count == 0 || h.index == 0 || h.index > h.count)
    throw runtime_error(file.where() + ": shard " + std::to_string(h.index) + "/" + std::to_string(h.count) + " is not a valid shard");
  if (const auto* e = started.if_contains("experiment"); e != nullptr && e->is_object())
    h.experiment = string_member(e->get_object(), "name");
  if (const auto* r = started.if_contains("runs"); r != nullptr && r->is_number()) h.runs = r->to_number<uint32_t>();
  if (h.runs == 0) throw runtime_error(file.where() + ": run_started has no \"runs\"");
  if (const auto* evs = started.if_contains("evaluators"); evs != nullptr && evs->is_array()) {
    for (const auto& ev : evs->get_array()) {
      if (ev.is_object()) h.evaluators.push_back(string_member(ev.get_object(), "name"));
    }
  }
  return h;
}

std::string shard_name(uint32_t index, uint32_t count) { return std::to_string(index) + "/" + std::to_string(count); }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return "[" + out + "]";
}

class Merger {
 public:
  Merger(const MergeOptions& options, std::ostream& out) : options_(options), out_(out) {}

  MergeReport run() {
    open_and_check();
    ExperimentStatistics statistics(header_.evaluators);
    for (uint32_t r = 0; r < header_.runs; ++r) merge_run(r, statistics);
    finish_experiment(statistics);
    return std::move(report_);
  }

 private:
  void open_and_check() {
    if (options_.inputs.empty()) throw usage_error("krino merge needs the shards' files");
    std::vector<std::pair<ShardHeader, std::unique_ptr<ShardFile>>> opened;
    for (const auto& path : options_.inputs) {
      auto file = std::make_unique<ShardFile>(path);
      if (!file->advance()) throw runtime_error(path + " holds no krino.event/1 events");
      ShardHeader h = read_header(*file);
      if (!opened.empty()) {
        const ShardHeader& first = opened.front().first;
        const std::string& first_path = opened.front().second->path();
        const std::string both = " (" + first_path + " and " + path + ")";
        if (h.experiment != first.experiment)
          throw usage_error("the files are from different experiments, '" + first.experiment + "' and '" + h.experiment + "'" + both);
        if (h.count != first.count)
          throw usage_error("the files were split into different numbers of shards, " + std::to_string(first.count) +
                            " and " + std::to_string(h.count) + both);
        if (h.runs != first.runs)
          throw usage_error("the files have different run counts, " + std::to_string(first.runs) + " and " +
                            std::to_string(h.runs) + both);
        if (h.evaluators != first.evaluators)
          throw usage_error("the files have different evaluators, " + joined(first.evaluators) + " and " +
                            joined(h.evaluators) + both);
      }
      for (const auto& [other, other_file] : opened) {
        if (other.index == h.index)
          throw usage_error("shard " + shard_name(h.index, h.count) + " is given twice: " + other_file->path() + " and " + path);
      }
      opened.emplace_back(std::move(h), std::move(file));
    }
    std::sort(opened.begin(), opened.end(), [](const auto& a, const auto& b) { return a.first.index < b.first.index; });
    header_ = opened.front().first;
    report_.shard_count = header_.count;
    report_.runs = header_.runs;
    for (uint32_t k = 1, next = 0; k <= header_.count; ++k) {
      if (next < opened.size() && opened[next].first.index == k) ++next;
      else report_.missing.push_back(k);
    }
    if (!report_.missing.empty() && !options_.allow_missing) {
      std::string list;
      for (uint32_t k : report_.missing) list += (list.empty() ? "" : ", ") + shard_name(k, header_.count);
      throw usage_error("missing shard" + std::string(report_.missing.size() > 1 ? "s " : " ") + list +
                        ": pass every shard's file (or --allow-missing to merge the others, marked as incomplete)");
    }
    for (auto& [h, file] : opened) shards_.push_back(std::move(file));
  }

  // A completed run_finished / experiment_finished of the merged file.
  json::object finished_event(std::string_view event, json::value run_index, double duration_ms,
                              json::object summary) const {
    json::object finished;
    finished["event"] = event;
    finished["schema"] = "krino.event/1";
    finished["run_index"] = std::move(run_index);
    finished["status"] = "completed";
    finished["durationMs"] = duration_ms;
    finished["summary"] = std::move(summary);
    finished["merged"] = merged_info();
    return finished;
  }

  json::object merged_info() const {
    json::array missing;
    for (uint32_t k : report_.missing) missing.push_back(k);
    return json::object{{"count", header_.count}, {"missing", std::move(missing)}};
  }

  void write(std::string_view line) {
    out_.write(line.data(), static_cast<std::streamsize>(line.size()));
    out_.put('\n');
  }

  void expect(const ShardFile& file, const char* event, std::optional<uint32_t> run_index) {
    if (file.event() == event && file.run_index() == run_index) return;
    std::string wanted = std::string(event) + (run_index ? " of run " + std::to_string(*run_index) : std::string());
    if (file.event().empty())
      throw runtime_error(file.path() + " ends before " + wanted + ": the shard did not finish; run it again");
    throw runtime_error(file.where() + ": expected " + wanted + ", found " + file.event() +
                        (file.run_index() ? " of run " + std::to_string(*file.run_index()) : std::string()));
  }

  static void require_completed(const ShardFile& file, const json::object& finished) {
    const std::string status = string_member(finished, "status");
    if (status != "completed")
      throw runtime_error(file.where() + ": the shard's run ended \"" + status + "\"; run that shard again before merging");
  }

  static double duration_of(const json::object& finished) {
    const auto* d = finished.if_contains("durationMs");
    return d != nullptr && d->is_number() ? d->to_number<double>() : 0.0;
  }

  void merge_run(uint32_t run, ExperimentStatistics& statistics) {
    // run_started: the first shard's, at the earliest shard's time, without its shard.
    json::object started;
    std::string timestamp;
    for (auto& shard : shards_) {
      expect(*shard, "run_started", run);
      json::object event = parse_line(*shard);
      const std::string t = string_member(event, "timestamp");
      if (timestamp.empty() || (!t.empty() && t < timestamp)) timestamp = t;
      if (started.empty()) started = std::move(event);
    }
    started.erase("shard");
    if (!timestamp.empty()) started["timestamp"] = timestamp;
    started["merged"] = merged_info();
    write(::krino::json::to_compact_json(started));

    // Items: a k-way merge on the global dataset index.
    RunStatistics run_stats(header_.evaluators);
    using Head = std::pair<uint64_t, size_t>;  // (index, shard)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    auto pull = [&](size_t s) {
      ShardFile& file = *shards_[s];
      const bool had_item = file.event() == "item_finished";
      const uint64_t previous = file.index();
      file.advance();
      if (file.event() != "item_finished") return;
      if (file.run_index() != run) expect(file, "run_finished", run);
      if (had_item && file.index() <= previous)
        throw runtime_error(file.where() + ": item " + std::to_string(file.index()) + " comes after item " +
                            std::to_string(previous) + "; a shard file must be in dataset order, as krino writes it");
      heads.emplace(file.index(), s);
    };
    for (size_t s = 0; s < shards_.size(); ++s) pull(s);
    std::optional<std::pair<uint64_t, size_t>> last;
    while (!heads.empty()) {
      const auto [index, s] = heads.top();
      heads.pop();
      const ShardFile& file = *shards_[s];
      if (last && last->first == index)
        throw usage_error("item " + std::to_string(index) + " of run " + std::to_string(run) + " is in two shards (" +
                          shards_[last->second]->path() + " and " + file.where() +
                          "); were they run with different datasets or krino versions?");
      const ItemLine item = read_item_line(file.line());
      run_stats.add_item(item.success, item.error, item.scores);
      run_stats.add_judge(item.judge, item.judge_by_evaluator);
      write(file.line());
      ++report_.items;
      last = Head{index, s};
      pull(s);
    }

    // run_finished: recomputed from the merged items; the longest shard's duration.
    double duration = 0.0;
    for (auto& shard : shards_) {
      expect(*shard, "run_finished", run);
      const json::object finished = parse_line(*shard);
      require_completed(*shard, finished);
      duration = std::max(duration, duration_of(finished));
      shard->advance();
    }
    write(::krino::json::to_compact_json(finished_event("run_finished", run, duration, run_stats.summary())));
    statistics.add_run(run_stats);
  }

  void finish_experiment(const ExperimentStatistics& statistics) {
    double duration = 0.0;
    for (auto& shard : shards_) {
      expect(*shard, "experiment_finished", std::nullopt);
      const json::object finished = parse_line(*shard);
      require_completed(*shard, finished);
      duration = std::max(duration, duration_of(finished));
      if (shard->advance())
        throw usage_error(shard->where() + ": more events after experiment_finished; krino merge takes one experiment "
                                           "per file (was the shard written with append: true?)");
    }
    json::object finished = finished_event("experiment_finished", nullptr, duration, statistics.summary());
    write(::krino::json::to_compact_json(finished));
    report_.summary = finished["summary"].as_object();
  }

  const MergeOptions& options_;
  std::ostream& out_;
  ShardHeader header_;
  std::vector<std::unique_ptr<ShardFile>> shards_;  // by shard index
  MergeReport report_;
};

}  // namespace

MergeReport merge_shards(const MergeOptions& options, std::ostream& out) { return Merger(options, out).run(); }

MergeReport merge_shard_files(const MergeOptions& options, const std::string& output) {
  if (output == "-") {
    MergeReport report = merge_shards(options, std::cout);
    std::cout.flush();
    return report;
  }
  namespace fs = std::filesystem;
  const fs::path target(output);
  std::error_code ec;
  for (const auto& input : options.inputs) {
    if (fs::equivalent(target, input, ec))
      throw usage_error("the output " + output + " is also an input; write the merged file elsewhere");
  }
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const fs::path partial = target.string() + ".partial-" + std::to_string(::getpid());
  try {
    MergeReport report;
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      if (!out) throw runtime_error("cannot write " + partial.string() + ": " + std::strerror(errno));
      report = merge_shards(options, out);
      out.flush();
      if (!out) throw runtime_error("writing " + partial.string() + " failed: " + std::strerror(errno));
    }
    fs::rename(partial, target);
    return report;
  } catch (...) {
    fs::remove(partial, ec);
    throw;
  }
}

}  // namespace krino::core
