// Numbers survive krino unchanged (issue 14, section 1): 100,000 random and edge-case numbers go
// through `krino run` (the files resolver's normalising path, the replay task, evaluators), every
// reporter that shows values (json, csv, junit, html, markdown), `krino merge` of two shards and
// `krino eval`, and each must come back as the same double, bit for bit, or for an integer as the
// same digits. Numbers are packed a hundred to an item, so the run stays small and quick.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace krino::test;

namespace {

constexpr int kItems = 1000;
constexpr int kNumbersPerItem = 100;

// Written by hand, as a dataset may spell them.
const char* const kEdgeCases[] = {
    "0", "-0", "0.0", "-0.0", "1", "-1", "1e308", "-1e308", "1.7976931348623157e308", "-1.7976931348623157E+308",
    "5e-324", "-5e-324", "4.9406564584124654e-324", "2.2250738585072009e-308", "2.2250738585072014e-308",
    "2.225073858507201e-308", "1e-320", "3e+34", "3E34", "7.5e-137", "-937738.1598100325", "0.1", "0.2", "0.3",
    "0.1000000000000000055511151231257827", "0.30000000000000004", "9007199254740993", "9007199254740992",
    "9007199254740993.0", "9007199254740993e0", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "-18446744073709551617", "12345678901234567890",
    "123456789012345678901234567890", "-104250770357852536832", "-104250770357852536832.0", "1e23", "8.41e21",
    "2.5e-300", "1.9015657400796622e-144", "123456789.12345678", "0.000001", "1e-7", "100", "1E2", "1e+2",
    "1.5", "2.5", "1e400", "-1e400", "1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324",
    "0.9999999999999999", "1.0000000000000002", "6.02214076e23", "1.602176634e-19", "4503599627370496.5",
};

bool is_integer_token(const std::string& token) { return token.find_first_of(".eE") == std::string::npos; }

// The double a token denotes, correctly rounded (from_chars is, in GCC 12); out of range: +-inf or +-0.
double exact(const std::string& token) {
  double d = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), d);
  if (ec == std::errc::result_out_of_range) {
    const bool negative = token.front() == '-';
    const std::size_t e = token.find_first_of("eE");
    const bool huge = e != std::string::npos && e + 1 < token.size() && token[e + 1] != '-';
    return huge ? (negative ? -HUGE_VAL : HUGE_VAL) : (negative ? -0.0 : 0.0);
  }
  BOOST_REQUIRE_MESSAGE(ec == std::errc() && end == token.data() + token.size(), "not a number: " << token);
  return d;
}

std::uint64_t bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// The same number as `expected`: integers digit for digit, doubles bit for bit.
bool same_number(const std::string& expected, const std::string& got) {
  if (is_integer_token(expected)) return got == expected;
  return bits(exact(got)) == bits(exact(expected));
}

std::string shortest(double d) {
  char buffer[64];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, d).ptr);
}

std::vector<std::string> make_numbers(std::size_t count) {
  std::mt19937_64 rng(20241114);
  std::vector<std::string> numbers;
  for (const char* edge : kEdgeCases) numbers.emplace_back(edge);
  char buffer[64];
  while (numbers.size() < count) {
    switch (rng() % 8) {
      case 0:
      case 1: {  // any finite double, shortest form
        const std::uint64_t b = rng();
        double d;
        std::memcpy(&d, &b, sizeof d);
        if (std::isfinite(d)) numbers.push_back(shortest(d));
        break;
      }
      case 2: {  // 17 significant digits, as printf("%.17g") writes them
        const std::uint64_t b = rng();
        double d;
        std::memcpy(&d, &b, sizeof d);
        if (!std::isfinite(d)) break;
        std::snprintf(buffer, sizeof buffer, "%.17g", d);
        numbers.emplace_back(buffer);
        break;
      }
      case 3: {  // random decimal digits and exponent: mostly not a double's shortest form
        std::string t = (rng() % 2) ? "-" : "";
        t += std::to_string(1 + rng() % 9) + "." + std::to_string(rng() % 100000000000000000ULL);
        t += (rng() % 2 ? "e" : "E") + std::to_string(static_cast<int>(rng() % 617) - 308);
        numbers.push_back(t);
        break;
      }
      case 4: {  // subnormals
        const std::uint64_t b = rng() % 0x000FFFFFFFFFFFFFULL + 1;
        double d;
        std::memcpy(&d, &b, sizeof d);
        numbers.push_back(shortest(rng() % 2 ? d : -d));
        break;
      }
      case 5: {  // integers of 64 bits
        numbers.push_back(std::to_string(static_cast<std::int64_t>(rng())));
        break;
      }
      case 6: {  // integers beyond 64 bits
        std::string t = (rng() % 2) ? "-" : "";
        t += std::to_string(1 + rng() % 9);
        const int digits = 19 + static_cast<int>(rng() % 20);
        for (int i = 0; i < digits; ++i) t += static_cast<char>('0' + rng() % 10);
        numbers.push_back(t);
        break;
      }
      default: {  // a score-like value in [0, 1]
        numbers.push_back(shortest(std::ldexp(static_cast<double>(rng() >> 11), -53)));
        break;
      }
    }
  }
  numbers.resize(count);
  return numbers;
}

// Each item's output is [marker, n1, ..., n100, marker]: in any report the array can be found by
// its marker and read back, whatever the format escapes (numbers need no escaping anywhere).
std::string marker(int item) { return std::to_string(7770000000LL + item); }

std::string item_array(const std::vector<std::string>& numbers, int item) {
  std::string out = "[" + marker(item);
  for (int k = 0; k < kNumbersPerItem; ++k) out.append(",").append(numbers[static_cast<std::size_t>(item * kNumbersPerItem + k)]);
  return out.append(",").append(marker(item)).append("]");
}

// Every item array found in `text` ("[marker,...,marker]"), by item.
std::map<int, std::vector<std::string>> arrays_in(const std::string& text) {
  std::map<int, std::vector<std::string>> found;
  const std::string prefix = "[777";
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    const std::size_t close = text.find(']', at);
    if (close == std::string::npos) break;
    std::vector<std::string> tokens;
    std::size_t from = at + 1;
    bool clean = true;
    while (from <= close) {
      std::size_t comma = text.find(',', from);
      if (comma == std::string::npos || comma > close) comma = close;
      tokens.push_back(text.substr(from, comma - from));
      if (tokens.back().find_first_not_of("-+.eE0123456789") != std::string::npos) clean = false;
      from = comma + 1;
    }
    // A cut excerpt (a reason, a table cell) does not end with its marker; only whole arrays count.
    if (!clean || tokens.size() != kNumbersPerItem + 2 || tokens.front() != tokens.back()) continue;
    const int item = static_cast<int>(std::stoll(tokens.front()) - 7770000000LL);
    found[item] = std::vector<std::string>(tokens.begin() + 1, tokens.end() - 1);
  }
  return found;
}

// Checks that `text` (a report) holds every item's array with every number unchanged.
void check_report(const std::string& what, const std::string& text, const std::vector<std::string>& numbers) {
  // Markdown escapes brackets (\[ ... \]); nothing else in an array needs escaping anywhere.
  std::string unescaped;
  unescaped.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '[' || text[i + 1] == ']')) continue;
    unescaped += text[i];
  }
  const auto found = arrays_in(unescaped);
  BOOST_TEST_REQUIRE(found.size() == static_cast<std::size_t>(kItems), what << ": found " << found.size() << " of " << kItems << " items");
  std::size_t changed = 0;
  for (const auto& [item, tokens] : found) {
    for (int k = 0; k < kNumbersPerItem; ++k) {
      const std::string& expected = numbers[static_cast<std::size_t>(item * kNumbersPerItem + k)];
      if (!same_number(expected, tokens[static_cast<std::size_t>(k)])) {
        if (++changed <= 5) BOOST_ERROR(what << ": " << expected << " came back as " << tokens[static_cast<std::size_t>(k)]);
      }
    }
  }
  BOOST_TEST(changed == 0u, what << ": " << changed << " numbers changed");
}

// The "score" of each item_finished or eval result line, in order.
std::vector<std::string> scores_in(const std::string& text) {
  std::vector<std::string> scores;
  const std::string key = "\"score\":";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    const std::size_t begin = at + key.size();
    scores.push_back(text.substr(begin, text.find_first_of(",}", begin) - begin));
  }
  return scores;
}

struct NumbersRun {
  std::filesystem::path dir = temp_path("numbers-e2e");
  std::vector<std::string> numbers = make_numbers(static_cast<std::size_t>(kItems * kNumbersPerItem));

  NumbersRun() {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // The simple row shape, so every row goes through the resolver's normalising path.
    std::string dataset;
    for (int i = 0; i < kItems; ++i) {
      dataset += "{\"id\":\"n" + std::to_string(i) + "\",\"input\":" + item_array(numbers, i) +
                 ",\"expectedOutput\":\"never\",\"actualOutputs\":{\"output\":" + item_array(numbers, i) +
                 "},\"count\":" + item_array(numbers, i) + "}\n";
    }
    write_file(path("numbers.jsonl"), dataset);
    write_file(path("exp.yaml"),
               "name: numbers\n"
               "dataset: numbers.jsonl\n"
               "task: replay\n"
               "evaluators:\n"
               "  - exact_match\n"
               "reporters:\n"
               "  - json: {path: '" + path("results.jsonl") + "'}\n"
               "  - csv: {path: '" + path("results.csv") + "'}\n"
               "  - junit: {path: '" + path("results.xml") + "', max_text_chars: 100000}\n"
               "  - html: {path: '" + path("results.html") + "', max_text_chars: 100000}\n"
               "  - markdown: {path: '" + path("results.md") + "', max_failures: 1000, max_text_chars: 10000}\n");
  }
  ~NumbersRun() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  ProcessResult run(std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", path("exp.yaml"), "--plugin-dir", KRINO_TESTKIT_DIR};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_numbers)

BOOST_AUTO_TEST_CASE(run_reporters_and_merge_keep_every_number) {
  NumbersRun n;
  ProcessResult r = n.run();
  BOOST_TEST_REQUIRE(r.exit_code == 1, r.err);  // exact_match fails every item, on purpose: reports list failures
  const std::string jsonl = read_file(n.path("results.jsonl"));
  check_report("json", jsonl, n.numbers);
  check_report("csv", read_file(n.path("results.csv")), n.numbers);
  check_report("junit", read_file(n.path("results.xml")), n.numbers);
  check_report("html", read_file(n.path("results.html")), n.numbers);
  check_report("markdown", read_file(n.path("results.md")), n.numbers);

  // Two shards merged back hold the same numbers.
  for (const char* shard : {"1/2", "2/2"}) {
    const std::string out = n.path(std::string("shard") + shard[0] + ".jsonl");
    r = n.run({"--shard", shard, "--set", "reporters=[{json: {path: '" + out + "'}}]"});
    BOOST_TEST_REQUIRE((r.exit_code == 0 || r.exit_code == 1), r.err);
  }
  r = run_process({krino_binary(), "merge", "-o", n.path("merged.jsonl"), n.path("shard1.jsonl"), n.path("shard2.jsonl")});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  check_report("merge", read_file(n.path("merged.jsonl")), n.numbers);
}

BOOST_AUTO_TEST_CASE(eval_scores_every_number_as_written) {
  // krino eval reads the test cases itself (no resolver): echo_score hands each score back.
  NumbersRun n;
  std::vector<std::string> scores;
  for (const std::string& t : n.numbers)
    if (!is_integer_token(t) && exact(t) >= 0.0 && exact(t) <= 1.0) scores.push_back(t);
  std::string input;
  for (const std::string& s : scores) input += "{\"actualOutputs\":{\"score\":" + s + "}}\n";
  write_file(n.path("cases.jsonl"), input);
  write_file("/tmp/h1/cases.jsonl", input);  // a file: this much text through a pipe would wait on the reader
  ProcessResult r = run_process({krino_binary(), "eval", "--evaluator", "echo_score", n.path("cases.jsonl"), "--plugin-dir",
                                 KRINO_TESTKIT_DIR, "--plugins", "testkit"});
  const std::vector<std::string> echoed = scores_in(r.out);
  BOOST_TEST_REQUIRE(echoed.size() == scores.size(),
                     echoed.size() << " results for " << scores.size() << " scores: " << r.err
                                   << r.out.substr(std::min(r.out.size(), r.out.find("\"error\"")), 600));
  std::size_t changed = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (!same_number(scores[i], echoed[i]) && ++changed <= 5) BOOST_ERROR(scores[i] << " came back as " << echoed[i]);
  }
  BOOST_TEST(changed == 0u);
}

BOOST_AUTO_TEST_CASE(exact_match_compares_integers_digit_for_digit) {
  // 12345678901234567890 and ...891 are one double apart from nothing: the same double. As
  // integers they differ, and exact_match says so; two spellings of one double still match.
  const std::string input =
      "{\"expectedOutputs\":{\"output\":123456789012345678901},\"actualOutputs\":{\"output\":123456789012345678902}}\n"
      "{\"expectedOutputs\":{\"output\":123456789012345678901},\"actualOutputs\":{\"output\":123456789012345678901}}\n"
      "{\"expectedOutputs\":{\"output\":[3e+34]},\"actualOutputs\":{\"output\":[3E34]}}\n"
      "{\"expectedOutputs\":{\"output\":{\"a\":-937738.1598100325}},\"actualOutputs\":{\"output\":{\"a\":-937738.15981003250}}}\n";
  ProcessOptions options;
  options.stdin_text = input;
  ProcessResult r = run_process({krino_binary(), "eval", "--evaluator", "exact_match"}, options);
  const std::vector<std::string> scores = scores_in(r.out);
  BOOST_TEST_REQUIRE(scores.size() == 4u, r.out << r.err);
  BOOST_TEST(scores[0] == "0.0");
  BOOST_TEST(r.out.find("got 123456789012345678902") != std::string::npos, r.out);
  BOOST_TEST(scores[1] == "1.0");
  BOOST_TEST(scores[2] == "1.0");
  BOOST_TEST(scores[3] == "1.0");
}

BOOST_AUTO_TEST_CASE(a_key_twice_in_a_dataset_row_is_an_item_error_naming_file_and_line) {
  NumbersRun n;
  write_file(n.path("dup.jsonl"), "{\"input\":\"a\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\"}\n"
                                  "{\"input\":\"a\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\",\"input\":\"b\"}\n"
                                  "{\"inputs\":{\"q\":1,\"q\":2},\"expectedOutputs\":{},\"metadata\":{}}\n");
  write_file(n.path("dup.yaml"), "name: dup\ndataset: dup.jsonl\ntask: replay\nevaluators: [exact_match]\n"
                                 "reporters:\n  - json: {path: '" + n.path("dup-results.jsonl") + "'}\n");
  ProcessResult r = run_process({krino_binary(), "run", n.path("dup.yaml")});
  BOOST_TEST(r.exit_code != 0);
  const std::string report = read_file(n.path("dup-results.jsonl"));
  BOOST_TEST(report.find("duplicate object key \\\"input\\\"") != std::string::npos, report);
  BOOST_TEST(report.find("dup.jsonl:2") != std::string::npos, report);
  // A canonical row is passed on without decoding, but not with a key twice in a section.
  BOOST_TEST(report.find("duplicate object key \\\"q\\\"") != std::string::npos, report);
  BOOST_TEST(report.find("dup.jsonl:3") != std::string::npos, report);
}

BOOST_AUTO_TEST_SUITE_END()
