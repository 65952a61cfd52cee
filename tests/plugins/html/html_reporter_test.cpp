// The html reporter driven with real event sequences: the page's structure and embedded data, its
// escaping, the table cap, and the page loaded in headless Chromium (Debian's `chromium`), offline,
// with its script building the table.
#include "html_options.hpp"
#include "html_reporter.hpp"
#include "item_data.hpp"
#include "reporter_events.hpp"
#include "score_histogram.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace krino::html;
namespace r = krino::testing::reports;

namespace {

HtmlOptions html_reporter_options_for(const std::filesystem::path& path) {
  HtmlOptions options;
  options.path = path.string();
  return options;
}

HtmlOptions html_reporter_options_from(const std::string& json) { return HtmlOptions::from_config(r::config_from(json)); }

std::string write_page(const std::vector<std::string>& events, const std::filesystem::path& path,
                       HtmlOptions options = {}) {
  options.path = path.string();
  {
    HtmlReporter reporter(options);
    r::feed(reporter, events);
  }
  return r::read_file(path);
}

// The JSON inside <script type="application/json" id="krino-data">.
boost::json::object page_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"krino-data\">";
  const std::size_t start = page.find(open);
  BOOST_REQUIRE(start != std::string::npos);
  const std::size_t end = page.find("</script>", start);
  BOOST_REQUIRE(end != std::string::npos);
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(page.substr(start + open.size(), end - start - open.size()), ec);
  BOOST_REQUIRE_MESSAGE(!ec, "the page's data is not JSON: " << ec.message());
  return value.as_object();
}

// --- headless Chromium -----------------------------------------------------------------------

std::string chromium_binary() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(candidate, X_OK) == 0) return candidate;
  }
  return {};
}

struct ChromiumPresent {
  boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
    boost::test_tools::assertion_result result(!chromium_binary().empty());
    result.message() << "skipped: Debian's chromium is not installed (packaging/install-deps.sh installs it)";
    return result;
  }
};

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// The DOM of `file` (with `fragment`, e.g. "#status=failed") after its scripts ran, as headless
// Chromium dumps it. The browser gets a fresh profile and no way out: no proxy works, no name
// resolves, and the page's own policy forbids every fetch.
std::string rendered_dom(const std::filesystem::path& file, const std::string& fragment, const r::ScratchDirectory& dir) {
  const std::filesystem::path profile = dir / ("chromium-profile-" + std::to_string(std::rand()));
  const std::filesystem::path dom = dir / "dom.html";
  const std::string command =
      "timeout 120 " + chromium_binary() +
      " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking"
      " --disable-component-update --disable-sync --no-first-run --no-default-browser-check"
      " --proxy-server=127.0.0.1:9 --host-resolver-rules=" + shell_quoted("MAP * ~NOTFOUND") +
      " --user-data-dir=" + shell_quoted(profile.string()) + " --virtual-time-budget=10000 --dump-dom " +
      shell_quoted("file://" + file.string() + fragment) + " > " + shell_quoted(dom.string()) + " 2>/dev/null";
  const int status = std::system(command.c_str());
  BOOST_REQUIRE_MESSAGE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "chromium failed: " << command);
  return r::read_file(dom);
}

std::size_t rows_in(const std::string& dom) { return r::count_of(dom, "<tr class=\"item "); }

}  // namespace

BOOST_AUTO_TEST_SUITE(html_reporter)

BOOST_AUTO_TEST_CASE(options_have_defaults_and_are_checked) {
  const HtmlOptions defaults = html_reporter_options_from("{}");
  BOOST_TEST(defaults.path == "krino-report.html");
  BOOST_TEST(defaults.max_items == 10000u);
  BOOST_TEST(defaults.max_text_chars == 2000u);
  BOOST_TEST(defaults.histogram_bins == 10u);
  const HtmlOptions set = html_reporter_options_from(R"({"max_items": 0, "histogram_bins": 20})");
  BOOST_TEST(set.max_items == 0u);
  BOOST_TEST(set.histogram_bins == 20u);
  for (const char* bad : {R"({"path": ""})", R"({"max_items": -1})", R"({"histogram_bins": 1})", R"({"theme": "dark"})"}) {
    BOOST_CHECK_EXCEPTION(html_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
  const boost::json::object schema = boost::json::parse(kHtmlOptionsSchema).as_object();
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  BOOST_TEST(schema.at("properties").at("max_items").at("default").as_int64() == 10000);
}

BOOST_AUTO_TEST_CASE(histograms_bin_scores_and_draw_the_threshold) {
  ScoreHistogram histogram(10);
  for (double score : {0.0, 0.05, 0.1, 0.95, 1.0, 1.0}) histogram.add(score);
  histogram.add_null();
  BOOST_TEST(histogram.counts() == (std::vector<uint64_t>{2, 1, 0, 0, 0, 0, 0, 0, 0, 3}), boost::test_tools::per_element());
  BOOST_TEST(histogram.scored() == 6u);
  BOOST_TEST(histogram.nulls() == 1u);
  const std::string svg = histogram.svg(0.8, "a <chart>");
  BOOST_TEST(svg.find("aria-label=\"a &lt;chart&gt;\"") != std::string::npos);
  BOOST_TEST(svg.find("<title>[0.90, 1.00]: 3 scores</title>") != std::string::npos);
  BOOST_TEST(svg.find("<title>[0.10, 0.20): 1 score</title>") != std::string::npos);
  BOOST_TEST(r::count_of(svg, "class=\"bar pass\"") == 2u);
  BOOST_TEST(r::count_of(svg, "class=\"bar fail\"") == 8u);
  BOOST_TEST(svg.find("<title>threshold 0.80</title>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(script_json_cannot_close_its_element) {
  std::string out;
  append_script_json(out, R"({"a":"</script><!-- & \u2028 x"})" "\xE2\x80\xA8");
  BOOST_TEST(out == R"({"a":"\u003c/script\u003e\u003c!-- \u0026 \u2028 x"}\u2028)");
}

BOOST_AUTO_TEST_CASE(one_self_contained_page_with_the_summary_first_and_the_items_as_data) {
  r::ScratchDirectory dir;
  const std::string page = write_page(r::sample_experiment().events(), dir / "report.html");
  BOOST_TEST(page.rfind("<!DOCTYPE html>", 0) == 0);
  // Self-contained: nothing is loaded from anywhere, and the page forbids it.
  for (const char* external : {" src=", " href=", "url(", "@import", "http://", "https://"})
    BOOST_TEST(page.find(external) == std::string::npos, external);
  BOOST_TEST(page.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
  BOOST_TEST(page.find("prefers-color-scheme: dark") != std::string::npos);
  // Summary first, then the evaluators, the charts, the table, the data.
  const std::size_t summary = page.find("id=\"summary\"");
  const std::size_t evaluators = page.find("id=\"evaluators\"");
  const std::size_t charts = page.find("id=\"distributions\"");
  const std::size_t table = page.find("id=\"item-table\"");
  const std::size_t data = page.find("id=\"krino-data\"");
  BOOST_TEST((summary < evaluators && evaluators < charts && charts < table && table < data));
  BOOST_TEST(page.find("<div class=\"label\">Pass rate</div><div class=\"value fail\">40.0%</div>") != std::string::npos);
  BOOST_TEST(page.find("<div class=\"label\">Errors</div><div class=\"value error\">1</div>") != std::string::npos);
  BOOST_TEST(page.find("model: gpt-test") != std::string::npos);
  BOOST_TEST(r::count_of(page, "<svg class=\"histogram\"") == 2u);

  const boost::json::object data_object = page_data(page);
  BOOST_TEST(data_object.at("runs").as_int64() == 1);
  const auto& evaluator_list = data_object.at("evaluators").as_array();
  BOOST_REQUIRE(evaluator_list.size() == 2u);
  BOOST_TEST(evaluator_list[1].at("name").as_string() == "faithfulness");
  BOOST_TEST(evaluator_list[1].at("threshold").as_double() == 0.8);
  const auto& items = data_object.at("items").as_array();
  BOOST_REQUIRE(items.size() == 5u);
  // Failed and errored items come first in the data; the page sorts them into dataset order.
  BOOST_TEST(items[0].at("id").as_string() == "cap-02");
  BOOST_TEST(items[0].at("s").as_string() == "failed");
  BOOST_TEST(items[0].at("in").as_string() == "What is the capital of Australia?");
  BOOST_TEST(items[0].at("res").at(0).at(0).to_number<double>() == 0.0);
  BOOST_TEST(items[0].at("res").at(1).at(2).as_string() == "claims a city that is not the capital");
  BOOST_TEST(items[1].at("id").is_null());
  BOOST_TEST(items[1].at("i").as_int64() == 2);
  BOOST_TEST(items[1].at("s").as_string() == "failed");
  BOOST_TEST(items[1].at("res").at(1).at(0).is_null());
  BOOST_TEST(items[2].at("s").as_string() == "error");
  BOOST_TEST(items[2].at("err").at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(items[2].at("res").at(0).is_null());
  BOOST_TEST(items[3].at("id").as_string() == "cap-01");
  BOOST_TEST(items[4].at("s").as_string() == "skipped");
  BOOST_TEST(dir.entries() == std::vector<std::string>{"report.html"});
}

// run_started names a threshold only when the experiment file sets one (the host reads the
// user's options); an evaluator on its default threshold of 1.0 still shows it, from its results.
BOOST_AUTO_TEST_CASE(an_evaluator_on_its_default_threshold_shows_it) {
  r::ScratchDirectory dir;
  r::EventScript script("defaults", 1, {{"exact_match", std::nullopt}, {"lenient", std::nullopt}, {"judge", std::nullopt}});
  script.start_run(2)
      .item({"a", "q", "x", "x", {r::passed("exact_match"), r::passed("lenient", 0.6, 0.5), r::unscored("judge", "no reply", std::nullopt)}})
      .item({"b", "q", "x", "y", {r::failed("exact_match", 0.0, 1.0, "differs"), r::passed("lenient", 0.7, 0.5), r::unscored("judge", "no reply", std::nullopt)}})
      .finish_run();
  script.finish_experiment();
  const std::string page = write_page(script.events(), dir / "report.html");
  BOOST_TEST(page.find("<tr><td>exact_match</td><td class=\"number\" data-value=\"1.0\">1.00</td>") != std::string::npos);
  BOOST_TEST(page.find("<tr><td>lenient</td><td class=\"number\" data-value=\"0.5\">0.50</td>") != std::string::npos);
  // No threshold anywhere: still "-".
  BOOST_TEST(page.find("<tr><td>judge</td><td class=\"number\">-</td>") != std::string::npos);
  BOOST_TEST(page.find("exact_match<span>2 scores, threshold 1.00</span>") != std::string::npos);
  const boost::json::object data_object = page_data(page);
  const auto& evaluator_list = data_object.at("evaluators").as_array();
  BOOST_TEST(evaluator_list[0].at("threshold").as_double() == 1.0);
  BOOST_TEST(evaluator_list[2].at("threshold").is_null());
}

BOOST_AUTO_TEST_CASE(hostile_text_stays_text) {
  r::ScratchDirectory dir;
  const auto& hostile = r::hostile_strings();
  r::EventScript script("</title><script>alert(1)</script>", 1, {{"<b>evaluator</b>", 1.0}},
                        {{"note", "</script><img src=x onerror=alert(1)>"}});
  script.start_run();
  for (const auto& s : hostile) script.item({s, s, s, s, {r::failed("<b>evaluator</b>", 0.0, 1.0, s)}});
  script.finish_run().finish_experiment();
  const std::string page = write_page(script.events(), dir / "report.html");
  // Exactly two script elements, both krino's.
  BOOST_TEST(r::count_of(page, "<script") == 2u);
  BOOST_TEST(r::count_of(page, "</script>") == 2u);
  BOOST_TEST(page.find("<b>") == std::string::npos);
  BOOST_TEST(page.find("<img") == std::string::npos);
  BOOST_TEST(page.find('\x1b') == std::string::npos);
  BOOST_TEST(page.find("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · krino report</title>") != std::string::npos);
  // The data holds the texts exactly.
  const boost::json::object data = page_data(page);
  const auto& items = data.at("items").as_array();
  BOOST_REQUIRE(items.size() == hostile.size());
  for (std::size_t i = 0; i < hostile.size(); ++i) {
    BOOST_TEST(items[i].at("id").as_string() == hostile[i]);
    BOOST_TEST(items[i].at("in").as_string() == hostile[i]);
    BOOST_TEST(items[i].at("res").at(0).at(2).as_string() == hostile[i]);
  }
}

BOOST_AUTO_TEST_CASE(the_table_is_capped_failures_first_and_the_page_says_so) {
  r::ScratchDirectory dir;
  r::EventScript script("cap", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (int i = 0; i < 10; ++i) {
    if (i % 2 == 0) script.item({"p" + std::to_string(i), "in", "a", "a", {r::passed("exact_match")}});
    else script.item({"f" + std::to_string(i), "in", "a", "b", {r::failed("exact_match", 0.0, 1.0, "no")}});
  }
  script.finish_run().finish_experiment();
  HtmlOptions options;
  options.max_items = 7;
  std::string page = write_page(script.events(), dir / "report.html", options);
  auto items = page_data(page).at("items").as_array();
  BOOST_REQUIRE(items.size() == 7u);
  std::vector<std::string> ids;
  for (const auto& item : items) ids.emplace_back(item.at("id").as_string());
  BOOST_TEST(ids == (std::vector<std::string>{"f1", "f3", "f5", "f7", "f9", "p0", "p2"}), boost::test_tools::per_element());
  BOOST_TEST(page.find("The table holds 7 of the 10 items (max_items: 7): 5 of the 5 failed and errored items, then "
                       "passing and skipped items in dataset order.") != std::string::npos);
  // The charts still count every item.
  BOOST_TEST(page.find("<title>[0.90, 1.00]: 5 scores</title>") != std::string::npos);

  options.max_items = 3;
  page = write_page(script.events(), dir / "report.html", options);
  items = page_data(page).at("items").as_array();
  BOOST_REQUIRE(items.size() == 3u);
  BOOST_TEST(items[2].at("id").as_string() == "f5");
  BOOST_TEST(page.find("3 of the 5 failed and errored items") != std::string::npos);

  options.max_items = 0;
  page = write_page(script.events(), dir / "report.html", options);
  BOOST_TEST(page_data(page).at("items").as_array().size() == 10u);
  BOOST_TEST(page.find("id=\"cap-note\"") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_large_run_makes_a_page_of_bounded_size) {
  r::ScratchDirectory dir;
  r::EventScript script("large", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (int i = 0; i < 20000; ++i)
    script.item({"q" + std::to_string(i), std::string(200, 'x'), "a", i % 100 == 0 ? "b" : "a",
                 {i % 100 == 0 ? r::failed("exact_match", 0.0, 1.0, "no") : r::passed("exact_match")}});
  script.finish_run().finish_experiment();
  HtmlOptions options;
  options.max_items = 500;
  const std::string page = write_page(script.events(), dir / "report.html", options);
  BOOST_TEST(page.size() < 400u * 1024u, page.size());
  const boost::json::object data = page_data(page);
  const auto& items = data.at("items").as_array();
  BOOST_TEST(items.size() == 500u);
  std::size_t failed = 0;
  for (const auto& item : items) failed += item.at("s").as_string() == "failed";
  BOOST_TEST(failed == 200u);
}

BOOST_AUTO_TEST_CASE(cancelled_and_interrupted_experiments_say_so) {
  r::ScratchDirectory dir;
  r::EventScript script("cancel", 2, {{"exact_match", 1.0}});
  script.start_run().item({"a", "q", "e", "e", {r::passed("exact_match")}}).finish_run("cancelled");
  script.finish_experiment("cancelled");
  std::string page = write_page(script.events(), dir / "report.html");
  BOOST_TEST(page.find("<span class=\"badge cancelled\">cancelled</span>") != std::string::npos);
  BOOST_TEST(page.find("<div class=\"notice\" id=\"incomplete\">Cancelled during run 1 of 2") != std::string::npos);

  const auto events = r::sample_experiment().events();
  {
    HtmlReporter reporter(html_reporter_options_for(dir / "report.html"));
    for (std::size_t i = 0; i < 3; ++i) reporter.on_event(krino::Event(events[i]));
  }
  page = r::read_file(dir / "report.html");
  BOOST_TEST(page.find("<span class=\"badge interrupted\">interrupted</span>") != std::string::npos);
  BOOST_TEST(page.find("run 1 had reported 2 items") != std::string::npos);
  BOOST_TEST(page_data(page).at("items").as_array().size() == 2u);
  BOOST_TEST(page.rfind("</html>\n") == page.size() - 8);
}

BOOST_AUTO_TEST_CASE(chromium_renders_the_summary_and_builds_the_table, *boost::unit_test::precondition(ChromiumPresent())) {
  r::ScratchDirectory dir;
  const auto path = dir / "report.html";
  write_page(r::sample_experiment(2).events(), path);

  const std::string dom = rendered_dom(path, "", dir);
  BOOST_TEST(dom.find("<div class=\"label\">Pass rate</div>") != std::string::npos);
  BOOST_TEST(dom.find("40.0%") != std::string::npos);
  // The script ran: it built a row per item of both runs and said so.
  BOOST_TEST(rows_in(dom) == 10u);
  BOOST_TEST(dom.find("data-items-shown=\"10\"") != std::string::npos);
  BOOST_TEST(dom.find("Showing 10 of 10 matching items") != std::string::npos);
  BOOST_TEST(dom.find("<td class=\"text\">cap-02</td>") != std::string::npos);
  BOOST_TEST(dom.find("<span class=\"badge failed\">failed</span>") != std::string::npos);
  BOOST_TEST(dom.find("<option value=\"2\">Run 2</option>") != std::string::npos);

  // The URL fragment filters: by status, by text, by run; several at once.
  std::string filtered = rendered_dom(path, "#status=failed", dir);
  BOOST_TEST(rows_in(filtered) == 4u);
  BOOST_TEST(filtered.find("<tr class=\"item failed\"") != std::string::npos);
  BOOST_TEST(filtered.find("<tr class=\"item passed\"") == std::string::npos);
  filtered = rendered_dom(path, "#filter=australia&run=2", dir);
  BOOST_TEST(rows_in(filtered) == 1u);
  BOOST_TEST(filtered.find("Showing 1 of 1 matching items") != std::string::npos);
  filtered = rendered_dom(path, "#status=problems", dir);
  BOOST_TEST(rows_in(filtered) == 6u);
  filtered = rendered_dom(path, "#filter=no%20such%20text", dir);
  BOOST_TEST(rows_in(filtered) == 0u);
}

BOOST_AUTO_TEST_CASE(chromium_keeps_hostile_text_as_text, *boost::unit_test::precondition(ChromiumPresent())) {
  r::ScratchDirectory dir;
  const auto path = dir / "report.html";
  r::EventScript script("<img src=x onerror=document.title='pwned'>", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (const auto& s : r::hostile_strings()) script.item({s, s, s, s, {r::failed("exact_match", 0.0, 1.0, s)}});
  script.finish_run().finish_experiment();
  write_page(script.events(), path);
  const std::string dom = rendered_dom(path, "", dir);
  BOOST_TEST(rows_in(dom) == r::hostile_strings().size());
  BOOST_TEST(dom.find("pwned · krino report") == std::string::npos);
  BOOST_TEST(dom.find("<img") == std::string::npos);
  BOOST_TEST(r::count_of(dom, "<script") == 2u);
  BOOST_TEST(dom.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_built_module_writes_a_page) {
  r::ReporterModule module("krino-html.so");
  BOOST_TEST(std::string(module.descriptor().id) == "krino.html");
  BOOST_TEST(std::string(module.component().name) == "html");
  BOOST_TEST(std::string(module.component().config_schema) == kHtmlOptionsSchema);
  r::ScratchDirectory dir;
  const auto path = dir / "m.html";
  BOOST_TEST(module.run(boost::json::serialize(boost::json::object{{"path", path.string()}}), r::sample_experiment().events()).empty());
  BOOST_TEST(page_data(r::read_file(path)).at("items").as_array().size() == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
