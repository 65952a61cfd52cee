#include "krino/core/common/json_scan.hpp"
#include "krino/core/task/example_view.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::core;

BOOST_AUTO_TEST_SUITE(json_scan)

BOOST_AUTO_TEST_CASE(objects_are_validated_strictly) {
  BOOST_TEST(is_json_object(R"({"a":1})"));
  BOOST_TEST(is_json_object(" \n{ }\t"));
  BOOST_TEST(!is_json_object(R"({"a":1} x)"));
  BOOST_TEST(!is_json_object(R"({"a":1)"));
  BOOST_TEST(!is_json_object(R"([1])"));
  BOOST_TEST(!is_json_object(R"("s")"));
  BOOST_TEST(!is_json_object(R"({"a":NaN})"));
  BOOST_TEST(!is_json_object(""));
  BOOST_TEST(!is_json_object(std::string(600, '[') + std::string(600, ']')));
}

BOOST_AUTO_TEST_CASE(members_are_exact_byte_spans) {
  std::string text = R"( { "a" : {"x":"}\"{","y":[1,{"z":[]}]} ,
    "b":-1.5e3,"c\u0041":"q\"uote","d":[ "]" ],"e":null,"f":true ,"a":2} )";
  BOOST_REQUIRE(is_json_object(text));
  auto members = top_level_members(text);
  BOOST_REQUIRE(members.size() == 7u);
  BOOST_TEST(members[0].key == "a");
  BOOST_TEST(members[0].value == R"({"x":"}\"{","y":[1,{"z":[]}]})");
  BOOST_TEST(members[1].value == "-1.5e3");
  BOOST_TEST(members[2].key == "cA");  // escaped key decoded
  BOOST_TEST(members[2].value == R"("q\"uote")");
  BOOST_TEST(members[3].value == R"([ "]" ])");
  BOOST_TEST(members[4].value == "null");
  BOOST_TEST(members[5].value == "true");
  BOOST_TEST(*member(members, "a") == "2");  // the last one wins, as a parser keeps
  BOOST_TEST(!member(members, "zz").has_value());
}

// The members found during the validating pass are exactly those of the scan: same keys, same value
// bytes, same order (duplicates kept), whatever the white space; escaped keys fall back to the scan.
BOOST_AUTO_TEST_CASE(members_found_while_validating_match_the_scan) {
  const char* const texts[] = {
      R"({})",
      " { } ",
      R"({"a":1})",
      " \n{ \"a\" :\t1 , \"b\":[1, {\"c\": \"}\"}] ,\"c\" : { \"d\" : null }\n}\n ",
      R"({"x":"a,b","y":"\"","z":[],"w":{},"v":-0.5e3,"u":true,"t":false})",
      R"({"a":1,"a":2})",
      R"({"":"empty key","k":"v"})",
      R"({"esc\u0061ped":1,"b":2})",
      R"({"a\"b":{"c":1},"d":"e"})",
      "{\"caf\xC3\xA9\":\"\xE2\x82\xAC\",\"n\":12345678901234567890123}",
  };
  for (const char* text : texts) {
    const std::optional<std::vector<JsonMember>> found = json_object_members(text);
    BOOST_TEST_REQUIRE(found.has_value(), text);
    const std::vector<JsonMember> scanned = top_level_members(text);
    BOOST_TEST_REQUIRE(found->size() == scanned.size(), text);
    for (std::size_t i = 0; i < scanned.size(); ++i) {
      BOOST_TEST((*found)[i].key == scanned[i].key, text);
      BOOST_TEST((*found)[i].value == scanned[i].value, text);
      BOOST_TEST(((*found)[i].value.data() == scanned[i].value.data()), text);
    }
  }
  BOOST_TEST(!json_object_members(R"({"a":1} x)"));
  BOOST_TEST(!json_object_members(R"([1])"));
  BOOST_TEST(!json_object_members(R"({"a":)"));
  BOOST_TEST(!json_object_members(R"({"a":[[[1]]]})", 2));
  bool repeated = false;
  BOOST_TEST(json_object_members(R"({"inputs":{"q":1,"q":2}})", 512, &repeated).has_value());
  BOOST_TEST(repeated);
}

// json_object_members accepts a text exactly when is_json_object does, with the same verdict on
// repeated section keys, and never reads past the text while it is still unproven (a key with no
// colon after it, a text cut short).
BOOST_AUTO_TEST_CASE(members_accept_exactly_what_boost_json_accepts) {
  const std::string texts[] = {
      "{}", "{\"a\":1} x", "{\"a\":1}}", "{\"a\":1,}", "{\"a\" 1}", "{'a':1}", "[]", "\"s\"", "", "   ", "{",
      "{\"a\":1e400}", "{\"a\":-1e400,\"b\":2}", "{\"a\":123456789012345678901234567890}", "{\"a\":1.5e-400}",
      "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":.5}", "{\"a\":NaN}", "{\"a\":tru}", "{\"a\":nul}",
      "{\"a\":\"\\ud83d\\ude00\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00x\"}", "{\"\\uD834\\uDD1E\":1}",
      "{\"a\":\"\\u00e9\\n\\t\\/\"}", "{\"a\":\"\\x\"}", "{\"a\":\"tab\there\"}", std::string("{\"a\":\"nul\0x\"}", 13),
      "{\"a\":\"\xC3\xA9\"}", "{\"a\":\"\xC3\"}", "{\"a\":\"\xC0\xAF\"}", "{\"a\":\"\xED\xA0\x80\"}", "{\"a\":\"\xF4\x90\x80\x80\"}",
      "{\"a\":\"\xEF\xBF\xBF\"}", "\xEF\xBB\xBF{\"a\":1}", "{\"a\":1}\n\n", "\t{\"a\" : [ ] , \"b\" : { } }",
      "{\"inputs\":{\"q\":1,\"q\":2}}", "{\"inputs\":{\"q\":1},\"inputs\":{\"q\":2}}", "{\"inputs\":{\"a\":{\"q\":1,\"q\":2}}}",
      "{\"a\":[[[[1]]]]}", "{\"a\":{\"b\":{\"c\":{}}}}", "{\"a\":[{\"b\":[{}]}]}", "{\"a\":1}/*c*/", "{\"a\":1 // c\n}",
  };
  for (const std::size_t depth : {std::size_t(512), std::size_t(64), std::size_t(4), std::size_t(3), std::size_t(2), std::size_t(1)}) {
    for (const std::string& text : texts) {
      bool boost_repeated = false;
      const bool boost_accepts = is_json_object(text, depth, &boost_repeated);
      bool repeated = false;
      const std::optional<std::vector<JsonMember>> members = json_object_members(text, depth, &repeated);
      BOOST_TEST(members.has_value() == boost_accepts, text << " at depth " << depth);
      if (!members || !boost_accepts) continue;
      BOOST_TEST(repeated == boost_repeated, text);
      const std::vector<JsonMember> scanned = top_level_members(text);
      BOOST_TEST_REQUIRE(members->size() == scanned.size(), text);
      for (std::size_t i = 0; i < scanned.size(); ++i) {
        BOOST_TEST((*members)[i].key == scanned[i].key, text);
        BOOST_TEST(((*members)[i].value.data() == scanned[i].value.data() && (*members)[i].value == scanned[i].value), text);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(example_view_sections_default_to_empty_objects) {
  std::string text = R"({"id":"q1","inputs":{"input":"hi"},"expectedOutputs":"not an object"})";
  auto view = ExampleView::from_text(text);
  BOOST_REQUIRE(view.has_value());
  BOOST_TEST(view->section("inputs") == R"({"input":"hi"})");
  BOOST_TEST(view->section("expectedOutputs") == "{}");
  BOOST_TEST(view->section("metadata") == "{}");
  BOOST_TEST(*view->id_token() == R"("q1")");
  std::string numeric_id = R"({"id":7})";
  BOOST_TEST(!ExampleView::from_text(numeric_id)->id_token().has_value());
  BOOST_TEST(!ExampleView::from_text("[1]").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(example_view_shape)

bool canonical(std::string_view text) {
  auto view = ExampleView::from_text(text);
  return view && view->is_canonical();
}

BOOST_AUTO_TEST_CASE(canonical_examples_are_recognised) {
  BOOST_TEST(canonical(R"({"inputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(canonical(R"({"id":"a","inputs":{"q":1},"expectedOutputs":{},"metadata":{},"actualOutputs":{},"trace":[1]})"));
  BOOST_TEST(canonical(R"( {"metadata":{},"inp\u0075ts":{},"expectedOutputs":{}} )"));
}

BOOST_AUTO_TEST_CASE(everything_else_needs_decoding) {
  BOOST_TEST(!canonical(R"({"input":"q","expectedOutput":"a"})"));
  BOOST_TEST(!canonical(R"({"inputs":{},"expectedOutputs":{}})"));
  BOOST_TEST(!canonical(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"x":1})"));
  BOOST_TEST(!canonical(R"({"inputs":{},"inputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(!canonical(R"({"id":"","inputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(!canonical(R"({"id":7,"inputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(!canonical(R"({"inputs":[],"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(!canonical(R"({"inputs":{},"expectedOutputs":{},"metadata":{},"trace":null})"));
  BOOST_TEST(!canonical(R"({"inputs":{"a":tru},"expectedOutputs":{},"metadata":{}})"));  // not even JSON
}

BOOST_AUTO_TEST_CASE(a_rebased_view_reads_the_copy) {
  const std::string original = R"({"id":"x","inputs":{"q":1},"expectedOutputs":{},"metadata":{}})";
  const auto view = ExampleView::from_text(original);
  BOOST_REQUIRE(view.has_value());
  const std::string copy = original;
  const ExampleView rebased = view->rebased(original, copy);
  BOOST_TEST(rebased.section("inputs") == R"({"q":1})");
  const auto at = static_cast<std::size_t>(rebased.section("inputs").data() - copy.data());
  BOOST_TEST(at == original.find(R"({"q":1})"));  // inside the copy, not the original
  BOOST_TEST(*rebased.id_token() == R"("x")");
}

BOOST_AUTO_TEST_CASE(a_key_twice_in_a_member_object_is_found_in_the_same_pass) {
  bool repeated = true;
  BOOST_TEST(is_json_object(R"({"inputs":{"q":1,"r":{"q":2}},"metadata":{"q":1}})", 512, &repeated));
  BOOST_TEST(!repeated);
  BOOST_TEST(is_json_object(R"({"inputs":{"q":1,"r":2},"metadata":{"a":1,"b":[{"x":1}],"a":2}})", 512, &repeated));
  BOOST_TEST(repeated);
  BOOST_TEST(is_json_object(R"({"inputs":{"q\u0031":1,"q1":2}})", 512, &repeated));
  BOOST_TEST(repeated);  // the same key, however it is spelt
  // Keys of the root and of deeper objects are not this check's business.
  BOOST_TEST(is_json_object(R"({"a":1,"a":2,"s":{"t":{"x":1,"x":2}}})", 512, &repeated));
  BOOST_TEST(!repeated);
}

BOOST_AUTO_TEST_SUITE_END()
