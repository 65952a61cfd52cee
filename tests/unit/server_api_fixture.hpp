#pragma once
// A results server on loopback for the API tests, on either backend: SQLite on a fresh file, or a
// fresh database of one PostgreSQL cluster shared by the executable. Every route is mounted, as
// `krino serve` mounts them.
#include "krino/core/common/io_service.hpp"
#include "krino/core/http_server/http_server.hpp"
#include "krino/core/server_api/alert_routes.hpp"
#include "krino/core/server_api/dataset_routes.hpp"
#include "krino/core/server_api/review_routes.hpp"
#include "krino/core/server_api/comparison_routes.hpp"
#include "krino/core/server_api/gate_log_routes.hpp"
#include "krino/core/server_api/key_routes.hpp"
#include "krino/core/server_api/project_routes.hpp"
#include "krino/core/server_api/run_routes.hpp"
#include "krino/core/server_api/run_view_routes.hpp"
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
#include <future>
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

struct OnSqlite {
  krino::test::ScratchDirectory scratch;
  std::unique_ptr<store::Store> open() { return std::make_unique<store::SqliteStore>(scratch / "krino.db"); }
};
struct OnPostgres {
  std::unique_ptr<store::Store> open() { return std::make_unique<store::PostgresStore>(cluster().new_database()); }
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
    comparisons = std::make_unique<server_api::RunComparisons>(*store, ComparisonOptions{});
    server_api::add_comparison_routes(router, *store, *comparisons, *auth);
    server_api::add_trace_routes(router, *store, *auth, {});
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
  server_api::AuthOptions auth_options;  // open until a test makes a key
  std::unique_ptr<server_api::Authenticator> auth;
  std::unique_ptr<server_api::RunComparisons> comparisons;
  server_api::IngestCounters ingest;
  http_server::Router router;
  IoService io{1};
  std::unique_ptr<http_server::HttpServer> server;
  std::unique_ptr<TestHttpClient> client;
};

}  // namespace krino::test
