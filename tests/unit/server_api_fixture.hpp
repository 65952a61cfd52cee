#pragma once
// A results server on loopback for the API tests, on either backend: SQLite on a fresh file, or a
// fresh database of one PostgreSQL cluster shared by the executable. Every route is mounted, as
// `krino serve` mounts them.
#include "krino/core/common/io_service.hpp"
#include "krino/core/http_server/http_server.hpp"
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
#include "krino/core/store/postgres_connection.hpp"
#include "krino/core/server_api/trace_eval_rule_routes.hpp"
#include "krino/core/server_api/trace_routes.hpp"
#include "krino/core/store/postgres_store.hpp"
#include "krino/core/store/sqlite_store.hpp"

#include "../support/scratch_directory.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"

#include <boost/json.hpp>
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace krino::test {

using namespace krino::core;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::HttpResult;
using krino::fake_llm::test::TestHttpClient;

// One cluster for the whole executable, started on first use on the test's main thread.
inline krino::test::PostgresCluster& cluster() {
  static krino::test::PostgresCluster instance;
  return instance;
}

// open() makes the fixture's store; reopen() another on the same database (a restarted server);
// text_index_tables() counts what the runs' text search indexes take: on SQLite the index files
// (text-index/) and any index table in the main file; on PostgreSQL the tables and their indexes.
struct OnSqlite {
  krino::test::ScratchDirectory scratch;
  std::unique_ptr<store::Store> open() { return reopen(); }
  std::unique_ptr<store::Store> reopen() { return std::make_unique<store::SqliteStore>(scratch / "krino.db"); }
  std::int64_t text_index_tables() {
    store::SqliteConnection connection((scratch / "krino.db").string());
    store::SqliteStatement count = connection.prepare("SELECT count(*) FROM sqlite_schema WHERE name GLOB 'item_text_*'");
    count.step();
    std::int64_t files = 0;
    std::error_code absent;
    for (std::filesystem::directory_iterator file(scratch / "text-index", absent), end; !absent && file != end; ++file) ++files;
    return count.integer(0) + files;
  }
};
struct OnPostgres {
  std::string database;
  std::unique_ptr<store::Store> open() {
    database = cluster().new_database();
    return reopen();
  }
  std::unique_ptr<store::Store> reopen() { return std::make_unique<store::PostgresStore>(database); }
  std::int64_t text_index_tables() {
    store::PgConnection connection(database);
    return connection.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'item\\_text\\_%'").integer(0, 0);
  }
};
using Backends = boost::mpl::list<OnSqlite, OnPostgres>;

template <class Backend>
struct ServerFixture {
  ServerFixture() : store(backend.open()) {
    auth = std::make_unique<server_api::Authenticator>(*store, auth_options);
    server_api::add_run_routes(router, *store, *auth, ingest);
    server_api::add_run_view_routes(router, *store, *auth);
    server_api::add_project_routes(router, *store, *auth);
    server_api::add_gate_log_routes(router, *store, *auth);
    server_api::add_key_routes(router, *store, *auth);
    server_api::add_alert_routes(router, *store, *auth);
    server_api::add_dataset_routes(router, *store, *auth);
    server_api::add_review_routes(router, *store, *auth);
    server_api::add_llm_connection_routes(router, *store, *auth, [this](const std::string& name) -> std::optional<std::string> {
      const std::lock_guard<std::mutex> lock(environment_mutex);
      const auto found = environment.find(name);
      if (found == environment.end()) return std::nullopt;
      return found->second;
    });
    server_api::JudgeRouteOptions judge_options;
    judge_options.page_size = judge_page_size;
    server_api::add_judge_routes(router, *store, *auth, judge_options);
    comparisons = std::make_unique<server_api::RunComparisons>(*store, ComparisonOptions{});
    server_api::add_comparison_routes(router, *store, *comparisons, *auth);
    server_api::TraceEvalMatcherOptions matching;
    matching.trace_delay_ms = 0;  // a whole trace is scored as soon as a worker claims it
    matcher = std::make_shared<server_api::TraceEvalMatcher>(*store, matching);
    server_api::add_trace_eval_rule_routes(router, *store, *auth, [matcher = matcher] { matcher->invalidate(); });
    server_api::TraceRouteOptions trace_options;
    trace_options.matcher = matcher;
    server_api::add_trace_routes(router, *store, *auth, std::move(trace_options));
    http_server::HttpServerOptions options;
    options.port = 0;
    server = std::make_unique<http_server::HttpServer>(io.context(), options, router);
    server->start();
    client = std::make_unique<TestHttpClient>(server->port());
  }

  // Stops the server the way `krino serve` does, so no handler is still running when the store,
  // the routes and the I/O service go.
  ~ServerFixture() {
    client.reset();
    auto stopped = std::make_shared<std::promise<void>>();
    server->stop([stopped] { stopped->set_value(); });
    stopped->get_future().wait_for(std::chrono::seconds(30));
  }

  HttpResult call(std::string method, std::string target, std::string body = "", std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpCall request;
    request.deadline = std::chrono::minutes(2);  // a batch of 100,000 items, under a sanitizer
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.headers = std::move(headers);
    request.headers.emplace_back("Content-Type", "application/json");
    return client->send(request);
  }

  std::string new_run() {
    const HttpResult created = this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa","metadata":{"model":"m1"}})");
    BOOST_REQUIRE_EQUAL(created.status(), 201u);
    return std::string(krino::json::parse(created.body()).at("runId").as_string());
  }

  Backend backend;
  std::unique_ptr<store::Store> store;
  // What the LLM connection routes read as the server's environment (KRINO_ENCRYPTION_KEY).
  std::mutex environment_mutex;
  std::map<std::string, std::string> environment;
  std::int64_t judge_page_size = 2;  // small pages, so a few items make several
  server_api::AuthOptions auth_options;  // open until a test makes a key
  std::unique_ptr<server_api::Authenticator> auth;
  std::unique_ptr<server_api::RunComparisons> comparisons;
  std::shared_ptr<server_api::TraceEvalMatcher> matcher;  // trace eval rules matched at ingestion
  server_api::IngestCounters ingest;
  http_server::Router router;
  IoService io{1};
  std::unique_ptr<http_server::HttpServer> server;
  std::unique_ptr<TestHttpClient> client;
};

}  // namespace krino::test
