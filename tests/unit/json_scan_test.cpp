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
