// The csv reporter driven with real event sequences; every file is read back with an RFC 4180
// parser written here for the purpose.
#include "csv_field.hpp"
#include "csv_options.hpp"
#include "csv_reporter.hpp"
#include "reporter_events.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

using namespace krino::csv;
namespace r = krino::testing::reports;

namespace {

using Row = std::vector<std::string>;

// Parses RFC 4180 text strictly: records end with CRLF (or LF when `crlf` is false), quoted
// fields double their quotes, and a quote may appear only at the start of a field.
std::vector<Row> parse_csv(const std::string& text, bool crlf = true) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  bool quoted = false, in_quotes = false, field_started = false;
  const std::string eol = crlf ? "\r\n" : "\n";
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          i += 2;
          continue;
        }
        in_quotes = false;
        ++i;
        continue;
      }
      field += c;
      ++i;
      continue;
    }
    if (c == '"') {
      BOOST_REQUIRE_MESSAGE(!field_started, "a quote inside an unquoted field at byte " << i);
      quoted = in_quotes = field_started = true;
      ++i;
      continue;
    }
    if (c == ',') {
      row.push_back(field);
      field.clear();
      quoted = field_started = false;
      ++i;
      continue;
    }
    if (text.compare(i, eol.size(), eol) == 0) {
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      quoted = field_started = false;
      i += eol.size();
      continue;
    }
    BOOST_REQUIRE_MESSAGE(!(quoted && !in_quotes), "text after a closing quote at byte " << i);
    BOOST_REQUIRE_MESSAGE(c != '\r' && c != '\n', "a bare line break at byte " << i);
    field += c;
    field_started = true;
    ++i;
  }
  BOOST_REQUIRE_MESSAGE(!in_quotes, "an unterminated quoted field");
  BOOST_REQUIRE_MESSAGE(row.empty() && field.empty(), "the last record has no record separator");
  return rows;
}

// Rows as maps from column name to cell, checking every row has the header's width.
std::vector<std::map<std::string, std::string>> records(const std::vector<Row>& rows) {
  std::vector<std::map<std::string, std::string>> out;
  BOOST_REQUIRE(!rows.empty());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    BOOST_REQUIRE_MESSAGE(rows[i].size() == rows[0].size(), "row " << i << " has " << rows[i].size() << " cells");
    std::map<std::string, std::string> record;
    for (std::size_t c = 0; c < rows[0].size(); ++c) record[rows[0][c]] = rows[i][c];
    out.push_back(std::move(record));
  }
  return out;
}

CsvOptions csv_reporter_options_for(const std::filesystem::path& path) {
  CsvOptions options;
  options.path = path.string();
  return options;
}

CsvOptions csv_reporter_options_from(const std::string& json) { return CsvOptions::from_config(r::config_from(json)); }

r::EventScript csv_reporter_mixed_run(uint32_t runs = 1) {
  r::EventScript script("capitals", runs, {{"exact_match", 1.0}, {"Faithfulness (v2)", 0.8}});
  for (uint32_t run = 0; run < runs; ++run) {
    r::Item priced{"cap-01", "What is the capital of France?", "Paris", "Paris",
                   {r::passed("exact_match"), r::passed("Faithfulness (v2)", 0.9, 0.8)}};
    priced.metrics = boost::json::object{{"tokensIn", 12}, {"tokensOut", 3}, {"costUsd", 0.00042}, {"latencyMs", 250.5}};
    priced.judge = boost::json::object{{"calls", 2}, {"cachedCalls", 0}, {"costUsd", 0.001}};
    script.start_run()
        .item(priced)
        .item({"cap-02", "Capital, of \"Australia\"?", "Canberra", "Sydney\nor Canberra",
               {r::failed("exact_match", 0.0, 1.0, "expected \"Canberra\""), r::unscored("Faithfulness (v2)", "no score")}})
        .item({std::nullopt, "Capital of Chile?", "Santiago", "", {}, r::ItemError{}})
        .finish_run();
  }
  script.finish_experiment();
  return script;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_reporter)

BOOST_AUTO_TEST_CASE(options_have_defaults_and_are_checked) {
  const CsvOptions defaults = csv_reporter_options_from("{}");
  BOOST_TEST(defaults.path == "krino-results.csv");
  BOOST_TEST(!defaults.append);
  BOOST_TEST(defaults.line_ending == "\r\n");
  BOOST_TEST(defaults.formula_escape);
  BOOST_TEST(!defaults.bom);
  BOOST_TEST(defaults.max_text_chars == 0u);
  const CsvOptions set = csv_reporter_options_from(R"({"line_ending": "lf", "formula_escape": false, "bom": true, "append": true})");
  BOOST_TEST(set.line_ending == "\n");
  BOOST_TEST(!set.formula_escape);
  BOOST_TEST(set.bom);
  BOOST_TEST(set.append);
  for (const char* bad : {R"({"path": ""})", R"({"line_ending": "cr"})", R"({"max_text_chars": -1})", R"({"sep": ";"})"}) {
    BOOST_CHECK_EXCEPTION(csv_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
  const boost::json::object schema = boost::json::parse(kCsvOptionsSchema).as_object();
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  BOOST_TEST(schema.at("properties").at("path").at("default").as_string() == CsvOptions{}.path);
}

BOOST_AUTO_TEST_CASE(slugs_are_lowercase_words_and_collisions_are_numbered) {
  BOOST_TEST(slug("exact_match") == "exact_match");
  BOOST_TEST(slug("Faithfulness (v2)") == "faithfulness_v2");
  BOOST_TEST(slug("  LLM--Judge  ") == "llm_judge");
  BOOST_TEST(slug("Fidélité") == "fid_lit");
  BOOST_TEST(slug("日本語") == "evaluator");
  BOOST_TEST(slug("") == "evaluator");
  const std::vector<std::string> stems = unique_slugs({"a b", "A-B", "a_b", "a_b_2", "x"});
  BOOST_TEST(stems == (std::vector<std::string>{"a_b", "a_b_2", "a_b_3", "a_b_2_2", "x"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(fields_are_quoted_as_rfc_4180_says) {
  std::string out;
  append_field(out, "plain");
  BOOST_TEST(out == "plain");
  for (const auto& [value, expected] : std::vector<std::pair<std::string, std::string>>{
           {"a,b", "\"a,b\""}, {"say \"hi\"", "\"say \"\"hi\"\"\""}, {"two\nlines", "\"two\nlines\""},
           {"cr\r", "\"cr\r\""}, {" padded ", "\" padded \""}, {"", ""}}) {
    out.clear();
    append_field(out, value);
    BOOST_TEST(out == expected);
  }
  for (const char* formula : {"=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"}) {
    out.clear();
    append_text_field(out, formula, true);
    BOOST_TEST(out.find('\'') != std::string::npos, formula);
    BOOST_TEST(looks_like_formula(formula));
  }
  out.clear();
  append_text_field(out, "=1+1", false);
  BOOST_TEST(out == "=1+1");
  BOOST_TEST(!looks_like_formula("1=1"));
}

BOOST_AUTO_TEST_CASE(one_row_per_item_with_every_evaluator_and_metric) {
  r::ScratchDirectory dir;
  const auto path = dir / "results.csv";
  {
    CsvReporter reporter(csv_reporter_options_for(path));
    r::feed(reporter, csv_reporter_mixed_run().events());
  }
  const std::string text = r::read_file(path);
  const std::vector<Row> rows = parse_csv(text);
  BOOST_REQUIRE(rows.size() == 4u);
  BOOST_TEST(rows[0] == (Row{"run", "index", "id", "success", "error", "input", "expected_output", "actual_output",
                             "exact_match_score", "exact_match_pass", "exact_match_reason", "faithfulness_v2_score",
                             "faithfulness_v2_pass", "faithfulness_v2_reason", "duration_ms", "tokens_in", "tokens_out",
                             "cost_usd", "latency_ms", "judge_calls", "judge_cost_usd", "location", "run_status"}),
             boost::test_tools::per_element());
  const auto items = records(rows);
  BOOST_TEST(items[0].at("run") == "1");
  BOOST_TEST(items[0].at("index") == "0");
  BOOST_TEST(items[0].at("id") == "cap-01");
  BOOST_TEST(items[0].at("success") == "true");
  BOOST_TEST(items[0].at("error") == "");
  BOOST_TEST(items[0].at("exact_match_score") == "1.0");
  BOOST_TEST(items[0].at("exact_match_pass") == "true");
  BOOST_TEST(items[0].at("faithfulness_v2_score") == "0.9");
  BOOST_TEST(items[0].at("tokens_in") == "12");
  BOOST_TEST(items[0].at("tokens_out") == "3");
  BOOST_TEST(items[0].at("cost_usd") == "0.00042");
  BOOST_TEST(items[0].at("latency_ms") == "250.5");
  BOOST_TEST(items[0].at("judge_calls") == "2");
  BOOST_TEST(items[0].at("judge_cost_usd") == "0.001");
  BOOST_TEST(items[0].at("duration_ms") == "0.5");
  BOOST_TEST(items[0].at("location") == "data/cases.jsonl:1");
  BOOST_TEST(items[0].at("run_status") == "completed");

  BOOST_TEST(items[1].at("input") == "Capital, of \"Australia\"?");
  BOOST_TEST(items[1].at("actual_output") == "Sydney\nor Canberra");
  BOOST_TEST(items[1].at("success") == "false");
  BOOST_TEST(items[1].at("exact_match_reason") == "expected \"Canberra\"");
  // A null score is an empty cell; the result still failed.
  BOOST_TEST(items[1].at("faithfulness_v2_score") == "");
  BOOST_TEST(items[1].at("faithfulness_v2_pass") == "false");
  BOOST_TEST(items[1].at("tokens_in") == "");

  // An item error: no scores, the error in one cell, the id empty when the dataset has none.
  BOOST_TEST(items[2].at("id") == "");
  BOOST_TEST(items[2].at("error") == "evaluator exact_match: broken [INVALID_ARGUMENT]");
  BOOST_TEST(items[2].at("exact_match_score") == "");
  BOOST_TEST(items[2].at("exact_match_pass") == "");
  BOOST_TEST(dir.entries() == std::vector<std::string>{"results.csv"});
}

BOOST_AUTO_TEST_CASE(several_runs_give_a_row_per_item_per_run) {
  r::ScratchDirectory dir;
  const auto path = dir / "results.csv";
  {
    CsvReporter reporter(csv_reporter_options_for(path));
    r::feed(reporter, csv_reporter_mixed_run(3).events());
  }
  const auto items = records(parse_csv(r::read_file(path)));
  BOOST_REQUIRE(items.size() == 9u);
  for (std::size_t i = 0; i < items.size(); ++i) {
    BOOST_TEST(items[i].at("run") == std::to_string(i / 3 + 1));
    BOOST_TEST(items[i].at("index") == std::to_string(i % 3));
  }
}

BOOST_AUTO_TEST_CASE(hostile_text_round_trips_and_formulas_are_neutralised) {
  r::ScratchDirectory dir;
  const auto path = dir / "results.csv";
  const auto& hostile = r::hostile_strings();
  r::EventScript script("hostile", 1, {{"exact_match", 1.0}});
  script.start_run();
  for (const auto& s : hostile) script.item({s, s, s, s, {r::failed("exact_match", 0.0, 1.0, s)}});
  script.finish_run().finish_experiment();
  {
    CsvReporter reporter(csv_reporter_options_for(path));
    r::feed(reporter, script.events());
  }
  const auto items = records(parse_csv(r::read_file(path)));
  BOOST_REQUIRE(items.size() == hostile.size());
  for (std::size_t i = 0; i < hostile.size(); ++i) {
    const std::string expected = looks_like_formula(hostile[i]) ? "'" + hostile[i] : hostile[i];
    for (const char* column : {"id", "input", "expected_output", "actual_output", "exact_match_reason"})
      BOOST_TEST(items[i].at(column) == expected, column << " of item " << i);
  }
  BOOST_TEST(items[3].at("input") == "'=HYPERLINK(\"http://evil.example\",\"click\")");

  // Without the escape, the text is exactly the item's.
  CsvOptions raw = csv_reporter_options_for(dir / "raw.csv");
  raw.formula_escape = false;
  {
    CsvReporter reporter(raw);
    r::feed(reporter, script.events());
  }
  const auto raw_items = records(parse_csv(r::read_file(dir / "raw.csv")));
  for (std::size_t i = 0; i < hostile.size(); ++i) BOOST_TEST(raw_items[i].at("input") == hostile[i]);
}

BOOST_AUTO_TEST_CASE(line_endings_bom_and_cut_text_follow_the_options) {
  r::ScratchDirectory dir;
  CsvOptions options = csv_reporter_options_for(dir / "lf.csv");
  options.line_ending = "\n";
  options.bom = true;
  options.max_text_chars = 10;
  r::EventScript script("opts", 1, {{"exact_match", 1.0}});
  script.start_run().item({"a", "a very long input that is cut", "e", "Ελληνικά κρίνω", {r::passed("exact_match")}});
  script.finish_run().finish_experiment();
  {
    CsvReporter reporter(options);
    r::feed(reporter, script.events());
  }
  std::string text = r::read_file(dir / "lf.csv");
  BOOST_REQUIRE(text.rfind("\xEF\xBB\xBF", 0) == 0);
  text.erase(0, 3);
  BOOST_TEST(text.find('\r') == std::string::npos);
  const auto items = records(parse_csv(text, false));
  BOOST_TEST(items[0].at("input") == "a very lo\xE2\x80\xA6");
  BOOST_TEST(items[0].at("actual_output") == "Ελληνικά \xE2\x80\xA6");
}

BOOST_AUTO_TEST_CASE(append_adds_rows_under_one_header_and_refuses_other_columns) {
  r::ScratchDirectory dir;
  const auto path = dir / "history.csv";
  CsvOptions options = csv_reporter_options_for(path);
  options.append = true;
  for (int i = 0; i < 2; ++i) {
    CsvReporter reporter(options);
    r::feed(reporter, csv_reporter_mixed_run().events());
  }
  const std::vector<Row> rows = parse_csv(r::read_file(path));
  BOOST_TEST(rows.size() == 7u);
  BOOST_TEST(records(rows).size() == 6u);

  r::EventScript other("other", 1, {{"regex", 1.0}});
  other.start_run().item({"a", "b", "c", "d", {r::passed("regex")}}).finish_run().finish_experiment();
  CsvReporter reporter(options);
  BOOST_CHECK_EXCEPTION(reporter.on_event(krino::Event(other.events()[0])), krino::Error, [&](const krino::Error& e) {
    return e.code() == KRINO_FAILED_PRECONDITION &&
           std::string(e.what()).find("cannot append to '" + path.string() + "': its columns differ") == 0;
  });
}

BOOST_AUTO_TEST_CASE(cancelled_and_interrupted_runs_are_marked_in_every_row) {
  r::ScratchDirectory dir;
  const auto path = dir / "results.csv";
  r::EventScript script("cancel", 2, {{"exact_match", 1.0}});
  script.start_run().item({"a", "q", "e", "e", {r::passed("exact_match")}}).finish_run();
  script.start_run().item({"a", "q", "e", "e", {r::passed("exact_match")}}).finish_run("cancelled");
  script.finish_experiment("cancelled");
  {
    CsvReporter reporter(csv_reporter_options_for(path));
    r::feed(reporter, script.events());
  }
  auto items = records(parse_csv(r::read_file(path)));
  BOOST_REQUIRE(items.size() == 2u);
  BOOST_TEST(items[0].at("run_status") == "completed");
  BOOST_TEST(items[1].at("run_status") == "cancelled");

  // Destroyed mid-run (krino stopped on an error): the rows so far, marked interrupted.
  r::write_file(path, "old");
  const auto events = csv_reporter_mixed_run().events();
  {
    CsvReporter reporter(csv_reporter_options_for(path));
    for (std::size_t i = 0; i < 3; ++i) reporter.on_event(krino::Event(events[i]));
    // The earlier report was emptied at start, so it never passes for this run's.
    BOOST_TEST(r::read_file(path).empty());
  }
  items = records(parse_csv(r::read_file(path)));
  BOOST_REQUIRE(items.size() == 2u);
  BOOST_TEST(items[1].at("run_status") == "interrupted");
  BOOST_TEST(dir.entries() == std::vector<std::string>{"results.csv"});
}

BOOST_AUTO_TEST_CASE(the_built_module_writes_a_file_and_reports_a_bad_path) {
  r::ReporterModule module("krino-csv.so");
  BOOST_TEST(std::string(module.descriptor().id) == "krino.csv");
  BOOST_TEST(std::string(module.component().name) == "csv");
  BOOST_TEST(std::string(module.component().config_schema) == kCsvOptionsSchema);
  r::ScratchDirectory dir;
  const auto path = dir / "m.csv";
  BOOST_TEST(module.run(boost::json::serialize(boost::json::object{{"path", path.string()}}), csv_reporter_mixed_run().events()).empty());
  BOOST_TEST(records(parse_csv(r::read_file(path))).size() == 3u);
  BOOST_TEST(module.run(boost::json::serialize(boost::json::object{{"path", dir.path().string()}}), {}) ==
             "cannot write '" + dir.path().string() + "': Is a directory");
}

BOOST_AUTO_TEST_SUITE_END()
