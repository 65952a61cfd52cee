#include "krino/core/runner/resume_source.hpp"

#include "krino/core/common/error.hpp"

#include <krino/event/event_head.hpp>
#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>

namespace krino::core {
namespace {

using krino::event::EventKind;

uint64_t item_index(std::string_view line, const std::string& where) {
  const auto token = krino::json::find_member(line, "index");
  std::optional<uint64_t> index;
  if (token) index = krino::event::read_whole<uint64_t>(*token, "index");
  if (!index) throw runtime_error(where + ": an item_finished event without an 'index'");
  return *index;
}

bool is_error(std::string_view line) {
  const auto token = krino::json::find_member(line, "error");
  return token && *token != "null";
}

std::string describe(const krino::event::RunFingerprint& f) {
  std::string text = "settings " + f.experiment.substr(0, 19) + "...";
  if (f.dataset_bytes) text += ", a dataset of " + std::to_string(*f.dataset_bytes) + " bytes";
  return text;
}

}  // namespace

ResumeSource::ResumeSource(std::string path, const krino::event::RunFingerprint& expected,
                           const std::optional<krino::event::ShardInfo>& shard, bool retry_errors)
    : path_(std::move(path)), retry_errors_(retry_errors) {
  in_.open(path_, std::ios::binary);
  if (!in_) throw config_error("cannot read the report to resume, '" + path_ + "'");
  // First pass: where the last experiment starts, and whether its runs match this experiment.
  std::streamoff last_start = -1;
  uint64_t last_start_line = 0;
  std::optional<krino::event::RunFingerprint> found;
  std::optional<krino::event::ShardInfo> found_shard;
  bool missing_fingerprint = false;
  std::streamoff offset = 0;
  uint64_t number = 0;
  std::string text;
  while (std::getline(in_, text)) {
    ++number;
    const std::streamoff line_start = offset;
    offset += static_cast<std::streamoff>(text.size()) + 1;
    if (in_.eof()) break;  // torn: written only in part
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    krino::event::EventHead head;
    try {
      head = krino::event::read_event_head(text);
    } catch (const std::exception& e) {
      throw config_error(where(number) + ": not a krino event (" + e.what() + "); give the json reporter's output");
    }
    if (head.kind != EventKind::run_started) continue;
    const krino::event::RunStarted started = krino::event::read_run_started(text);
    if (started.run_index == 0) {
      last_start = line_start;
      last_start_line = number;
      found.reset();
      missing_fingerprint = false;
    }
    if (!started.fingerprint) missing_fingerprint = true;
    else found = started.fingerprint;
    found_shard = started.shard;
  }
  if (last_start < 0)
    throw config_error("'" + path_ + "' holds no run_started event: it is not a krino run's JSON Lines report");
  if (missing_fingerprint || !found)
    throw config_error(where(last_start_line) +
                       ": the run has no fingerprint (written by an older krino), so it cannot be checked against "
                       "this experiment and is not resumed");
  const bool same_settings = found->experiment == expected.experiment;
  const bool same_size = !found->dataset_bytes || !expected.dataset_bytes || *found->dataset_bytes == *expected.dataset_bytes;
  if (!same_settings || !same_size)
    throw config_error("'" + path_ + "' is the report of a different " + (same_settings ? "dataset" : "experiment") +
                       " (" + describe(*found) + "; this run has " + describe(expected) +
                       "); resume with the experiment and dataset that wrote it, or start a new run");
  const auto shard_text = [](const std::optional<krino::event::ShardInfo>& s) {
    return s ? "shard " + std::to_string(s->index) + "/" + std::to_string(s->count) : std::string("the whole dataset");
  };
  const bool same_shard = found_shard.has_value() == shard.has_value() &&
                          (!shard || (found_shard->index == shard->index && found_shard->count == shard->count));
  if (!same_shard)
    throw config_error("'" + path_ + "' is the report of " + shard_text(found_shard) + ", and this run evaluates " +
                       shard_text(shard) + "; resume a shard with its own --shard K/N");
  in_.clear();
  in_.seekg(last_start);
  next_line_number_ = last_start_line;
}

std::string ResumeSource::where(uint64_t line) const { return path_ + ":" + std::to_string(line); }

std::optional<ResumeSource::Line> ResumeSource::read_line() {
  if (pending_) return std::exchange(pending_, std::nullopt);
  Line line;
  while (std::getline(in_, line.text)) {
    line.number = next_line_number_++;
    if (in_.eof()) return std::nullopt;  // torn last line
    if (line.text.find_first_not_of(" \t\r") == std::string::npos) continue;
    return line;
  }
  return std::nullopt;
}

void ResumeSource::start_run(uint32_t run_index) {
  run_ = run_index;
  run_present_ = false;
  while (auto line = read_line()) {
    const krino::event::EventHead head = krino::event::read_event_head(line->text);
    if (head.kind != EventKind::run_started || !head.run_index) continue;
    if (*head.run_index == run_index) {
      run_present_ = true;
      return;
    }
    if (*head.run_index > run_index) {  // the report never started this run: keep the later one for later
      pending_ = std::move(line);
      return;
    }
  }
}

std::optional<std::string> ResumeSource::take(uint64_t index) {
  if (!run_present_) return std::nullopt;
  while (auto line = read_line()) {
    const krino::event::EventHead head = krino::event::read_event_head(line->text);
    if (head.kind == EventKind::run_started) {  // the current run's items are over
      pending_ = std::move(line);
      run_present_ = false;
      return std::nullopt;
    }
    if (head.kind != EventKind::item_finished || head.run_index != run_) continue;
    const uint64_t at = item_index(line->text, where(line->number));
    if (at < index) continue;  // not an item of this run any more (another shard's, say)
    if (at > index) {
      pending_ = std::move(line);
      return std::nullopt;
    }
    if (retry_errors_ && is_error(line->text)) return std::nullopt;
    ++kept_;
    return std::move(line->text);
  }
  run_present_ = false;
  return std::nullopt;
}

}  // namespace krino::core
