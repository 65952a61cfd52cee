// The junit reporter driven with real event sequences; every document is checked by xmllint
// against the vendored JUnit schema (tests/fixtures/junit) and read back with XPath.
#include "junit_options.hpp"
#include "junit_reporter.hpp"
#include "reporter_events.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <string>

using namespace krino::junit;
namespace r = krino::testing::reports;

namespace {

const std::string kSchema = std::string(KRINO_SOURCE_DIR) + "/tests/fixtures/junit/junit-10.xsd";

struct CommandResult {
  int exit_code = -1;
  std::string output;
};

// Runs a shell command, capturing stdout and stderr together.
CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  BOOST_REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// The document validates against the JUnit schema; fails the test with xmllint's words if not.
void check_valid(const std::filesystem::path& file) {
  const CommandResult r = run_command("xmllint --noout --schema " + quoted(kSchema) + " " + quoted(file.string()));
  BOOST_TEST(r.exit_code == 0, "xmllint: " << r.output);
}

// An XPath expression's value, as xmllint prints it.
std::string xpath(const std::filesystem::path& file, const std::string& expression) {
  const CommandResult r = run_command("xmllint --xpath " + quoted(expression) + " " + quoted(file.string()));
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, "xmllint --xpath " << expression << ": " << r.output);
  // xmllint ends what it prints with a line feed of its own.
  std::string value = r.output;
  if (!value.empty() && value.back() == '\n') value.pop_back();
  return value;
}

int xpath_number(const std::filesystem::path& file, const std::string& expression) {
  return std::stoi(xpath(file, expression));
}

// Every suite's and the root's counts equal what their test cases hold.
void check_counts(const std::filesystem::path& file) {
  const int suites = xpath_number(file, "count(//testsuite)");
  for (int s = 1; s <= suites; ++s) {
    const std::string suite = "//testsuite[" + std::to_string(s) + "]";
    BOOST_TEST(xpath(file, "string(" + suite + "/@tests)") == std::to_string(xpath_number(file, "count(" + suite + "/testcase)")));
    BOOST_TEST(xpath(file, "string(" + suite + "/@failures)") ==
               std::to_string(xpath_number(file, "count(" + suite + "/testcase[failure])")));
    BOOST_TEST(xpath(file, "string(" + suite + "/@errors)") ==
               std::to_string(xpath_number(file, "count(" + suite + "/testcase[error])")));
    BOOST_TEST(xpath(file, "string(" + suite + "/@skipped)") ==
               std::to_string(xpath_number(file, "count(" + suite + "/testcase[skipped])")));
  }
  BOOST_TEST(xpath(file, "string(/testsuites/@tests)") == std::to_string(xpath_number(file, "count(//testcase)")));
  BOOST_TEST(xpath(file, "string(/testsuites/@failures)") == std::to_string(xpath_number(file, "count(//testcase[failure])")));
  BOOST_TEST(xpath(file, "string(/testsuites/@errors)") == std::to_string(xpath_number(file, "count(//testcase[error])")));
  // A test case is one outcome: never both a failure and an error.
  BOOST_TEST(xpath_number(file, "count(//testcase[failure and error])") == 0);
}

JunitOptions junit_reporter_options_for(const std::filesystem::path& path) {
  JunitOptions options;
  options.path = path.string();
  return options;
}

JunitOptions junit_reporter_options_from(const std::string& json) { return JunitOptions::from_config(r::config_from(json)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(junit_reporter)

BOOST_AUTO_TEST_CASE(options_have_defaults_and_are_checked) {
  const JunitOptions defaults = junit_reporter_options_from("{}");
  BOOST_TEST(defaults.path == "krino-junit.xml");
  BOOST_TEST(defaults.system_out);
  BOOST_TEST(defaults.max_text_chars == 4000u);
  BOOST_TEST(!defaults.merge_failures);
  const JunitOptions set =
      junit_reporter_options_from(R"({"path": "out/j.xml", "system_out": false, "max_text_chars": 100, "merge_failures": true})");
  BOOST_TEST(set.merge_failures);
  BOOST_TEST(set.path == "out/j.xml");
  BOOST_TEST(!set.system_out);
  BOOST_TEST(set.max_text_chars == 100u);
  for (const char* bad : {R"({"path": ""})", R"({"path": 3})", R"({"system_out": "yes"})", R"({"max_text_chars": 5})",
                          R"({"append": true})"}) {
    BOOST_CHECK_EXCEPTION(junit_reporter_options_from(bad), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
}

BOOST_AUTO_TEST_CASE(the_schema_is_draft_7_closed_and_matches_the_defaults) {
  const boost::json::object schema = boost::json::parse(kJunitOptionsSchema).as_object();
  BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  const auto& properties = schema.at("properties").as_object();
  BOOST_TEST(properties.at("path").at("default").as_string() == JunitOptions{}.path);
  BOOST_TEST(properties.at("system_out").at("default").as_bool() == JunitOptions{}.system_out);
  BOOST_TEST(properties.at("merge_failures").at("default").as_bool() == JunitOptions{}.merge_failures);
  BOOST_TEST(properties.at("max_text_chars").at("default").as_int64() == 4000);
  for (const auto& p : properties) BOOST_TEST(p.value().as_object().contains("description"));
}

BOOST_AUTO_TEST_CASE(a_run_is_a_suite_with_a_case_per_item_and_valid_counts) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    r::feed(reporter, r::sample_experiment().events());
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath_number(path, "count(/testsuites/testsuite)") == 1);
  BOOST_TEST(xpath(path, "string(//testsuite/@name)") == "capitals");
  BOOST_TEST(xpath(path, "string(//testsuite/@tests)") == "5");
  BOOST_TEST(xpath(path, "string(//testsuite/@failures)") == "2");
  BOOST_TEST(xpath(path, "string(//testsuite/@errors)") == "1");
  BOOST_TEST(xpath(path, "string(//testsuite/@skipped)") == "1");
  BOOST_TEST(xpath(path, "string(//testsuite/@time)") == "0.013");
  BOOST_TEST(xpath(path, "string(//testsuite/@timestamp)") == "2026-11-21T10:00:00Z");
  BOOST_TEST(xpath(path, "string(/testsuites/@time)") == "0.020");

  // Names: id (or #index) and the start of the input; classname: the experiment.
  BOOST_TEST(xpath(path, "string(//testcase[1]/@name)") == "cap-01: What is the capital of France?");
  BOOST_TEST(xpath(path, "string(//testcase[3]/@name)") == "#2: Capital of Peru?");
  BOOST_TEST(xpath_number(path, "count(//testcase[@classname='capitals'])") == 5);
  BOOST_TEST(xpath(path, "string(//testcase[1]/@time)") == "0.001");
  BOOST_TEST(xpath(path, "string(//testcase[2]/@file)") == "data/cases.jsonl");
  BOOST_TEST(xpath(path, "string(//testcase[2]/@line)") == "2");

  // A failure per failing evaluator, with score, threshold and reason.
  BOOST_TEST(xpath_number(path, "count(//testcase[2]/failure)") == 2);
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure[1]/@type)") == "exact_match");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure[1]/@message)") ==
             "exact_match: score 0.00, threshold 1.00: expected \"Canberra\", got \"Sydney\"");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure[2]/@message)") ==
             "faithfulness: score 0.25, threshold 0.80: claims a city that is not the capital");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure[1])") ==
             "Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)\nReason: expected \"Canberra\", got \"Sydney\"\n");
  // A null score is a failure (krino counts the item as failed), said as such.
  BOOST_TEST(xpath(path, "string(//testcase[3]/failure/@message)") == "faithfulness: no score: the judge reply had no score");
  // Item errors: stage, component, code, message.
  BOOST_TEST(xpath(path, "string(//testcase[4]/error/@type)") == "INVALID_ARGUMENT");
  BOOST_TEST(xpath(path, "string(//testcase[4]/error/@message)") == "evaluator exact_match: broken");
  BOOST_TEST(xpath(path, "string(//testcase[4]/error)") ==
             "stage: evaluator\ncomponent: exact_match\ncode: INVALID_ARGUMENT\nmessage: broken\n");
  // Every evaluator said skipped: the case is skipped, with their reasons.
  BOOST_TEST(xpath(path, "string(//testcase[5]/skipped/@message)") ==
             "every evaluator skipped this item; exact_match: no expected output; faithfulness: no context");
  // Passing cases carry only their output.
  BOOST_TEST(xpath_number(path, "count(//testcase[1]/*)") == 1);
  BOOST_TEST(xpath(path, "string(//testcase[2]/system-out)") ==
             "location: data/cases.jsonl:2\ninput: What is the capital of Australia?\nexpected: Canberra\nactual: Sydney\n"
             "exact_match: 0.00 (threshold 1.00) FAILED: expected \"Canberra\", got \"Sydney\"\n"
             "faithfulness: 0.25 (threshold 0.80) FAILED: claims a city that is not the capital\n");

  // Properties: experiment metadata, thresholds, summary.
  const std::string props = "//testsuite/properties/property";
  BOOST_TEST(xpath(path, "string(" + props + "[@name='experiment.name']/@value)") == "capitals");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='experiment.metadata.model']/@value)") == "gpt-test");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='experiment.metadata.temperature']/@value)") == "0");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='evaluator.faithfulness.threshold']/@value)") == "0.8");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='status']/@value)") == "completed");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='passRate']/@value)") == "0.4");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='evaluator.exact_match.averageScore']/@value)") == "0.75");
  BOOST_TEST(xpath(path, "string(" + props + "[@name='dataset.uri']/@value)") == "data/cases.jsonl");

  // Renamed into place: nothing else is left in the directory.
  BOOST_TEST(dir.entries() == std::vector<std::string>{"junit.xml"});
}

BOOST_AUTO_TEST_CASE(several_runs_are_several_suites) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    r::feed(reporter, r::sample_experiment(3).events());
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath_number(path, "count(/testsuites/testsuite)") == 3);
  BOOST_TEST(xpath(path, "string(//testsuite[2]/@name)") == "capitals [run 2/3]");
  BOOST_TEST(xpath(path, "string(//testsuite[3]/@id)") == "2");
  BOOST_TEST(xpath(path, "string(/testsuites/@tests)") == "15");
  BOOST_TEST(xpath(path, "string(/testsuites/@failures)") == "6");
  BOOST_TEST(xpath(path, "string(//testsuite[3]/testcase[1]/@name)") ==
             "cap-01: What is the capital of France? [run 3/3]");
  BOOST_TEST(xpath(path, "string(//testsuite[2]/properties/property[@name='run']/@value)") == "2/3");
  // Names are unique over the whole document, as CI systems key on classname and name.
  BOOST_TEST(xpath_number(path, "count(//testcase[@name='cap-02: What is the capital of Australia? [run 2/3]'])") == 1);
}

BOOST_AUTO_TEST_CASE(hostile_text_is_escaped_and_forbidden_characters_are_replaced) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  const auto& hostile = r::hostile_strings();
  std::string all;
  for (const auto& s : hostile) all += s + " ";
  r::EventScript script("<exp> & \"quoted\" ]]>", 1, {{"exact_match", 1.0}}, {{"note", all}});
  script.start_run();
  for (const auto& s : hostile) script.item({s, s, s, s, {r::failed("exact_match", 0.0, 1.0, s)}});
  script.item({"err", "x", "y", "z", {}, r::ItemError{"task", "http", "UNAVAILABLE", all}});
  script.finish_run().finish_experiment();
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    r::feed(reporter, script.events());
  }
  check_valid(path);
  check_counts(path);
  const std::string xml = r::read_file(path);
  BOOST_TEST(xml.find("]]>") == std::string::npos);
  BOOST_TEST(xml.find("<script>") == std::string::npos);
  BOOST_TEST(xml.find('\x1b') == std::string::npos);
  BOOST_TEST(xml.find('\x01') == std::string::npos);
  BOOST_TEST(xml.find("\xEF\xBF\xBE") == std::string::npos);
  // Parsed back, the text is the original, with the forbidden characters shown as symbols.
  BOOST_TEST(xpath(path, "string(//testsuite/@name)") == "<exp> & \"quoted\" ]]>");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure/@message)") ==
             "exact_match: score 0.00, threshold 1.00: <!-- comment --> & \"quotes\" 'single' ]]> <![CDATA[x]]>");
  const std::string control = xpath(path, "string(//testcase[8]/failure)");
  BOOST_TEST(control.find("control \xE2\x90\x81\xE2\x90\x82\xE2\x90\x9B[31mred") != std::string::npos, control);
  const std::string unicode = xpath(path, "string(//testcase[9]/@name)");
  BOOST_TEST(unicode.find("Ελληνικά κρίνω, 日本語, emoji \xF0\x9F\x98\x80") != std::string::npos, unicode);
  // Line breaks survive in element text (a carriage return as a reference), not in names.
  BOOST_TEST(xpath(path, "string(//testcase[3]/failure)").find("second line\r\nthird\ttabbed") != std::string::npos);
  BOOST_TEST(xpath(path, "string(//testcase[3]/@name)").find('\n') == std::string::npos);
  BOOST_TEST(xpath(path, "string(//testcase[12]/error/@type)") == "UNAVAILABLE");
  BOOST_TEST(xpath(path, "string(//testcase[12]/error/@message)").rfind("task http: </script>", 0) == 0);
}

BOOST_AUTO_TEST_CASE(long_text_is_cut_to_max_text_chars) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  const std::string long_reason(10000, 'x');
  r::EventScript script("long", 1, {{"exact_match", 1.0}});
  script.start_run().item({"a", std::string(500, 'i'), "e", "a", {r::failed("exact_match", 0.0, 1.0, long_reason)}});
  script.finish_run().finish_experiment();
  JunitOptions options = junit_reporter_options_for(path);
  options.max_text_chars = 100;
  {
    JunitReporter reporter(options);
    r::feed(reporter, script.events());
  }
  check_valid(path);
  const std::string body = xpath(path, "string(//testcase/failure)");
  BOOST_TEST(body.find(std::string(99, 'x') + "\xE2\x80\xA6") != std::string::npos);
  BOOST_TEST(body.find(std::string(100, 'x')) == std::string::npos);
  // The name carries only the start of the input.
  BOOST_TEST(xpath(path, "string(//testcase/@name)") == "a: " + std::string(59, 'i') + "\xE2\x80\xA6");
  BOOST_TEST(xpath(path, "string(//testcase/failure/@message)").size() < 400u);
}

BOOST_AUTO_TEST_CASE(failures_can_be_merged_into_one_per_case) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  JunitOptions options = junit_reporter_options_for(path);
  options.merge_failures = true;
  {
    JunitReporter reporter(options);
    r::feed(reporter, r::sample_experiment().events());
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath_number(path, "count(//testcase[2]/failure)") == 1);
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure/@type)") == "exact_match,faithfulness");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure/@message)") ==
             "exact_match: score 0.00, threshold 1.00: expected \"Canberra\", got \"Sydney\"; "
             "faithfulness: score 0.25, threshold 0.80: claims a city that is not the capital");
  BOOST_TEST(xpath(path, "string(//testcase[2]/failure)") ==
             "Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)\nReason: expected \"Canberra\", got \"Sydney\"\n\n"
             "Evaluation 'faithfulness' failed: score=0.25 (threshold=0.80)\nReason: claims a city that is not the capital\n");
  BOOST_TEST(xpath(path, "string(//testsuite/@failures)") == "2");
}

BOOST_AUTO_TEST_CASE(system_out_can_be_left_out) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  JunitOptions options = junit_reporter_options_for(path);
  options.system_out = false;
  {
    JunitReporter reporter(options);
    r::feed(reporter, r::sample_experiment().events());
  }
  check_valid(path);
  BOOST_TEST(xpath_number(path, "count(//system-out)") == 0);
}

BOOST_AUTO_TEST_CASE(a_cancelled_run_says_so_in_an_error_case) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  r::EventScript script("cancel", 3, {{"exact_match", 1.0}});
  script.start_run().item({"a", "q", "e", "e", {r::passed("exact_match")}}).finish_run("cancelled");
  script.finish_experiment("cancelled");
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    r::feed(reporter, script.events());
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath_number(path, "count(//testsuite)") == 1);
  BOOST_TEST(xpath(path, "string(//testsuite/@tests)") == "2");
  BOOST_TEST(xpath(path, "string(//testcase[2]/@name)") == "krino: run cancelled");
  BOOST_TEST(xpath(path, "string(//testcase[2]/error/@type)") == "CANCELLED");
  BOOST_TEST(xpath(path, "string(//testcase[2]/error/@message)") ==
             "the run was cancelled after 1 items; the items after them did not run");
  BOOST_TEST(xpath(path, "string(//property[@name='status']/@value)") == "cancelled");
  BOOST_TEST(r::read_file(path).find("experiment status: cancelled") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_file_appears_only_when_the_experiment_ends) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  r::write_file(path, "previous report");
  const auto events = r::sample_experiment().events();
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    for (std::size_t i = 0; i + 1 < events.size(); ++i) reporter.on_event(krino::Event(events[i]));
    reporter.flush();
    // Until the end the file is empty (the previous report does not pass for this run's), and no
    // temporary file has a name.
    BOOST_TEST(r::read_file(path).empty());
    BOOST_TEST(dir.entries() == std::vector<std::string>{"junit.xml"});
    reporter.on_event(krino::Event(events.back()));
    check_valid(path);
  }
  BOOST_TEST(dir.entries() == std::vector<std::string>{"junit.xml"});
}

BOOST_AUTO_TEST_CASE(an_experiment_that_stops_on_an_error_still_gets_a_valid_file) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  const auto events = r::sample_experiment().events();
  {
    // krino stopped mid-run: the reporter is destroyed after three items.
    JunitReporter reporter(junit_reporter_options_for(path));
    for (std::size_t i = 0; i < 4; ++i) reporter.on_event(krino::Event(events[i]));
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath(path, "string(//testsuite/@tests)") == "4");
  BOOST_TEST(xpath(path, "string(//testcase[4]/@name)") == "krino: run interrupted");
  BOOST_TEST(xpath(path, "string(//testcase[4]/error/@type)") == "ABORTED");
  BOOST_TEST(xpath(path, "string(//property[@name='status']/@value)") == "interrupted");

  // Stopped before the first run: the file replaces an older one and says what happened.
  { JunitReporter reporter(junit_reporter_options_for(path)); }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath(path, "string(//testcase/@name)") == "krino: experiment interrupted");
  BOOST_TEST(xpath(path, "string(//testcase/error/@message)") ==
             "krino stopped before the first run started (see its error output)");
}

BOOST_AUTO_TEST_CASE(an_empty_run_is_a_valid_empty_suite) {
  r::ScratchDirectory dir;
  const auto path = dir / "junit.xml";
  r::EventScript script("empty", 1, {{"exact_match", 1.0}});
  script.start_run(0).finish_run().finish_experiment();
  {
    JunitReporter reporter(junit_reporter_options_for(path));
    r::feed(reporter, script.events());
  }
  check_valid(path);
  check_counts(path);
  BOOST_TEST(xpath(path, "string(//testsuite/@tests)") == "0");
}

BOOST_AUTO_TEST_CASE(a_path_that_cannot_be_written_fails_at_creation) {
  r::ScratchDirectory dir;
  BOOST_CHECK_EXCEPTION(JunitReporter(junit_reporter_options_for(dir.path())), krino::Error, [&](const krino::Error& e) {
    return e.code() == KRINO_FAILED_PRECONDITION &&
           std::string(e.what()) == "cannot write '" + dir.path().string() + "': Is a directory";
  });
  r::write_file(dir / "file", "x");
  BOOST_CHECK_EXCEPTION(JunitReporter(junit_reporter_options_for(dir / "file" / "junit.xml")), krino::Error, [&](const krino::Error& e) {
    return std::string(e.what()).find("cannot create directory") == 0;
  });
  // Missing parent directories are created.
  JunitReporter nested(junit_reporter_options_for(dir / "a" / "b" / "junit.xml"));
  BOOST_TEST(std::filesystem::is_directory(dir / "a" / "b"));
}

BOOST_AUTO_TEST_CASE(the_built_module_describes_one_reporter_and_writes_a_report) {
  r::ReporterModule module("krino-junit.so");
  BOOST_TEST(std::string(module.descriptor().id) == "krino.junit");
  BOOST_REQUIRE(module.descriptor().component_count == 1u);
  BOOST_TEST(module.component().kind == KRINO_KIND_REPORTER);
  BOOST_TEST(std::string(module.component().name) == "junit");
  BOOST_TEST(std::string(module.component().config_schema) == kJunitOptionsSchema);

  r::ScratchDirectory dir;
  const auto path = dir / "from-module.xml";
  const std::string config = boost::json::serialize(boost::json::object{{"path", path.string()}});
  BOOST_TEST(module.run(config, r::sample_experiment().events()).empty());
  check_valid(path);
  check_counts(path);

  const std::string bad = boost::json::serialize(boost::json::object{{"path", dir.path().string()}});
  BOOST_TEST(module.run(bad, {}) == "cannot write '" + dir.path().string() + "': Is a directory");
  const std::string unknown = R"({"paht": "x.xml"})";
  BOOST_TEST(module.run(unknown, {}).find("unknown option 'paht'") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
