#include "krino/core/server/results_server.hpp"

#include "krino/core/common/io_service.hpp"
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/server/regression_alert.hpp"
#include "krino/core/server/server_metrics.hpp"
#include "krino/core/server/ended_run_indexer.hpp"
#include "krino/core/server/ui_routes.hpp"
#include "krino/core/server_api/alert_routes.hpp"
#include "krino/core/server_api/dataset_routes.hpp"
#include "krino/core/server_api/review_routes.hpp"
#include "krino/core/server_api/judge_routes.hpp"
#include "krino/core/server_api/llm_connection_routes.hpp"
#include "krino/core/server_api/comparison_routes.hpp"
#include "krino/core/server_api/gate_log_routes.hpp"
#include "krino/core/server_api/key_routes.hpp"
#include "krino/core/server_api/project_routes.hpp"
#include "krino/core/server_api/run_routes.hpp"
#include "krino/core/server_api/run_view_routes.hpp"
#include "krino/core/server_api/trace_eval_rule_routes.hpp"
#include "krino/core/store/migrations.hpp"
#include "krino/core/store/open_store.hpp"

#include <krino/json_text.hpp>

#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/verb.hpp>

#include <cstdio>
#include <future>

namespace krino::core::server {

namespace {

// One JSON line per response on stderr: what a log collector reads (never headers or bodies,
// which may hold keys).
void log_access(const http_server::AccessRecord& record) {
  std::string line = "{\"event\":\"http_request\",\"remote\":";
  krino::json::append_json_string(line, record.remote);
  line += ",\"method\":";
  krino::json::append_json_string(line, record.method);
  line += ",\"path\":";
  krino::json::append_json_string(line, record.path);
  line += ",\"status\":" + std::to_string(record.status);
  line += ",\"requestBytes\":" + std::to_string(record.request_bytes);
  line += ",\"responseBytes\":" + std::to_string(record.response_bytes);
  line += ",\"durationUs\":" + std::to_string(record.duration.count()) + "}\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

struct ResultsServer::Parts {
  explicit Parts(const ResultsServerOptions& options)
      : store(store::open_store(options.database)), auth(*store, options.auth), comparisons(*store, ComparisonOptions{}), io(options.io_threads) {}

  std::unique_ptr<store::Store> store;
  server_api::Authenticator auth;
  server_api::RunComparisons comparisons;  // the gate's defaults: alpha 0.05, seed 42, 10,000 iterations
  ServerMetrics metrics;
  // Before the router and the listener: their handlers use the transport, whose sessions use the
  // MCP server; both outlive the handler threads.
  std::unique_ptr<mcp::McpServer> mcp_server;
  std::unique_ptr<McpHttpTransport> mcp_http;
  http_server::Router router;
  IoService io;
  std::unique_ptr<http_server::HttpServer> http;
  std::unique_ptr<AlertDispatcher> alerts;  // after io: stopped and gone before it
  std::unique_ptr<JudgePageWorker> judge;   // after io: its model calls run there
  std::shared_ptr<server_api::TraceEvalMatcher> matcher;  // its counters outlive the online worker
  std::unique_ptr<OnlineEvalWorker> online_eval;          // after the judge, whose call path it uses
  std::unique_ptr<JobWorker> jobs;          // after the judge and the online worker: stopped before its handlers go
  std::unique_ptr<EndedRunIndexer> ended_run_indexer;
  std::unique_ptr<TraceSweeper> trace_sweeper;
};

ResultsServer::ResultsServer(ResultsServerOptions options) : parts_(std::make_unique<Parts>(options)) {
  using boost::beast::http::verb;
  auto& store = *parts_->store;
  parts_->router.add(verb::get, "/healthz", [](const http_server::Request&) {
    return http_server::json_response(http_server::Status::ok, R"({"status":"UP"})");
  });
  parts_->router.add(verb::get, "/readyz", [&store](const http_server::Request&) {
    const int expected = store::migrations().back().version;
    try {
      const int version = store.schema_version();
      std::string body = "{\"status\":\"" + std::string(version == expected ? "UP" : "DOWN") + "\",\"database\":\"" +
                         store.backend() + "\",\"schemaVersion\":" + std::to_string(version) + "}";
      return http_server::json_response(version == expected ? http_server::Status::ok : http_server::Status::service_unavailable, body);
    } catch (const std::exception& error) {
      return http_server::error_response(http_server::Status::service_unavailable, "database_unavailable", error.what());
    }
  });
  parts_->alerts = std::make_unique<AlertDispatcher>(
      store, parts_->io.context(),
      [&store, &comparisons = parts_->comparisons](const store::AlertCheck& check) { return regression_alert(store, comparisons, check); },
      options.alerts);
  parts_->ended_run_indexer = std::make_unique<EndedRunIndexer>(store);
  parts_->router.add(verb::get, "/metrics", [parts = parts_.get()](const http_server::Request&) {
    http_server::Response response(http_server::Status::ok, 11);
    response.set(boost::beast::http::field::content_type, "text/plain; version=0.0.4");
    response.body() = parts->metrics.text(parts->http->pending_handlers()) + parts->alerts->metrics_text() + parts->jobs->metrics_text() +
                      parts->judge->metrics_text() + server_api::online_eval_metrics_text(parts->matcher->counters()) +
                      parts->ended_run_indexer->metrics_text();
    response.prepare_payload();
    return response;
  });
  server_api::add_run_routes(parts_->router, store, parts_->auth, parts_->metrics.ingest);
  server_api::add_run_view_routes(parts_->router, store, parts_->auth);
  server_api::add_project_routes(parts_->router, store, parts_->auth);
  server_api::add_gate_log_routes(parts_->router, store, parts_->auth);
  server_api::add_key_routes(parts_->router, store, parts_->auth);
  server_api::add_alert_routes(parts_->router, store, parts_->auth);
  server_api::add_dataset_routes(parts_->router, store, parts_->auth);
  server_api::add_review_routes(parts_->router, store, parts_->auth);
  parts_->judge = std::make_unique<JudgePageWorker>(store, parts_->io, options.judge);
  parts_->jobs = std::make_unique<JobWorker>(store, options.jobs);
  parts_->jobs->handle(std::string(store::kJudgePageKind),
                       [judge = parts_->judge.get()](const store::ClaimedJob& job, const Cancellation& lost) { (*judge)(job, lost); });
  server_api::TraceEvalMatcherOptions matching = options.online_eval;
  matching.enqueued = [jobs = parts_->jobs.get()] { jobs->wake(); };
  parts_->matcher = std::make_shared<server_api::TraceEvalMatcher>(store, std::move(matching));
  parts_->online_eval = std::make_unique<OnlineEvalWorker>(store, *parts_->judge, parts_->matcher->counters());
  parts_->jobs->handle(std::string(store::kOnlineEvalKind),
                       [online = parts_->online_eval.get()](const store::ClaimedJob& job, const Cancellation& lost) { (*online)(job, lost); });
  server_api::add_trace_eval_rule_routes(parts_->router, store, parts_->auth, [matcher = parts_->matcher] { matcher->invalidate(); });
  server_api::add_llm_connection_routes(parts_->router, store, parts_->auth, options.judge.environment);
  server_api::JudgeRouteOptions judge_routes;
  judge_routes.page_size = options.judge_page_size;
  judge_routes.max_attempts = options.judge_max_attempts;
  judge_routes.enqueued = [jobs = parts_->jobs.get()] { jobs->wake(); };
  server_api::add_judge_routes(parts_->router, store, parts_->auth, std::move(judge_routes));
  server_api::add_comparison_routes(parts_->router, store, parts_->comparisons, parts_->auth);
  server_api::TraceRouteOptions traces = options.traces;
  traces.max_inflated_bytes = static_cast<std::size_t>(options.http.max_body_bytes);
  traces.matcher = parts_->matcher;
  server_api::add_trace_routes(parts_->router, store, parts_->auth, std::move(traces));
  parts_->trace_sweeper = std::make_unique<TraceSweeper>(store, options.trace_retention);
  if (options.make_mcp_server) {
    parts_->mcp_server = options.make_mcp_server(store);
    McpHttpOptions mcp = options.mcp;
    // Listening on loopback, only local names may reach /mcp (DNS rebinding); elsewhere the
    // operator chose the names, and Origin is still checked.
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(options.http.host, ec);
    mcp.local_host_only = !ec && address.is_loopback();
    parts_->mcp_http = std::make_unique<McpHttpTransport>(*parts_->mcp_server, parts_->auth, std::move(mcp));
    parts_->mcp_http->add_routes(parts_->router);
  }
  add_ui_routes(parts_->router);
  parts_->http = std::make_unique<http_server::HttpServer>(parts_->io.context(), options.http, parts_->router,
                                                           [&metrics = parts_->metrics](const http_server::AccessRecord& record) {
                                                             log_access(record);
                                                             metrics.record(record);
                                                           });
}

// A server never stopped still ends its MCP tool calls before the I/O service they write to goes.
ResultsServer::~ResultsServer() {
  if (parts_->mcp_http) parts_->mcp_http->close();
}

void ResultsServer::start() {
  parts_->http->start();
  parts_->alerts->start();
  parts_->jobs->start();
  parts_->ended_run_indexer->start();
  parts_->trace_sweeper->start();
}

unsigned short ResultsServer::port() const { return parts_->http->port(); }

bool ResultsServer::stop(std::chrono::milliseconds grace) {
  auto stopped = std::make_shared<std::promise<void>>();
  parts_->http->stop([stopped] { stopped->set_value(); });
  // An agent's tool call may run for minutes: cancelled, so its stream ends and the stop is prompt.
  if (parts_->mcp_http) parts_->mcp_http->close();
  const bool finished = stopped->get_future().wait_for(grace) == std::future_status::ready;
  // What the worker holds goes back to the queue when its lease ends (or at the next start).
  parts_->alerts->stop();
  parts_->jobs->stop();  // a page it was judging goes back to the queue when its lease ends
  parts_->ended_run_indexer->stop();  // a build cut off here is done again at the next start
  parts_->trace_sweeper->stop();
  return finished;
}

}  // namespace krino::core::server
