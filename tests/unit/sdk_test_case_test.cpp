// The SDK's reading of test case text: the span scanner (krino/json_spans.hpp) and the lazily
// parsed TestCase the evaluator trampolines hand to evaluators (krino/plugin.hpp).
#include <krino/json_spans.hpp>
#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using krino::Section;
using krino::TestCase;
using krino::detail::TestCaseDocument;

namespace {

constexpr std::string_view kCase =
    R"({"inputs":{"input":"q"},"actualOutputs":{"output":"a","toolCalls":[{"name":"x","arguments":{"s":"}\"]"}}]},)"
    R"("expectedOutputs":{"output":{"k":[1,2]}},"metadata":{"tools":[{"name":"x"}] , "n":1}})";

std::vector<std::string> keys_of(std::string_view text) {
  std::vector<std::string> keys;
  krino::json::for_each_member(text, [&](std::string_view key, std::string_view) {
    keys.push_back(krino::json::key_text(key));
    return true;
  });
  return keys;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_json_spans)

BOOST_AUTO_TEST_CASE(members_are_found_past_strings_that_look_like_structure) {
  BOOST_TEST(keys_of(kCase) == (std::vector<std::string>{"inputs", "actualOutputs", "expectedOutputs", "metadata"}));
  const auto metadata = krino::json::find_member(kCase, "metadata");
  BOOST_REQUIRE(metadata.has_value());
  BOOST_TEST(*metadata == R"({"tools":[{"name":"x"}] , "n":1})");
  BOOST_TEST(*krino::json::find_member(*metadata, "tools") == R"([{"name":"x"}])");
  BOOST_TEST(*krino::json::find_member(*metadata, "n") == "1");
  BOOST_TEST(!krino::json::find_member(*metadata, "missing").has_value());
}

BOOST_AUTO_TEST_CASE(escaped_keys_and_repeated_keys) {
  BOOST_TEST(*krino::json::find_member(R"({"t\u006fols":1})", "tools") == "1");
  BOOST_TEST(*krino::json::find_member(R"({"a":1,"a":2})", "a") == "2");  // the last one, as parsers keep
  BOOST_TEST(krino::json::key_equals(R"("a\"b")", "a\"b"));
  BOOST_TEST(!krino::json::key_equals(R"("ab")", "a"));
}

// key_equals answers from the sizes first; an escaped spelling of a key is still that key.
BOOST_AUTO_TEST_CASE(key_equals_reads_escapes_whatever_the_token_size) {
  BOOST_TEST(krino::json::key_equals(R"("id")", "id"));
  BOOST_TEST(krino::json::key_equals(R"("id")", "id"));
  BOOST_TEST(!krino::json::key_equals(R"("id")", "ix"));
  BOOST_TEST(!krino::json::key_equals(R"("
")", "xn"));  // same size, an escape: a one-letter key
  BOOST_TEST(!krino::json::key_equals(R"("id")", "ids"));
  BOOST_TEST(!krino::json::key_equals(R"("ids")", "id"));
  BOOST_TEST(!krino::json::key_equals(R"("xd")", "id"));
  BOOST_TEST(krino::json::key_equals(R"("")", ""));
  BOOST_TEST(!krino::json::key_equals(R"("a")", ""));
}

BOOST_AUTO_TEST_CASE(garbage_never_reads_out_of_bounds) {
  for (std::string_view text : {"", "{", "{\"", "{\"a", "{\"a\":", "{\"a\":\"x", "{\"a\":[{", "}}}", "{\"a\\"}) {
    std::size_t visits = 0;
    krino::json::for_each_member(text, [&](std::string_view, std::string_view value) {
      BOOST_TEST(value.data() + value.size() <= text.data() + text.size());
      ++visits;
      return true;
    });
    BOOST_TEST(visits <= 1u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdk_lazy_test_case)

BOOST_AUTO_TEST_CASE(members_parse_alone_and_agree_with_sections) {
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(7, kCase);
  const TestCase test_case(*document);
  BOOST_TEST(test_case.actual_output()->as_string() == "a");
  BOOST_TEST(!document->sections[static_cast<int>(Section::actual_outputs)].has_value());  // only the member
  BOOST_TEST(test_case.expected_output()->at("k").as_array().size() == 2u);
  BOOST_TEST(test_case.find(Section::metadata, "absent") == nullptr);
  BOOST_TEST(test_case.find(Section::inputs, "input")->as_string() == "q");
  // The whole section afterwards, and members from it once it is parsed.
  BOOST_TEST(test_case.actual_outputs().at("toolCalls").as_array()[0].at("arguments").at("s").as_string() == "}\"]");
  BOOST_TEST(test_case.find(Section::actual_outputs, "output")->as_string() == "a");
  BOOST_TEST(test_case.json().size() == 4u);
}

BOOST_AUTO_TEST_CASE(raw_members_are_the_exact_bytes) {
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, kCase);
  const TestCase test_case(*document);
  BOOST_TEST(*test_case.raw_member(Section::metadata, "tools") == R"([{"name":"x"}])");
  BOOST_TEST(!test_case.raw_member(Section::metadata, "nope").has_value());
  const boost::json::object built = boost::json::parse(kCase).as_object();
  BOOST_TEST(!TestCase(built).raw_member(Section::metadata, "tools").has_value());  // no text: parse instead
  BOOST_TEST(TestCase(built).find(Section::metadata, "n")->as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(a_cut_short_document_is_an_error_not_missing_sections) {
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, R"({"inputs":{"input":"q"},"actualOutputs":)");
  const TestCase test_case(*document);
  BOOST_CHECK_THROW(test_case.actual_output(), krino::Error);
  document->reset(2, R"({"inputs":{"input":"q"}})");
  BOOST_CHECK_NO_THROW(TestCase(*document).input());
  document->reset(3, R"([1,2])");
  BOOST_CHECK_THROW(TestCase(*document).input(), krino::Error);
}

BOOST_AUTO_TEST_CASE(a_bad_member_is_reported_with_its_path) {
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, R"({"actualOutputs":{"output":tru}})");
  try {
    (void)TestCase(*document).actual_output();
    BOOST_FAIL("expected an error");
  } catch (const krino::Error& e) {
    BOOST_TEST(std::string(e.what()).find("'actualOutputs.output' is not valid JSON") != std::string::npos, e.what());
  }
}

// Byte-identical members (an agent that made exactly the expected calls) are parsed once; members
// that differ in any byte, white space included, get their own parse; a bad member is reported
// with its own path even when an identical one failed before.
BOOST_AUTO_TEST_CASE(identical_members_share_one_parse) {
  const std::string text =
      R"({"actualOutputs":{"toolCalls":[{"name":"f","arguments":{"x":1e400,"y":0.1,"s":"\u00e9"}}],"output":[1, 2],)"
      R"("bad":tru},"expectedOutputs":{"output":[1,2],"toolCalls":[{"name":"f","arguments":{"x":1e400,"y":0.1,"s":"\u00e9"}}],)"
      R"("bad":tru}})";
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, text);
  const TestCase test_case(*document);
  const boost::json::value* expected = test_case.find(Section::expected_outputs, "toolCalls");
  const boost::json::value* actual = test_case.find(Section::actual_outputs, "toolCalls");
  BOOST_REQUIRE(expected != nullptr);
  BOOST_TEST(actual == expected);  // one value, not two
  BOOST_TEST(test_case.find(Section::actual_outputs, "toolCalls") == expected);  // and found again
  BOOST_TEST(*actual == krino::json::parse(R"([{"name":"f","arguments":{"x":1e400,"y":0.1,"s":"\u00e9"}}])"));
  // "[1, 2]" and "[1,2]": equal values, different bytes, parsed each on its own.
  const boost::json::value* actual_output = test_case.find(Section::actual_outputs, "output");
  const boost::json::value* expected_output = test_case.find(Section::expected_outputs, "output");
  BOOST_TEST(actual_output != expected_output);
  BOOST_TEST(*actual_output == *expected_output);
  for (const Section section : {Section::actual_outputs, Section::expected_outputs}) {
    try {
      (void)test_case.find(section, "bad");
      BOOST_FAIL("expected an error");
    } catch (const krino::Error& e) {
      const std::string path = std::string("'") + (section == Section::actual_outputs ? "actualOutputs" : "expectedOutputs") + ".bad'";
      BOOST_TEST(std::string(e.what()).find(path + " is not valid JSON") != std::string::npos, e.what());
    }
  }
  // A new document starts with nothing to share.
  document->reset(2, R"({"actualOutputs":{"toolCalls":[]},"expectedOutputs":{"toolCalls":[ ]}})");
  BOOST_TEST(TestCase(*document).find(Section::actual_outputs, "toolCalls") !=
             TestCase(*document).find(Section::expected_outputs, "toolCalls"));
}

// find parses a member while scanning for it; what it returns, and the error a bad member gives,
// are those of parsing the member's own bytes: the last of repeated keys, a number that only
// starts like another member's, bytes the parser stops in.
BOOST_AUTO_TEST_CASE(members_read_while_scanning_are_those_of_their_own_bytes) {
  const auto error_of = [](const std::string& text, std::string_view key) {
    auto document = std::make_unique<TestCaseDocument>();
    document->reset(1, text);
    try {
      (void)TestCase(*document).find(Section::actual_outputs, key);
    } catch (const krino::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const auto parse_error = [](std::string_view bytes) {
    boost::system::error_code ec;
    (void)krino::json::parse(bytes, ec);
    return ec.message();
  };
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, R"({"actualOutputs":{"a":12,"b":123 ,"c":[1,{"d":"}"}],"c":[2]}})");
  const TestCase test_case(*document);
  BOOST_TEST(test_case.find(Section::actual_outputs, "a")->as_int64() == 12);
  BOOST_TEST(test_case.find(Section::actual_outputs, "b")->as_int64() == 123);
  BOOST_TEST(test_case.find(Section::actual_outputs, "c")->as_array().at(0).as_int64() == 2);  // the last "c"
  for (const std::string_view bad : {"tru", "truex", "[1,}", "\"a\xff\"", "{\"x\":1 2}"}) {
    BOOST_TEST_CONTEXT(bad) {
      const std::string expected = "test case 'actualOutputs.v' is not valid JSON: " + parse_error(bad);
      BOOST_TEST(error_of(R"({"actualOutputs":{"v":)" + std::string(bad) + "}}", "v") == expected);
      // A good first "v" does not hide a bad last one.
      BOOST_TEST(error_of(R"({"actualOutputs":{"v":1,"v":)" + std::string(bad) + "}}", "v") == expected);
    }
  }
}

// ABI 1.1: the host says where the sections are, and the plugin believes it when it is plausible.
BOOST_AUTO_TEST_CASE(host_section_spans_replace_the_scan) {
  const std::string text = R"({"inputs":{"input":"q"},"actualOutputs":{"output":"a"},"expectedOutputs":{},"metadata":{}})";
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = 41;
  // Deliberately point actualOutputs at inputs: proof that the spans, not a scan, were used.
  ctx.testcase_sections[0] = {10, 13};
  ctx.testcase_sections[1] = {10, 13};
  auto document = krino::detail::testcase_document(&ctx, text.data(), text.size());
  BOOST_TEST(document->scanned);
  BOOST_TEST(TestCase(*document).find(Section::actual_outputs, "input")->as_string() == "q");
  BOOST_TEST(TestCase(*document).find(Section::metadata, "x") == nullptr);  // size 0: absent

  // Out of range, or not where a value starts: ignored, and the document is scanned instead.
  ctx.document_serial = 42;
  ctx.testcase_sections[1] = {50, 500};
  document = krino::detail::testcase_document(&ctx, text.data(), text.size());
  BOOST_TEST(!document->scanned);
  BOOST_TEST(TestCase(*document).actual_output()->as_string() == "a");
  ctx.document_serial = 43;
  ctx.testcase_sections[1] = {9, 14};
  document = krino::detail::testcase_document(&ctx, text.data(), text.size());
  BOOST_TEST(!document->scanned);

  // A 1.0 host's smaller context is never read past its end.
  ctx.document_serial = 44;
  ctx.struct_size = offsetof(krino_call_context, testcase_sections);
  ctx.testcase_sections[1] = {10, 13};
  document = krino::detail::testcase_document(&ctx, text.data(), text.size());
  BOOST_TEST(TestCase(*document).actual_output()->as_string() == "a");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdk_test_case_lifetime)

// A document destroyed while it still holds parsed values (a worker thread ending with its cached
// document) must release them before the arena they live in: a parse that needs more than the
// inline buffer makes the arena allocate, and destroying in the wrong order calls into a dead arena.
BOOST_AUTO_TEST_CASE(a_document_with_parsed_values_is_destroyed_cleanly) {
  std::string big = R"({"inputs":{"input":")" + std::string(40000, 'x') + R"("},"actualOutputs":{"output":")" +
                    std::string(40000, 'y') + R"("}})";
  auto document = std::make_unique<TestCaseDocument>();
  document->reset(1, big);
  const TestCase test_case(*document);
  BOOST_TEST(test_case.actual_output()->as_string().size() == 40000u);
  BOOST_TEST(test_case.inputs().at("input").as_string().size() == 40000u);
  BOOST_TEST(test_case.json().size() == 2u);
  document.reset();  // under ASan, or with the old member order, this is where it went wrong
}

BOOST_AUTO_TEST_SUITE_END()
