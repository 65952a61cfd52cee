#include "krino/core/server_api/item_batch.hpp"

#include "krino/core/common/json_scan.hpp"

#include <krino/event/values.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_spans.hpp>

#include <array>
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

// Where a value sits in the body ("items[3].evalResults[0].score"), spelt out only when something
// there is wrong: a batch of 10,000 items has some 200,000 places, and almost never a problem.
struct Path {
  const Path* parent = nullptr;
  std::string_view member;                   // ".member", or
  std::optional<std::size_t> index = std::nullopt;  // "[index]"; neither: the root, named by `member`

  std::string text() const {
    std::string out = parent != nullptr ? parent->text() : std::string();
    if (index) out.append("[").append(std::to_string(*index)).append("]");
    else if (parent != nullptr) out.append(".").append(member);
    else out.append(member);
    return out;
  }
  Path operator/(std::string_view name) const { return Path{this, name, std::nullopt}; }
  Path operator[](std::size_t i) const { return Path{this, {}, i}; }
};

[[noreturn]] void refuse(const Path& at, std::string message) { throw Problem{at.text(), std::move(message)}; }

void expect(std::string_view token, std::string_view kind, const Path& at) {
  if (kind_of(token) != kind) refuse(at, "must be " + std::string(kind) + ", not " + std::string(kind_of(token)));
}

// The members named in `keys` of the object `object`, found in one pass over it. A key written
// twice is refused (of two members with one key, which was meant cannot be known), and null counts
// as absent.
template <std::size_t N>
std::array<std::optional<std::string_view>, N> members_of(std::string_view object, const std::array<std::string_view, N>& keys,
                                                          const Path& at) {
  std::array<std::optional<std::string_view>, N> found{};
  constexpr std::size_t kOnStack = 32;
  std::array<std::string_view, kOnStack> seen{};
  std::vector<std::string_view> more;
  std::size_t count = 0;
  bool repeated = false;
  krino::json::for_each_member(object, [&](std::string_view key_token, std::string_view value) {
    for (std::size_t i = 0; i < count && !repeated; ++i) repeated = (i < kOnStack ? seen[i] : more[i - kOnStack]) == key_token;
    if (repeated) return false;
    if (count < kOnStack) seen[count] = key_token;
    else more.push_back(key_token);
    ++count;
    for (std::size_t k = 0; k < N; ++k)
      if (krino::json::key_equals(key_token, keys[k])) {
        if (value != "null") found[k] = value;
        break;
      }
    return true;
  });
  if (repeated) refuse(at, "has a key twice");
  return found;
}

// A member that must be `kind` when present.
std::optional<std::string_view> typed(const std::optional<std::string_view>& value, std::string_view kind, const Path& at) {
  if (value) expect(*value, kind, at);
  return value;
}

std::string_view required(const std::optional<std::string_view>& value, std::string_view kind, const Path& at) {
  if (!value) refuse(at, "is required");
  expect(*value, kind, at);
  return *value;
}

double number_of(std::string_view token, const Path& at) {
  expect(token, "a number", at);
  const double value = krino::event::read_number(token, "number").value_or(0.0);
  // 1e400 would be kept as text but summed as infinity.
  if (!std::isfinite(value)) refuse(at, "is out of the range of a double");
  return value;
}

std::optional<std::int64_t> count_of(const std::optional<std::string_view>& token, const Path& at) {
  if (!typed(token, "a number", at)) return std::nullopt;
  std::optional<std::int64_t> value;
  try {
    value = krino::event::read_whole<std::int64_t>(*token, "count");
  } catch (const DecodeError&) {
    refuse(at, "must be a whole number");
  }
  if (value && *value < 0) refuse(at, "must not be negative");
  return value;
}

std::optional<double> amount_of(const std::optional<std::string_view>& token, const Path& at) {
  if (!typed(token, "a number", at)) return std::nullopt;
  return number_of(*token, at);
}

constexpr std::array<std::string_view, 4> kMetricKeys = {"tokensIn", "tokensOut", "costUsd", "latencyMs"};

// The four metrics from their spans (in kMetricKeys order), over what `metrics` already holds.
void read_metrics(const std::optional<std::string_view>* spans, const Path& at, krino::event::CallMetrics& metrics) {
  if (auto value = count_of(spans[0], at / "tokensIn")) metrics.tokens_in = value;
  if (auto value = count_of(spans[1], at / "tokensOut")) metrics.tokens_out = value;
  if (auto value = amount_of(spans[2], at / "costUsd")) metrics.cost_usd = value;
  if (auto value = amount_of(spans[3], at / "latencyMs")) metrics.latency_ms = value;
}

store::NewResult read_result(std::string_view result, const Path& at) {
  expect(result, "an object", at);
  static constexpr std::array<std::string_view, 6> kKeys = {"name", "score", "threshold", "success", "reason", "metadata"};
  const auto m = members_of(result, kKeys, at);
  store::NewResult read;
  read.name = krino::json::string_token_text(required(m[0], "a string", at / "name"));
  if (read.name.empty()) refuse(at / "name", "must not be empty");
  if (m[1]) read.score = number_of(*m[1], at / "score");
  if (m[2]) read.threshold = number_of(*m[2], at / "threshold");
  read.success = required(m[3], "a boolean", at / "success") == "true";
  typed(m[4], "a string", at / "reason");
  typed(m[5], "an object", at / "metadata");
  return read;
}

store::NewItem read_item(std::string_view item, const Path& at) {
  expect(item, "an object", at);
  static constexpr std::array<std::string_view, 13> kKeys = {"inputs",   "expectedOutputs", "actualOutputs", "metadata",
                                                             "success",  "datasetItemId",   "metrics",       "evalResults",
                                                             "tokensIn", "tokensOut",       "costUsd",       "latencyMs",
                                                             "error"};
  const auto m = members_of(item, kKeys, at);
  store::NewItem read;
  for (std::size_t k = 0; k < 4; ++k) typed(m[k], "an object", at / kKeys[k]);
  read.success = required(m[4], "a boolean", at / "success") == "true";
  if (typed(m[5], "a string", at / "datasetItemId")) read.dataset_item_id = krino::json::string_token_text(*m[5]);
  read_metrics(&m[8], at, read.metrics);
  if (typed(m[6], "an object", at / "metrics")) {
    const Path metrics_at = at / "metrics";
    const auto nested = members_of(*m[6], kMetricKeys, metrics_at);
    read_metrics(nested.data(), metrics_at, read.metrics);
  }
  if (typed(m[7], "an array", at / "evalResults")) {
    const Path results_at = at / "evalResults";
    std::size_t index = 0;
    krino::event::for_each_element(*m[7], "evalResults", [&](std::string_view result) {
      read.results.push_back(read_result(result, results_at[index++]));
    });
  }
  // The item error the SDK writes (append_item_error): what the run view's ERROR filter finds.
  read.has_error = typed(m[12], "an object", at / "error").has_value();
  read.document = krino::json::compact_text(item);
  return read;
}

}  // namespace

std::variant<std::vector<store::NewItem>, BatchProblem> read_item_batch(std::string_view body) {
  // One validating pass first, without building the batch in memory: the span readers below
  // trust that the text is JSON.
  if (!is_json_object(body, kMaxDepth)) return BatchProblem{"body", "must be one JSON object (valid JSON, nested at most 64 deep)"};
  try {
    const Path body_at{nullptr, "body"};
    const Path items_at{nullptr, "items"};
    static constexpr std::array<std::string_view, 1> kKeys = {"items"};
    const std::string_view items = required(members_of(body, kKeys, body_at)[0], "an array", items_at);
    std::vector<store::NewItem> read;
    std::size_t index = 0;
    krino::event::for_each_element(items, "items", [&](std::string_view item) { read.push_back(read_item(item, items_at[index++])); });
    if (read.empty()) refuse(items_at, "must not be empty");
    return read;
  } catch (const Problem& found) {
    return BatchProblem{found.field, found.message};
  }
}

}  // namespace krino::core::server_api
