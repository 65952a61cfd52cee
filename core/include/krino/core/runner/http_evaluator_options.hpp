#pragma once
// The host's keys of a `use: http_evaluator` entry (docs/sdk.md, "Remote evaluators over HTTP"),
// named as the `http` task names them (docs/tasks/http.md): url, headers, timeout_ms, max_retries,
// retry_base_ms, retry_max_ms, ca_file; plus concurrency (requests in flight) and batch (test
// cases per request). Values read from the environment ({{env.NAME}} in url and headers) are kept
// as secrets: no message quotes them.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/net/http_client.hpp"
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/net/url.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct HttpEvaluatorSettings {
  Url url;
  std::vector<HttpHeader> headers;
  std::chrono::milliseconds timeout{60000};  // per attempt, connecting included
  RetryPolicy retry;
  std::size_t concurrency = 4;  // POST requests in flight at once
  std::size_t batch = 32;       // test cases per POST at most
  HttpClientOptions client;     // extra_ca_pem from ca_file
  std::vector<std::string> secrets;
  std::string what;             // "http evaluator GET http://host:port/path" (no query, redacted)

  // `text` with every secret replaced by [redacted].
  std::string redact(std::string text) const;
};

// The keys every http_evaluator entry may carry besides the evaluator's own options.
bool is_http_evaluator_key(std::string_view key);

// Reads the keys split off by read_evaluator_run_options. `base_dir` resolves a relative ca_file.
// Throws a configuration error naming the key.
HttpEvaluatorSettings read_http_evaluator_settings(const boost::json::object& keys, const std::filesystem::path& base_dir,
                                                   const EnvironmentLookup& variables = process_environment());

}  // namespace krino::core
