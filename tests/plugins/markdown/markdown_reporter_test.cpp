// The markdown reporter driven with real event sequences: whole documents for the common cases,
// and the structure of tables (every row as wide as its header) under hostile text.
#include "markdown_options.hpp"
#include "markdown_reporter.hpp"
#include "markdown_text.hpp"
#include "reporter_events.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace krino::markdown;
namespace r = krino::testing::reports;

namespace {

MarkdownOptions markdown_reporter_options_for(const std::filesystem::path& path) {
  MarkdownOptions options;
  options.path = path.string();
  return options;
}

MarkdownOptions markdown_reporter_options_from(const std::string& json, std::map<std::string, std::string> environment = {}) {
  return MarkdownOptions::from_config(r::config_from(json),
                                      [environment](const char* name) -> const char* {
                                        const auto it = environment.find(name);
                                        return it == environment.end() ? nullptr : it->second.c_str();
                                      });
}

std::string render(const std::vector<std::string>& events, MarkdownOptions options = {}) {
  r::ScratchDirectory dir;
  options.path = (dir / "summary.md").string();
  {
    MarkdownReporter reporter(options);
    r::feed(reporter, events);
  }
  return r::read_file(dir / "summary.md");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The cells of a table row: split at pipes that no backslash escapes.
std::size_t cell_separators(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;
      continue;
    }
    if (line[i] == '|') ++n;
  }
  return n;
}

// Every table row has as many cells as the header above it.
void check_tables(const std::string& text) {
  std::size_t width = 0;
  for (const auto& line : lines_of(text)) {
    if (line.empty() || line[0] != '|') {
      width = 0;
      continue;
    }
    if (width == 0) width = cell_separators(line);
    BOOST_TEST(cell_separators(line) == width, "row: " << line);
  }
}

r::EventScript markdown_reporter_mixed_run(uint32_t runs = 1) {
  r::EventScript script("capitals", runs, {{"exact_match", 1.0}, {"faithfulness", 0.8}});
  for (uint32_t run = 0; run < runs; ++run) {
    script.start_run()
        .item({"cap-01", "What is the capital of France?", "Paris", "Paris",
               {r::passed("exact_match"), r::passed("faithfulness", 0.9, 0.8)}})
        .item({"cap-02", "What is the capital of Australia?", "Canberra", "Sydney",
               {r::failed("exact_match", 0.0, 1.0, "expected \"Canberra\", got \"Sydney\""),
                r::unscored("faithfulness", "the judge reply had no score")}})
        .item({std::nullopt, "Capital of Chile?", "Santiago", "", {}, r::ItemError{}})
        .finish_run();
  }
  script.finish_experiment();
  return script;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(markdown_reporter)

BOOST_AUTO_TEST_CASE(the_default_path_is_the_github_step_summary_when_there_is_one) {
  const MarkdownOptions local = markdown_reporter_options_from("{}");
  BOOST_TEST(local.path == "krino-summary.md");
  BOOST_TEST(!local.append);
  BOOST_TEST(local.max_failures == 20u);
  const MarkdownOptions github = markdown_reporter_options_from("{}", {{"GITHUB_STEP_SUMMARY", "/runner/step_summary_1"}});
  BOOST_TEST(github.path == "/runner/step_summary_1");
  BOOST_TEST(github.append);
  BOOST_TEST(markdown_reporter_options_from("{}", {{"GITHUB_STEP_SUMMARY", ""}}).path == "krino-summary.md");
  const MarkdownOptions explicit_path = markdown_reporter_options_from(R"({"path": "s.md"})", {{"GITHUB_STEP_SUMMARY", "/x"}});
  BOOST_TEST(explicit_path.path == "s.md");
  BOOST_TEST(!explicit_path.append);
  BOOST_TEST(!markdown_reporter_options_from(R"({"append": false})", {{"GITHUB_STEP_SUMMARY", "/x"}}).append);
  for (const char* bad : {R"({"path": ""})", R"({"max_failures": -1})", R"({"max_text_chars": 2})", R"({"title": "x"})"}) {
    BOOST_CHECK_EXCEPTION(markdown_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
  const boost::json::object schema = boost::json::parse(kMarkdownOptionsSchema).as_object();
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
}

BOOST_AUTO_TEST_CASE(inline_text_renders_as_itself) {
  BOOST_TEST(inline_text("plain text, 0.5") == "plain text, 0.5");
  BOOST_TEST(inline_text("a | b") == "a \\| b");
  BOOST_TEST(inline_text("<b>&amp;</b>") == "&lt;b&gt;&amp;amp;&lt;/b&gt;");
  BOOST_TEST(inline_text("**x** _y_ `z` [l](u) ~s~ $m$") ==
             "\\*\\*x\\*\\* \\_y\\_ \\`z\\` \\[l\\]\\(u\\) \\~s\\~ \\$m\\$");
  BOOST_TEST(inline_text("ping @octocat about #12") == "ping @&#8203;octocat about \\#&#8203;12");
  BOOST_TEST(inline_text("two\nlines\r\n\ttabbed") == "two lines tabbed");
  BOOST_TEST(inline_text("back\\slash") == "back\\\\slash");
}

BOOST_AUTO_TEST_CASE(a_single_run_summary) {
  r::EventScript script = markdown_reporter_mixed_run();
  const std::string text = render(script.events());
  const std::string expected =
      "## ❌ Experiment: capitals\n\n"
      "**Pass rate: 33.3%** (3 items: 1 passed, 1 failed, 1 error)\n\n"
      "Dataset: data/cases.jsonl · 1 run in 20 ms · started 2026-11-21T10:00:00Z\n\n"
      "**Description:** a test experiment\n\n"
      "| Evaluator | Mean | Std dev | Pass rate | Null scores |\n"
      "|:--|--:|--:|--:|--:|\n"
      "| exact\\_match | 0.500 | 0.250 | 50.0% | 0 |\n"
      "| faithfulness | 0.900 | 0.250 | 50.0% | 1 |\n\n"
      "### Errored items (1)\n\n"
      "| Item | Stage | Code | Message |\n|:--|:--|:--|:--|\n"
      "| \\#&#8203;2 | evaluator exact\\_match | INVALID\\_ARGUMENT | broken |\n\n"
      "### Failed items (1)\n\n"
      "| Item | Input | Expected | Actual | Failing checks |\n|:--|:--|:--|:--|:--|\n"
      "| cap-02 | What is the capital of Australia? | Canberra | Sydney | **exact\\_match** 0.00 (threshold 1.00): "
      "expected \"Canberra\", got \"Sydney\"<br>**faithfulness** no score: the judge reply had no score |\n\n";
  BOOST_TEST(text == expected);
  check_tables(text);
}

BOOST_AUTO_TEST_CASE(several_runs_show_each_runs_pass_rate_and_the_run_spread) {
  const std::string text = render(markdown_reporter_mixed_run(3).events());
  BOOST_TEST(text.find("**Pass rate: 33.3%**, mean of 3 runs (33.3%, 33.3%, 33.3%)<br>\n"
                       "Mean per run: 1 passed, 1 failed, 1 error (3 items)") != std::string::npos,
             text);
  BOOST_TEST(text.find("| Evaluator | Mean | Std dev | Run std dev | Pass rate | Null scores |") != std::string::npos);
  BOOST_TEST(text.find("| exact\\_match | 0.500 | 0.250 | 0.000 | 50.0% | 0 |") != std::string::npos, text);
  BOOST_TEST(text.find("| faithfulness | 0.900 | 0.250 | 0.000 | 50.0% | 3 |") != std::string::npos, text);
  BOOST_TEST(text.find("### Failed items (3, over all runs)") != std::string::npos);
  BOOST_TEST(text.find("| cap-02 \\[run 2/3\\] |") != std::string::npos);
  check_tables(text);
}

BOOST_AUTO_TEST_CASE(failed_items_are_capped_and_the_rest_counted) {
  r::EventScript script("many", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (int i = 0; i < 7; ++i) script.item({"q" + std::to_string(i), "in", "a", "b", {r::failed("exact_match", 0, 1, "no")}});
  script.finish_run().finish_experiment();
  MarkdownOptions options;
  options.max_failures = 2;
  const std::string text = render(script.events(), options);
  BOOST_TEST(text.find("### Failed items (7)") != std::string::npos);
  BOOST_TEST(r::count_of(text, "| q") == 2u);
  BOOST_TEST(text.find("… and 5 more failed items.") != std::string::npos);
  options.max_failures = 0;
  const std::string counts_only = render(script.events(), options);
  BOOST_TEST(counts_only.find("| Item |") == std::string::npos);
  BOOST_TEST(counts_only.find("… and 7 more failed items.") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(judge_and_task_costs_are_one_line_each_with_price_coverage) {
  r::EventScript script("costs", 1, {{"faithfulness", 0.5}});
  script.judge_totals(boost::json::object{{"calls", 30}, {"cachedCalls", 2}, {"failedCalls", 0}, {"retries", 1},
                                          {"tokensIn", 3000}, {"tokensOut", 600}, {"costUsd", 0.0012},
                                          {"tokenizedItems", 10}, {"pricedItems", 9}, {"costCoverage", "9/10 items priced"}});
  script.start_run();
  r::Item priced{"a", "q", "e", "e", {r::passed("faithfulness")}};
  priced.metrics = boost::json::object{{"tokensIn", 100}, {"tokensOut", 20}, {"costUsd", 0.01}, {"latencyMs", 200}};
  r::Item unpriced{"b", "q", "e", "e", {r::passed("faithfulness")}};
  unpriced.metrics = boost::json::object{{"tokensIn", 50}, {"tokensOut", 10}, {"costUsd", nullptr}, {"latencyMs", 400}};
  r::Item unmeasured{"c", "q", "e", "e", {r::passed("faithfulness")}};
  script.item(priced).item(unpriced).item(unmeasured).finish_run().finish_experiment();
  const std::string text = render(script.events());
  BOOST_TEST(text.find("## ✅ Experiment: costs") != std::string::npos);
  BOOST_TEST(text.find("**Judge:** 30 calls \\(2 cached, 1 retry\\), 3000 tokens in / 600 out, \\$0.0012 "
                       "\\(9/10 items priced\\)\n") != std::string::npos,
             text);
  BOOST_TEST(text.find("**Task:** 150 tokens in / 30 out, \\$0.0100 \\(1/2 items priced\\), mean latency 300 ms\n") !=
                 std::string::npos,
             text);
}

BOOST_AUTO_TEST_CASE(hostile_text_cannot_break_the_tables_or_ping_anyone) {
  const auto& hostile = r::hostile_strings();
  r::EventScript script("evil | <b>name</b> @team", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (const auto& s : hostile) script.item({s, s, s, s, {r::failed("exact_match", 0.0, 1.0, s)}});
  script.item({"err", "x", "y", "z", {}, r::ItemError{"task", "http", "UNAVAILABLE", hostile[0] + hostile[2]}});
  script.finish_run().finish_experiment();
  const std::string text = render(script.events());
  check_tables(text);
  BOOST_TEST(text.find("<script") == std::string::npos);
  BOOST_TEST(text.find("<b>") == std::string::npos);
  BOOST_TEST(text.find("<!--") == std::string::npos);
  BOOST_TEST(text.find("@someone") == std::string::npos);
  BOOST_TEST(text.find("@team") == std::string::npos);
  BOOST_TEST(text.find("@&#8203;someone") != std::string::npos);
  BOOST_TEST(text.find('\x1b') == std::string::npos);
  BOOST_TEST(text.find("## ❌ Experiment: evil \\| &lt;b&gt;name&lt;/b&gt; @&#8203;team\n") != std::string::npos);
  // Every table row is one line.
  for (const auto& line : lines_of(text)) {
    if (!line.empty() && line[0] == '|') BOOST_TEST(line.back() == '|', line);
  }
  BOOST_TEST(text.find("Ελληνικά κρίνω, 日本語") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_cancelled_experiment_says_so_first) {
  r::EventScript script("cancel", 3, {{"exact_match", 1.0}});
  script.start_run().item({"a", "q", "e", "e", {r::passed("exact_match")}}).finish_run("cancelled");
  script.finish_experiment("cancelled");
  const std::string text = render(script.events());
  BOOST_TEST(text.rfind("## ⚠️ Experiment: cancel\n\n> Cancelled during run 1 of 3: only the items that finished "
                        "before the cancellation are counted.\n\n",
                        0) == 0,
             text);
}

BOOST_AUTO_TEST_CASE(an_interrupted_experiment_still_gets_a_summary) {
  r::ScratchDirectory dir;
  const auto path = dir / "summary.md";
  const auto events = markdown_reporter_mixed_run(2).events();
  {
    MarkdownReporter reporter(markdown_reporter_options_for(path));
    // The first run finished, the second stopped after one item.
    for (std::size_t i = 0; i < 7; ++i) reporter.on_event(krino::Event(events[i]));
  }
  const std::string text = r::read_file(path);
  BOOST_TEST(text.find("## ⚠️ Experiment: capitals") == 0u);
  BOOST_TEST(text.find("> Interrupted: krino stopped before the experiment finished \\(see its error output\\); run 2 "
                       "had reported 1 items. The figures cover only the runs that finished.") != std::string::npos,
             text);
  BOOST_TEST(text.find("**Pass rate: 33.3%** (3 items") != std::string::npos);
  check_tables(text);
}

BOOST_AUTO_TEST_CASE(append_adds_a_summary_after_what_the_file_has) {
  r::ScratchDirectory dir;
  const auto path = dir / "step_summary";
  r::write_file(path, "# Build\n");
  MarkdownOptions options = markdown_reporter_options_for(path);
  options.append = true;
  for (int i = 0; i < 2; ++i) {
    MarkdownReporter reporter(options);
    r::feed(reporter, markdown_reporter_mixed_run().events());
  }
  const std::string text = r::read_file(path);
  BOOST_TEST(text.rfind("# Build\n\n## ❌ Experiment: capitals", 0) == 0);
  BOOST_TEST(r::count_of(text, "## ❌ Experiment: capitals") == 2u);
}

BOOST_AUTO_TEST_CASE(the_built_module_writes_a_summary) {
  r::ReporterModule module("krino-markdown.so");
  BOOST_TEST(std::string(module.descriptor().id) == "krino.markdown");
  BOOST_TEST(std::string(module.component().name) == "markdown");
  r::ScratchDirectory dir;
  const auto path = dir / "m.md";
  BOOST_TEST(module.run(boost::json::serialize(boost::json::object{{"path", path.string()}}), markdown_reporter_mixed_run().events()).empty());
  BOOST_TEST(r::read_file(path).find("## ❌ Experiment: capitals") == 0u);
  BOOST_TEST(dir.entries() == std::vector<std::string>{"m.md"});
}

BOOST_AUTO_TEST_SUITE_END()
