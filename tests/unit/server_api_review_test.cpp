// Review and curation over loopback HTTP on both backends: the queue (oldest first, filters, who is
// in it), annotations by several reviewers (the latest verdict decides), and promotion of run items
// into a dataset's next version (corrections from the request or a reviewer; items replaced in
// place by dataset item id, new ones appended).
#include "server_api_fixture.hpp"

using namespace krino::test;

namespace {

using ReviewResult = krino::fake_llm::test::HttpResult;
using ReviewHeaders = std::vector<std::pair<std::string, std::string>>;

ReviewHeaders review_bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }
boost::json::value review_json(const ReviewResult& result) { return krino::json::parse(result.body()); }

// A run of three items: d0 (passed), d1 and d2 (failed), ids d0..d2 of dataset version qa@1.
template <class Fixture>
std::pair<std::string, std::vector<std::string>> reviewed_run(Fixture& f, const ReviewHeaders& key = {}) {
  const ReviewResult created =
      f.call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa","datasetVersion":"qa@1"})", key);
  BOOST_REQUIRE_EQUAL(created.status(), 201u);
  const std::string run(review_json(created).at("runId").as_string());
  const ReviewResult added = f.call("POST", "/api/v1/runs/" + run + "/items", R"({"items":[
    {"inputs":{"q":"France?"},"expectedOutputs":{"answer":"Paris"},"actualOutputs":{"answer":"Paris"},"success":true,"datasetItemId":"d0",
     "evalResults":[{"name":"exact","score":1,"success":true}]},
    {"inputs":{"q":"Spain?"},"expectedOutputs":{"answer":"Madird"},"actualOutputs":{"answer":"Madrid"},"success":false,"datasetItemId":"d1",
     "metadata":{"src":"atlas"},"evalResults":[{"name":"exact","score":0,"success":false}]},
    {"inputs":{"q":"Italy?"},"expectedOutputs":{"answer":"Milan"},"actualOutputs":{"answer":"Rome"},"success":false,"datasetItemId":"d2",
     "evalResults":[{"name":"exact","score":0,"success":false}]}]})", key);
  BOOST_REQUIRE_EQUAL(added.status(), 201u);
  BOOST_REQUIRE_EQUAL(f.call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})", key).status(), 200u);
  std::vector<std::string> items;
  const boost::json::value details = review_json(f.call("GET", "/api/v1/runs/" + run));
  for (const auto& item : details.at("items").at("content").as_array())
    items.emplace_back(item.at("id").as_string());
  return {run, items};
}

template <class Fixture>
std::vector<std::string> queued(Fixture& f, const std::string& query = "") {
  std::vector<std::string> ids;
  const boost::json::value page = review_json(f.call("GET", "/api/v1/review-queue" + query));
  for (const auto& entry : page.at("content").as_array())
    ids.emplace_back(entry.at("datasetItemId").as_string());
  // The total is counted apart from the page (run item counts less reviewed items): it must agree.
  BOOST_TEST(page.at("totalElements").as_int64() == static_cast<std::int64_t>(ids.size()), query);
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_review)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_queue_holds_items_never_judged_or_last_judged_unsure, Backend, Backends, ServerFixture<Backend>) {
  const auto [run, items] = reviewed_run(*this);
  BOOST_REQUIRE_EQUAL(items.size(), 3u);
  const auto first = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=2"));
  BOOST_TEST(first.at("totalElements").as_int64() == 3);
  BOOST_TEST(first.at("size").as_int64() == 2);
  const auto& entry = first.at("content").as_array()[0];
  BOOST_TEST(entry.at("itemResultId").as_string() == items[0]);
  BOOST_TEST(entry.at("projectName").as_string() == "shop");
  BOOST_TEST(entry.at("inputs").at("q").as_string() == "France?");
  BOOST_TEST(entry.at("actualOutputs").at("answer").as_string() == "Paris");
  BOOST_TEST(entry.at("evalResults").as_array().size() == 1u);
  const std::string experiment(entry.at("experimentId").as_string());
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d0", "d1", "d2"}));
  BOOST_TEST((queued(*this, "?projectName=shop&experimentId=" + experiment) == std::vector<std::string>{"d0", "d1", "d2"}));
  BOOST_TEST(queued(*this, "?projectName=other").empty());
  BOOST_TEST(this->call("GET", "/api/v1/review-queue?experimentId=nope").status() == 400u);

  const std::string base = "/api/v1/runs/" + run + "/items/";
  const ReviewResult correct = this->call("PUT", base + items[0] + "/annotation", R"({"verdict":"CORRECT"})");
  BOOST_REQUIRE_EQUAL(correct.status(), 200u);
  BOOST_TEST(review_json(correct).at("principal").as_string() == "anonymous");
  BOOST_REQUIRE_EQUAL(this->call("PUT", base + items[1] + "/annotation",
                                 R"({"verdict":"UNSURE","note":"typo in the gold answer?","overriddenExpectedOutput":{"answer":"Madrid"}})")
                          .status(),
                      200u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d1", "d2"}));
  const auto unsure = review_json(this->call("GET", "/api/v1/review-queue")).at("content").as_array()[0].at("annotations").as_array();
  BOOST_REQUIRE_EQUAL(unsure.size(), 1u);
  BOOST_TEST(unsure[0].at("note").as_string() == "typo in the gold answer?");
  // Replaced, not added: one annotation per reviewer.
  BOOST_REQUIRE_EQUAL(this->call("PUT", base + items[1] + "/annotation", R"({"verdict":"INCORRECT","note":"Model is right; gold is Madrid"})").status(), 200u);
  const auto read = review_json(this->call("GET", base + items[1] + "/annotation"));
  BOOST_TEST(read.at("verdict").as_string() == "INCORRECT");
  BOOST_TEST(read.at("overriddenExpectedOutput").is_null());
  BOOST_TEST(review_json(this->call("GET", base + items[1] + "/annotations")).as_array().size() == 1u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d2"}));

  // Refusals and unknowns.
  for (const char* body : {R"({})", R"({"verdict":"MAYBE"})", R"({"verdict":"CORRECT","note":3})", "[]"})
    BOOST_TEST(this->call("PUT", base + items[2] + "/annotation", body).status() == 400u, body);
  BOOST_TEST(this->call("PUT", base + run + "/annotation", R"({"verdict":"CORRECT"})").status() == 404u);  // not an item of the run
  BOOST_TEST(this->call("GET", base + items[2] + "/annotation").status() == 404u);
  BOOST_TEST(this->call("DELETE", base + items[0] + "/annotation").status() == 204u);
  BOOST_TEST(this->call("DELETE", base + items[0] + "/annotation").status() == 404u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d0", "d2"}));
  // Annotations go with their run.
  BOOST_REQUIRE_EQUAL(this->call("DELETE", "/api/v1/runs/" + run).status(), 204u);
  BOOST_TEST(queued(*this).empty());
  BOOST_TEST(this->call("GET", base + items[1] + "/annotations").status() == 404u);
}

// A reviewer judges the first page, then asks for the next: with a page number the items that moved
// up into page 0 would be skipped; the cursor (the last item seen) finds each of them.
BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_queue_pages_by_cursor_so_judging_skips_nothing, Backend, Backends, ServerFixture<Backend>) {
  const auto [run, items] = reviewed_run(*this);
  const auto first = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=1"));
  BOOST_REQUIRE_EQUAL(first.at("content").as_array().size(), 1u);
  BOOST_TEST(first.at("last").as_bool() == false);
  const std::string cursor(first.at("nextCursor").as_string());
  BOOST_TEST(cursor == items[0]);
  BOOST_REQUIRE_EQUAL(this->call("PUT", "/api/v1/runs/" + run + "/items/" + items[0] + "/annotation", R"({"verdict":"CORRECT"})").status(), 200u);
  // By number, page 1 now holds d2: d1 moved up into page 0 and would never be shown.
  const auto by_number = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=1&page=1"));
  BOOST_TEST(by_number.at("content").as_array()[0].at("datasetItemId").as_string() == "d2");
  const auto second = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=1&after=" + cursor));
  BOOST_TEST(second.at("content").as_array()[0].at("datasetItemId").as_string() == "d1");
  BOOST_TEST(second.at("totalElements").as_int64() == 2);  // the total is the whole queue's, not what is after the cursor
  const auto third = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=1&after=" + items[1]));
  BOOST_TEST(third.at("content").as_array()[0].at("datasetItemId").as_string() == "d2");
  const auto end = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=1&after=" + items[2]));
  BOOST_TEST(end.at("content").as_array().empty());
  BOOST_TEST(end.at("last").as_bool() == true);
  BOOST_TEST(end.at("nextCursor").is_null());
  const auto short_page = review_json(this->call("GET", "/api/v1/review-queue?runId=" + run + "&size=5&after=" + cursor));
  BOOST_TEST(short_page.at("content").as_array().size() == 2u);
  BOOST_TEST(short_page.at("nextCursor").is_null());
  BOOST_TEST(this->call("GET", "/api/v1/review-queue?after=not-an-id").status() == 400u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(several_reviewers_each_keep_their_own_and_the_latest_decides, Backend, Backends, ServerFixture<Backend>) {
  const ReviewResult root = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  BOOST_REQUIRE_EQUAL(root.status(), 201u);
  const std::string root_key(review_json(root).at("key").as_string());
  auto editor = [&](const std::string& name) {
    const ReviewResult made = this->call("POST", "/api/v1/api-keys", R"({"name":")" + name + R"(","role":"EDITOR"})", review_bearer(root_key));
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    return std::pair{std::string(review_json(made).at("id").as_string()), std::string(review_json(made).at("key").as_string())};
  };
  const auto [alice_id, alice] = editor("alice");
  const auto [bob_id, bob] = editor("bob");
  const auto [run, items] = reviewed_run(*this, review_bearer(alice));
  const std::string annotation = "/api/v1/runs/" + run + "/items/" + items[2] + "/annotation";
  BOOST_TEST(this->call("PUT", annotation, R"({"verdict":"CORRECT"})").status() == 401u);
  BOOST_REQUIRE_EQUAL(this->call("PUT", annotation, R"({"verdict":"INCORRECT"})", review_bearer(alice)).status(), 200u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d0", "d1"}));
  BOOST_REQUIRE_EQUAL(this->call("PUT", annotation, R"({"verdict":"UNSURE"})", review_bearer(bob)).status(), 200u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d0", "d1", "d2"}));
  const auto both = review_json(this->call("GET", "/api/v1/runs/" + run + "/items/" + items[2] + "/annotations")).as_array();
  BOOST_REQUIRE_EQUAL(both.size(), 2u);
  BOOST_TEST(both[0].at("principal").as_string() == alice_id);
  BOOST_TEST(both[1].at("principal").as_string() == bob_id);
  BOOST_TEST(review_json(this->call("GET", annotation, {}, review_bearer(bob))).at("verdict").as_string() == "UNSURE");
  BOOST_TEST(review_json(this->call("GET", annotation, {}, review_bearer(alice))).at("verdict").as_string() == "INCORRECT");
  // Bob withdraws: Alice's verdict is the latest again.
  BOOST_TEST(this->call("DELETE", annotation, {}, review_bearer(bob)).status() == 204u);
  BOOST_TEST((queued(*this) == std::vector<std::string>{"d0", "d1"}));
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(promotion_writes_the_next_version_with_the_corrections, Backend, Backends, ServerFixture<Backend>) {
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets", R"({"name":"qa"})").status(), 201u);
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/datasets/qa/versions", R"({"items":[
    {"id":"d0","inputs":{"q":"France?"},"expectedOutputs":{"answer":"Paris"}},
    {"id":"d1","inputs":{"q":"Spain?"},"expectedOutputs":{"answer":"Madird"}},
    {"id":"d2","inputs":{"q":"Italy?"},"expectedOutputs":{"answer":"Milan"}},
    {"id":"d3","inputs":{"q":"Peru?"},"expectedOutputs":{"answer":"Lima"}}]})").status(), 201u);
  const auto [run, items] = reviewed_run(*this);
  const std::string base = "/api/v1/runs/" + run + "/items/";
  // A reviewer's correction of d1, and one in the request for d2 (not an object: kept as {"output": ...}).
  BOOST_REQUIRE_EQUAL(this->call("PUT", base + items[1] + "/annotation", R"({"verdict":"INCORRECT","overriddenExpectedOutput":{"answer":"Madrid"}})").status(), 200u);
  const ReviewResult promoted = this->call("POST", "/api/v1/datasets/promote",
                                           R"({"datasetName":"qa","description":"two misses fixed","items":[{"itemResultId":")" + items[1] +
                                               R"("},{"itemResultId":")" + items[2] + R"(","overriddenExpectedOutput":"Rome"}]})");
  BOOST_REQUIRE_EQUAL(promoted.status(), 201u);
  BOOST_TEST(promoted.response[boost::beast::http::field::location] == "/api/v1/datasets/qa/versions/2");
  BOOST_TEST(review_json(promoted).at("itemCount").as_int64() == 4);
  BOOST_TEST(review_json(promoted).at("description").as_string() == "two misses fixed");
  const auto v2 = review_json(this->call("GET", "/api/v1/datasets/qa/versions/latest/items")).at("content").as_array();
  BOOST_REQUIRE_EQUAL(v2.size(), 4u);
  BOOST_TEST(v2[1].at("id").as_string() == "d1");
  BOOST_TEST(v2[1].at("expectedOutputs").at("answer").as_string() == "Madrid");
  BOOST_TEST(v2[1].at("metadata").at("src").as_string() == "atlas");
  BOOST_TEST(v2[2].at("expectedOutputs").at("output").as_string() == "Rome");
  BOOST_TEST(v2[3].at("id").as_string() == "d3");
  // Version 1 is untouched.
  const auto v1 = review_json(this->call("GET", "/api/v1/datasets/qa/versions/1/items")).at("content").as_array();
  BOOST_TEST(v1[1].at("expectedOutputs").at("answer").as_string() == "Madird");

  // A run item without a dataset item id is appended, under the id its inputs give.
  const ReviewResult loose = this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"adhoc"})");
  const std::string loose_run(review_json(loose).at("runId").as_string());
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + loose_run + "/items",
                                 R"({"items":[{"inputs":{"q":"Chile?"},"expectedOutputs":{"answer":"Santiago"},"success":true}]})")
                          .status(),
                      201u);
  const std::string loose_item(review_json(this->call("GET", "/api/v1/runs/" + loose_run)).at("items").at("content").as_array()[0].at("id").as_string());
  const ReviewResult v3 = this->call("POST", "/api/v1/datasets/promote", R"({"datasetName":"qa","items":[{"itemResultId":")" + loose_item + R"("}]})");
  BOOST_REQUIRE_EQUAL(v3.status(), 201u);
  BOOST_TEST(review_json(v3).at("version").as_int64() == 3);
  const auto v3_items = review_json(this->call("GET", "/api/v1/datasets/qa/versions/3/items")).at("content").as_array();
  BOOST_REQUIRE_EQUAL(v3_items.size(), 5u);
  BOOST_TEST(std::string(v3_items[4].at("id").as_string()).rfind("in-", 0) == 0u);

  // Promotion never creates a dataset; unknown items and empty lists are refused, writing nothing.
  const std::string one = R"({"itemResultId":")" + items[0] + R"("})";
  BOOST_TEST(this->call("POST", "/api/v1/datasets/promote", R"({"datasetName":"nope","items":[)" + one + "]}").status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/datasets/promote", R"({"datasetName":"qa","items":[{"itemResultId":")" + run + R"("}]})").status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/datasets/promote", R"({"datasetName":"qa","items":[]})").status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/datasets/promote", R"({"items":[)" + one + "]}").status() == 400u);
  BOOST_TEST(review_json(this->call("GET", "/api/v1/datasets/qa")).at("latestVersion").as_int64() == 3);
}

BOOST_AUTO_TEST_SUITE_END()
