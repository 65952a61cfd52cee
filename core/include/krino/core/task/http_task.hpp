#pragma once
// The `http` task: sends each example to the user's own endpoint and takes the reply as the actual
// outputs (docs/tasks/http.md). Method, URL, headers and body are templates over the example. 429,
// 5xx, timeouts and connection errors are retried with backoff (a Retry-After wins), as for judges;
// the request runs on the run's I/O service while the item's TBB task is suspended, so `parallelism`
// requests in flight hold no scheduler thread.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/net/http_client.hpp"
#include "krino/core/net/retry_policy.hpp"
#include "krino/core/task/request_template.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/task/task_factory.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace krino::core {

// The item error's code for an HTTP status that ended a call (after its retries): 401/403
// PERMISSION_DENIED, 404 NOT_FOUND, 408 DEADLINE_EXCEEDED, 429 RESOURCE_EXHAUSTED, 5xx UNAVAILABLE,
// any other INVALID_ARGUMENT. The http task's and the http evaluator's.
krino_status status_for_http(unsigned status);

class HttpTask final : public Task {
 public:
  // Throws a configuration error naming the option. With `raw_replies` (a trace extractor reads the
  // output), the JSON reply, or the value at response.path, is handed over as it is, whatever its
  // type, instead of becoming actual outputs.
  HttpTask(const TaskConfig& config, const TaskEnvironment& environment,
           const EnvironmentLookup& variables = process_environment(), bool raw_replies = false);
  ~HttpTask() override;

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return true; }
  const char* kind() const override { return "http"; }

 private:
  enum class BodyKind { none, example, json, text };
  enum class ReplyFormat { json, text };

  HttpRequest build_request(const ExampleView& example, std::uint64_t index) const;
  TaskResult read_reply(const HttpResponse& response, double latency_ms) const;
  ItemError failure(const HttpResult& result, int attempts) const;
  std::string redact(std::string text) const;
  std::string excerpt(std::string_view body) const;  // redacted, then cut for a message
  std::string describe_target(const Url& url) const;

  TaskEnvironment environment_;
  std::string method_;
  RequestTemplate url_;
  std::vector<std::pair<std::string, RequestTemplate>> headers_;
  BodyKind body_kind_ = BodyKind::none;
  JsonBodyTemplate json_body_;
  RequestTemplate text_body_;
  std::string content_type_;
  ReplyFormat reply_format_ = ReplyFormat::json;
  std::string output_pointer_;  // where the outputs are in a JSON reply; empty: the whole reply
  bool raw_replies_ = false;
  std::chrono::milliseconds timeout_{30000};
  RetryPolicy retry_;
  std::vector<std::string> secrets_;
  std::unique_ptr<HttpClient> client_;
};

}  // namespace krino::core
