#include "krino/core/server_api/item_batch.hpp"

#include "krino/core/common/json_scan.hpp"

#include <krino/event/values.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_spans.hpp>

#include <cmath>

namespace krino::core::server_api {

namespace {

using krino::event::DecodeError;

constexpr std::size_t kMaxDepth = 64;

// Raised inside the reader with the path so far; becomes the BatchProblem.
struct Problem {
  std::string field;
  std::string message;
};

std::string_view kind_of(std::string_view token) {
  if (token.empty()) return "missing";
  switch (token.front()) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return "a number";
  }
}

void expect(std::string_view token, std::string_view kind, const std::string& field) {
  if (kind_of(token) != kind) throw Problem{field, "must be " + std::string(kind) + ", not " + std::string(kind_of(token))};
}

std::optional<std::string_view> member(std::string_view object, std::string_view key) {
  return krino::json::find_member(object, key);
}

// An optional member that must be `kind` when present (null counts as absent).
std::optional<std::string_view> optional_member(std::string_view object, std::string_view key, std::string_view kind, const std::string& field) {
  const auto value = member(object, key);
  if (!value || *value == "null") return std::nullopt;
  expect(*value, kind, field);
  return value;
}

double number_of(std::string_view token, const std::string& field) {
  expect(token, "a number", field);
  const double value = krino::event::read_number(token, field).value_or(0.0);
  // 1e400 would be kept as text but summed as infinity.
  if (!std::isfinite(value)) throw Problem{field, "is out of the range of a double"};
  return value;
}

// Of two members with one key, which was meant cannot be known: refused where krino reads one.
void refuse_repeated_keys(std::string_view object, const std::string& field) {
  if (krino::json::has_repeated_key(object)) throw Problem{field, "has a key twice"};
}

std::optional<std::int64_t> count_of(std::string_view object, std::string_view key, const std::string& field) {
  const auto token = optional_member(object, key, "a number", field);
  if (!token) return std::nullopt;
  try {
    const auto value = krino::event::read_whole<std::int64_t>(*token, key);
    if (value && *value < 0) throw Problem{field, "must not be negative"};
    return value;
  } catch (const DecodeError&) {
    throw Problem{field, "must be a whole number"};
  }
}

std::optional<double> amount_of(std::string_view object, std::string_view key, const std::string& field) {
  const auto token = optional_member(object, key, "a number", field);
  if (!token) return std::nullopt;
  return number_of(*token, field);
}

void read_metrics(std::string_view object, const std::string& path, krino::event::CallMetrics& metrics) {
  if (auto value = count_of(object, "tokensIn", path + ".tokensIn")) metrics.tokens_in = value;
  if (auto value = count_of(object, "tokensOut", path + ".tokensOut")) metrics.tokens_out = value;
  if (auto value = amount_of(object, "costUsd", path + ".costUsd")) metrics.cost_usd = value;
  if (auto value = amount_of(object, "latencyMs", path + ".latencyMs")) metrics.latency_ms = value;
}

store::NewResult read_result(std::string_view result, const std::string& path) {
  expect(result, "an object", path);
  refuse_repeated_keys(result, path);
  store::NewResult read;
  const auto name = member(result, "name");
  if (!name) throw Problem{path + ".name", "is required"};
  expect(*name, "a string", path + ".name");
  read.name = krino::json::string_token_text(*name);
  if (read.name.empty()) throw Problem{path + ".name", "must not be empty"};
  const auto score = member(result, "score");
  if (score && *score != "null") read.score = number_of(*score, path + ".score");
  if (const auto threshold = optional_member(result, "threshold", "a number", path + ".threshold"))
    read.threshold = number_of(*threshold, path + ".threshold");
  const auto success = member(result, "success");
  if (!success) throw Problem{path + ".success", "is required"};
  expect(*success, "a boolean", path + ".success");
  read.success = *success == "true";
  optional_member(result, "reason", "a string", path + ".reason");
  optional_member(result, "metadata", "an object", path + ".metadata");
  return read;
}

store::NewItem read_item(std::string_view item, const std::string& path) {
  expect(item, "an object", path);
  refuse_repeated_keys(item, path);
  store::NewItem read;
  read.document = krino::json::compact_text(item);
  for (const char* section : {"inputs", "expectedOutputs", "actualOutputs", "metadata"})
    optional_member(item, section, "an object", path + "." + section);
  const auto success = member(item, "success");
  if (!success) throw Problem{path + ".success", "is required"};
  expect(*success, "a boolean", path + ".success");
  read.success = *success == "true";
  if (const auto id = optional_member(item, "datasetItemId", "a string", path + ".datasetItemId"))
    read.dataset_item_id = krino::json::string_token_text(*id);
  read_metrics(item, path, read.metrics);
  if (const auto metrics = optional_member(item, "metrics", "an object", path + ".metrics")) {
    refuse_repeated_keys(*metrics, path + ".metrics");
    read_metrics(*metrics, path + ".metrics", read.metrics);
  }
  if (const auto results = optional_member(item, "evalResults", "an array", path + ".evalResults")) {
    std::size_t index = 0;
    krino::event::for_each_element(*results, "evalResults", [&](std::string_view result) {
      read.results.push_back(read_result(result, path + ".evalResults[" + std::to_string(index++) + "]"));
    });
  }
  return read;
}

}  // namespace

std::variant<std::vector<store::NewItem>, BatchProblem> read_item_batch(std::string_view body) {
  // One validating pass first, without building the batch in memory: the span readers below
  // trust that the text is JSON.
  if (!is_json_object(body, kMaxDepth)) return BatchProblem{"body", "must be one JSON object (valid JSON, nested at most 64 deep)"};
  try {
    refuse_repeated_keys(body, "body");
    const auto items = member(body, "items");
    if (!items) throw Problem{"items", "is required"};
    expect(*items, "an array", "items");
    std::vector<store::NewItem> read;
    std::size_t index = 0;
    krino::event::for_each_element(*items, "items", [&](std::string_view item) {
      read.push_back(read_item(item, "items[" + std::to_string(index++) + "]"));
    });
    if (read.empty()) throw Problem{"items", "must not be empty"};
    return read;
  } catch (const Problem& found) {
    return BatchProblem{found.field, found.message};
  }
}

}  // namespace krino::core::server_api
