#pragma once
// `krino serve` put together: the store, the REST API and the health endpoints on one HTTP
// listener. The command line only parses its options into ResultsServerOptions and waits for a
// signal (DESIGN.md §9).
//
//   GET /healthz   200 {"status":"UP"} while the process serves requests (liveness)
//   GET /readyz    200 when the database answers and its schema is current, else 503 (readiness)
//   GET /metrics   Prometheus text: requests by method and code, request durations
//   /mcp           MCP over Streamable HTTP, when the command gives an MCP server (mcp_http_transport.hpp)
//   /v1/traces     OTLP/HTTP trace ingestion, and /api/v1/traces (trace_routes.hpp), swept by retention;
//                  spans matched against trace eval rules (trace_eval_rule_routes.hpp) are scored online
#include "krino/core/http_server/http_server.hpp"
#include "krino/core/server/alert_dispatcher.hpp"
#include "krino/core/server/job_worker.hpp"
#include "krino/core/server/judge_page_worker.hpp"
#include "krino/core/server/mcp_http_transport.hpp"
#include "krino/core/server/online_eval_worker.hpp"
#include "krino/core/server/trace_sweeper.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/server_api/trace_routes.hpp"
#include "krino/core/store/store.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace krino::core::server {

struct ResultsServerOptions {
  http_server::HttpServerOptions http;
  std::string database;  // a SQLite file, or a postgresql:// URI (store/open_store.hpp)
  server_api::AuthOptions auth;
  int io_threads = 2;
  AlertOptions alerts;  // the regression-alert worker: polling, retries, leases
  // The job queue's worker (judge pages today): slots, polling, leases; and the judge's settings.
  JobWorkerOptions jobs;
  JudgeWorkerOptions judge;
  std::int64_t judge_page_size = 50;    // items per judge page: per model-call batch and per write transaction
  std::int64_t judge_max_attempts = 3;  // claims of one page (its workers died or failed) before its items are errors
  // The MCP server answered at /mcp, built with the server's store (so what an agent runs is stored
  // where the API shows it); empty: no /mcp.
  std::function<std::unique_ptr<mcp::McpServer>(store::Store&)> make_mcp_server;
  McpHttpOptions mcp;
  // Production traces: OTLP ingestion and reads (trace_routes.hpp; the gzip bound is the body
  // limit), and their retention.
  server_api::TraceRouteOptions traces;
  TraceRetentionOptions trace_retention;
  // Online evaluation of traces: the ingestion matcher's settle delay for TRACE rules, its rule
  // cache's freshness, and the attempts of one online_eval job (trace_eval_matcher.hpp).
  server_api::TraceEvalMatcherOptions online_eval;
};

class ResultsServer {
 public:
  // Opens (creating a SQLite file) the database and applies its migrations; throws KrinoError
  // naming the file or server.
  explicit ResultsServer(ResultsServerOptions options);
  ~ResultsServer();

  // Listens; throws KrinoError naming the address when it cannot.
  void start();
  unsigned short port() const;
  // Stops accepting, ends MCP tool calls in progress (cancelled: their streams end), lets requests
  // in progress finish (up to `grace`), then returns. Returns false when some were still running
  // after `grace`.
  bool stop(std::chrono::milliseconds grace);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace krino::core::server
