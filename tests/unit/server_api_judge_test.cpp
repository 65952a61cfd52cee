// The server judge's API on both backends: LLM connections (credential by variable name or sealed
// inline, never shown), judge jobs on a run (EVALUATING while pages are written, back to the run's
// terminal status after; verdicts where reported ones live; errors with their cause; a page
// written only by its lease holder), and judge-human and reviewer agreement.
#include "server_api_fixture.hpp"

#include "krino/core/common/secret_box.hpp"

using namespace krino::test;

namespace {

using JudgeHeaders = std::vector<std::pair<std::string, std::string>>;
constexpr const char* kJudgeKey = "q0kS9Ue0m4b3nYJ4eQ3sB3y8xJ0m2W5r0cXzQ9bq6Yk=";
constexpr const char* kInlineSecret = "sk-inline-4f9c1d2e-never-print-me";
const std::vector<std::string> kJudgeKinds = {"judge_page"};

boost::json::value judge_json(const krino::fake_llm::test::HttpResult& result) { return krino::json::parse(result.body()); }

template <class Fixture>
std::string env_connection(Fixture& f, const std::string& name = "local") {
  const auto made = f.call("POST", "/api/v1/llm-connections",
                           R"({"name":")" + name + R"(","baseUrl":"http://127.0.0.1:9/v1","model":"judge-mini","credentialRef":"JUDGE_KEY"})");
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  return std::string(judge_json(made).at("id").as_string());
}

// An ended run of `n` items; item i has a reported verdict "exact" that passes for even i.
template <class Fixture>
std::pair<std::string, std::vector<std::string>> ended_run(Fixture& f, int n, const JudgeHeaders& key = {}) {
  const auto created = f.call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa"})", key);
  BOOST_REQUIRE_EQUAL(created.status(), 201u);
  const std::string run(judge_json(created).at("runId").as_string());
  std::string items = R"({"items":[)";
  for (int i = 0; i < n; ++i) {
    if (i) items += ',';
    const std::string pass = i % 2 == 0 ? "true" : "false";
    items += R"({"inputs":{"input":"q)" + std::to_string(i) + R"("},"actualOutputs":{"output":"a)" + std::to_string(i) + R"("},"success":)" + pass +
             R"(,"evalResults":[{"name":"exact","score":)" + (i % 2 == 0 ? std::string("1") : std::string("0")) + R"(,"success":)" + pass + "}]}";
  }
  items += "]}";
  BOOST_REQUIRE_EQUAL(f.call("POST", "/api/v1/runs/" + run + "/items", items, key).status(), 201u);
  BOOST_REQUIRE_EQUAL(f.call("PATCH", "/api/v1/runs/" + run, R"({"status":"FAILED"})", key).status(), 200u);
  std::vector<std::string> ids;
  const boost::json::value details = judge_json(f.call("GET", "/api/v1/runs/" + run + "?size=1000", "", key));
  for (const auto& item : details.at("items").at("content").as_array())
    ids.emplace_back(item.at("id").as_string());
  return {run, ids};
}

std::string judge_body(const std::string& connection) {
  return R"({"connectionId":")" + connection + R"(","evaluatorName":"helpful","criteria":"Is it helpful?","evaluationParams":["INPUT","ACTUAL_OUTPUT"],"minScore":1,"maxScore":5,"threshold":0.5})";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_judge)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(connections_take_exactly_one_credential_and_never_show_a_key, Backend, Backends, ServerFixture<Backend>) {
  const std::string base = R"({"name":"openai","baseUrl":"https://api.example.com/v1","model":"gpt-4o-mini")";
  const auto both = this->call("POST", "/api/v1/llm-connections", base + R"(,"credentialRef":"K","apiKey":"x"})");
  BOOST_TEST(both.status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/llm-connections", base + "}").status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/llm-connections", base + R"(,"credentialRef":"1-bad name"})").status() == 400u);

  // An inline key without KRINO_ENCRYPTION_KEY is refused, saying what to set; the key is not echoed.
  const auto refused = this->call("POST", "/api/v1/llm-connections", base + R"(,"apiKey":")" + kInlineSecret + R"("})");
  BOOST_TEST(refused.status() == 400u);
  BOOST_TEST(refused.body().find("KRINO_ENCRYPTION_KEY is not set") != std::string::npos, refused.body());
  BOOST_TEST(refused.body().find(kInlineSecret) == std::string::npos);

  {
    const std::lock_guard<std::mutex> lock(this->environment_mutex);
    this->environment["KRINO_ENCRYPTION_KEY"] = kJudgeKey;
  }
  const auto made = this->call("POST", "/api/v1/llm-connections", base + R"(,"apiKey":")" + kInlineSecret + R"(","maxConcurrency":4})");
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  BOOST_TEST(made.body().find(kInlineSecret) == std::string::npos);
  const auto created = judge_json(made);
  const std::string id(created.at("id").as_string());
  BOOST_TEST(created.at("credential").as_string() == "INLINE");
  BOOST_TEST(created.at("hasApiKey").as_bool());
  BOOST_TEST(created.at("maxConcurrency").as_int64() == 4);
  BOOST_TEST(created.at("protocol").as_string() == "CHAT_COMPLETIONS");
  // At rest: sealed, and it opens to the key with the server's encryption key.
  const auto stored = this->store->llm_connection(store::Scope{}, id);
  BOOST_REQUIRE(stored && stored->api_key_sealed);
  BOOST_TEST(stored->api_key_sealed->find(kInlineSecret) == std::string::npos);
  BOOST_TEST(krino::core::SecretBox(kJudgeKey).open(*stored->api_key_sealed) == kInlineSecret);

  for (const std::string& path : {std::string("/api/v1/llm-connections"), "/api/v1/llm-connections/" + id}) {
    const auto read = this->call("GET", path);
    BOOST_TEST(read.status() == 200u);
    BOOST_TEST(read.body().find(kInlineSecret) == std::string::npos);
    BOOST_TEST(read.body().find(*stored->api_key_sealed) == std::string::npos);
  }
  BOOST_TEST(this->call("POST", "/api/v1/llm-connections", base + R"(,"credentialRef":"K"})").status() == 409u);  // the name is taken

  // A PUT without a credential keeps the key; one with credentialRef replaces it.
  const auto renamed = this->call("PUT", "/api/v1/llm-connections/" + id,
                                  R"({"name":"openai-2","baseUrl":"https://api.example.com/v1","model":"gpt-4o","protocol":"RESPONSES"})");
  BOOST_REQUIRE_EQUAL(renamed.status(), 200u);
  BOOST_TEST(judge_json(renamed).at("hasApiKey").as_bool());
  BOOST_TEST(judge_json(renamed).at("provider").as_string() == "openai_responses");
  const auto switched = this->call("PUT", "/api/v1/llm-connections/" + id,
                                   R"({"name":"openai-2","baseUrl":"https://api.example.com/v1","model":"gpt-4o","credentialRef":"OPENAI_API_KEY"})");
  BOOST_TEST(judge_json(switched).at("credential").as_string() == "ENVIRONMENT");
  BOOST_TEST(judge_json(switched).at("credentialRef").as_string() == "OPENAI_API_KEY");
  BOOST_TEST(!this->store->llm_connection(store::Scope{}, id)->api_key_sealed.has_value());
  BOOST_TEST(this->call("DELETE", "/api/v1/llm-connections/" + id).status() == 204u);
  BOOST_TEST(this->call("GET", "/api/v1/llm-connections/" + id).status() == 404u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(connections_need_an_editor_and_stay_in_their_tenant, Backend, Backends, ServerFixture<Backend>) {
  const auto root = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  const std::string root_key(judge_json(root).at("key").as_string());
  auto key = [&](const std::string& body) {
    return std::string(judge_json(this->call("POST", "/api/v1/api-keys", body, {{"Authorization", "Bearer " + root_key}})).at("key").as_string());
  };
  const JudgeHeaders viewer{{"Authorization", "Bearer " + key(R"({"name":"v","role":"VIEWER"})")}};
  const JudgeHeaders acme{{"Authorization", "Bearer " + key(R"({"name":"a","role":"EDITOR","tenantId":"acme"})")}};
  const JudgeHeaders globex{{"Authorization", "Bearer " + key(R"({"name":"g","role":"EDITOR","tenantId":"globex"})")}};
  BOOST_TEST(this->call("GET", "/api/v1/llm-connections", "", viewer).status() == 403u);
  const auto made = this->call("POST", "/api/v1/llm-connections",
                               R"({"name":"c","baseUrl":"http://127.0.0.1:9/v1","model":"m","credentialRef":"K"})", acme);
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  const std::string id(judge_json(made).at("id").as_string());
  BOOST_TEST(judge_json(made).at("tenantId").as_string() == "acme");
  BOOST_TEST(this->call("GET", "/api/v1/llm-connections/" + id, "", globex).status() == 404u);
  BOOST_TEST(judge_json(this->call("GET", "/api/v1/llm-connections", "", globex)).as_array().empty());
  // globex may have its own "c".
  BOOST_TEST(this->call("POST", "/api/v1/llm-connections", R"({"name":"c","baseUrl":"http://127.0.0.1:9/v1","model":"m","credentialRef":"K"})", globex)
                 .status() == 201u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_judge_job_scores_an_ended_run_page_by_page_and_returns_it_to_its_status, Backend, Backends, ServerFixture<Backend>) {
  const std::string connection = env_connection(*this);
  const std::string running = this->new_run();
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + running + "/judge-jobs", judge_body(connection)).status() == 409u);  // still RUNNING
  const auto [run, items] = ended_run(*this, 3);
  const std::string jobs = "/api/v1/runs/" + run + "/judge-jobs";
  BOOST_TEST(this->call("POST", jobs, judge_body("01890000-0000-7000-8000-000000000000")).status() == 404u);
  BOOST_TEST(this->call("POST", jobs, R"({"connectionId":")" + connection + R"(","criteria":"x"})").status() == 400u);

  const auto started = this->call("POST", jobs, judge_body(connection));
  BOOST_REQUIRE_EQUAL(started.status(), 201u);
  const auto job = judge_json(started);
  const std::string job_id(job.at("id").as_string());
  BOOST_TEST(job.at("status").as_string() == "QUEUED");
  BOOST_TEST(job.at("pagesTotal").as_int64() == 2);  // pages of 2 items
  BOOST_TEST(job.at("previousRunStatus").as_string() == "FAILED");
  BOOST_TEST(judge_json(this->call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "EVALUATING");
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 409u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"EVALUATING"})").status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + run + "/items", R"({"items":[{"success":true}]})").status() == 409u);

  // Page one: item 0 scored, item 1 an error. A worker that lost its lease writes nothing.
  auto page = this->store->claim_job("w1", kJudgeKinds, 1000, 100);
  BOOST_REQUIRE(page);
  BOOST_TEST(page->payload.find(R"("fromSeq":0,"toSeq":1)") != std::string::npos, page->payload);
  const auto takeover = this->store->claim_job("w2", kJudgeKinds, 1100, 60000);  // w1's lease ran out
  BOOST_REQUIRE(takeover && takeover->id == page->id);
  std::vector<store::JudgeVerdict> verdicts(2);
  verdicts[0] = store::JudgeVerdict{items[0], 0, 0.75, true, 0.5, std::string("clear"), std::nullopt};
  verdicts[1] = store::JudgeVerdict{items[1], 1, std::nullopt, false, 0.5, std::nullopt, std::string("the judge call failed (UNAVAILABLE): HTTP 503")};
  BOOST_TEST(!this->store->record_judge_page(page->id, page->lease_token, job_id, verdicts));
  BOOST_TEST(this->store->record_judge_page(takeover->id, takeover->lease_token, job_id, verdicts));
  BOOST_TEST(judge_json(this->call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "EVALUATING");

  page = this->store->claim_job("w2", kJudgeKinds, 1200, 60000);
  BOOST_REQUIRE(page);
  const std::vector<store::JudgeVerdict> last{store::JudgeVerdict{items[2], 2, 0.25, false, 0.5, std::string("vague"), std::nullopt}};
  BOOST_TEST(this->store->record_judge_page(page->id, page->lease_token, job_id, last));
  BOOST_TEST(!this->store->claim_job("w2", kJudgeKinds, 999999999999, 60000).has_value());

  BOOST_TEST(judge_json(this->call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "FAILED");
  const auto listed = judge_json(this->call("GET", jobs)).as_array();
  BOOST_REQUIRE_EQUAL(listed.size(), 1u);
  BOOST_TEST(listed[0].at("status").as_string() == "SUCCEEDED");
  BOOST_TEST(listed[0].at("itemsScored").as_int64() == 2);
  BOOST_TEST(listed[0].at("itemsFailed").as_int64() == 1);
  BOOST_TEST(listed[0].at("pagesDone").as_int64() == 2);
  BOOST_TEST(!listed[0].at("finishedAt").is_null());

  const auto results = judge_json(this->call("GET", jobs + "/" + job_id + "/results")).at("content").as_array();
  BOOST_REQUIRE_EQUAL(results.size(), 3u);
  BOOST_TEST(results[0].at("score").as_double() == 0.75);
  BOOST_TEST(results[0].at("reason").as_string() == "clear");
  BOOST_TEST(results[1].at("score").is_null());
  BOOST_TEST(results[1].at("error").as_string() == "the judge call failed (UNAVAILABLE): HTTP 503");
  const auto after = judge_json(this->call("GET", jobs + "/" + job_id + "/results?after=0&size=1"));
  BOOST_TEST(after.at("content").as_array()[0].at("index").as_int64() == 1);
  BOOST_TEST(after.at("nextAfter").as_int64() == 1);

  // The verdicts sit beside the reported ones, where the run page and the gate read them.
  const auto evaluators = judge_json(this->call("GET", "/api/v1/runs/" + run + "/evaluators")).at("evaluators").as_array();
  BOOST_REQUIRE_EQUAL(evaluators.size(), 2u);
  BOOST_TEST(evaluators[1].at("name").as_string() == "helpful");
  BOOST_TEST(evaluators[1].at("count").as_int64() == 2);
  BOOST_TEST(evaluators[1].at("passed").as_int64() == 1);
  const auto failed_helpful = judge_json(this->call("GET", "/api/v1/runs/" + run + "/items?evaluator=helpful&evaluatorStatus=FAILED"));
  BOOST_TEST(failed_helpful.at("content").as_array().size() == 1u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_run_without_items_is_judged_at_once, Backend, Backends, ServerFixture<Backend>) {
  const std::string connection = env_connection(*this);
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status(), 200u);
  const auto started = judge_json(this->call("POST", "/api/v1/runs/" + run + "/judge-jobs", judge_body(connection)));
  BOOST_TEST(started.at("status").as_string() == "SUCCEEDED");
  BOOST_TEST(judge_json(this->call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "SUCCESS");
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(agreement_compares_the_judge_with_reviewers_and_reviewers_with_each_other, Backend, Backends, ServerFixture<Backend>) {
  const auto root = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  const std::string root_key(judge_json(root).at("key").as_string());
  auto editor = [&](const std::string& name) {
    const auto made = judge_json(this->call("POST", "/api/v1/api-keys", R"({"name":")" + name + R"(","role":"EDITOR"})", {{"Authorization", "Bearer " + root_key}}));
    return std::pair{std::string(made.at("id").as_string()), JudgeHeaders{{"Authorization", "Bearer " + std::string(made.at("key").as_string())}}};
  };
  const auto [alice_id, alice] = editor("alice");
  const auto [bob_id, bob] = editor("bob");
  // "exact" passes items 0, 2, 4 and fails 1, 3, 5.
  const auto [run, items] = ended_run(*this, 6, alice);
  auto annotate = [&](const JudgeHeaders& who, int item, const char* verdict) {
    BOOST_REQUIRE_EQUAL(this->call("PUT", "/api/v1/runs/" + run + "/items/" + items[item] + "/annotation",
                                   std::string(R"({"verdict":")") + verdict + "\"}", who).status(), 200u);
  };
  BOOST_TEST(judge_json(this->call("GET", "/api/v1/runs/" + run + "/alignment")).at("evaluators").as_array().empty());
  // Alice: 0 C, 1 I, 2 I, 3 C. Bob, later: 0 C, 1 I, 2 C, 4 UNSURE.
  annotate(alice, 0, "CORRECT");
  annotate(alice, 1, "INCORRECT");
  annotate(alice, 2, "INCORRECT");
  annotate(alice, 3, "CORRECT");
  annotate(bob, 0, "CORRECT");
  annotate(bob, 1, "INCORRECT");
  annotate(bob, 2, "CORRECT");
  annotate(bob, 4, "UNSURE");
  const auto agreement = judge_json(this->call("GET", "/api/v1/runs/" + run + "/alignment"));
  BOOST_TEST(agreement.at("annotatedItems").as_int64() == 5);
  BOOST_TEST(agreement.at("unsureItems").as_int64() == 1);
  // Latest human label: 0 C, 1 I, 2 C (Bob's, later), 3 C; item 4 is UNSURE and left out.
  // Judge: 0 pass, 1 fail, 2 pass, 3 fail. Matrix: pass/C 2, pass/I 0, fail/C 1, fail/I 1.
  // p_o = 3/4; judge passes 2, humans say C 3: p_e = (2*3 + 2*1) / 16 = 0.5; kappa = 0.5.
  const auto& exact = agreement.at("evaluators").as_array()[0];
  BOOST_TEST(exact.at("evaluatorName").as_string() == "exact");
  BOOST_TEST(exact.at("items").as_int64() == 4);
  BOOST_TEST(exact.at("agreementRate").as_double() == 0.75);
  BOOST_TEST(exact.at("cohensKappa").as_double() == 0.5);
  BOOST_TEST(exact.at("confusion").at("judgePassHumanCorrect").as_int64() == 2);
  BOOST_TEST(exact.at("confusion").at("judgeFailHumanCorrect").as_int64() == 1);
  BOOST_TEST(exact.at("confusion").at("judgeFailHumanIncorrect").as_int64() == 1);
  // Reviewers share items 0, 1, 2 (4 is UNSURE): they agree on 0 and 1. Alice says C once of 3,
  // Bob twice: p_e = (1*2 + 2*1) / 9 = 4/9; kappa = (2/3 - 4/9) / (5/9) = 0.4.
  const auto reviewers = agreement.at("reviewers").as_array();
  BOOST_REQUIRE_EQUAL(reviewers.size(), 1u);
  BOOST_TEST(reviewers[0].at("items").as_int64() == 3);
  BOOST_TEST(reviewers[0].at("agreements").as_int64() == 2);
  BOOST_TEST(reviewers[0].at("cohensKappa").as_double() == 0.4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(this->call("GET", "/api/v1/runs/01890000-0000-7000-8000-000000000000/alignment").status() == 404u);
}

BOOST_AUTO_TEST_SUITE_END()
