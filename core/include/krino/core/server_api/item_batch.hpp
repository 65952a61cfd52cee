#pragma once
// The body of POST /api/v1/runs/{runId}/items: `{"items": [ItemData, ...]}` in the Dokimos
// server's shape (inputs, expectedOutputs, actualOutputs, metadata, evalResults, success,
// datasetItemId), plus krino's call metrics (`tokensIn`, `tokensOut`, `costUsd`, `latencyMs`, at
// the top of an item or in its `metrics` object). Each item is stored byte for byte as sent.
#include "krino/core/store/store_types.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core::server_api {

struct BatchProblem {
  std::string field;    // "items[3].evalResults[0].score"
  std::string message;  // "must be a number"
};

// The items of `body`, or what is wrong with it (the first problem, naming its field).
std::variant<std::vector<store::NewItem>, BatchProblem> read_item_batch(std::string_view body);

}  // namespace krino::core::server_api
