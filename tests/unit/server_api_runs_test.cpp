// The results server's run endpoints end to end over loopback HTTP on a real SQLite file: create a
// run, send batches (a retried batch stored once), end it, read it back page by page with every
// number as sent; and the 4xx answers that name what is wrong, with nothing stored half-way.
#include "server_api_fixture.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

using namespace krino::core;
using namespace krino::test;
using krino::fake_llm::test::HttpResult;

namespace {

const char* const kBatch = R"({"items":[
  {"inputs":{"q":"a"},"actualOutputs":{"output":"x"},"success":true,"datasetItemId":"d-1",
   "evalResults":[{"name":"exact","score":1.0,"threshold":0.5,"success":true,"reason":"","metadata":{}}],
   "tokensIn":12,"costUsd":0.30000000000000004},
  {"inputs":{"q":"b","big":123456789012345678901234567890},"success":false,
   "evalResults":[{"name":"exact","score":2.5e-300,"success":false}],"metrics":{"tokensIn":3,"costUsd":1e-7}}
]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_runs)

// The run page's average latency card: a sum and a count kept as batches arrive, over the items
// that had a latency only (an item without one is not a zero).
BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_mean_latency_counts_only_the_items_that_had_one, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  const auto mean = [&] {
    const HttpResult read = this->call("GET", "/api/v1/runs/" + run + "?size=1");
    BOOST_REQUIRE_EQUAL(read.status(), 200u);
    return krino::json::parse(read.body()).at("latencyMsMean");
  };
  BOOST_TEST(mean().is_null());  // no item yet
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items", R"({"items":[{"inputs":{},"success":true}]})").status() == 201u);
  BOOST_TEST(mean().is_null());  // an item without a latency
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items",
                        R"({"items":[{"inputs":{},"success":true,"latencyMs":100},{"inputs":{},"success":false,"metrics":{"latencyMs":250}}]})")
                 .status() == 201u);
  BOOST_TEST(mean().as_double() == 175.0);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items", R"({"items":[{"inputs":{},"success":true,"latencyMs":0.5}]})").status() == 201u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 200u);
  BOOST_TEST(mean().as_double() == 350.5 / 3);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_reported_run_reads_back_with_its_totals_and_items_as_sent, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items", kBatch, {{"Idempotency-Key", "k-1"}}).status() == 201u);
  const HttpResult retried = this->call("POST", "/api/v1/runs/" + run + "/items", kBatch, {{"Idempotency-Key", "k-1"}});
  BOOST_TEST(retried.status() == 200u);
  BOOST_TEST(retried.body().find("alreadyStored") != std::string::npos);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 200u);

  const HttpResult read = this->call("GET", "/api/v1/runs/" + run + "?page=0&size=1");
  BOOST_REQUIRE_EQUAL(read.status(), 200u);
  const boost::json::object details = krino::json::parse(read.body()).as_object();
  BOOST_TEST(details.at("status").as_string() == "SUCCESS");
  BOOST_TEST(details.at("projectName").as_string() == "shop");
  BOOST_TEST(details.at("totalItems").as_int64() == 2);
  BOOST_TEST(details.at("passedItems").as_int64() == 1);
  BOOST_TEST(details.at("passRate").as_double() == 0.5);
  BOOST_TEST(details.at("costUsd").as_double() == 0.30000000000000004 + 1e-7);
  BOOST_TEST(details.at("tokensIn").as_int64() == 15);
  BOOST_TEST(details.at("pricedItemCount").as_int64() == 2);
  BOOST_TEST(details.at("config").at("model").as_string() == "m1");
  const auto& page = details.at("items").as_object();
  BOOST_TEST(page.at("totalPages").as_int64() == 2);
  BOOST_TEST(page.at("last").as_bool() == false);
  BOOST_TEST(page.at("content").as_array().size() == 1u);

  const HttpResult second = this->call("GET", "/api/v1/runs/" + run + "?page=1&size=1");
  // The 30-digit integer and the subnormal score come back as written.
  BOOST_TEST(second.body().find("\"big\":123456789012345678901234567890") != std::string::npos, second.body());
  BOOST_TEST(second.body().find("\"score\":2.5e-300") != std::string::npos, second.body());
  BOOST_TEST(second.body().find("\"index\":1") != std::string::npos, second.body());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(bad_batches_are_400s_naming_the_field_and_store_nothing, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  const std::string items = "/api/v1/runs/" + run + "/items";
  const auto refused = [&](const std::string& body, const std::string& field) {
    const HttpResult result = this->call("POST", items, body);
    BOOST_TEST(result.status() == 400u, body);
    BOOST_TEST(result.body().find(field) != std::string::npos, result.body());
  };
  refused("not json", "body");
  refused(R"({"items":[]})", "items");
  refused(R"({"items":[{"success":true},{"success":"yes"}]})", "items[1].success");
  refused(R"({"items":[{"success":true,"evalResults":[{"name":"e","score":"high","success":true}]}]})", "items[0].evalResults[0].score");
  refused(R"({"items":[{"success":true,"success":false}]})", "items[0]");
  refused(R"({"items":[{"success":true,"costUsd":1e400}]})", "items[0].costUsd");
  refused(R"({"items":[{"success":true,"tokensIn":-3}]})", "items[0].tokensIn");
  refused(R"({"items":[{"success":true,"inputs":"q"}]})", "items[0].inputs");
  refused(R"({"items":[{"success":false,"error":"boom"}]})", "items[0].error");  // an item error is an object
  refused("{\"items\":[{\"success\":true,\"inputs\":{\"q\":\"\xff\xfe\"}}]}", "body");  // not UTF-8
  // 100,000 items in one batch, the last one wrong: refused whole, naming it.
  std::string big = R"({"items":[)";
  for (int i = 0; i < 100000; ++i) big += std::string(i > 0 ? "," : "") + R"({"inputs":{"n":)" + std::to_string(i) + R"(,"text":"é漢😀"},"success":true})";
  refused(big + R"(,{"success":"no"}]})", "items[100000].success");
  HttpResult read = this->call("GET", "/api/v1/runs/" + run);
  BOOST_TEST(krino::json::parse(read.body()).at("totalItems").as_int64() == 0);
  // The same 100,000 without it: stored, every one.
  BOOST_TEST(this->call("POST", items, big + "]}").status() == 201u);
  read = this->call("GET", "/api/v1/runs/" + run + "?page=99999&size=1");
  BOOST_TEST(krino::json::parse(read.body()).at("totalItems").as_int64() == 100000);
  BOOST_TEST(read.body().find(R"("n":99999,"text":"é漢😀")") != std::string::npos, read.body());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(unknown_and_ended_runs_and_bad_requests_get_their_status, Backend, Backends, ServerFixture<Backend>) {
  BOOST_TEST(this->call("GET", "/api/v1/runs/not-a-uuid").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/0190a0b0-c0d0-7000-8000-000000000000").status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/0190a0b0-c0d0-7000-8000-000000000000/items", kBatch).status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"  "})").status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/shop/runs", R"({"metadata":{}})").status() == 400u);
  const std::string run = this->new_run();
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"DONE"})").status() == 400u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"FAILED"})").status() == 200u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 409u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items", kBatch).status() == 409u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + run + "?size=0").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + run + "?page=x").status() == 400u);
  // SQL metacharacters are data: the project is created with that name and nothing else happens.
  const HttpResult odd = this->call("POST", "/api/v1/projects/x'%3B%20DROP%20TABLE%20runs%3B--/runs", R"({"experimentName":"q\"'; --"})");
  BOOST_TEST(odd.status() == 201u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + run).status() == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
