// Server datasets over loopback HTTP on both backends: create, versions (immutable, numbered from
// 1, `latest`), items paged by ordinal with ids given or derived from the inputs, the refusals
// that name the field, delete, tenants, and a version of 100,000 items in one request.
#include "server_api_fixture.hpp"

using namespace krino::test;

namespace {

using DatasetResult = krino::fake_llm::test::HttpResult;
using DatasetHeaders = std::vector<std::pair<std::string, std::string>>;

DatasetHeaders dataset_bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

boost::json::value dataset_json(const DatasetResult& result) { return krino::json::parse(result.body()); }

std::string field_of(const DatasetResult& result) { return std::string(dataset_json(result).at("message").as_string()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_datasets)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(versions_are_numbered_immutable_and_paged_by_ordinal, Backend, Backends, ServerFixture<Backend>) {
  const DatasetResult created = this->call("POST", "/api/v1/datasets", R"({"name":"qa-set","description":"capitals"})");
  BOOST_REQUIRE_EQUAL(created.status(), 201u);
  BOOST_TEST(created.response[boost::beast::http::field::location] == "/api/v1/datasets/qa-set");
  BOOST_TEST(dataset_json(created).at("latestVersion").is_null());
  BOOST_TEST(this->call("POST", "/api/v1/datasets", R"({"name":"qa-set"})").status() == 409u);

  const DatasetResult v1 = this->call("POST", "/api/v1/datasets/qa-set/versions",
                                   R"({"description":"first","items":[)"
                                   R"({"id":"fr","inputs":{"q":"Capital of France?"},"expectedOutputs":{"answer":"Paris"}},)"
                                   R"({"inputs":{"q":"Capital of Spain?","n":1.50},"metadata":{"src":"atlas"}},)"
                                   R"({"id":7,"inputs":{"q":"Capital of Italy?"},"expectedOutputs":{"answer":"Rome"}}]})");
  BOOST_REQUIRE_EQUAL(v1.status(), 201u);
  BOOST_TEST(v1.response[boost::beast::http::field::location] == "/api/v1/datasets/qa-set/versions/1");
  BOOST_TEST(dataset_json(v1).at("version").as_int64() == 1);
  BOOST_TEST(dataset_json(v1).at("itemCount").as_int64() == 3);
  const DatasetResult v2 = this->call("POST", "/api/v1/datasets/qa-set/versions", R"({"items":[{"inputs":{"q":"Capital of Peru?"}}]})");
  BOOST_REQUIRE_EQUAL(v2.status(), 201u);
  BOOST_TEST(dataset_json(v2).at("version").as_int64() == 2);

  // The list shows the latest version and its item count; the dataset its versions newest first.
  const auto list = dataset_json(this->call("GET", "/api/v1/datasets")).as_array();
  BOOST_REQUIRE_EQUAL(list.size(), 1u);
  BOOST_TEST(list[0].at("latestVersion").as_int64() == 2);
  BOOST_TEST(list[0].at("itemCount").as_int64() == 1);
  const auto one = dataset_json(this->call("GET", "/api/v1/datasets/qa-set"));
  BOOST_TEST(one.at("description").as_string() == "capitals");
  BOOST_REQUIRE_EQUAL(one.at("versions").as_array().size(), 2u);
  BOOST_TEST(one.at("versions").as_array()[0].at("version").as_int64() == 2);
  BOOST_TEST(one.at("versions").as_array()[1].at("description").as_string() == "first");
  BOOST_TEST(dataset_json(this->call("GET", "/api/v1/datasets/qa-set/versions/latest")).at("version").as_int64() == 2);
  BOOST_TEST(dataset_json(this->call("GET", "/api/v1/datasets/qa-set/versions/1")).at("itemCount").as_int64() == 3);
  for (const char* missing : {"3", "0", "-1", "x", "01x"})
    BOOST_TEST(this->call("GET", std::string("/api/v1/datasets/qa-set/versions/") + missing).status() == 404u, missing);

  // Items of version 1, two to a page: exact bytes kept, ids given (a number as its text) or
  // derived from the inputs.
  const DatasetResult first = this->call("GET", "/api/v1/datasets/qa-set/versions/1/items?page=0&size=2");
  BOOST_REQUIRE_EQUAL(first.status(), 200u);
  BOOST_TEST(first.body().find(R"("n":1.50)") != std::string::npos);
  const auto page0 = dataset_json(first);
  BOOST_TEST(page0.at("totalElements").as_int64() == 3);
  BOOST_TEST(page0.at("last").as_bool() == false);
  const auto& content = page0.at("content").as_array();
  BOOST_REQUIRE_EQUAL(content.size(), 2u);
  BOOST_TEST(content[0].at("id").as_string() == "fr");
  BOOST_TEST(content[0].at("ordinal").as_int64() == 0);
  BOOST_TEST(content[0].at("expectedOutputs").at("answer").as_string() == "Paris");
  BOOST_TEST(content[0].at("metadata").is_null());
  const std::string derived(content[1].at("id").as_string());
  BOOST_TEST(derived.rfind("in-", 0) == 0);
  BOOST_TEST(derived.size() == 19u);
  BOOST_TEST(content[1].at("expectedOutputs").is_null());
  BOOST_TEST(content[1].at("metadata").at("src").as_string() == "atlas");
  const auto page1 = dataset_json(this->call("GET", "/api/v1/datasets/qa-set/versions/1/items?page=1&size=2"));
  BOOST_TEST(page1.at("last").as_bool() == true);
  BOOST_REQUIRE_EQUAL(page1.at("content").as_array().size(), 1u);
  BOOST_TEST(page1.at("content").as_array()[0].at("id").as_string() == "7");
  BOOST_TEST(page1.at("content").as_array()[0].at("ordinal").as_int64() == 2);

  // The same inputs, in any member order, get the same derived id in a later version.
  const DatasetResult v3 = this->call("POST", "/api/v1/datasets/qa-set/versions", R"({"items":[{"inputs":{"n":1.5,"q":"Capital of Spain?"}}]})");
  BOOST_REQUIRE_EQUAL(v3.status(), 201u);
  const auto latest = dataset_json(this->call("GET", "/api/v1/datasets/qa-set/versions/latest/items"));
  BOOST_TEST(latest.at("version").as_int64() == 3);
  BOOST_TEST(latest.at("size").as_int64() == 50);
  BOOST_TEST(latest.at("content").as_array()[0].at("id").as_string() == derived);

  // Version 1 is unchanged by the versions after it.
  BOOST_TEST(dataset_json(this->call("GET", "/api/v1/datasets/qa-set/versions/1/items")).at("content").as_array().size() == 3u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(bad_bodies_are_refused_naming_the_field, Backend, Backends, ServerFixture<Backend>) {
  for (const char* body : {R"({"name":""})", R"({"name":"a/b"})", R"({"name":"a@1"})", R"({"name":7})", R"({})", "[]", "{"}) {
    BOOST_TEST(this->call("POST", "/api/v1/datasets", body).status() == 400u, body);
  }
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"d"})").status(), 201u);
  const auto refused = [&](const std::string& body) {
    const DatasetResult result = this->call("POST", "/api/v1/datasets/d/versions", body);
    BOOST_TEST(result.status() == 400u, body);
    return field_of(result);
  };
  BOOST_TEST(refused(R"({"items":{}})").rfind("items ", 0) == 0);
  BOOST_TEST(refused(R"({"items":[{"inputs":{"q":1}},{"expectedOutputs":{}}]})").rfind("items[1].inputs is required", 0) == 0);
  BOOST_TEST(refused(R"({"items":[{"inputs":{"q":1},"expectedOutputs":"x"}]})").rfind("items[0].expectedOutputs", 0) == 0);
  BOOST_TEST(refused(R"({"items":[{"inputs":{"q":1},"metadata":[]}]})").rfind("items[0].metadata", 0) == 0);
  BOOST_TEST(refused(R"({"items":[{"id":true,"inputs":{}}]})").rfind("items[0].id", 0) == 0);
  BOOST_TEST(refused(R"({"items":[{"id":"a","inputs":{}},{"id":"a","inputs":{"x":1}}]})").find("items[1].id \"a\"") == 0);
  BOOST_TEST(refused(R"({"items":[{"inputs":{"q":1}},{"inputs":{"q":1}}]})").rfind("items[1].id", 0) == 0);
  BOOST_TEST(refused(R"({"items":[3]})").rfind("items[0] must be an object", 0) == 0);
  BOOST_TEST(this->call("POST", "/api/v1/datasets/nope/versions", R"({"items":[]})").status() == 404u);
  // Nothing refused became a version.
  BOOST_TEST(dataset_json(this->call("GET", "/api/v1/datasets/d")).at("versions").as_array().empty());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(delete_removes_every_version_and_leaves_runs, Backend, Backends, ServerFixture<Backend>) {
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"gone"})").status(), 201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/gone/versions", R"({"items":[{"inputs":{"q":1}}]})").status(), 201u);
  const DatasetResult run = this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa","datasetVersion":"gone@1"})");
  BOOST_REQUIRE_EQUAL(run.status(), 201u);
  const std::string run_id(dataset_json(run).at("runId").as_string());
  BOOST_TEST(this->call("DELETE", "/api/v1/datasets/gone").status() == 204u);
  BOOST_TEST(this->call("DELETE", "/api/v1/datasets/gone").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/datasets/gone/versions/1").status() == 404u);
  const DatasetResult kept = this->call("GET", "/api/v1/runs/" + run_id);
  BOOST_TEST(kept.status() == 200u);
  BOOST_TEST(dataset_json(kept).at("datasetVersion").as_string() == "gone@1");
  // The name is free again, and its versions start again at 1.
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"gone"})").status(), 201u);
  const DatasetResult again = this->call("POST", "/api/v1/datasets/gone/versions", R"({"items":[{"inputs":{"q":2}}]})");
  BOOST_TEST(dataset_json(again).at("version").as_int64() == 1);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(writes_need_an_editor_and_tenants_see_their_own, Backend, Backends, ServerFixture<Backend>) {
  const DatasetResult root = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  BOOST_REQUIRE_EQUAL(root.status(), 201u);
  const std::string root_key(dataset_json(root).at("key").as_string());
  auto key = [&](const std::string& role, const std::string& tenant) {
    const DatasetResult made = this->call("POST", "/api/v1/api-keys", R"({"name":"k","role":")" + role + R"(","tenantId":")" + tenant + R"("})",
                                       dataset_bearer(root_key));
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    return std::string(dataset_json(made).at("key").as_string());
  };
  const std::string a_editor = key("EDITOR", "a");
  const std::string a_viewer = key("VIEWER", "a");
  const std::string b_editor = key("EDITOR", "b");
  BOOST_TEST(this->call("POST", "/api/v1/datasets", R"({"name":"x"})").status() == 401u);
  BOOST_TEST(this->call("POST", "/api/v1/datasets", R"({"name":"x"})", dataset_bearer(a_viewer)).status() == 403u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"x"})", dataset_bearer(a_editor)).status(), 201u);
  // Tenant b has its own "x"; it never sees a's.
  BOOST_TEST(this->call("GET", "/api/v1/datasets/x", {}, dataset_bearer(b_editor)).status() == 404u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"x"})", dataset_bearer(b_editor)).status(), 201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/x/versions", R"({"items":[{"inputs":{"who":"b"}}]})", dataset_bearer(b_editor)).status(), 201u);
  BOOST_TEST(this->call("GET", "/api/v1/datasets/x/versions/1", {}, dataset_bearer(a_viewer)).status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/datasets", {}, dataset_bearer(a_viewer)).body().find("\"tenantId\":\"b\"") == std::string::npos);
  BOOST_TEST(this->call("DELETE", "/api/v1/datasets/x", {}, dataset_bearer(a_viewer)).status() == 403u);
  BOOST_TEST(this->call("DELETE", "/api/v1/datasets/x", {}, dataset_bearer(a_editor)).status() == 204u);
  BOOST_TEST(this->call("GET", "/api/v1/datasets/x/versions/1", {}, dataset_bearer(b_editor)).status() == 200u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_version_of_100000_items_is_one_request, Backend, Backends, ServerFixture<Backend>) {
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"big"})").status(), 201u);
  std::string body = R"({"items":[)";
  constexpr int kItems = 100000;
  for (int i = 0; i < kItems; ++i) {
    if (i > 0) body += ',';
    body.append(R"({"id":"q)").append(std::to_string(i)).append(R"(","inputs":{"q":"question )").append(std::to_string(i));
    body.append(R"("},"expectedOutputs":{"a":)").append(std::to_string(i)).append("}}");
  }
  body += "]}";
  const auto started = std::chrono::steady_clock::now();
  const DatasetResult made = this->call("POST", "/api/v1/datasets/big/versions", body);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  BOOST_TEST_MESSAGE(this->store->backend() << ": 100,000 dataset items in " << took.count() << " ms (" << body.size() << " bytes)");
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  BOOST_TEST(dataset_json(made).at("itemCount").as_int64() == kItems);
  const auto last = dataset_json(this->call("GET", "/api/v1/datasets/big/versions/1/items?page=99&size=1000"));
  BOOST_TEST(last.at("content").as_array().back().at("id").as_string() == "q99999");
  BOOST_TEST(last.at("content").as_array().back().at("ordinal").as_int64() == kItems - 1);
  BOOST_TEST(last.at("last").as_bool());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_version_diff_lists_added_removed_and_changed_by_id, Backend, Backends, ServerFixture<Backend>) {
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"qa"})").status(), 201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"other"})").status(), 201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/qa/versions",
                                 R"({"items":[{"id":"a","inputs":{"q":"A"},"expectedOutputs":{"x":1}},{"id":"b","inputs":{"q":"B"},"expectedOutputs":{"x":2}},)"
                                 R"({"id":"c","inputs":{"q":"C"}},{"id":"d","inputs":{"q":"D"},"expectedOutputs":{"x":4}}]})")
                        .status(),
                    201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/qa/versions",
                                 R"({"items":[{"id":"b","inputs":{"q":"B"},"expectedOutputs":{"x":20}},{"id":"c","inputs":{"q":"C"},"expectedOutputs":{"x":3}},)"
                                 R"({"id":"e","inputs":{"q":"<img src=x>"}},{"id":"d","inputs":{"q":"D?"},"expectedOutputs":{"x":4}}]})")
                        .status(),
                    201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/other/versions", R"({"items":[{"id":"a","inputs":{"q":"A"},"expectedOutputs":{"x":1}}]})").status(), 201u);

  const DatasetResult answer = this->call("GET", "/api/v1/datasets/qa/diff?from=1&to=latest");
  BOOST_REQUIRE_EQUAL(answer.status(), 200u);
  const auto diff = dataset_json(answer);
  BOOST_TEST(diff.at("from").as_string() == "qa@1");
  BOOST_TEST(diff.at("to").as_string() == "qa@2");
  BOOST_TEST(diff.at("addedCount").as_int64() == 1);
  BOOST_TEST(diff.at("removedCount").as_int64() == 1);
  BOOST_TEST(diff.at("changedCount").as_int64() == 2);
  BOOST_TEST(diff.at("inputsChanged").as_int64() == 1);
  BOOST_TEST(!diff.at("truncated").as_bool());
  BOOST_TEST(diff.at("added").as_array()[0].at("id").as_string() == "e");
  BOOST_TEST(diff.at("added").as_array()[0].at("inputs").at("q").as_string() == "<img src=x>");
  BOOST_TEST(diff.at("added").as_array()[0].at("expectedOutputs").is_null());
  BOOST_TEST(diff.at("removed").as_array()[0].at("id").as_string() == "a");
  const auto& changed = diff.at("changed").as_array();
  BOOST_REQUIRE_EQUAL(changed.size(), 2u);
  BOOST_TEST(changed[0].at("id").as_string() == "b");
  BOOST_TEST(changed[0].at("before").at("x").as_int64() == 2);
  BOOST_TEST(changed[0].at("after").at("x").as_int64() == 20);
  BOOST_TEST(changed[1].at("id").as_string() == "c");
  BOOST_TEST(changed[1].at("before").is_null());

  // The lists stop at `limit`; the counts stay whole.
  const auto cut = dataset_json(this->call("GET", "/api/v1/datasets/qa/diff?from=1&to=2&limit=1"));
  BOOST_TEST(cut.at("changed").as_array().size() == 1u);
  BOOST_TEST(cut.at("changedCount").as_int64() == 2);
  BOOST_TEST(cut.at("truncated").as_bool());
  // Another dataset's version on the left.
  const auto across = dataset_json(this->call("GET", "/api/v1/datasets/qa/diff?fromDataset=other&from=1&to=1"));
  BOOST_TEST(across.at("from").as_string() == "other@1");
  BOOST_TEST(across.at("addedCount").as_int64() == 3);
  BOOST_TEST(across.at("removedCount").as_int64() == 0);
  // Refusals name what is wrong.
  BOOST_TEST(this->call("GET", "/api/v1/datasets/qa/diff?from=1").status() == 400u);
  BOOST_TEST(field_of(this->call("GET", "/api/v1/datasets/qa/diff?from=x&to=1")).find("from") != std::string::npos);
  BOOST_TEST(this->call("GET", "/api/v1/datasets/qa/diff?from=1&to=9").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/datasets/none/diff?from=1&to=1").status() == 404u);
}

BOOST_AUTO_TEST_SUITE_END()
