// What the web UI reads, over loopback HTTP on both backends: a run's items filtered by status,
// evaluator verdict and text, paged by keyset to the end, with hostile searches answered as 400s
// or as plain text to find; each evaluator's distribution (kept once the run ends); trends with
// intervals, durations and costs; and the log of gate verdicts, newest first, per tenant.
#include "server_api_fixture.hpp"

#include "krino/core/server/ended_run_indexer.hpp"
#include "krino/core/statistics/intervals.hpp"
#include "krino/core/store/evaluator_stats.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <fmt/format.h>

using namespace krino::core;
using namespace krino::test;
using krino::fake_llm::test::HttpResult;

namespace {

// Item n of ten: "judge" scores n / 9 and passes from 0.5; "exact" fails items 3 and 7 and has no
// score; items 2 and 5 carry an item error; each asks about a city (item 4: a quoted 100%_"deal").
std::string ten_items() {
  std::string body = R"({"items":[)";
  const char* const cities[] = {"Paris", "Rome", "Oslo", "Lima", "Quito", "Paris", "Cairo", "Doha", "Riga", "Bern"};
  for (int n = 0; n < 10; ++n) {
    const double judge = n / 9.0;
    const bool judge_pass = judge >= 0.5;
    const bool exact_pass = n != 3 && n != 7;
    const bool errored = n == 2 || n == 5;
    const std::string text = n == 4 ? R"(a 100%_\"deal\" in Quito)" : std::string("the capital ") + cities[n];
    body += fmt::format(R"({}{{"inputs":{{"question":"{}"}},"success":{},"tokensIn":10,"costUsd":0.25,{})"
                        R"("evalResults":[{{"name":"judge","score":{},"threshold":0.5,"success":{}}},{{"name":"exact","success":{}}}]}})",
                        n > 0 ? "," : "", text, judge_pass && exact_pass && !errored,
                        errored ? R"("error":{"stage":"task","component":"http","code":"timeout","message":"slow"},)" : "", judge,
                        judge_pass, exact_pass);
  }
  return body + "]}";
}

template <class Fixture>
std::string filled_run(Fixture& f) {
  const std::string run = f.new_run();
  BOOST_REQUIRE_EQUAL(f.call("POST", "/api/v1/runs/" + run + "/items", ten_items()).status(), 201u);
  return run;
}

// The items' indexes of one page, and the page.
template <class Fixture>
std::pair<std::vector<std::int64_t>, boost::json::object> page(Fixture& f, const std::string& run, const std::string& query) {
  const HttpResult result = f.call("GET", "/api/v1/runs/" + run + "/items?" + query);
  BOOST_REQUIRE_MESSAGE(result.status() == 200u, query + " -> " + result.body());
  boost::json::object body = krino::json::parse(result.body()).as_object();
  std::vector<std::int64_t> indexes;
  for (const auto& item : body.at("content").as_array()) indexes.push_back(item.at("index").as_int64());
  return {indexes, body};
}

// Every index the filter matches, page after page of `size` until nextAfter is null.
template <class Fixture>
std::vector<std::int64_t> all_pages(Fixture& f, const std::string& run, const std::string& query, std::size_t size = 2) {
  std::vector<std::int64_t> all;
  std::string after;
  for (int pages = 0; pages < 50; ++pages) {
    auto [indexes, body] = page(f, run, query + "&size=" + std::to_string(size) + after);
    BOOST_TEST(indexes.size() <= size);
    all.insert(all.end(), indexes.begin(), indexes.end());
    if (body.at("nextAfter").is_null()) return all;
    after = "&after=" + std::to_string(body.at("nextAfter").as_int64());
  }
  BOOST_FAIL("paging never ended: " + query);
  return all;
}

using Seqs = std::vector<std::int64_t>;

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_run_view)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(item_filters_page_to_the_end_with_counts_from_the_totals, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = filled_run(*this);
  // Passing: judge >= .5 (items 5..9), exact passes (not 7), no error (not 5): 6, 8, 9.
  BOOST_TEST(all_pages(*this, run, "status=ALL") == (Seqs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "status=PASSED") == (Seqs{6, 8, 9}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "status=FAILED") == (Seqs{0, 1, 2, 3, 4, 5, 7}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "status=ERROR") == (Seqs{2, 5}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "evaluator=exact&evaluatorStatus=FAILED") == (Seqs{3, 7}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "evaluator=judge&evaluatorStatus=PASSED") == (Seqs{5, 6, 7, 8, 9}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "evaluator=judge") == (Seqs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "evaluator=nobody").empty());
  BOOST_TEST(all_pages(*this, run, "status=FAILED&evaluator=judge&evaluatorStatus=PASSED") == (Seqs{5, 7}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "q=paris") == (Seqs{0, 5}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "q=CAPITAL+paris&status=ERROR") == (Seqs{5}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "q=capital&size=50") == (Seqs{0, 1, 2, 3, 5, 6, 7, 8, 9}), boost::test_tools::per_element());

  // matchCount from the run's totals for a status alone; null when a count would need a scan.
  auto [indexes, body] = page(*this, run, "status=FAILED&size=3");
  BOOST_TEST(indexes == (Seqs{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(body.at("matchCount").as_int64() == 7);
  BOOST_TEST(body.at("nextAfter").as_int64() == 2);
  BOOST_TEST(body.at("size").as_int64() == 3);
  BOOST_TEST(body.at("numberOfElements").as_int64() == 3);
  BOOST_TEST(page(*this, run, "").second.at("matchCount").as_int64() == 10);
  BOOST_TEST(page(*this, run, "status=ERROR").second.at("matchCount").as_int64() == 2);
  BOOST_TEST(page(*this, run, "status=PASSED").second.at("matchCount").as_int64() == 3);
  BOOST_TEST(page(*this, run, "q=rome").second.at("matchCount").is_null());
  BOOST_TEST(page(*this, run, "evaluator=judge").second.at("matchCount").is_null());
  // Items read as the run's own page writes them: id, index, then the members as sent.
  const auto first = page(*this, run, "status=ERROR&size=1").second.at("content").as_array().at(0).as_object();
  BOOST_TEST(first.at("index").as_int64() == 2);
  BOOST_TEST(first.at("error").at("code").as_string() == "timeout");
  BOOST_TEST(first.at("inputs").at("question").as_string() == "the capital Oslo");
  BOOST_TEST(page(*this, run, "after=9").first.empty());
  BOOST_TEST(page(*this, run, "after=9").second.at("nextAfter").is_null());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_window_bounds_the_work_of_a_page_and_says_where_to_go_on, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = filled_run(*this);
  store::ItemFilter filter;
  filter.words = {"paris"};
  filter.window = 3;
  filter.limit = 50;
  // Positions 0..2 hold one match; the page ends at the window with where to go on.
  auto first = this->store->filtered_items(store::Scope{}, run, filter);
  BOOST_REQUIRE(first);
  BOOST_TEST(first->items.size() == 1u);
  BOOST_TEST(first->next_after.value_or(-5) == 2);
  filter.after_seq = 2;  // 3..5: item 5
  auto second = this->store->filtered_items(store::Scope{}, run, filter);
  BOOST_TEST(second->items.size() == 1u);
  BOOST_TEST(second->items.at(0).seq == 5);
  BOOST_TEST(second->next_after.value_or(-5) == 5);
  filter.after_seq = 5;  // 6..8: nothing, go on
  BOOST_TEST(this->store->filtered_items(store::Scope{}, run, filter)->items.empty());
  filter.after_seq = 8;  // 9: the end
  const auto last = this->store->filtered_items(store::Scope{}, run, filter);
  BOOST_TEST(last->items.empty());
  BOOST_TEST(!last->next_after.has_value());
  // A shared run is seen by every tenant; a tenant's run by no other.
  BOOST_TEST(this->store->filtered_items(store::Scope{"acme"}, run, filter).has_value());
  const store::CreatedRun mine = this->store->create_run(store::Scope{"acme"}, store::NewRun{"acme-project", "acme-experiment"});
  BOOST_TEST(!this->store->filtered_items(store::Scope{"globex"}, mine.run_id, filter).has_value());
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + mine.run_id + "/items").status() == 200u);  // open mode: unscoped
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(hostile_searches_are_400s_or_plain_text, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = filled_run(*this);
  const std::string items = "/api/v1/runs/" + run + "/items?";
  const auto refused = [&](const std::string& query, const std::string& field) {
    const HttpResult result = this->call("GET", items + query);
    BOOST_TEST(result.status() == 400u, query + " -> " + result.body());
    BOOST_TEST(result.body().find(field) != std::string::npos, result.body());
  };
  refused("q=%FF%FE", "q");                               // not UTF-8
  refused("q=" + std::string(257, 'a'), "q");             // too long
  refused("q=a+b+c+d+e+f+g+h+i", "q");                    // too many words
  refused("status=BROKEN", "status");
  refused("evaluatorStatus=FAILED", "evaluatorStatus");   // without an evaluator
  refused("evaluator=judge&evaluatorStatus=MAYBE", "evaluatorStatus");
  refused("evaluator=", "evaluator");
  refused("after=x", "after");
  refused("after=-2", "after");
  refused("size=0", "size");
  refused("size=1001", "size");
  // LIKE's and FTS's syntax characters are text to find: % and _ match only themselves, a quote
  // finds the escaped quote of the document.
  BOOST_TEST(all_pages(*this, run, "q=100%25_") == (Seqs{4}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "q=%25").size() == 1u);
  BOOST_TEST(all_pages(*this, run, "q=_").size() == 1u);
  BOOST_TEST(all_pages(*this, run, "q=%22deal%22") == (Seqs{4}), boost::test_tools::per_element());
  BOOST_TEST(all_pages(*this, run, "q=%5C").empty());  // a backslash: none is written in the items' text
  for (const char* text : {"%22", "*", "NEAR(a+b)", "a:b", "(", "')+OR+1=1--", "%5E", "-"})
    BOOST_TEST(this->call("GET", items + "q=" + text).status() == 200u, text);
  BOOST_TEST(this->call("GET", items + "q=" + std::string(256, 'a')).status() == 200u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/not-a-uuid/items").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/01a21d79-e431-74e4-a70b-f37e317556d8/items").status() == 404u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(evaluator_distributions_are_summed_and_kept_once_the_run_ends, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = filled_run(*this);
  const auto read = [&] {
    const HttpResult result = this->call("GET", "/api/v1/runs/" + run + "/evaluators");
    BOOST_REQUIRE_EQUAL(result.status(), 200u);
    return krino::json::parse(result.body()).at("evaluators").as_array();
  };
  const auto running = read();
  BOOST_REQUIRE_EQUAL(running.size(), 2u);
  BOOST_TEST(!this->store->kept_evaluator_stats(run).has_value());  // summed live while it runs
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 200u);
  // The end answers without summing; the server's background worker sums and keeps them.
  BOOST_TEST(!this->store->kept_evaluator_stats(run).has_value());
  server::EndedRunIndexer(*this->store).build_awaiting();
  BOOST_TEST(this->store->kept_evaluator_stats(run).has_value());
  const auto evaluators = read();
  BOOST_TEST(boost::json::serialize(evaluators) == boost::json::serialize(running));
  // Read before the worker came: the reader sums and keeps the same numbers, the worker adds none.
  const std::string other = filled_run(*this);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + other, R"({"status":"SUCCESS"})").status() == 200u);
  const HttpResult early = this->call("GET", "/api/v1/runs/" + other + "/evaluators");
  BOOST_TEST(boost::json::serialize(krino::json::parse(early.body()).at("evaluators")) == boost::json::serialize(running));
  BOOST_TEST(this->store->kept_evaluator_stats(other).has_value());
  server::EndedRunIndexer(*this->store).build_awaiting();
  BOOST_TEST(this->store->kept_evaluator_stats(other)->size() == 2u);

  const auto& judge = evaluators.at(0).as_object();
  BOOST_TEST(judge.at("name").as_string() == "judge");
  BOOST_TEST(judge.at("count").as_int64() == 10);
  BOOST_TEST(judge.at("passed").as_int64() == 5);
  BOOST_TEST(judge.at("passRate").as_double() == 0.5);
  double sum = 0, squares = 0;
  for (int n = 0; n < 10; ++n) {
    sum += n / 9.0;
    squares += (n / 9.0) * (n / 9.0);
  }
  BOOST_TEST(judge.at("meanScore").as_double() == sum / 10);
  const auto ci = mean_interval(10, sum, squares);
  BOOST_TEST(judge.at("scoreCi").at(0).as_double() == ci[0]);
  BOOST_TEST(judge.at("scoreCi").at(1).as_double() == ci[1]);
  BOOST_TEST(judge.at("histogram").at("min").as_double() == 0.0);
  BOOST_TEST(judge.at("histogram").at("max").as_double() == 1.0);
  // n / 9 in twentieths of [0, 1]: buckets 0, 2, 4, 6, 8, 11, 13, 15, 17 and the max in 19.
  const auto& buckets = judge.at("histogram").at("buckets").as_array();
  BOOST_REQUIRE_EQUAL(buckets.size(), 20u);
  std::vector<std::int64_t> counts;
  for (const auto& b : buckets) counts.push_back(b.as_int64());
  BOOST_TEST(counts == (std::vector<std::int64_t>{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}), boost::test_tools::per_element());

  const auto& exact = evaluators.at(1).as_object();
  BOOST_TEST(exact.at("name").as_string() == "exact");
  BOOST_TEST(exact.at("passed").as_int64() == 8);
  BOOST_TEST(exact.at("meanScore").is_null());
  BOOST_TEST(exact.at("scoreCi").is_null());
  BOOST_TEST(exact.at("histogram").at("min").is_null());

  BOOST_TEST(this->call("GET", "/api/v1/runs/01a21d79-e431-74e4-a70b-f37e317556d8/evaluators").status() == 404u);
  const store::CreatedRun mine = this->store->create_run(store::Scope{"acme"}, store::NewRun{"acme-project", "acme-experiment"});
  BOOST_TEST(!store::evaluator_stats(*this->store, store::Scope{"globex"}, mine.run_id).has_value());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(trends_and_lists_carry_intervals_durations_costs_and_the_best_pass_rate, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = filled_run(*this);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status() == 200u);
  const std::string running = this->new_run();
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + running + "/items",
                        R"({"items":[{"success":true,"evalResults":[{"name":"judge","score":1,"success":true}]}]})").status() == 201u);
  const auto experiments = krino::json::parse(this->call("GET", "/api/v1/projects/shop/experiments").body()).as_array();
  const std::string experiment(experiments.at(0).at("id").as_string());
  BOOST_TEST(experiments.at(0).at("bestPassRate").as_double() == 1.0);
  BOOST_TEST(experiments.at(0).at("latestRun").at("costUsd").is_null());  // the running run priced nothing

  const auto trends = krino::json::parse(this->call("GET", "/api/v1/experiments/" + experiment + "/trends").body()).as_object();
  BOOST_TEST(trends.at("bestPassRate").as_double() == 1.0);
  const auto& runs = trends.at("runs").as_array();
  BOOST_REQUIRE_EQUAL(runs.size(), 2u);
  const auto& ended = runs.at(0).as_object();  // oldest first
  BOOST_TEST(ended.at("runId").as_string() == run);
  const auto wilson = wilson_interval(3, 10);
  BOOST_TEST(ended.at("passRateCi").at(0).as_double() == wilson[0]);
  BOOST_TEST(ended.at("passRateCi").at(1).as_double() == wilson[1]);
  BOOST_TEST(ended.at("durationMs").as_double() >= 0.0);
  BOOST_TEST(ended.at("costUsd").as_double() == 2.5);
  BOOST_TEST(ended.at("tokensIn").as_int64() == 100);
  BOOST_TEST(ended.at("tokensOut").is_null());
  const auto& judge = ended.at("evaluators").at(0).as_object();
  BOOST_TEST(judge.at("name").as_string() == "judge");
  BOOST_TEST(judge.at("count").as_int64() == 10);
  BOOST_TEST(judge.at("mean").as_double() > 0.49);
  BOOST_TEST(judge.at("ci").as_array().size() == 2u);
  BOOST_TEST(ended.at("evaluators").at(1).at("mean").is_null());
  const auto& live = runs.at(1).as_object();
  BOOST_TEST(live.at("durationMs").is_null());
  BOOST_TEST(live.at("passRateCi").at(1).as_double() == 1.0);
  BOOST_TEST(live.at("evaluators").at(0).at("ci").at(0).as_double() == 1.0);  // one score: its own interval

  const auto list = krino::json::parse(this->call("GET", "/api/v1/experiments/" + experiment + "/runs").body()).as_array();
  BOOST_TEST(list.at(1).at("costUsd").as_double() == 2.5);
  BOOST_TEST(list.at(1).at("durationMs").is_number());
  BOOST_TEST(list.at(0).at("durationMs").is_null());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(every_gate_verdict_is_logged_newest_first_per_tenant, Backend, Backends, ServerFixture<Backend>) {
  std::string all_pass = R"({"items":[)", all_fail = R"({"items":[)";
  for (int i = 0; i < 40; ++i) {
    all_pass += fmt::format(R"({}{{"success":true,"evalResults":[{{"name":"e","score":1,"success":true}}]}})", i > 0 ? "," : "");
    all_fail += fmt::format(R"({}{{"success":false,"evalResults":[{{"name":"e","score":0,"success":false}}]}})", i > 0 ? "," : "");
  }
  all_pass += "]}";
  all_fail += "]}";
  std::vector<std::string> runs;
  for (const std::string* body : {&all_pass, &all_fail}) {
    runs.push_back(this->new_run());
    BOOST_TEST(this->call("POST", "/api/v1/runs/" + runs.back() + "/items", *body).status() == 201u);
    BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + runs.back(), R"({"status":"SUCCESS"})").status() == 200u);
  }
  const auto experiments = krino::json::parse(this->call("GET", "/api/v1/projects/shop/experiments").body()).as_array();
  const std::string experiment(experiments.at(0).at("id").as_string());
  const std::string gate = "/api/v1/experiments/" + experiment + "/gate";
  BOOST_TEST(this->call("POST", gate, R"({"candidateRunId":")" + runs[0] + "\"}").status() == 200u);  // no baseline
  const HttpResult failed = this->call("POST", gate, R"({"candidateRunId":")" + runs[1] + "\"}");
  BOOST_TEST(failed.body().find("\"FAIL\"") != std::string::npos, failed.body());

  const auto log = [&](const std::string& target) {
    const HttpResult result = this->call("GET", target);
    BOOST_REQUIRE_MESSAGE(result.status() == 200u, result.body());
    return krino::json::parse(result.body()).at("gates").as_array();
  };
  const auto all = log("/api/v1/gates");
  BOOST_REQUIRE_EQUAL(all.size(), 2u);
  BOOST_TEST(all.at(0).at("status").as_string() == "FAIL");  // newest first
  BOOST_TEST(all.at(0).at("candidateRunId").as_string() == runs[1]);
  BOOST_TEST(all.at(0).at("baselineRunId").as_string() == runs[0]);
  BOOST_TEST(all.at(0).at("passRateDelta").as_double() == -1.0);
  BOOST_TEST(all.at(0).at("experimentName").as_string() == "qa");
  BOOST_TEST(all.at(0).at("projectName").as_string() == "shop");
  BOOST_TEST(all.at(1).at("status").as_string() == "NO_BASELINE");
  BOOST_TEST(all.at(1).at("baselineRunId").is_null());
  BOOST_TEST(log("/api/v1/gates?status=FAIL").size() == 1u);
  BOOST_TEST(log("/api/v1/gates?status=PASS").empty());
  BOOST_TEST(log("/api/v1/gates?limit=1").size() == 1u);
  BOOST_TEST(log("/api/v1/experiments/" + experiment + "/gates?status=NO_BASELINE").size() == 1u);
  BOOST_TEST(this->call("GET", "/api/v1/gates?status=MAYBE").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/gates?limit=0").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/experiments/01a21d79-e431-74e4-a70b-f37e317556d8/gates").status() == 404u);

  // A tenant's verdicts are its own: another tenant sees none of them, an unscoped caller all.
  const store::CreatedRun mine = this->store->create_run(store::Scope{"acme"}, store::NewRun{"acme-project", "acme-experiment"});
  this->store->record_gate(mine.experiment_id, mine.run_id, std::nullopt, "FAIL", std::nullopt);
  BOOST_TEST(this->store->gates(store::Scope{"acme"}, store::GateQuery{"FAIL"}).size() == 2u);  // its own and the shared one
  BOOST_TEST(this->store->gates(store::Scope{"globex"}, store::GateQuery{"FAIL"}).size() == 1u);
  BOOST_TEST(this->store->gates(store::Scope{}, store::GateQuery{"FAIL"}).size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
