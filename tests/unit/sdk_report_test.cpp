// The SDK's report helpers (<krino/report/...>): text, markup, metrics totals, event views, and
// the spool and report files.
#include <krino/report/events.hpp>
#include <krino/report/markup.hpp>
#include <krino/report/metrics_totals.hpp>
#include <krino/report/output.hpp>
#include <krino/report/text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

using namespace krino::report;

namespace {

// one_line as its contract says, written the plain way.
std::string reference_one_line(const std::string& text) {
  std::string out;
  bool pending = false;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7F) {
      pending = !out.empty();
      continue;
    }
    if (pending) out += ' ';
    pending = false;
    out += c;
  }
  return out;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "krino-sdk-report-XXXXXX").string();
    BOOST_REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::size_t entries() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(path)) ++n;
    return n;
  }
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_report)

BOOST_AUTO_TEST_CASE(utf8_sequences_are_checked) {
  BOOST_TEST(utf8_sequence_length("a", 0) == 1u);
  BOOST_TEST(utf8_sequence_length("\xCE\xB5", 0) == 2u);
  BOOST_TEST(utf8_sequence_length("\xE2\x80\xA6", 0) == 3u);
  BOOST_TEST(utf8_sequence_length("\xF0\x9F\x98\x80", 0) == 4u);
  for (const char* bad : {"\x80", "\xC0\x80", "\xE0\x80\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xCE", "\xF8\x88\x80\x80\x80"})
    BOOST_TEST(utf8_sequence_length(bad, 0) == 0u, bad);
}

BOOST_AUTO_TEST_CASE(excerpts_never_split_a_character) {
  BOOST_TEST(excerpt("short", 10) == "short");
  BOOST_TEST(excerpt("exactly10!", 10) == "exactly10!");
  BOOST_TEST(excerpt("eleven char", 10) == "eleven ch\xE2\x80\xA6");
  BOOST_TEST(excerpt("κρίνω κρίνω", 4) == "κρί\xE2\x80\xA6");
  BOOST_TEST(excerpt("\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 1) == "\xE2\x80\xA6");
  BOOST_TEST(excerpt("abc", 0) == "");
}

BOOST_AUTO_TEST_CASE(short_line_is_excerpt_of_one_line) {
  BOOST_TEST(one_line("  two\n\nlines\r\n\ttab \x1b[31m ") == "two lines tab [31m");
  BOOST_TEST(short_line("a b c d e", 4) == "a b\xE2\x80\xA6");
  // Against the plain definition, over random texts of spaces, controls and characters.
  std::mt19937 random(42);
  const char* pieces[] = {" ", "\n", "\t", "a", "b", "\xCE\xB5", "\xF0\x9F\x98\x80", "\x1b", "  ", "\x7f"};
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    for (int k = static_cast<int>(random() % 12); k > 0; --k) text += pieces[random() % 10];
    const std::string line = reference_one_line(text);
    BOOST_REQUIRE_EQUAL(one_line(text), line);
    for (std::size_t max = 1; max < 8; ++max) BOOST_REQUIRE_EQUAL(short_line(text, max), excerpt(line, max));
  }
}

BOOST_AUTO_TEST_CASE(section_text_is_the_main_value_or_the_whole_section) {
  BOOST_TEST(section_text(R"({"input": "q", "context": ["c"]})", "input") == "q");
  BOOST_TEST(section_text(R"({"query": {"a": 1.0}})", "input") == R"({"a":1.0})");
  BOOST_TEST(section_text(R"({"toolCalls": [{"name": "f"}]})", "output") == R"({"toolCalls":[{"name":"f"}]})");
  BOOST_TEST(section_text(R"({"output": 5})", "output") == "5");
  BOOST_TEST(section_text("{}", "output") == "");
  BOOST_TEST(section_text("", "output") == "");
  BOOST_TEST(section_text("null", "output") == "");
}

BOOST_AUTO_TEST_CASE(section_text_shows_numbers_as_written) {
  // Parsed and written again, each of these would change (a double, a shorter form, an exponent).
  BOOST_TEST(section_text(R"({"output": 123456789012345678901234567890})", "output") == "123456789012345678901234567890");
  BOOST_TEST(section_text(R"({"output": [3e+34, 0.1000000000000000055511, -0, 1E2]})", "output") ==
             "[3e+34,0.1000000000000000055511,-0,1E2]");
  BOOST_TEST(section_text(R"({"output": "a \"b\" \u00e9"})", "output") == "a \"b\" \u00e9");
  BOOST_TEST(section_text(R"({"x": {"s": "a b", "n": 1}})", "output") == R"({"x":{"s":"a b","n":1}})");
}

BOOST_AUTO_TEST_CASE(numbers_read_as_people_expect) {
  BOOST_TEST(fixed(0.1251, 2) == "0.13");
  BOOST_TEST(fixed(-0.0001, 2) == "0.00");
  BOOST_TEST(percent(0.9133) == "91.3%");
  BOOST_TEST(count(3.0) == "3");
  BOOST_TEST(count(0.666667) == "0.67");
  BOOST_TEST(duration(850) == "850 ms");
  BOOST_TEST(duration(1520.4) == "1.52 s");
  BOOST_TEST(duration(125000) == "2 min 05 s");
  BOOST_TEST(duration(3 * 3600000.0 + 60000) == "3 h 01 min");
}

BOOST_AUTO_TEST_CASE(markup_escapes_and_replaces_what_xml_forbids) {
  BOOST_TEST(markup_text("a < b && c > d ]]> \"q\" 'a'") == "a &lt; b &amp;&amp; c &gt; d ]]&gt; \"q\" 'a'");
  std::string attribute;
  append_attribute(attribute, "v", "\"q\" 'a'\n\tx\r");
  BOOST_TEST(attribute == " v=\"&quot;q&quot; &#39;a&#39;&#10;&#9;x&#13;\"");
  BOOST_TEST(markup_text(std::string("nul\0bell\x07 esc\x1b", 14)) == "nul\xE2\x90\x80" "bell\xE2\x90\x87 esc\xE2\x90\x9B");
  BOOST_TEST(markup_text("\xEF\xBF\xBE \xEF\xBF\xBF \xFF") == "\xEF\xBF\xBD \xEF\xBF\xBD \xEF\xBF\xBD");
  BOOST_TEST(markup_text("κρίνω \xF0\x9F\x98\x80 \x7f") == "κρίνω \xF0\x9F\x98\x80 \x7f");
}

BOOST_AUTO_TEST_CASE(metrics_totals_follow_the_price_coverage_rule) {
  MetricsTotals totals;
  BOOST_TEST(totals.empty());
  BOOST_TEST(totals.describe() == "");
  totals.add(CallMetrics{100.0, 20.0, 0.01, 200.0});
  totals.add(CallMetrics{50.0, std::nullopt, std::nullopt, 400.0});  // tokens, no price
  totals.add(CallMetrics{std::nullopt, std::nullopt, 0.5, std::nullopt});  // a price without tokens: not tokenized
  totals.add(std::nullopt);
  BOOST_TEST(totals.tokenized_items() == 2u);
  BOOST_TEST(totals.priced_items() == 1u);
  BOOST_TEST(*totals.cost_usd() == 0.51);
  BOOST_TEST(totals.coverage() == "1/2 items priced");
  BOOST_TEST(totals.describe() == "150 tokens in / 20 out, $0.5100 (1/2 items priced), mean latency 300 ms");
}

BOOST_AUTO_TEST_CASE(item_status_orders_error_failure_skip_pass) {
  auto item = [](const char* json) {
    return read_item_finished(json);  // a literal: it outlives the item's views
  };
  BOOST_TEST(status_name(item(R"({"success":false,"error":{"stage":"task"},"results":[]})").status()) == "error");
  BOOST_TEST(status_name(item(R"({"success":false,"error":null,"results":[{"name":"a","score":null,"success":false}]})").status()) ==
             "failed");
  BOOST_TEST(status_name(item(R"({"success":true,"results":[]})").status()) == "skipped");
  BOOST_TEST(status_name(item(R"({"success":true,"results":[{"name":"a","score":1,"success":true,"metadata":{"skipped":true}}]})")
                             .status()) == "skipped");
  BOOST_TEST(status_name(item(R"({"success":true,"results":[{"name":"a","score":1,"success":true,"metadata":{"skipped":true}},
                                                             {"name":"b","score":1,"success":true}]})")
                             .status()) == "passed");
  BOOST_TEST(status_name(item(R"({"success":false,"results":[{"name":"a","score":1,"success":true}]})").status()) == "failed");
  const ItemFinished numbered = item(R"({"index":4,"id":17,"results":[]})");
  BOOST_TEST(numbered.label() == "17");
  BOOST_TEST(item(R"({"index":4,"id":null})").label() == "#4");
}

BOOST_AUTO_TEST_CASE(a_spool_writes_reads_back_and_empties) {
  TempDir dir;
  Spool spool(dir.path);
  BOOST_TEST(dir.entries() == 0u);  // it has no name
  const std::string big(600 * 1024, 'x');
  spool.write("head,");
  spool.write(big);
  std::string back;
  spool.read_all([&](std::string_view chunk) { back.append(chunk.data(), chunk.size()); });
  BOOST_TEST(back.size() == 5 + big.size());
  BOOST_TEST(back.compare(0, 5, "head,") == 0);
  spool.clear();
  spool.write("again");
  back.clear();
  spool.read_all([&](std::string_view chunk) { back.append(chunk.data(), chunk.size()); });
  BOOST_TEST(back == "again");
}

BOOST_AUTO_TEST_CASE(a_report_file_replaces_its_target_only_on_commit) {
  TempDir dir;
  const auto target = dir.path / "report.txt";
  std::ofstream(target) << "old";
  const ReportTarget where(target.string(), ReportTarget::Mode::replace);
  // An earlier run's report must not outlive this run looking current: emptied at once.
  BOOST_TEST(slurp(target).empty());
  std::ofstream(target) << "kept";
  {
    ReportFile file(where);
    file.write("new");
    BOOST_TEST(dir.entries() == 2u);  // the target and the temporary file
    BOOST_TEST(slurp(target) == "kept");
  }
  BOOST_TEST(slurp(target) == "kept");  // not committed: the temporary file is gone, the target kept
  BOOST_TEST(dir.entries() == 1u);
  {
    ReportFile file(where);
    file.write("new");
    file.commit();
  }
  BOOST_TEST(slurp(target) == "new");
  BOOST_TEST(dir.entries() == 1u);

  const ReportTarget appended(target.string(), ReportTarget::Mode::append);
  ReportFile more(appended);
  more.write(" and more");
  more.commit();
  BOOST_TEST(slurp(target) == "new and more");
}

BOOST_AUTO_TEST_CASE(a_report_target_is_checked_up_front) {
  TempDir dir;
  BOOST_CHECK_EXCEPTION(ReportTarget(dir.path.string(), ReportTarget::Mode::replace), krino::Error,
                        [](const krino::Error& e) { return e.code() == KRINO_FAILED_PRECONDITION; });
  BOOST_CHECK_EXCEPTION(ReportTarget("", ReportTarget::Mode::replace), krino::Error,
                        [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  if (geteuid() != 0) {  // root writes anywhere
    const auto locked = dir.path / "locked";
    std::filesystem::create_directory(locked);
    std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    BOOST_CHECK_EXCEPTION(ReportTarget((locked / "r.xml").string(), ReportTarget::Mode::replace), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_PERMISSION_DENIED; });
    std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  }
  const ReportTarget standard_output("-", ReportTarget::Mode::replace);
  BOOST_TEST(standard_output.is_stdout());
  BOOST_TEST(ReportTarget((dir.path / "a" / "b.csv").string(), ReportTarget::Mode::replace).spool_directory() ==
             dir.path / "a");
}

BOOST_AUTO_TEST_SUITE_END()
