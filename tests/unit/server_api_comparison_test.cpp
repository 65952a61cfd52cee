// The server's gate and diff over loopback HTTP on both backends: the verdict and its numbers equal
// what the local gate's engine computes from the same items; the baseline is found on its own; a
// first run has none; pairing follows the dataset item ids; the diff pages its cases by status; and
// the 4xx answers (missing fields, running runs, other experiments, other tenants).
#include "server_api_fixture.hpp"

#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/gate_verdict.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <fmt/format.h>

using namespace krino::core;
using namespace krino::test;
using krino::fake_llm::test::HttpResult;

namespace {

// One item: its input names it, `score` is the "exact" evaluator's, pass when >= 0.5.
struct Scored {
  std::string id;
  double score = 0.0;
};

std::string batch(const std::vector<Scored>& items) {
  std::string body = R"({"items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool pass = items[i].score >= 0.5;
    body += fmt::format(R"({}{{"inputs":{{"question":"what is {}?"}},"success":{},"datasetItemId":"{}",)"
                        R"("evalResults":[{{"name":"exact","score":{},"threshold":0.5,"success":{}}}]}})",
                        i > 0 ? "," : "", items[i].id, pass, items[i].id, items[i].score, pass);
  }
  return body + "]}";
}

std::vector<Scored> scored(int count, const std::function<double(int)>& score) {
  std::vector<Scored> out;
  for (int i = 0; i < count; ++i) out.push_back(Scored{fmt::format("item-{:03}", i), score(i)});
  return out;
}

// The side the local gate builds for the same items, keyed by position.
ComparisonSide local_side(const std::vector<Scored>& items) {
  ComparisonSide side;
  for (std::size_t i = 0; i < items.size(); ++i) {
    SideItem item;
    item.key = positional_key(i);
    item.index = i;
    item.pass_probability = items[i].score >= 0.5 ? 1.0 : 0.0;
    item.evaluators.push_back(EvaluatorProjection{"exact", items[i].score, items[i].score >= 0.5, 0.5});
    side.items.push_back(std::move(item));
  }
  return side;
}

template <class Fixture>
std::pair<std::string, std::string> reported_run(Fixture& f, const std::vector<Scored>& items, const std::string& extra = "",
                                                 const std::string& status = "SUCCESS") {
  const HttpResult created = f.call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa")" + extra + "}");
  BOOST_REQUIRE_EQUAL(created.status(), 201u);
  const auto object = krino::json::parse(created.body()).as_object();
  const std::string run(object.at("runId").as_string());
  BOOST_REQUIRE_EQUAL(f.call("POST", "/api/v1/runs/" + run + "/items", batch(items)).status(), 201u);
  if (!status.empty()) BOOST_REQUIRE_EQUAL(f.call("PATCH", "/api/v1/runs/" + run, R"({"status":")" + status + R"("})").status(), 200u);
  return {run, std::string(object.at("experimentId").as_string())};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_comparison)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_gate_fails_a_regression_with_the_local_engines_numbers, Backend, Backends, ServerFixture<Backend>) {
  const auto good = scored(40, [](int) { return 1.0; });
  const auto worse = scored(40, [](int i) { return i % 2 == 0 ? 0.0 : 1.0; });
  const auto [first, experiment] = reported_run(*this, good);
  const auto [second, same_experiment] = reported_run(*this, worse);
  BOOST_TEST(experiment == same_experiment);

  // The first run has nothing before it.
  const HttpResult opening = this->call("POST", "/api/v1/experiments/" + experiment + "/gate", R"({"candidateRunId":")" + first + R"("})");
  BOOST_REQUIRE_EQUAL(opening.status(), 200u);
  const auto none = krino::json::parse(opening.body()).as_object();
  BOOST_TEST(none.at("status").as_string() == "NO_BASELINE");
  BOOST_TEST(none.at("passed").as_bool() == true);
  BOOST_TEST(none.at("pairing").as_string() == "none");
  BOOST_TEST(none.at("baselineRunId").is_null());

  const HttpResult gated = this->call("POST", "/api/v1/experiments/" + experiment + "/gate", R"({"candidateRunId":")" + second + R"("})");
  BOOST_REQUIRE_EQUAL(gated.status(), 200u);
  const auto verdict = krino::json::parse(gated.body()).as_object();
  BOOST_TEST(verdict.at("status").as_string() == "FAIL");
  BOOST_TEST(verdict.at("passed").as_bool() == false);
  BOOST_TEST(verdict.at("baselineRunId").as_string() == first);
  BOOST_TEST(verdict.at("candidateRunId").as_string() == second);
  BOOST_TEST(verdict.at("pairing").as_string() == "dataset_item_id");  // no dataset version on either, every item has an id
  BOOST_TEST(verdict.at("regressedCount").as_int64() == 20);
  BOOST_TEST(verdict.at("cases").as_array().size() == 20u);
  BOOST_TEST(verdict.at("casesTruncated").as_bool() == false);
  BOOST_TEST(gated.body().find("\"baseline\":") == std::string::npos);  // no file path on the server

  // The same items through the local gate's engine and verdict: the same numbers, bit for bit.
  const Comparison local = compare_sides(local_side(good), local_side(worse), ComparisonOptions{});
  const GateVerdict local_verdict = decide_verdict(local, GateConfig{}, "positional", "");
  BOOST_TEST(std::string(gate_status_name(local_verdict.status)) == "FAIL");
  BOOST_TEST(verdict.at("passRatePValue").as_double() == local.pass_rate_p_value);
  BOOST_TEST(verdict.at("passRateDelta").as_double() == local.pass_rate_delta);
  const auto& regressed = verdict.at("regressedEvaluators").as_array();
  BOOST_REQUIRE_EQUAL(regressed.size(), 1u);
  BOOST_TEST(regressed[0].at("pValue").as_double() == local.evaluators.at(0).p_value);
  BOOST_TEST(regressed[0].at("ci").as_array()[0].as_double() == local.evaluators.at(0).interval.low);

  // Naming the baseline gives the same verdict; a branch with no runs gives none.
  const HttpResult named = this->call("POST", "/api/v1/experiments/" + experiment + "/gate",
                                      R"({"candidateRunId":")" + second + R"(","baselineRunId":")" + first + R"("})");
  BOOST_TEST(named.body() == gated.body());
  const HttpResult branch = this->call("POST", "/api/v1/experiments/" + experiment + "/gate",
                                       R"({"candidateRunId":")" + second + R"(","baselineBranch":"main"})");
  BOOST_TEST(krino::json::parse(branch.body()).at("status").as_string() == "NO_BASELINE");
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_gate_and_diff_refuse_what_they_cannot_compare, Backend, Backends, ServerFixture<Backend>) {
  const auto items = scored(4, [](int) { return 1.0; });
  const auto [ended, experiment] = reported_run(*this, items);
  const auto [running, same] = reported_run(*this, items, "", "");
  const std::string gate = "/api/v1/experiments/" + experiment + "/gate";
  BOOST_TEST(this->call("POST", gate, R"({})").status() == 400u);
  BOOST_TEST(this->call("POST", gate, R"({"candidateRunId":7})").status() == 400u);
  BOOST_TEST(this->call("POST", gate, "not json").status() == 400u);
  BOOST_TEST(this->call("POST", gate, R"({"candidateRunId":")" + running + R"("})").status() == 409u);
  BOOST_TEST(this->call("POST", gate, R"({"candidateRunId":"0190a0b0-c0d0-7000-8000-000000000000"})").status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/experiments/0190a0b0-c0d0-7000-8000-000000000000/gate", R"({"candidateRunId":")" + ended + R"("})")
                 .status() == 404u);
  // A run of another experiment is not this experiment's.
  const HttpResult other = this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"tone"})");
  const std::string other_experiment(krino::json::parse(other.body()).at("experimentId").as_string());
  BOOST_TEST(this->call("POST", "/api/v1/experiments/" + other_experiment + "/gate", R"({"candidateRunId":")" + ended + R"("})").status() ==
             404u);

  const std::string diff = "/api/v1/experiments/" + experiment + "/runs/" + ended + "/diff";
  BOOST_TEST(this->call("GET", diff).status() == 400u);
  BOOST_TEST(this->call("GET", diff + "?baselineRunId=" + running).status() == 409u);
  BOOST_TEST(this->call("GET", diff + "?baselineRunId=" + ended + "&status=WORSE").status() == 400u);
  BOOST_TEST(this->call("GET", diff + "?baselineRunId=" + ended + "&size=0").status() == 400u);
  BOOST_TEST(this->call("GET", diff + "?baselineRunId=nope").status() == 404u);
  BOOST_TEST(this->call("GET", diff + "?baselineRunId=" + ended).status() == 200u);  // a run against itself: nothing changed
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_diff_pages_cases_by_status_and_pairs_by_item_id, Backend, Backends, ServerFixture<Backend>) {
  auto baseline_items = scored(30, [](int i) { return i < 10 ? 0.0 : 1.0; });  // 0-9 fail
  auto candidate_items = scored(30, [](int i) { return i < 5 ? 1.0 : (i < 26 ? 0.0 : 1.0); });  // 0-4 fixed, 10-25 broken
  // The candidate sent its items in another order, one dropped and one new: ids pair them.
  std::reverse(candidate_items.begin(), candidate_items.end());
  candidate_items.pop_back();  // item-000 removed
  candidate_items.push_back(Scored{"item-new", 1.0});
  const auto [base, experiment] = reported_run(*this, baseline_items, R"(,"datasetVersion":"v3")");
  const auto [cand, same] = reported_run(*this, candidate_items, R"(,"datasetVersion":"v3")");
  const std::string diff = "/api/v1/experiments/" + experiment + "/runs/" + cand + "/diff?baselineRunId=" + base;

  const HttpResult all = this->call("GET", diff);
  BOOST_REQUIRE_EQUAL(all.status(), 200u);
  const auto view = krino::json::parse(all.body()).as_object();
  const auto& summary = view.at("summary").as_object();
  BOOST_TEST(summary.at("pairing").as_string() == "dataset_item_id");
  BOOST_TEST(summary.at("removedCount").as_int64() == 1);
  BOOST_TEST(summary.at("addedCount").as_int64() == 1);
  BOOST_TEST(view.at("cases").at("totalElements").as_int64() == 31);

  const HttpResult regressed = this->call("GET", diff + "&status=REGRESSED&size=5&page=3");
  BOOST_REQUIRE_EQUAL(regressed.status(), 200u);
  const auto page = krino::json::parse(regressed.body()).at("cases").as_object();
  BOOST_TEST(page.at("totalElements").as_int64() == 16);
  BOOST_TEST(page.at("totalPages").as_int64() == 4);
  BOOST_TEST(page.at("last").as_bool() == true);
  const auto& cases = page.at("content").as_array();
  BOOST_REQUIRE_EQUAL(cases.size(), 1u);
  const auto& one = cases[0].as_object();
  BOOST_TEST(one.at("status").as_string() == "REGRESSED");
  BOOST_TEST(one.at("passFlip").as_bool() == true);
  const std::string id(one.at("datasetItemId").as_string());
  // The input as the local gate's verdict cases show it (its anchor: compact, at most 80 characters).
  BOOST_TEST(std::string(one.at("input").as_string()) == R"({"question":"what is )" + id + R"(?"})");
  BOOST_TEST(one.at("evaluators").as_array()[0].at("status").as_string() == "REGRESSED");
  BOOST_TEST(one.at("evaluators").as_array()[0].at("delta").as_double() == -1.0);

  // Items 1-4 were fixed, but nothing improved significantly: only the regressions changed.
  const HttpResult changed = this->call("GET", diff + "&status=CHANGED&size=1000");
  BOOST_TEST(krino::json::parse(changed.body()).at("cases").at("totalElements").as_int64() == 16);
  const HttpResult improved = this->call("GET", diff + "&status=IMPROVED");
  BOOST_TEST(krino::json::parse(improved.body()).at("cases").at("empty").as_bool() == true);

  // Another dataset version: positions pair them instead.
  const auto [elsewhere, e2] = reported_run(*this, candidate_items, R"(,"datasetVersion":"v4")");
  const HttpResult positional = this->call("GET", "/api/v1/experiments/" + experiment + "/runs/" + elsewhere + "/diff?baselineRunId=" + base);
  BOOST_TEST(krino::json::parse(positional.body()).at("summary").at("pairing").as_string() == "positional");
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(runs_on_versions_of_one_server_dataset_gate_each_other_by_item_id, Backend, Backends, ServerFixture<Backend>) {
  // Version 2 of "qa" (two items promoted, one added) after a run on version 1: that run is the
  // baseline, and ids pair the items across the versions.
  auto v1_items = scored(20, [](int i) { return i < 2 ? 0.0 : 1.0; });
  auto v2_items = scored(20, [](int) { return 1.0; });
  v2_items.push_back(Scored{"item-new", 1.0});
  std::reverse(v2_items.begin(), v2_items.end());
  const auto [other, experiment] = reported_run(*this, v1_items, R"(,"datasetVersion":"other@1")");
  const auto [first, e1] = reported_run(*this, v1_items, R"(,"datasetVersion":"qa@1")");
  const auto [second, e2] = reported_run(*this, v2_items, R"(,"datasetVersion":"qa@2")");
  const HttpResult gated = this->call("POST", "/api/v1/experiments/" + experiment + "/gate", R"({"candidateRunId":")" + second + R"("})");
  BOOST_REQUIRE_EQUAL(gated.status(), 200u);
  const auto verdict = krino::json::parse(gated.body());
  BOOST_TEST(verdict.at("baselineRunId").as_string() == first);
  BOOST_TEST(verdict.at("pairing").as_string() == "dataset_item_id");
  BOOST_TEST(verdict.at("status").as_string() == "PASS", gated.body());
  // A run on the same version is preferred to one on another version of the dataset.
  const auto [third, e3] = reported_run(*this, v2_items, R"(,"datasetVersion":"qa@2")");
  const auto again = krino::json::parse(this->call("POST", "/api/v1/experiments/" + experiment + "/gate", R"({"candidateRunId":")" + third + R"("})").body());
  BOOST_TEST(again.at("baselineRunId").as_string() == second);
  // Another dataset is never a baseline.
  const auto [lone, e4] = reported_run(*this, v1_items, R"(,"datasetVersion":"fresh@1")");
  const auto none = krino::json::parse(this->call("POST", "/api/v1/experiments/" + experiment + "/gate", R"({"candidateRunId":")" + lone + R"("})").body());
  BOOST_TEST(none.at("status").as_string() == "NO_BASELINE");
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(another_tenant_cannot_compare_or_gate_a_tenants_runs, Backend, Backends, ServerFixture<Backend>) {
  const HttpResult admin = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  const std::string root(krino::json::parse(admin.body()).at("key").as_string());
  auto key_of = [&](const std::string& tenant) {
    const HttpResult made = this->call("POST", "/api/v1/api-keys", R"({"name":"k","role":"EDITOR","tenantId":")" + tenant + R"("})",
                                       {{"Authorization", "Bearer " + root}});
    return std::string(krino::json::parse(made.body()).at("key").as_string());
  };
  const std::vector<std::pair<std::string, std::string>> a = {{"Authorization", "Bearer " + key_of("a")}};
  const std::vector<std::pair<std::string, std::string>> b = {{"Authorization", "Bearer " + key_of("b")}};
  auto run_as = [&](const std::vector<std::pair<std::string, std::string>>& who) {
    const HttpResult created = this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa"})", who);
    const auto object = krino::json::parse(created.body()).as_object();
    const std::string run(object.at("runId").as_string());
    this->call("POST", "/api/v1/runs/" + run + "/items", batch(scored(3, [](int) { return 1.0; })), who);
    this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})", who);
    return std::pair{run, std::string(object.at("experimentId").as_string())};
  };
  const auto [first, experiment] = run_as(a);
  const auto [second, same] = run_as(a);
  const std::string diff = "/api/v1/experiments/" + experiment + "/runs/" + second + "/diff?baselineRunId=" + first;
  BOOST_TEST(this->call("GET", diff, "", a).status() == 200u);
  BOOST_TEST(this->call("GET", diff, "", b).status() == 404u);
  const std::string body = R"({"candidateRunId":")" + second + R"("})";
  BOOST_TEST(krino::json::parse(this->call("POST", "/api/v1/experiments/" + experiment + "/gate", body, a).body()).at("status").as_string() ==
             "INCONCLUSIVE");  // three items cannot show significance
  BOOST_TEST(this->call("POST", "/api/v1/experiments/" + experiment + "/gate", body, b).status() == 404u);
}

BOOST_AUTO_TEST_SUITE_END()
