#include "krino/core/task/http_task.hpp"

#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/net/retrying_http_call.hpp"
#include "krino/core/net/url.hpp"
#include "krino/core/task/reply_metrics.hpp"
#include "krino/core/task/task_options.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace krino::core {
namespace json = boost::json;

namespace {

constexpr std::size_t kExcerpt = 200;

std::string read_file(const std::string& path, const TaskOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) options.fail("ca_file", "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has_body_by_default(std::string_view method) { return method == "POST" || method == "PUT" || method == "PATCH"; }

}  // namespace

krino_status status_for_http(unsigned status) {
  if (status == 401 || status == 403) return KRINO_PERMISSION_DENIED;
  if (status == 404) return KRINO_NOT_FOUND;
  if (status == 408) return KRINO_DEADLINE_EXCEEDED;
  if (status == 429) return KRINO_RESOURCE_EXHAUSTED;
  if (status >= 500) return KRINO_UNAVAILABLE;
  return KRINO_INVALID_ARGUMENT;
}

HttpTask::HttpTask(const TaskConfig& config, const TaskEnvironment& environment, const EnvironmentLookup& variables,
                   bool raw_replies)
    : environment_(environment), raw_replies_(raw_replies) {
  TaskOptions options(config.options, "task");
  method_ = options.choice("method", "POST", {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"});
  url_ = RequestTemplate(options.required_string("url"), "task.url", variables);
  try {
    parse_url(url_.sample());
  } catch (const std::invalid_argument& e) {
    options.fail("url", e.what());
  }
  for (auto& [name, value] : options.string_map("headers")) {
    if (value.find_first_of("\r\n") != std::string::npos) options.fail("headers." + name, "must be one line");
    headers_.emplace_back(name, RequestTemplate(value, "task.headers." + name, variables));
  }

  if (const json::value* body = options.value("body")) {
    if (body->is_string()) {
      body_kind_ = BodyKind::text;
      text_body_ = RequestTemplate(body->get_string(), "task.body", variables);
      content_type_ = "text/plain; charset=utf-8";
    } else {
      body_kind_ = BodyKind::json;
      json_body_ = JsonBodyTemplate(*body, "task.body", variables);
      content_type_ = "application/json";
    }
  } else if (has_body_by_default(method_)) {
    body_kind_ = BodyKind::example;
    content_type_ = "application/json";
  }
  content_type_ = options.string("content_type", content_type_);

  if (auto response = options.object("response")) {
    TaskOptions reply(*response, "task.response");
    reply_format_ = reply.choice("format", "json", {"json", "text"}) == "json" ? ReplyFormat::json : ReplyFormat::text;
    if (raw_replies_ && reply_format_ == ReplyFormat::text)
      reply.fail("format", "a trace extractor reads JSON: leave response.format at json with task.extractor");
    output_pointer_ = reply.string("path", "");
    if (!output_pointer_.empty() && output_pointer_.front() != '/')
      reply.fail("path", "must be a JSON pointer such as /answer or /choices/0/message");
    if (!output_pointer_.empty() && reply_format_ == ReplyFormat::text)
      reply.fail("path", "applies to JSON replies only");
    reply.reject_unknown();
  }

  timeout_ = std::chrono::milliseconds(options.integer("timeout_ms", 30000, 1));
  retry_.max_attempts = static_cast<int>(options.integer("max_retries", 3, 0, 100)) + 1;
  retry_.base_delay = std::chrono::milliseconds(options.integer("retry_base_ms", 500, 1));
  retry_.max_delay = std::chrono::milliseconds(options.integer("retry_max_ms", 30000, 1));

  HttpClientOptions client_options;
  if (auto ca = options.optional_string("ca_file")) {
    std::filesystem::path path(*ca);
    if (path.is_relative() && !config.base_dir.empty()) path = config.base_dir / path;  // as the dataset path is
    client_options.extra_ca_pem = read_file(path.string(), options);
  }
  // As many idle connections as items can be in flight: each item then reuses a warm connection.
  client_options.max_idle_per_origin = 4096;
  options.reject_unknown();

  for (const auto& s : url_.secrets()) secrets_.push_back(s);
  for (const auto& [name, value] : headers_)
    for (const auto& s : value.secrets()) secrets_.push_back(s);
  for (const auto& s : json_body_.secrets()) secrets_.push_back(s);
  for (const auto& s : text_body_.secrets()) secrets_.push_back(s);

  try {
    client_ = std::make_unique<HttpClient>(environment_.io.context(), std::move(client_options));
  } catch (const std::invalid_argument& e) {
    options.fail("ca_file", e.what());
  }
}

HttpTask::~HttpTask() = default;

std::string HttpTask::redact(std::string text) const {
  for (const std::string& secret : secrets_) {
    if (secret.empty()) continue;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 10))
      text.replace(at, secret.size(), "[redacted]");
  }
  return text;
}

// Redacted before the cut: a cut through a secret would leave its start where redact() cannot find it.
std::string HttpTask::excerpt(std::string_view body) const { return utf8::excerpt(redact(std::string(body)), kExcerpt); }

std::string HttpTask::describe_target(const Url& url) const {
  // The query is left out: it may carry what a message should not show.
  const std::string path = url.target.substr(0, url.target.find('?'));
  return redact(method_ + " " + url.origin() + path);
}

HttpRequest HttpTask::build_request(const ExampleView& example, std::uint64_t index) const {
  TemplateContext context(example, index);
  HttpRequest request;
  request.method = method_;
  request.url = parse_url(url_.render(context, RequestTemplate::Encoding::url));
  request.headers.reserve(headers_.size() + 2);  // + Content-Type and Accept: no regrowth per request
  for (const auto& [name, value] : headers_) {
    std::string text = value.render(context);
    if (text.find_first_of("\r\n") != std::string::npos)
      throw TemplateValueMissing("header " + name + " would span lines after filling in the example's values");
    request.headers.push_back({name, std::move(text)});
  }
  switch (body_kind_) {
    case BodyKind::none: break;
    case BodyKind::example: {
      // The example without its expected outputs: the system under test must not see the answers.
      std::string body = "{";
      bool first = true;
      for (std::string_view key : {"id", "inputs", "metadata"}) {
        auto raw = example.raw(key);
        if (!raw) continue;
        if (!first) body += ',';
        first = false;
        ::krino::json::append_json_string(body, key);
        body += ':';
        body += *raw;
      }
      body += '}';
      request.body = std::move(body);
      break;
    }
    case BodyKind::json: request.body = ::krino::json::to_compact_json(json_body_.render(context)); break;
    case BodyKind::text: request.body = text_body_.render(context); break;
  }
  if (body_kind_ != BodyKind::none) request.headers.push_back({"Content-Type", content_type_});
  request.headers.push_back({"Accept", reply_format_ == ReplyFormat::json ? "application/json" : "*/*"});
  return request;
}

TaskResult HttpTask::run(const ExampleView& example, const krino_call_context& ctx) const {
  if (environment_.host.host()->is_cancelled(environment_.host.host(), &ctx) != 0)
    return ItemError{"task", "http", KRINO_CANCELLED, "the run was cancelled before the request was sent"};
  HttpRequest request;
  try {
    request = build_request(example, ctx.item_index);
  } catch (const TemplateValueMissing& e) {
    return ItemError{"task", "http", KRINO_INVALID_ARGUMENT, redact(e.what())};
  } catch (const std::invalid_argument& e) {
    return ItemError{"task", "http", KRINO_INVALID_ARGUMENT, redact(std::string("the request URL is not valid: ") + e.what())};
  }
  const Url url = request.url;
  const auto started = std::chrono::steady_clock::now();
  HttpCallOutcome outcome = await_callback<HttpCallOutcome>([&](auto done) {
    send_with_retries(*client_, environment_.io.context(), std::move(request), timeout_, retry_, ctx.seed, std::move(done),
                      &environment_.host.cancellation());
  });
  const double latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (outcome.cancelled) {
    ItemError error = failure(outcome.result, outcome.attempts);
    error.code = KRINO_CANCELLED;
    error.message = describe_target(url) + ": cancelled while waiting to try again; the last attempt: " + error.message;
    return error;
  }
  if (!is_success(outcome.result)) {
    ItemError error = failure(outcome.result, outcome.attempts);
    error.message = describe_target(url) + ": " + error.message;
    return error;
  }
  auto read = read_reply(outcome.result.response, latency_ms);
  if (auto* error = std::get_if<ItemError>(&read)) error->message = describe_target(url) + ": " + error->message;
  return read;
}

ItemError HttpTask::failure(const HttpResult& result, int attempts) const {
  const std::string tries = attempts == 1 ? "" : " (after " + std::to_string(attempts) + " attempts)";
  switch (result.outcome) {
    case HttpOutcome::timeout:
      return ItemError{"task", "http", KRINO_DEADLINE_EXCEEDED,
                       "no complete reply within " + std::to_string(timeout_.count()) + " ms" + tries};
    case HttpOutcome::connection_error:
      return ItemError{"task", "http", KRINO_UNAVAILABLE, redact(result.error) + tries};
    case HttpOutcome::response: break;
  }
  const HttpResponse& response = result.response;
  std::string message = "HTTP " + std::to_string(response.status) + tries;
  if (!response.body.empty()) message += ": " + excerpt(response.body);
  return ItemError{"task", "http", status_for_http(response.status), message};
}

TaskResult HttpTask::read_reply(const HttpResponse& response, double latency_ms) const {
  TaskOutput output;
  if (reply_format_ == ReplyFormat::text) {
    json::object outputs{{"output", response.body}};
    output.actual_outputs = ::krino::json::to_compact_json(outputs);
    output.metrics = metrics_from_reply(json::value(), latency_ms, environment_.prices);
    return output;
  }
  boost::system::error_code ec;
  // The reply lives only for this call: its nodes go to a stack arena, not one malloc each.
  unsigned char arena[4096];
  json::monotonic_resource reply_memory(arena, sizeof arena);
  json::value reply = krino::json::parse(response.body, ec, &reply_memory);
  if (ec) {
    return ItemError{"task", "http", KRINO_INVALID_ARGUMENT,
                     "the reply is not JSON (" + ec.message() + "): " + excerpt(response.body) +
                         " (set response.format: text to take it as text)"};
  }
  const json::value* outputs = &reply;
  if (!output_pointer_.empty()) {
    outputs = reply.find_pointer(output_pointer_, ec);
    if (outputs == nullptr) {
      return ItemError{"task", "http", KRINO_NOT_FOUND,
                       "the reply has nothing at " + output_pointer_ + ": " + excerpt(response.body)};
    }
  }
  if (outputs->is_object() || raw_replies_) output.actual_outputs = ::krino::json::to_compact_json(*outputs);
  else output.actual_outputs = ::krino::json::to_compact_json(json::object{{"output", *outputs}});
  output.metrics = metrics_from_reply(reply, latency_ms, environment_.prices);
  return output;
}

}  // namespace krino::core
