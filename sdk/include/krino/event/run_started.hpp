// The run_started event (docs/payloads.md): what a run is about to do. Its model, writer and
// reader. Header-only.
#ifndef KRINO_EVENT_RUN_STARTED_HPP
#define KRINO_EVENT_RUN_STARTED_HPP

#include <krino/event/values.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::event {

struct EvaluatorInfo {
  std::string name;
  std::string component;
  std::optional<double> threshold;
};

// The dataset as its resolver described it.
struct DatasetInfo {
  std::string uri;
  std::string name;
  std::string description;
  std::optional<uint64_t> size_hint;  // the number of records, when the resolver knows it cheaply
};

// Which shard of a sharded run wrote the event (`krino run --shard K/N`).
struct ShardInfo {
  uint32_t index = 0;  // 1-based
  uint32_t count = 0;
};

// What the run's results depend on, so that `krino run --resume` can tell the same experiment over
// the same dataset from a changed one: a digest of the experiment's settings, and the size of the
// dataset's file when it is a local file.
struct RunFingerprint {
  std::string experiment;               // "sha256:" and 64 hex digits
  std::optional<uint64_t> dataset_bytes;
};

// What `krino merge` adds to the events it writes: how many shards, and which were missing.
struct MergedInfo {
  uint32_t count = 0;
  std::vector<uint32_t> missing;
};

struct RunStarted {
  uint32_t run_index = 0;
  uint32_t runs = 1;
  std::string experiment_name;
  std::string experiment_description;
  boost::json::object experiment_metadata;
  DatasetInfo dataset;
  std::vector<EvaluatorInfo> evaluators;
  std::optional<uint64_t> parallelism;
  std::string timestamp;  // ISO 8601, UTC
  std::optional<ShardInfo> shard;
  std::optional<MergedInfo> merged;
  std::optional<RunFingerprint> fingerprint;
};

inline void append_shard(std::string& out, const ShardInfo& shard) {
  append_key(out, "shard");
  out += "{\"index\":";
  append_integer(out, shard.index);
  append_key(out, "count");
  append_integer(out, shard.count);
  out += '}';
}

inline void append_merged(std::string& out, const MergedInfo& merged) {
  append_key(out, "merged");
  out += "{\"count\":";
  append_integer(out, merged.count);
  append_key(out, "missing");
  out += '[';
  for (std::size_t i = 0; i < merged.missing.size(); ++i) {
    if (i > 0) out += ',';
    append_integer(out, merged.missing[i]);
  }
  out += "]}";
}

inline void append_fingerprint(std::string& out, const RunFingerprint& fingerprint) {
  append_key(out, "fingerprint");
  out += "{\"experiment\":";
  krino::json::append_json_string(out, fingerprint.experiment);
  append_key(out, "datasetBytes");
  append_optional(out, fingerprint.dataset_bytes);
  out += '}';
}

inline void append_run_started(std::string& out, const RunStarted& e) {
  out += R"({"event":"run_started","schema":"krino.event/1","run_index":)";
  append_integer(out, e.run_index);
  append_key(out, "runs");
  append_integer(out, e.runs);
  append_key(out, "experiment");
  out += "{\"name\":";
  krino::json::append_json_string(out, e.experiment_name);
  append_key(out, "description");
  krino::json::append_json_string(out, e.experiment_description);
  append_key(out, "metadata");
  krino::json::append_compact_json(out, e.experiment_metadata);
  out += '}';
  append_key(out, "dataset");
  out += "{\"uri\":";
  krino::json::append_json_string(out, e.dataset.uri);
  append_key(out, "name");
  krino::json::append_json_string(out, e.dataset.name);
  append_key(out, "description");
  krino::json::append_json_string(out, e.dataset.description);
  append_key(out, "sizeHint");
  append_optional(out, e.dataset.size_hint);
  out += '}';
  append_key(out, "evaluators");
  out += '[';
  for (std::size_t i = 0; i < e.evaluators.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"name\":";
    krino::json::append_json_string(out, e.evaluators[i].name);
    append_key(out, "component");
    krino::json::append_json_string(out, e.evaluators[i].component);
    append_key(out, "threshold");
    append_optional(out, e.evaluators[i].threshold);
    out += '}';
  }
  out += ']';
  append_key(out, "parallelism");
  append_optional(out, e.parallelism);
  append_key(out, "timestamp");
  krino::json::append_json_string(out, e.timestamp);
  if (e.shard) append_shard(out, *e.shard);
  if (e.merged) append_merged(out, *e.merged);
  if (e.fingerprint) append_fingerprint(out, *e.fingerprint);
  out += '}';
}

namespace detail {

inline std::optional<ShardInfo> read_shard(std::string_view value) {
  if (is_null(value)) return std::nullopt;
  if (value.front() != '{') wrong_type("shard", "an object");
  ShardInfo s;
  bool has_index = false, has_count = false;
  krino::json::for_each_member(value, [&](std::string_view key, std::string_view v) {
    if (krino::json::key_equals(key, "index")) has_index = (s.index = read_whole<uint32_t>(v, "shard.index").value_or(0), !is_null(v));
    else if (krino::json::key_equals(key, "count")) has_count = (s.count = read_whole<uint32_t>(v, "shard.count").value_or(0), !is_null(v));
    return true;
  });
  if (!has_index || !has_count) throw DecodeError("\"shard\" needs a numeric \"index\" and \"count\"");
  return s;
}

inline std::optional<MergedInfo> read_merged(std::string_view value) {
  if (is_null(value)) return std::nullopt;
  if (value.front() != '{') wrong_type("merged", "an object");
  MergedInfo m;
  krino::json::for_each_member(value, [&](std::string_view key, std::string_view v) {
    if (krino::json::key_equals(key, "count")) m.count = read_whole<uint32_t>(v, "merged.count").value_or(0);
    else if (krino::json::key_equals(key, "missing"))
      for_each_element(v, "merged.missing", [&](std::string_view k) {
        m.missing.push_back(read_whole<uint32_t>(k, "merged.missing[]").value_or(0));
      });
    return true;
  });
  return m;
}

inline std::optional<RunFingerprint> read_fingerprint(std::string_view value) {
  if (is_null(value)) return std::nullopt;
  if (value.front() != '{') wrong_type("fingerprint", "an object");
  RunFingerprint f;
  krino::json::for_each_member(value, [&](std::string_view key, std::string_view v) {
    if (krino::json::key_equals(key, "experiment")) f.experiment = read_string(v, "fingerprint.experiment").value_or("");
    else if (krino::json::key_equals(key, "datasetBytes")) f.dataset_bytes = read_whole<uint64_t>(v, "fingerprint.datasetBytes");
    return true;
  });
  return f;
}

}  // namespace detail

inline RunStarted read_run_started(std::string_view line) {
  RunStarted r;
  krino::json::for_each_member(line, [&](std::string_view key, std::string_view value) {
    using krino::json::key_equals;
    if (key_equals(key, "run_index")) {
      r.run_index = read_whole<uint32_t>(value, "run_index").value_or(0);
    } else if (key_equals(key, "runs")) {
      r.runs = read_whole<uint32_t>(value, "runs").value_or(1);
      if (r.runs == 0) r.runs = 1;
    } else if (key_equals(key, "experiment") && !detail::is_null(value)) {
      krino::json::for_each_member(value, [&](std::string_view k, std::string_view v) {
        if (key_equals(k, "name")) r.experiment_name = read_string(v, "experiment.name").value_or("");
        else if (key_equals(k, "description")) r.experiment_description = read_string(v, "experiment.description").value_or("");
        else if (key_equals(k, "metadata")) {
          boost::json::value metadata = read_document(v, "experiment.metadata");
          if (metadata.is_object()) r.experiment_metadata = std::move(metadata.get_object());
        }
        return true;
      });
    } else if (key_equals(key, "dataset") && !detail::is_null(value)) {
      krino::json::for_each_member(value, [&](std::string_view k, std::string_view v) {
        if (key_equals(k, "uri")) r.dataset.uri = read_string(v, "dataset.uri").value_or("");
        else if (key_equals(k, "name")) r.dataset.name = read_string(v, "dataset.name").value_or("");
        else if (key_equals(k, "description")) r.dataset.description = read_string(v, "dataset.description").value_or("");
        else if (key_equals(k, "sizeHint")) r.dataset.size_hint = read_whole<uint64_t>(v, "dataset.sizeHint");
        return true;
      });
    } else if (key_equals(key, "evaluators")) {
      for_each_element(value, "evaluators", [&](std::string_view entry) {
        EvaluatorInfo info;
        krino::json::for_each_member(entry, [&](std::string_view k, std::string_view v) {
          if (key_equals(k, "name")) info.name = read_string(v, "evaluators[].name").value_or("");
          else if (key_equals(k, "component")) info.component = read_string(v, "evaluators[].component").value_or("");
          else if (key_equals(k, "threshold")) info.threshold = read_number(v, "evaluators[].threshold");
          return true;
        });
        if (!info.name.empty()) r.evaluators.push_back(std::move(info));
      });
    } else if (key_equals(key, "parallelism")) {
      r.parallelism = read_whole<uint64_t>(value, "parallelism");
    } else if (key_equals(key, "timestamp")) {
      r.timestamp = read_string(value, "timestamp").value_or("");
    } else if (key_equals(key, "shard")) {
      r.shard = detail::read_shard(value);
    } else if (key_equals(key, "merged")) {
      r.merged = detail::read_merged(value);
    } else if (key_equals(key, "fingerprint")) {
      r.fingerprint = detail::read_fingerprint(value);
    }
    return true;
  });
  return r;
}

}  // namespace krino::event

#endif  // KRINO_EVENT_RUN_STARTED_HPP
