// krino serve: parses the options, starts the results server and waits for SIGTERM or Ctrl-C,
// then stops it gracefully (requests in progress finish; nothing is cut off mid-write).
#include "commands.hpp"
#include "exit_codes.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/mcp/krino_mcp_server.hpp"
#include "krino/core/mcp/tool_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/server/otel_canonical_trace.hpp"
#include "krino/core/server/results_server.hpp"
#include "krino/core/store/data_location.hpp"
#include "krino/core/store/open_store.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace krino::cli {

namespace {

constexpr auto kGrace = std::chrono::seconds(30);
constexpr auto kPoll = std::chrono::milliseconds(100);

// "127.0.0.1:8080", "[::1]:8080", ":8080" (all IPv4 interfaces).
void parse_listen(const std::string& text, core::http_server::HttpServerOptions& http) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos) throw core::usage_error("--listen " + text + ": expected HOST:PORT, e.g. 127.0.0.1:8080");
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535)
    throw core::usage_error("--listen " + text + ": the port must be a number from 0 to 65535");
  http.host = host.empty() ? "0.0.0.0" : host;
  http.port = static_cast<unsigned short>(port);
}

// Every --alert-*-ms value: at least 1 ms, at most a week (a longer wait is a mistake, and the
// worker adds these to Unix milliseconds).
constexpr std::int64_t kMaxAlertMs = 7LL * 24 * 3600 * 1000;

}  // namespace

void ServeArguments::add_alert_options(CLI::App& command) {
  const auto milliseconds = [&command](const char* name, const char* help, auto assign) {
    command.add_option_function<std::int64_t>(name, [assign](std::int64_t ms) { assign(std::chrono::milliseconds(ms)); }, help)
        ->type_name("MS")
        ->check(CLI::Range(std::int64_t{1}, kMaxAlertMs));
  };
  core::server::AlertOptions& a = alerts;
  milliseconds("--alert-poll-ms", "How often the alert worker looks at its queue when idle (default 1000)",
               [&a](std::chrono::milliseconds ms) { a.poll_interval = ms; });
  milliseconds("--alert-retry-ms", "Wait before a webhook's first retry; it doubles on each (default 10000)",
               [&a](std::chrono::milliseconds ms) { a.retry.base_delay = ms; });
  milliseconds("--alert-max-delay-ms", "Longest wait between attempts, a Retry-After header's included (default 3600000)",
               [&a](std::chrono::milliseconds ms) { a.retry.max_delay = a.retry.max_retry_after = ms; });
  milliseconds("--alert-timeout-ms", "Longest a webhook POST may take (default 10000)",
               [&a](std::chrono::milliseconds ms) { a.request_timeout = ms; });
  milliseconds("--alert-lease-ms", "How long a replica holds the alert work it claimed; more than --alert-timeout-ms (default 120000)",
               [&a](std::chrono::milliseconds ms) { a.lease = ms; });
  command.add_option("--alert-attempts", alerts.retry.max_attempts, "Attempts of a webhook POST before it is DEAD (default 8)")
      ->type_name("N")
      ->check(CLI::Range(1, 100));
}

void ServeArguments::add_job_options(CLI::App& command) {
  const auto milliseconds = [&command](const char* name, const char* help, auto assign) {
    command.add_option_function<std::int64_t>(name, [assign](std::int64_t ms) { assign(std::chrono::milliseconds(ms)); }, help)
        ->type_name("MS")
        ->check(CLI::Range(std::int64_t{1}, kMaxAlertMs));
  };
  core::server::JobWorkerOptions& j = jobs;
  milliseconds("--job-poll-ms", "How often the job worker (the server judge) looks at its queue when idle (default 1000)",
               [&j](std::chrono::milliseconds ms) { j.poll_interval = ms; });
  milliseconds("--job-lease-ms", "How long a replica holds a job it claimed without renewing it; renewed every third (default 60000)",
               [&j](std::chrono::milliseconds ms) { j.lease = ms; });
  milliseconds("--job-retry-ms", "Wait before a job whose worker failed is claimed again (default 5000)",
               [&j](std::chrono::milliseconds ms) { j.retry_delay = ms; });
  command.add_option("--job-slots", jobs.slots, "Jobs (judge pages) this replica works on at once (default 1)")->type_name("N")->check(CLI::Range(1, 64));
  command.add_option("--judge-page-size", judge_page_size, "Items per judge page: judged together and written in one transaction (default 50)")
      ->type_name("N")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10000}));
  command.add_option("--judge-max-attempts", judge_max_attempts,
                     "Claims of one judge page before its items are written as errors (default 3)")
      ->type_name("N")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100}));
  command.add_option("--online-eval-delay-ms", online_eval_delay_ms,
                     "How long a trace eval rule on a whole trace waits after its match for the trace's other spans (default 5000)")
      ->type_name("MS")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86400000}));
}

int serve_command(const ServeArguments& args) {
  // A lease that ends while its POST may still be waiting lets another replica send the alert too.
  if (args.alerts.lease <= args.alerts.request_timeout) {
    std::string message = "--alert-lease-ms (";
    message.append(std::to_string(args.alerts.lease.count())).append(") must be longer than --alert-timeout-ms (");
    message.append(std::to_string(args.alerts.request_timeout.count())).append(")");
    throw core::usage_error(message);
  }
  core::server::ResultsServerOptions options;
  parse_listen(args.listen, options.http);
  options.http.max_body_bytes = args.max_body_bytes;
  options.auth.require_read_key = args.require_read_key;
  options.alerts = args.alerts;
  options.jobs = args.jobs;
  options.judge_page_size = args.judge_page_size;
  options.judge_max_attempts = args.judge_max_attempts;
  options.online_eval.trace_delay_ms = args.online_eval_delay_ms;
  options.online_eval.max_attempts = args.judge_max_attempts;
  if (const char* key = std::getenv("KRINO_API_KEY"); key != nullptr && *key != '\0') options.auth.legacy_key = std::string(key);
  const bool postgres = core::store::is_postgres_uri(args.database);
  options.database = core::store::database_location(args.database, args.data_dir);

  core::Cancellation stop;
  SignalWatcher watcher(stop, "\nkrino serve: stopping; requests in progress finish first (signal again to stop at once)\n");
  // /mcp: the same tools as krino mcp, on the plugins loaded here and this server's database (the
  // tools open their own connection to it), so the runs an agent starts are the server's.
  // Declared before the server, which they outlive.
  core::Cancellation never_cancelled;  // loading only; each tool call has its own cancellation
  core::HostServices host(never_cancelled);
  core::PluginRegistry plugins;
  args.plugins.load(plugins, host);
  const krino_log_level log_level = args.plugins.verbosity >= 2   ? KRINO_LOG_DEBUG
                                    : args.plugins.verbosity == 1 ? KRINO_LOG_INFO
                                                                  : KRINO_LOG_WARNING;
  core::mcp::ToolServices services(plugins, options.database, args.data_dir, log_level);
  options.mcp.allowed_origins = args.mcp_allowed_origins;
  options.make_mcp_server = [&services](core::store::Store&) { return core::mcp::make_krino_mcp_server(services); };
  options.traces.canonical_trace = core::server::otel_canonical_trace(plugins);
  if (args.trace_retention_days > 0) options.trace_retention.retention = std::chrono::hours(24) * args.trace_retention_days;
  core::server::ResultsServer server(options);
  server.start();
  // A URI may hold a password: only its scheme is shown.
  const std::string shown = postgres ? std::string("PostgreSQL") : options.database;
  std::fprintf(stderr, "krino serve: listening on http://%s:%u, database %s\n", options.http.host.c_str(), server.port(), shown.c_str());
  while (!stop.requested()) std::this_thread::sleep_for(kPoll);
  if (!server.stop(kGrace)) {
    std::fprintf(stderr, "krino serve: requests still running after %lld s; exiting anyway\n",
                 static_cast<long long>(kGrace.count()));
    return kRuntimeError;
  }
  std::fprintf(stderr, "krino serve: stopped\n");
  return kSuccess;
}

}  // namespace krino::cli
