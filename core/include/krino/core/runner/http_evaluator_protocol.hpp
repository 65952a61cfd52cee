#pragma once
// krino.evaluatorworker/1 over HTTP (`use: http_evaluator`, docs/sdk.md "Remote evaluators over
// HTTP"): the subprocess protocol's documents, carried in HTTP bodies. `GET <url>` answers with the
// handshake; `POST <url>` carries the options and a batch of requests, and its reply carries one
// answer per request, matched by id in any order:
//   {"protocol":"krino.evaluatorworker/1","options":{...},"requests":[{"id":N,"testCase":..,"context":..},..]}
//   {"answers":[{"id":N,"result":{..}} | {"id":N,"error":{"code":..,"message":..}}, ..]}
#include "krino/core/runner/evaluator_worker_protocol.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

// The POST body. `options_json` is the options object as compact JSON; each of `requests` is one
// worker_evaluate_line() with or without its final line break (the test case bytes pass through).
std::string http_evaluator_batch_body(std::string_view options_json, const std::vector<std::string>& requests);

// The answers of a POST reply for the requests `ids`, in their order. When the reply as a whole is
// unusable (not a JSON object, another protocol, no "answers" array) every answer is not_an_answer
// with the same reason; otherwise each request gets its own answer, and one the reply does not
// answer, answers twice, or answers with something that is not an answer is not_an_answer naming
// its id.
std::vector<WorkerAnswer> read_http_evaluator_answers(std::string_view body, const std::vector<uint64_t>& ids);

}  // namespace krino::core
