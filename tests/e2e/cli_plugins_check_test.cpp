// `krino plugins check LIB.so` end to end (issue 19): the good examples and first-party plugins get a
// clean report and exit 0; each broken test plugin gets the complaint its author must act on, one
// line, and a non-zero exit.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

// AddressSanitizer reserves terabytes of address space at start: a worker built with it cannot run
// under any --memory-mb (as in cli_isolation_test).
#if defined(__SANITIZE_ADDRESS__)
const std::string kCheckMemoryMb = "0";
#else
const std::string kCheckMemoryMb = "2048";
#endif

ProcessResult check_library(const std::string& library, const std::string& timeout_ms = "3000") {
  return run_process({krino_binary(), "plugins", "check", library, "--timeout-ms", timeout_ms, "--memory-mb", kCheckMemoryMb});
}

std::string broken_library(const std::string& folder, const std::string& name) {
  return std::string(KRINO_BROKEN_PLUGIN_DIR) + "/" + folder + "/krino-" + name + ".so";
}

bool report_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The complaint is on a line of its own that starts with "problem: ".
void expect_problem(const ProcessResult& r, const std::string& complaint) {
  BOOST_TEST(r.exit_code == 1, r.out << r.err);
  BOOST_TEST(report_has(r.out, "\nproblem: "), r.out);
  BOOST_TEST(report_has(r.out, complaint), r.out);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_plugins_check)

BOOST_AUTO_TEST_CASE(the_examples_and_the_testkit_are_clean) {
  for (const std::string& library : {std::string(KRINO_EXAMPLE_PLUGIN_DIR) + "/word_count.so",
                                     std::string(KRINO_EXAMPLE_PLUGIN_DIR) + "/c_nonempty.so",
                                     std::string(KRINO_TESTKIT_DIR) + "/krino-testkit.so"}) {
    const ProcessResult r = check_library(library);
    BOOST_TEST(r.exit_code == 0, library << ":\n" << r.out << r.err);
    BOOST_TEST(report_has(r.out, "\n0 problems\n"), r.out);
    BOOST_TEST(!report_has(r.out, "problem:"), r.out);
  }
  const ProcessResult testkit = check_library(std::string(KRINO_TESTKIT_DIR) + "/krino-testkit.so");
  for (const char* component : {"evaluator echo_score (test.echo_score): ok", "dataset-resolver sequence (test.sequence): ok",
                                "reporter capture (test.capture): ok"})
    BOOST_TEST(report_has(testkit.out, component), testkit.out);
}

BOOST_AUTO_TEST_CASE(a_crash_names_the_call_and_the_signal) {
  expect_problem(check_library(broken_library("misbehaving", "misbehaving_segfault")),
                 "problem: test.segfault_evaluator: evaluate on a unicode test case (item 7): the worker was killed by signal 11 (SIGSEGV)");
  expect_problem(check_library(broken_library("misbehaving", "misbehaving_abort")),
                 "(item 13): the worker was killed by signal 6 (SIGABRT)");
}

BOOST_AUTO_TEST_CASE(a_hang_is_stopped_at_the_time_limit) {
  expect_problem(check_library(broken_library("misbehaving", "misbehaving_loop"), "1000"),
                 "evaluate on a question and its answer (item 5) had not returned when the component's 1000 ms (--timeout-ms) ran out");
}

BOOST_AUTO_TEST_CASE(a_leak_is_reported) {
  // Found after the first leaking item (64 MB a call, each item called twice), and no more calls made.
  const ProcessResult r = check_library(broken_library("misbehaving", "misbehaving_leak"));
  expect_problem(r, "its resident memory grew by ");
  BOOST_TEST(report_has(r.out, " MB over 2 evaluate calls (a leak?); no more were made"), r.out);
}

BOOST_AUTO_TEST_CASE(writing_to_stdout_is_reported_once) {
  const ProcessResult r = check_library(broken_library("misbehaving", "misbehaving_stdout"));
  expect_problem(r, "evaluate on an empty test case wrote to stdout, which is krino's");
  BOOST_TEST(report_has(r.out, "\n1 problem\n"), r.out);  // one line, however many calls printed
}

BOOST_AUTO_TEST_CASE(ill_formed_utf8_and_results_against_the_schema_are_reported) {
  expect_problem(check_library(broken_library("misbehaving", "misbehaving_bad_utf8")), "wrote ill-formed UTF-8 in its eval result");
  expect_problem(check_library(broken_library("malformed_json_evaluator", "malformed_json_evaluator")),
                 "wrote its eval result that is not a JSON object");
  const ProcessResult scores = check_library(broken_library("bad_score_evaluator", "bad_score_evaluator"));
  expect_problem(scores, "problem: test.bad_score_high: evaluate on an empty test case wrote its eval result that "
                         "breaks krino.evalresult/1: <root>[score]");
  BOOST_TEST(report_has(scores.out, "problem: test.bad_score_string:"), scores.out);
}

// Each evaluate call goes in twice: as text only, and with the result offered as values (ABI 1.2).
// Each of these evaluators writes a valid result as text; only the second call shows its fault.
BOOST_AUTO_TEST_CASE(breaking_the_contract_of_results_taken_as_values_is_reported) {
  const ProcessResult r = check_library(broken_library("values_contract", "values_contract"));
  expect_problem(r, "problem: test.values_differ: evaluate on an empty test case with its result taken as values "
                    "gives another result when it can hand it over as values than when it writes text: score 1.0, "
                    "success true, threshold null as values; score 0.0, success false, threshold null as text");
  BOOST_TEST(report_has(r.out, "problem: test.text_after_values: evaluate on an empty test case with its result taken as "
                               "values wrote more after write_eval_result answered KRINO_OK"),
             r.out);
  BOOST_TEST(report_has(r.out, "problem: test.silent_on_refusal: evaluate on an empty test case with its result taken as "
                               "values wrote no text after write_eval_result refused its values"),
             r.out);
  BOOST_TEST(report_has(r.out, "\n3 problems\n"), r.out);  // one line each, however many calls showed it
}

BOOST_AUTO_TEST_CASE(a_library_krino_refuses_or_that_crashes_on_load_is_one_problem) {
  expect_problem(check_library(broken_library("refuses", "refuses")), "krino refuses to load it: plugin refused to load");
  expect_problem(check_library(broken_library("abi_major_mismatch", "abi_major_mismatch")), "ABI major version mismatch");
  expect_problem(check_library(std::string(KRINO_CRASHING_PLUGIN_DIR) + "/crashing_entry/krino-entry_segfault.so"),
                 "problem: loading it was killed by signal 11 (SIGSEGV)");
}

// Refusing a sample with a status and a message is the ABI's way, not a problem: a note.
BOOST_AUTO_TEST_CASE(a_refusal_with_a_message_is_a_note) {
  const ProcessResult r = check_library(broken_library("status_evaluator", "status_evaluator"));
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  BOOST_TEST(report_has(r.out, "note: evaluate on an empty test case refused it: FAILED_PRECONDITION: status_evaluator needs"), r.out);
  const ProcessResult strict = check_library(broken_library("strict_config", "strict_config"));
  BOOST_TEST(strict.exit_code == 0, strict.out);
  BOOST_TEST(report_has(strict.out, "no call made: its schema refuses options {}"), strict.out);
}

BOOST_AUTO_TEST_CASE(a_missing_library_is_a_usage_error) {
  const ProcessResult r = check_library("/nonexistent/krino-nothing.so");
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(report_has(r.err, "no plugin library at /nonexistent/krino-nothing.so"), r.err);
}

BOOST_AUTO_TEST_SUITE_END()
