#include "krino/core/runner/http_evaluator_options.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/task/request_template.hpp"
#include "krino/core/task/task_options.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace krino::core {
namespace {

constexpr std::array<std::string_view, 9> kHttpEvaluatorKeys = {
    "url", "headers", "timeout_ms", "max_retries", "retry_base_ms", "retry_max_ms", "ca_file", "concurrency", "batch"};

// A url or header value: literal text and {{env.NAME}} only. There is no example to fill in: one
// request carries many test cases.
std::string constant_text(const RequestTemplate& value, const TaskOptions& options, std::string_view key) {
  const ExampleView nothing = ExampleView::empty();
  TemplateContext context(nothing, 0);
  try {
    return value.render(context);
  } catch (const TemplateValueMissing&) {
    options.fail(key, "may use {{env.NAME}} only: one request carries many test cases");
  }
}

}  // namespace

std::string HttpEvaluatorSettings::redact(std::string text) const {
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 10))
      text.replace(at, secret.size(), "[redacted]");
  }
  return text;
}

bool is_http_evaluator_key(std::string_view key) {
  return std::find(kHttpEvaluatorKeys.begin(), kHttpEvaluatorKeys.end(), key) != kHttpEvaluatorKeys.end();
}

HttpEvaluatorSettings read_http_evaluator_settings(const boost::json::object& keys, const std::filesystem::path& base_dir,
                                                   const EnvironmentLookup& variables) {
  TaskOptions options(keys, "evaluator 'http_evaluator'");
  HttpEvaluatorSettings settings;
  const RequestTemplate url(options.required_string("url"), options.name("url"), variables);
  for (const auto& secret : url.secrets()) settings.secrets.push_back(secret);
  try {
    settings.url = parse_url(constant_text(url, options, "url"));
  } catch (const std::invalid_argument& e) {
    options.fail("url", settings.redact(e.what()));
  }
  for (auto& [name, value] : options.string_map("headers")) {
    if (value.find_first_of("\r\n") != std::string::npos) options.fail("headers." + name, "must be one line");
    const RequestTemplate header(value, options.name("headers." + name), variables);
    for (const auto& secret : header.secrets()) settings.secrets.push_back(secret);
    settings.headers.push_back({name, constant_text(header, options, "headers." + name)});
  }
  settings.timeout = std::chrono::milliseconds(options.integer("timeout_ms", 60000, 1));
  settings.retry.max_attempts = static_cast<int>(options.integer("max_retries", 3, 0, 100)) + 1;
  settings.retry.base_delay = std::chrono::milliseconds(options.integer("retry_base_ms", 500, 1));
  settings.retry.max_delay = std::chrono::milliseconds(options.integer("retry_max_ms", 30000, 1));
  settings.concurrency = static_cast<std::size_t>(options.integer("concurrency", 4, 1, 4096));
  settings.batch = static_cast<std::size_t>(options.integer("batch", 32, 1, 100000));
  if (auto ca = options.optional_string("ca_file")) {
    std::filesystem::path path(*ca);
    if (path.is_relative() && !base_dir.empty()) path = base_dir / path;
    std::ifstream in(path, std::ios::binary);
    if (!in) options.fail("ca_file", "cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    settings.client.extra_ca_pem = text.str();
  }
  settings.client.max_idle_per_origin = settings.concurrency;
  options.reject_unknown();
  // The query is left out, as the http task does: it may carry what a message should not show.
  settings.what = settings.redact("http evaluator " + settings.url.origin() +
                                  settings.url.target.substr(0, settings.url.target.find('?')));
  return settings;
}

}  // namespace krino::core
