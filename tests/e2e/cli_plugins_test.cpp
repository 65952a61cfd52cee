// `krino plugins list|info` end to end.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::test;

BOOST_AUTO_TEST_SUITE(cli_plugins)

BOOST_AUTO_TEST_CASE(list_shows_every_component_with_kind_and_version) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list", "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  for (const char* expected : {"evaluator", "echo_score", "test.echo_score", "dataset-resolver", "sequence",
                               "reporter", "capture", "1.0.0", "krino-testkit.so"}) {
    BOOST_TEST(r.out.find(expected) != std::string::npos, expected << " missing from:\n" << r.out);
  }
}

BOOST_AUTO_TEST_CASE(info_prints_the_options) {
  ProcessResult r = run_process({krino_binary(), "plugins", "info", "echo_score", "--plugin-dir", KRINO_TESTKIT_DIR,
                                 "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("test.echo_score") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("max_sleep_ms") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("thread-safe") != std::string::npos, r.out);
  ProcessResult schema = run_process({krino_binary(), "plugins", "info", "echo_score", "--json", "--plugin-dir",
                                      KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  BOOST_TEST(schema.out.find("\"additionalProperties\":false") != std::string::npos, schema.out);
}

BOOST_AUTO_TEST_CASE(info_on_an_unknown_name_exits_two) {
  ProcessResult r = run_process({krino_binary(), "plugins", "info", "nope", "--plugin-dir", KRINO_TESTKIT_DIR,
                                 "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("nope") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(list_names_prints_bare_sorted_component_names) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list", "--names", "--plugin-dir", KRINO_TESTKIT_DIR,
                                 "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "capture\necho_score\nsequence\n");
}

BOOST_AUTO_TEST_CASE(list_names_of_one_kind) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list", "--names", "--kind", "evaluator", "--plugin-dir",
                                 KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "echo_score\n");
  ProcessResult table = run_process({krino_binary(), "plugins", "list", "--kind", "reporter", "--plugin-dir",
                                     KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  BOOST_TEST(table.exit_code == 0, table.err);
  BOOST_TEST(table.out.find("capture") != std::string::npos, table.out);
  BOOST_TEST(table.out.find("echo_score") == std::string::npos, table.out);
}

BOOST_AUTO_TEST_CASE(list_plugin_names_prints_what_plugins_accepts) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list", "--plugin-names", "--plugin-dir", KRINO_TESTKIT_DIR,
                                 "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "testkit\n");
}

BOOST_AUTO_TEST_CASE(list_with_an_unknown_kind_exits_two) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list", "--kind", "evaluators", "--plugin-dir",
                                 KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("evaluator") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
