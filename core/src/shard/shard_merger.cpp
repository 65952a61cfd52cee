#include "krino/core/shard/shard_merger.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/shard/shard_file.hpp"
#include "krino/core/statistics/experiment_statistics.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json.hpp>
#include <krino/event/item_finished.hpp>
#include <krino/event/run_finished.hpp>
#include <krino/event/run_started.hpp>
#include <krino/io/atomic_file.hpp>
#include <krino/json_spans.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <queue>
#include <streambuf>

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

// Reads one line of `file` with the event codec; a line that does not read is an error naming it.
template <class Event, class Read>
Event read_line(const ShardFile& file, Read&& read) {
  try {
    return read(std::string_view(file.line()));
  } catch (const krino::event::DecodeError& e) {
    throw runtime_error(file.where() + ": " + e.what());
  }
}

krino::event::RunStarted read_started(const ShardFile& file) {
  return read_line<krino::event::RunStarted>(file, [](std::string_view l) { return krino::event::read_run_started(l); });
}

krino::event::Finished read_finished_line(const ShardFile& file) {
  return read_line<krino::event::Finished>(file, [](std::string_view l) { return krino::event::read_finished(l); });
}

ShardHeader read_header(const ShardFile& file) {
  if (file.event() != "run_started" || file.run_index() != 0u)
    throw runtime_error(file.where() + ": expected the run_started event of run 0; is this a complete krino.event/1 file?");
  if (!krino::json::find_member(file.line(), "shard"))
    throw usage_error(file.path() + " was not written by a sharded run (its run_started has no \"shard\"); "
                      "krino merge combines the outputs of `krino run --shard K/N`");
  const krino::event::RunStarted started = read_started(file);
  if (!started.shard)
    throw usage_error(file.path() + " was not written by a sharded run (its run_started has no \"shard\"); "
                      "krino merge combines the outputs of `krino run --shard K/N`");
  ShardHeader h;
  h.index = started.shard->index;
  h.count = started.shard->count;
  if (h.count == 0 || h.index == 0 || h.index > h.count)
    throw runtime_error(file.where() + ": shard " + std::to_string(h.index) + "/" + std::to_string(h.count) + " is not a valid shard");
  h.experiment = started.experiment_name;
  h.runs = krino::json::find_member(file.line(), "runs") ? started.runs : 0;
  if (h.runs == 0) throw runtime_error(file.where() + ": run_started has no \"runs\"");
  for (const auto& ev : started.evaluators) h.evaluators.push_back(ev.name);
  return h;
}

std::string shard_name(uint32_t index, uint32_t count) { return std::to_string(index) + "/" + std::to_string(count); }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return "[" + out + "]";
}

// The merged file as an ostream's buffer, for merge_shards: it writes through the AtomicFile's own
// buffer, so this one keeps nothing.
class MergedFileBuffer : public std::streambuf {
 public:
  explicit MergedFileBuffer(krino::io::AtomicFile& file) : file_(file) {}

 protected:
  std::streamsize xsputn(const char* bytes, std::streamsize count) override {
    file_.write(std::string_view(bytes, static_cast<std::size_t>(count)));
    return count;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    file_.write(std::string_view(&byte, 1));
    return c;
  }

 private:
  krino::io::AtomicFile& file_;
};

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

  krino::event::MergedInfo merged_info() const { return krino::event::MergedInfo{header_.count, report_.missing}; }

  // A completed run_finished (run_index set) or experiment_finished of the merged file.
  void write_finished(std::optional<uint32_t> run_index, double duration_ms, const json::object& summary) {
    std::string line;
    krino::event::append_finished(line, run_index, false, duration_ms, summary, std::nullopt, merged_info());
    write(line);
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

  static void require_completed(const ShardFile& file, const krino::event::Finished& finished) {
    if (finished.status != "completed")
      throw runtime_error(file.where() + ": the shard's run ended \"" + finished.status + "\"; run that shard again before merging");
  }

  void merge_run(uint32_t run, ExperimentStatistics& statistics) {
    // run_started: the first shard's, at the earliest shard's time, without its shard.
    std::optional<krino::event::RunStarted> started;
    std::string timestamp;
    for (auto& shard : shards_) {
      expect(*shard, "run_started", run);
      krino::event::RunStarted event = read_started(*shard);
      if (timestamp.empty() || (!event.timestamp.empty() && event.timestamp < timestamp)) timestamp = event.timestamp;
      if (!started) started = std::move(event);
    }
    started->shard.reset();
    if (!timestamp.empty()) started->timestamp = timestamp;
    started->merged = merged_info();
    std::string line;
    krino::event::append_run_started(line, *started);
    write(line);

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
      run_stats.add_item(read_line<krino::event::ItemFinished>(
          file, [](std::string_view l) { return krino::event::read_item_finished(l, krino::event::ItemParts::head); }));
      write(file.line());
      ++report_.items;
      last = Head{index, s};
      pull(s);
    }

    // run_finished: recomputed from the merged items; the longest shard's duration.
    double duration = 0.0;
    for (auto& shard : shards_) {
      expect(*shard, "run_finished", run);
      const krino::event::Finished finished = read_finished_line(*shard);
      require_completed(*shard, finished);
      duration = std::max(duration, finished.duration_ms);
      shard->advance();
    }
    write_finished(run, duration, run_stats.summary());
    statistics.add_run(run_stats);
  }

  void finish_experiment(const ExperimentStatistics& statistics) {
    double duration = 0.0;
    for (auto& shard : shards_) {
      expect(*shard, "experiment_finished", std::nullopt);
      const krino::event::Finished finished = read_finished_line(*shard);
      require_completed(*shard, finished);
      duration = std::max(duration, finished.duration_ms);
      if (shard->advance())
        throw usage_error(shard->where() + ": more events after experiment_finished; krino merge takes one experiment "
                                           "per file (was the shard written with append: true?)");
    }
    report_.summary = statistics.summary();
    write_finished(std::nullopt, duration, report_.summary);
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
  try {
    krino::io::AtomicFile file(target);
    MergedFileBuffer buffer(file);
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);  // the writer's own error, with the path and the reason
    MergeReport report = merge_shards(options, out);
    file.commit();
    return report;
  } catch (const krino::Error& e) {
    throw runtime_error(e.what());
  }
}

}  // namespace krino::core
