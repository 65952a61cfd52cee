#include "console_reporter.hpp"
#include "console_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>

using namespace krino::console;
namespace t = krino::console::testing;

namespace {

struct Captured {
  std::string summary;
  std::string progress;
};

void feed(ConsoleReporter& reporter, const std::vector<std::string>& events) {
  for (const auto& e : events) reporter.on_event(krino::Event(e));
}

// Runs `events` through a reporter whose outputs are not terminals, as in CI logs.
Captured run_plain(const std::vector<std::string>& events, ConsoleOptions options = {}, Environment environment = {}) {
  t::StringOutput summary;
  t::StringOutput progress;
  t::FakeClock clock;
  {
    ConsoleReporter reporter(options, summary, progress, environment, clock.function());
    feed(reporter, events);
  }
  return Captured{summary.text, progress.text};
}

ConsoleOptions console_reporter_options_from(const std::string& json) {
  return ConsoleOptions::from_config(krino::Config(boost::json::parse(json).as_object()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(console_reporter)

BOOST_AUTO_TEST_CASE(plain_mode_single_run_prints_failures_as_they_come_then_a_summary) {
  const Captured out = run_plain(t::single_run_events());
  BOOST_TEST(out.progress ==
             "ERROR #1 data.jsonl:2 dataset: line 2 is not valid JSON: expected a value\n"
             "FAIL #2 (id q-3) exact_match 0.00 < 1.00: expected \"Paris\", got \"Lyon\"\n"
             "FAIL #4 (id q-5) faithfulness null: the judge reply had no score\n"
             "run 1/1 completed in 1.52 s: 5 items, 2 passed, 2 failed, 1 error (40.0%)\n");
  BOOST_TEST(out.summary ==
             "Experiment \"qa-smoke\" completed in 1.60 s (1 run, 5 items)\n"
             "Pass rate: 40.0% (5 items: 2 passed, 2 failed, 1 error)\n"
             "\n"
             "Evaluator      Mean  Std dev  Pass rate  Null scores\n"
             "exact_match   0.750    0.500      75.0%            0\n"
             "faithfulness  0.850    0.050      75.0%            1\n"
             "\n"
             "Failed items (2):\n"
             "  FAIL #2 (id q-3) exact_match 0.00 < 1.00: expected \"Paris\", got \"Lyon\"\n"
             "  FAIL #4 (id q-5) faithfulness null: the judge reply had no score\n"
             "\n"
             "Errored items (1):\n"
             "  ERROR #1 data.jsonl:2 dataset: line 2 is not valid JSON: expected a value\n");
}

BOOST_AUTO_TEST_CASE(plain_mode_three_runs_shows_run_to_run_spread) {
  const Captured out = run_plain(t::three_run_events());
  BOOST_TEST(out.progress ==
             "FAIL #1 (id q-2) [run 1/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n"
             "run 1/3 completed in 1.50 s: 3 items, 2 passed, 1 failed, 0 errors (66.7%)\n"
             "run 2/3 completed in 1.40 s: 3 items, 3 passed, 0 failed, 0 errors (100.0%)\n"
             "FAIL #1 (id q-2) [run 3/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n"
             "ERROR #2 (id q-3) [run 3/3] task http: no reply within 30 s\n"
             "run 3/3 completed in 1.70 s: 3 items, 1 passed, 1 failed, 1 error (33.3%)\n");
  BOOST_TEST(out.summary ==
             "Experiment \"qa-smoke\" completed in 4.60 s (3 runs, 3 items each)\n"
             "Pass rate: 66.7%, mean of 3 runs (66.7%, 100.0%, 33.3%)\n"
             "Mean per run: 2 passed, 0.67 failed, 0.33 errors (3 items)\n"
             "\n"
             "Evaluator     Mean  Std dev  Run std dev  Pass rate\n"
             "exact_match  0.722    0.500        0.255      72.2%\n"
             "\n"
             "Failed items (2, over all runs):\n"
             "  FAIL #1 (id q-2) [run 1/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n"
             "  FAIL #1 (id q-2) [run 3/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n"
             "\n"
             "Errored items (1, over all runs):\n"
             "  ERROR #2 (id q-3) [run 3/3] task http: no reply within 30 s\n");
}

BOOST_AUTO_TEST_CASE(a_cancelled_experiment_says_so) {
  const Captured out = run_plain(t::cancelled_events());
  BOOST_TEST(out.progress ==
             "FAIL #1 (id q-2) [run 1/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n"
             "run 1/3 CANCELLED after 800 ms: 2 items, 1 passed, 1 failed, 0 errors (50.0%)\n");
  BOOST_TEST(out.summary ==
             "Experiment \"qa-smoke\" CANCELLED after 810 ms (during run 1 of 3)\n"
             "Only the items that finished before the cancellation are counted.\n"
             "Pass rate: 50.0% (2 items: 1 passed, 1 failed, 0 errors)\n"
             "\n"
             "Evaluator     Mean  Std dev  Pass rate\n"
             "exact_match  0.500    0.707      50.0%\n"
             "\n"
             "Failed items (1):\n"
             "  FAIL #1 (id q-2) [run 1/3] exact_match 0.00 < 1.00: expected \"4\", got \"5\"\n");
}

BOOST_AUTO_TEST_CASE(the_failure_list_is_bounded_and_says_how_many_more) {
  std::vector<std::string> events{t::run_started(0, 1, std::nullopt)};
  for (int i = 0; i < 25; ++i) events.push_back(t::failing_item(0, i, "q-" + std::to_string(i), "wrong"));
  for (int i = 25; i < 28; ++i)
    events.push_back(t::errored_item(0, i, std::nullopt, "data.jsonl:" + std::to_string(i + 1), "dataset", "jsonl",
                                     "INVALID_ARGUMENT", "bad row"));
  events.push_back(t::run_finished(0, "completed", 100,
                                   {{"totalCount", 28}, {"passCount", 0}, {"failCount", 28}, {"errorCount", 3},
                                    {"passRate", 0.0}, {"evaluators", boost::json::object{}}}));
  events.push_back(t::experiment_finished("completed", 120,
                                          {{"runCount", 1}, {"totalCount", 28}, {"passCount", 0.0}, {"failCount", 28.0},
                                           {"passRate", 0.0}, {"errorCount", 3.0}, {"evaluators", boost::json::object{}}}));

  const Captured out = run_plain(events);
  BOOST_TEST(out.summary.find("Failed items (25):\n  FAIL #0 (id q-0) exact_match 0.00 < 1.00: wrong\n") !=
             std::string::npos);
  BOOST_TEST(out.summary.find("  FAIL #19 (id q-19) exact_match 0.00 < 1.00: wrong\n  ... and 5 more\n") !=
             std::string::npos);
  BOOST_TEST(out.summary.find("#20 (id q-20)") == std::string::npos);
  BOOST_TEST(out.summary.find("Errored items (3):\n") != std::string::npos);
  BOOST_TEST(out.summary.find("  ERROR #27 data.jsonl:28 dataset: bad row\n") != std::string::npos);
  // Every one of them was still reported as it came.
  BOOST_TEST(out.progress.find("FAIL #24 (id q-24)") != std::string::npos);

  ConsoleOptions two;
  two.max_failures_shown = 2;
  const Captured bounded = run_plain(events, two);
  BOOST_TEST(bounded.summary.find("  ERROR #26 data.jsonl:27 dataset: bad row\n  ... and 1 more\n") != std::string::npos);
  BOOST_TEST(bounded.summary.find("  ... and 23 more\n") != std::string::npos);

  ConsoleOptions none;
  none.max_failures_shown = 0;
  const Captured unlisted = run_plain(events, none);
  BOOST_TEST(unlisted.summary.find("Failed items (25): not listed (max_failures_shown is 0)\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(color_always_paints_even_without_a_terminal) {
  const Captured out = run_plain(t::single_run_events(), console_reporter_options_from(R"({"color": "always"})"));
  BOOST_TEST(out.progress.find("\x1b[31mFAIL\x1b[0m #2 (id q-3)") != std::string::npos);
  BOOST_TEST(out.progress.find("\x1b[33mERROR\x1b[0m #1") != std::string::npos);
  BOOST_TEST(out.summary.find("Pass rate: \x1b[31m40.0%\x1b[0m") != std::string::npos);
  BOOST_TEST(out.summary.find("\x1b[32mcompleted\x1b[0m") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_color_removes_every_escape_on_a_terminal) {
  const ConsoleOptions options = console_reporter_options_from(R"({"progress": "never"})");
  auto run_on_terminal = [&](const Environment& environment) {
    t::StringOutput summary(true, 120);
    t::StringOutput progress(true, 120);
    t::FakeClock clock;
    {
      ConsoleReporter reporter(options, summary, progress, environment, clock.function());
      feed(reporter, t::three_run_events());
    }
    return Captured{summary.text, progress.text};
  };
  const Captured plain = run_on_terminal(Environment{"1", "xterm"});
  BOOST_TEST(plain.summary.find('\x1b') == std::string::npos);
  BOOST_TEST(plain.progress.find('\x1b') == std::string::npos);
  BOOST_TEST(plain.progress == run_plain(t::three_run_events()).progress);

  const Captured coloured = run_on_terminal(Environment{"", "xterm"});
  BOOST_TEST(coloured.summary.find('\x1b') != std::string::npos);
  BOOST_TEST(coloured.progress.find("\x1b[31mFAIL\x1b[0m") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(color_never_wins_on_a_terminal) {
  t::StringOutput summary(true, 120);
  t::StringOutput progress(true, 120);
  t::FakeClock clock;
  {
    ConsoleReporter reporter(console_reporter_options_from(R"({"color": "never"})"), summary, progress, Environment{}, clock.function());
    feed(reporter, t::single_run_events());
  }
  BOOST_TEST(summary.text.find('\x1b') == std::string::npos);
  BOOST_TEST(progress.text.find('\x1b') == std::string::npos);
  BOOST_TEST(progress.text.find('\r') != std::string::npos);  // a terminal still gets the bar
}

BOOST_AUTO_TEST_CASE(items_all_gives_every_item_a_line_with_every_result) {
  const Captured out = run_plain(t::single_run_events(), console_reporter_options_from(R"({"items": "all"})"));
  BOOST_TEST(out.progress ==
             "PASS #0 (id q-1) exact_match 1.00 = 1.00: exact match; faithfulness 0.90 > 0.70: grounded\n"
             "ERROR #1 data.jsonl:2 dataset: line 2 is not valid JSON: expected a value\n"
             "FAIL #2 (id q-3) exact_match 0.00 < 1.00: expected \"Paris\", got \"Lyon\"\n"
             "PASS #3 (id q-4) exact_match 1.00 = 1.00: exact match; faithfulness 0.85 > 0.70: grounded\n"
             "FAIL #4 (id q-5) faithfulness null: the judge reply had no score\n"
             "run 1/1 completed in 1.52 s: 5 items, 2 passed, 2 failed, 1 error (40.0%)\n");
  // The summary is the same as without the option: it still lists only failures.
  BOOST_TEST(out.summary == run_plain(t::single_run_events()).summary);
  BOOST_CHECK_THROW(console_reporter_options_from(R"({"items": "passes"})"), krino::Error);
}

BOOST_AUTO_TEST_CASE(items_all_prints_lines_above_a_progress_bar) {
  t::StringOutput summary;
  t::StringOutput progress;
  t::FakeClock clock;
  {
    ConsoleReporter reporter(console_reporter_options_from(R"({"progress": "always", "items": "all"})"), summary, progress,
                             Environment{}, clock.function());
    feed(reporter, t::single_run_events());
  }
  BOOST_TEST(progress.text.find("PASS #0 (id q-1)") != std::string::npos);
  BOOST_TEST(progress.text.find("FAIL #2 (id q-3)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(with_a_bar_items_are_not_listed_as_they_come_and_the_bar_is_cleared_first) {
  t::StringOutput summary;
  t::StringOutput progress;
  t::FakeClock clock;
  {
    ConsoleReporter reporter(console_reporter_options_from(R"({"progress": "always"})"), summary, progress, Environment{},
                             clock.function());
    feed(reporter, t::single_run_events());
  }
  BOOST_TEST(progress.text.find("FAIL") == std::string::npos);
  BOOST_TEST(progress.text.rfind("\r[------------------------------] 0/5 0% | 0 passed, 0 failed, 0 errors", 0) == 0);
  // The run line follows an erased bar: carriage return, blanks, carriage return.
  const std::string run_line = "run 1/1 completed in 1.52 s: 5 items, 2 passed, 2 failed, 1 error (40.0%)\n";
  const std::size_t at = progress.text.find(run_line);
  BOOST_REQUIRE(at != std::string::npos);
  BOOST_TEST(progress.text[at - 1] == '\r');
  BOOST_TEST(progress.text[at - 2] == ' ');
  BOOST_TEST(at + run_line.size() == progress.text.size());
  BOOST_TEST(summary.text.rfind("Experiment \"qa-smoke\" completed", 0) == 0);
}

BOOST_AUTO_TEST_CASE(flush_erases_the_bar_and_flushes_both_streams) {
  t::StringOutput summary;
  t::StringOutput progress;
  t::FakeClock clock;
  ConsoleReporter reporter(console_reporter_options_from(R"({"progress": "always"})"), summary, progress, Environment{},
                           clock.function());
  reporter.on_event(krino::Event(t::run_started(0, 1, 10)));
  const int before = summary.flushes;
  reporter.flush();
  BOOST_TEST(summary.flushes == before + 1);
  BOOST_TEST(progress.text.back() == '\r');
  const std::string after_flush = progress.text;
  reporter.flush();
  BOOST_TEST(progress.text == after_flush);  // nothing left to erase
}

BOOST_AUTO_TEST_CASE(stream_stderr_puts_the_summary_after_the_progress_lines) {
  t::StringOutput both;
  t::FakeClock clock;
  {
    ConsoleReporter reporter(console_reporter_options_from(R"({"stream": "stderr"})"), both, both, Environment{}, clock.function());
    feed(reporter, t::cancelled_events());
  }
  BOOST_TEST(both.text.rfind("FAIL #1 (id q-2)", 0) == 0);
  BOOST_TEST(both.text.find("run 1/3 CANCELLED") < both.text.find("Experiment \"qa-smoke\" CANCELLED"));
}

BOOST_AUTO_TEST_CASE(an_experiment_without_items_has_no_pass_rate) {
  const Captured out = run_plain(
      {t::run_started(0, 1, 0),
       t::run_finished(0, "completed", 2, {{"totalCount", 0}, {"passCount", 0}, {"failCount", 0}, {"errorCount", 0}, {"passRate", 0.0}}),
       t::experiment_finished("completed", 3, {{"runCount", 1}, {"totalCount", 0}, {"passCount", 0.0}, {"failCount", 0.0},
                                               {"passRate", 0.0}, {"errorCount", 0.0}})});
  BOOST_TEST(out.progress == "run 1/1 completed in 2 ms: 0 items, 0 passed, 0 failed, 0 errors\n");
  BOOST_TEST(out.summary == "Experiment \"qa-smoke\" completed in 3 ms (1 run, 0 items)\nPass rate: n/a (no items)\n");
}

BOOST_AUTO_TEST_CASE(unknown_events_and_fields_are_ignored) {
  std::vector<std::string> events = t::cancelled_events();
  events.insert(events.begin() + 1, R"({"event": "heartbeat", "schema": "krino.event/1", "extra": [1, 2]})");
  BOOST_TEST(run_plain(events).summary == run_plain(t::cancelled_events()).summary);
}

BOOST_AUTO_TEST_CASE(options_have_defaults_and_are_checked) {
  const ConsoleOptions defaults = console_reporter_options_from("{}");
  BOOST_TEST((defaults.progress == When::automatic));
  BOOST_TEST((defaults.color == When::automatic));
  BOOST_TEST((defaults.stream == SummaryStream::standard_output));
  BOOST_TEST(defaults.max_failures_shown == 20u);

  const ConsoleOptions set =
      console_reporter_options_from(R"({"progress": "never", "color": "always", "stream": "stderr", "max_failures_shown": 3})");
  BOOST_TEST((set.progress == When::never));
  BOOST_TEST((set.color == When::always));
  BOOST_TEST((set.stream == SummaryStream::standard_error));
  BOOST_TEST(set.max_failures_shown == 3u);

  for (const char* bad : {R"({"progress": "sometimes"})", R"({"stream": "stdlog"})", R"({"max_failures_shown": -1})",
                          R"({"max_failures_shown": 10001})", R"({"max_failures_shown": "all"})", R"({"colour": "never"})"}) {
    BOOST_CHECK_EXCEPTION(console_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
}

BOOST_AUTO_TEST_CASE(the_schema_is_draft_7_closed_and_matches_the_defaults) {
  const boost::json::object schema = boost::json::parse(kConsoleOptionsSchema).as_object();
  BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  const auto& properties = schema.at("properties").as_object();
  BOOST_TEST(properties.size() == 5u);
  for (const auto& p : properties) BOOST_TEST(p.value().as_object().contains("description"));
  BOOST_TEST(properties.at("progress").at("default").as_string() == "auto");
  BOOST_TEST(properties.at("color").at("default").as_string() == "auto");
  BOOST_TEST(properties.at("stream").at("default").as_string() == "stdout");
  BOOST_TEST(properties.at("items").at("default").as_string() == "failures");
  BOOST_TEST(properties.at("max_failures_shown").at("default").as_int64() == 20);
  BOOST_TEST(properties.at("max_failures_shown").at("maximum").as_int64() ==
             static_cast<int64_t>(kMaxFailuresShownLimit));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(console_judge_line)

// A run that asked an LLM judge says what that cost, under the pass rate.
BOOST_AUTO_TEST_CASE(judge_usage_gets_one_line) {
  const std::string finished =
      R"({"event":"experiment_finished","schema":"krino.event/1","run_index":null,"status":"completed","durationMs":1000,)"
      R"("summary":{"runCount":1,"totalCount":6,"passCount":5,"failCount":1,"errorCount":1,"passRate":0.833333,)"
      R"("evaluators":{},"judge":{"calls":6,"cachedCalls":2,"failedCalls":1,"retries":3,"repairs":1,"tokensIn":1200,)"
      R"("tokensOut":240,"costUsd":0.00168,"tokenizedItems":4,"pricedItems":3,"costCoverage":"3/4 items priced","byEvaluator":{}}}})";
  const Captured out = run_plain({finished});
  BOOST_TEST(out.summary.find("Judge: 6 calls (2 cached, 3 retries, 1 failed), 1200 tokens in / 240 out, $0.0017 "
                              "(3/4 items priced)\n") != std::string::npos,
             out.summary);
  const Captured none = run_plain(t::single_run_events());
  BOOST_TEST(none.summary.find("Judge:") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
