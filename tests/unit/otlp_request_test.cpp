// OTLP trace exports read into stored spans: the JSON mapping of the official example and the
// hand-written GenAI fixtures, the same spans in protobuf giving the same records, one bad span
// rejected alone with its reason, exact numbers, derived input, output and project, the responses.
#include "krino/core/otlp/otlp_request.hpp"
#include "krino/core/otlp/span_fields.hpp"

#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"

#include "test_paths.hpp"

#include <krino/json_parse.hpp>

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>

using namespace krino::core;
namespace pb_collector = opentelemetry::proto::collector::trace::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string proto_example() {
  return read_text(std::string(krino::test::paths::shared_data_dir()) + "/traces/otlp_json_captured/opentelemetry-proto_examples_trace.json");
}

std::string genai_fixture(const std::string& name) {
  return read_text(std::string(krino::test::paths::source_dir()) + "/tests/fixtures/traces/otlp-genai/" + name);
}

std::string bytes(std::initializer_list<unsigned char> values) { return std::string(values.begin(), values.end()); }

// The official example as protobuf, built field by field from what its JSON says.
pb_collector::ExportTraceServiceRequest proto_example_message() {
  pb_collector::ExportTraceServiceRequest request;
  pb_trace::ResourceSpans* resource = request.add_resource_spans();
  auto* service = resource->mutable_resource()->add_attributes();
  service->set_key("service.name");
  service->mutable_value()->set_string_value("my.service");
  pb_trace::ScopeSpans* scope = resource->add_scope_spans();
  scope->mutable_scope()->set_name("my.library");
  scope->mutable_scope()->set_version("1.0.0");
  auto* scope_attribute = scope->mutable_scope()->add_attributes();
  scope_attribute->set_key("my.scope.attribute");
  scope_attribute->mutable_value()->set_string_value("some scope attribute");
  pb_trace::Span* span = scope->add_spans();
  span->set_trace_id(bytes({0x5B, 0x8E, 0xFF, 0xF7, 0x98, 0x03, 0x81, 0x03, 0xD2, 0x69, 0xB6, 0x33, 0x81, 0x3F, 0xC6, 0x0C}));
  span->set_span_id(bytes({0xEE, 0xE1, 0x9B, 0x7E, 0xC3, 0xC1, 0xB1, 0x74}));
  span->set_parent_span_id(bytes({0xEE, 0xE1, 0x9B, 0x7E, 0xC3, 0xC1, 0xB1, 0x73}));
  span->set_name("I'm a server span");
  span->set_start_time_unix_nano(1544712660000000000ULL);
  span->set_end_time_unix_nano(1544712661000000000ULL);
  span->set_kind(pb_trace::Span::SPAN_KIND_SERVER);
  auto* attribute = span->add_attributes();
  attribute->set_key("my.span.attr");
  attribute->mutable_value()->set_string_value("some value");
  return request;
}

void require_same(const store::SpanRecord& a, const store::SpanRecord& b) {
  BOOST_TEST(a.trace_id == b.trace_id);
  BOOST_TEST(a.span_id == b.span_id);
  BOOST_TEST(a.parent_span_id == b.parent_span_id);
  BOOST_TEST(a.name == b.name);
  BOOST_TEST(a.kind == b.kind);
  BOOST_TEST(a.start_ns == b.start_ns);
  BOOST_TEST(a.end_ns == b.end_ns);
  BOOST_TEST(a.status_code == b.status_code);
  BOOST_TEST(a.status_message == b.status_message);
  BOOST_TEST(a.attributes == b.attributes);
  BOOST_TEST(a.events == b.events);
  BOOST_TEST(a.resource == b.resource);
  BOOST_TEST(a.scope_name == b.scope_name);
  BOOST_TEST(a.scope_version == b.scope_version);
  BOOST_TEST(a.project.value_or("<none>") == b.project.value_or("<none>"));
  BOOST_TEST(a.input.value_or("<none>") == b.input.value_or("<none>"));
  BOOST_TEST(a.output.value_or("<none>") == b.output.value_or("<none>"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(otlp_request)

BOOST_AUTO_TEST_CASE(the_official_json_example_gives_one_span_with_lower_case_ids_and_exact_times) {
  const otlp::DecodedSpans decoded = otlp::decode_json_request(proto_example());
  BOOST_TEST(decoded.rejected == 0u);
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 1u);
  const store::SpanRecord& span = decoded.spans[0];
  BOOST_TEST(span.trace_id == "5b8efff798038103d269b633813fc60c");
  BOOST_TEST(span.span_id == "eee19b7ec3c1b174");
  BOOST_TEST(span.parent_span_id == "eee19b7ec3c1b173");
  BOOST_TEST(span.name == "I'm a server span");
  BOOST_TEST(span.kind == 2);
  BOOST_TEST(span.start_ns == 1544712660000000000LL);
  BOOST_TEST(span.end_ns == 1544712661000000000LL);
  BOOST_TEST(span.attributes == R"({"my.span.attr":"some value"})");
  BOOST_TEST(span.resource == R"({"service.name":"my.service"})");
  BOOST_TEST(span.scope_name == "my.library");
  BOOST_TEST(span.scope_version == "1.0.0");
  BOOST_TEST(span.project.value_or("") == "my.service");
  BOOST_TEST(!span.input.has_value());
}

BOOST_AUTO_TEST_CASE(the_same_export_in_protobuf_gives_the_same_span) {
  const otlp::DecodedSpans from_json = otlp::decode_json_request(proto_example());
  const otlp::DecodedSpans from_protobuf = otlp::decode_protobuf_request(proto_example_message().SerializeAsString());
  BOOST_REQUIRE_EQUAL(from_protobuf.spans.size(), 1u);
  BOOST_TEST(from_protobuf.rejected == 0u);
  require_same(from_json.spans[0], from_protobuf.spans[0]);
}

BOOST_AUTO_TEST_CASE(hex_and_protobuf_json_spellings_of_one_trace_give_the_same_spans) {
  // The hand-written GenAI agent trace as an OTLP/JSON exporter writes it (upper-case hex ids,
  // enum names, numbers as strings, messages as JSON text) and as protobuf's MessageToJson does
  // (base64 ids, enum numbers): ids, times, kinds and statuses must agree.
  const otlp::DecodedSpans hex = otlp::decode_json_request(genai_fixture("weather_agent.otlp.json"));
  const otlp::DecodedSpans base64 = otlp::decode_json_request(genai_fixture("weather_agent.protobuf-json.json"));
  BOOST_TEST(hex.rejected == 0u);
  BOOST_TEST(base64.rejected == 0u);
  BOOST_REQUIRE_EQUAL(hex.spans.size(), base64.spans.size());
  BOOST_REQUIRE_GE(hex.spans.size(), 3u);
  for (std::size_t i = 0; i < hex.spans.size(); ++i) {
    BOOST_TEST(hex.spans[i].trace_id == base64.spans[i].trace_id);
    BOOST_TEST(hex.spans[i].span_id == base64.spans[i].span_id);
    BOOST_TEST(hex.spans[i].parent_span_id == base64.spans[i].parent_span_id);
    BOOST_TEST(hex.spans[i].kind == base64.spans[i].kind);
    BOOST_TEST(hex.spans[i].start_ns == base64.spans[i].start_ns);
    BOOST_TEST(hex.spans[i].status_code == base64.spans[i].status_code);
  }
}

BOOST_AUTO_TEST_CASE(input_and_output_come_from_the_first_key_present) {
  const otlp::DecodedSpans decoded = otlp::decode_json_request(genai_fixture("derived_fields.otlp.json"));
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 2u);
  BOOST_TEST(decoded.spans[0].input.value_or("") == "What is the refund window?");
  BOOST_TEST(decoded.spans[0].output.value_or("") == "30 days from delivery.");
  BOOST_TEST(decoded.spans[1].input.value_or("") == "Context: ... Question: What is the refund window?");
  // intValue 412 (a number) and "9" (a string) are both exact integers.
  BOOST_TEST(decoded.spans[1].attributes.find(R"("gen_ai.usage.input_tokens":412)") != std::string::npos);
  BOOST_TEST(decoded.spans[1].attributes.find(R"("gen_ai.usage.output_tokens":9)") != std::string::npos);
  BOOST_TEST(!decoded.spans[0].project.has_value());  // no resource attribute names one
}

BOOST_AUTO_TEST_CASE(the_project_is_a_resource_attribute_krino_first_then_dokimos_then_service_name) {
  const auto resource = [](const char* text) { return krino::json::parse(text).as_object(); };
  BOOST_TEST(otlp::project_of(resource(R"({"service.name":"svc","krino.project":"p"})")).value_or("") == "p");
  BOOST_TEST(otlp::project_of(resource(R"({"service.name":"svc","dokimos.project.name":"d"})")).value_or("") == "d");
  BOOST_TEST(otlp::project_of(resource(R"({"service.name":"svc"})")).value_or("") == "svc");
  BOOST_TEST(!otlp::project_of(resource(R"({"krino.project":7})")).has_value());
  BOOST_TEST(otlp::input_of(resource(R"({"input":"b","krino.input":"a"})")).value_or("") == "a");
  BOOST_TEST(otlp::output_of(resource(R"({"gen_ai.output.messages":[{"role":"assistant"}]})")).value_or("") == R"([{"role":"assistant"}])");
}

BOOST_AUTO_TEST_CASE(numbers_are_kept_exactly) {
  const std::string body = R"({"resourceSpans":[{"scopeSpans":[{"spans":[{
    "traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"n",
    "startTimeUnixNano":"9223372036854775807","endTimeUnixNano":9223372036854775807,
    "attributes":[{"key":"max","value":{"intValue":"9223372036854775807"}},
                  {"key":"min","value":{"intValue":"-9223372036854775808"}},
                  {"key":"tenth","value":{"doubleValue":0.1}},
                  {"key":"big","value":{"doubleValue":3e+34}},
                  {"key":"nan","value":{"doubleValue":"NaN"}},
                  {"key":"list","value":{"arrayValue":{"values":[{"intValue":1},{"boolValue":true},{}]}}},
                  {"key":"map","value":{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}},
                  {"key":"raw","value":{"bytesValue":"AQID"}}]}]}]}]})";
  const otlp::DecodedSpans decoded = otlp::decode_json_request(body);
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 1u);
  BOOST_TEST(decoded.spans[0].start_ns == 9223372036854775807LL);
  BOOST_TEST(decoded.spans[0].attributes ==
             R"({"max":9223372036854775807,"min":-9223372036854775808,"tenth":0.1,"big":3e+34,"nan":"NaN",)"
             R"("list":[1,true,null],"map":{"k":"v"},"raw":"AQID"})");
}

BOOST_AUTO_TEST_CASE(protobuf_values_are_written_exactly_and_a_repeated_key_keeps_its_last_value) {
  pb_collector::ExportTraceServiceRequest request = proto_example_message();
  pb_trace::Span* span = request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(0);
  const auto add = [span](const char* key) {
    auto* attribute = span->add_attributes();
    attribute->set_key(key);
    return attribute->mutable_value();
  };
  add("d")->set_double_value(0.1);
  add("big")->set_double_value(3e34);
  add("inf")->set_double_value(-std::numeric_limits<double>::infinity());
  add("i")->set_int_value(std::numeric_limits<std::int64_t>::min());
  add("b")->set_bytes_value(std::string("\x01\x02\x03", 3));
  add("quote\"key")->set_string_value("line\nbreak");
  add("my.span.attr")->set_string_value("later value");
  add("empty");
  add("input.value")->mutable_array_value()->add_values()->set_bool_value(false);
  const otlp::DecodedSpans decoded = otlp::decode_protobuf_request(request.SerializeAsString());
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 1u);
  BOOST_TEST(decoded.spans[0].attributes ==
             R"({"d":0.1,"big":3e+34,"inf":"-Infinity","i":-9223372036854775808,"b":"AQID","quote\"key":"line\nbreak",)"
             R"("my.span.attr":"later value","empty":null,"input.value":[false]})");
  BOOST_TEST(krino::json::parse(decoded.spans[0].attributes).is_object());
  BOOST_TEST(decoded.spans[0].input.value_or("") == "[false]");
}

BOOST_AUTO_TEST_CASE(a_bad_span_is_rejected_alone_with_its_reason) {
  const std::string body = R"({"resourceSpans":[{"scopeSpans":[{"spans":[
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"good"},
    {"spanId":"0102030405060709","name":"no trace"},
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102","name":"short id"},
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"010203040506070a"},
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"010203040506070b","name":"bad int",
     "attributes":[{"key":"n","value":{"intValue":"12x"}}]},
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"010203040506070c","name":"late","startTimeUnixNano":"18446744073709551615"},
    7]}]}]})";
  const otlp::DecodedSpans decoded = otlp::decode_json_request(body);
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 1u);
  BOOST_TEST(decoded.spans[0].name == "good");
  BOOST_TEST(decoded.rejected == 6u);
  BOOST_TEST_INFO(decoded.rejection_message);
  BOOST_TEST(decoded.rejection_message.find("6 spans rejected") == 0u);
  BOOST_TEST(decoded.rejection_message.find("resourceSpans[0].scopeSpans[0].spans[4]: span attribute n.intValue is not a signed 64-bit integer") !=
             std::string::npos);
  // Places are the body's, whichever step rejected the span.
  BOOST_TEST(decoded.rejection_message.find("spans[1]: no traceId") != std::string::npos);
  BOOST_TEST(decoded.rejection_message.find("spans[3]: no name") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(base64_ids_may_lack_padding_and_an_odd_length_id_is_rejected) {
  // 31 hex digits are read as base64 (a length that is no multiple of 4): Beast's decoder wrote a
  // byte past its buffer there (fuzz corpus otlp_json/46aa8b34...); ours reads 23 bytes, which no id has.
  const std::string body = R"({"resourceSpans":[{"scopeSpans":[{"spans":[
    {"traceId":"AQIDBAUGBwgJCgsMDQ4PEA","spanId":"AQIDBAUGBwg","name":"unpadded"},
    {"traceId":"020406081012146180a0b0c0d0e0f10","spanId":"0102030405060708","name":"odd"},
    {"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"bytes",
     "attributes":[{"key":"b","value":{"bytesValue":"_-8"}}]}]}]}]})";
  const otlp::DecodedSpans decoded = otlp::decode_json_request(body);
  BOOST_REQUIRE_EQUAL(decoded.spans.size(), 2u);
  BOOST_TEST(decoded.spans[0].trace_id == "0102030405060708090a0b0c0d0e0f10");
  BOOST_TEST(decoded.spans[0].span_id == "0102030405060708");
  BOOST_TEST(decoded.rejected == 1u);
  BOOST_TEST(decoded.rejection_message.find("spans[1]: traceId is not 16 bytes") != std::string::npos);
  BOOST_TEST(decoded.spans[1].attributes == R"({"b":"/+8="})");  // URL-safe in, standard base64 out: 0xFF 0xEF
}

BOOST_AUTO_TEST_CASE(a_body_that_is_no_export_is_refused_whole) {
  BOOST_CHECK_THROW(otlp::decode_json_request("not json"), otlp::OtlpFormatError);
  BOOST_CHECK_THROW(otlp::decode_json_request("[1,2]"), otlp::OtlpFormatError);
  BOOST_CHECK_THROW(otlp::decode_json_request(R"({"resourceSpans":{}})"), otlp::OtlpFormatError);
  BOOST_CHECK_THROW(otlp::decode_protobuf_request(std::string("\xff\xff\xff\xff", 4)), otlp::OtlpFormatError);
  BOOST_TEST(otlp::decode_json_request("{}").spans.empty());
  BOOST_TEST(otlp::decode_protobuf_request("").spans.empty());
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_a_protobuf_string_refuses_the_export) {
  // proto3 strings are UTF-8: protobuf's parser refuses the message, so no text of ours is invalid.
  pb_collector::ExportTraceServiceRequest request = proto_example_message();
  std::string body = request.SerializeAsString();
  const std::size_t at = body.find("I'm a server span");
  BOOST_REQUIRE(at != std::string::npos);
  body[at] = '\xff';
  BOOST_CHECK_THROW(otlp::decode_protobuf_request(body), otlp::OtlpFormatError);
}

BOOST_AUTO_TEST_CASE(responses_carry_partial_success_only_when_spans_were_rejected) {
  pb_collector::ExportTraceServiceResponse all;
  BOOST_REQUIRE(all.ParseFromString(otlp::protobuf_response(0, "")));
  BOOST_TEST(!all.has_partial_success());
  pb_collector::ExportTraceServiceResponse some;
  BOOST_REQUIRE(some.ParseFromString(otlp::protobuf_response(2, "2 spans rejected: ...")));
  BOOST_TEST(some.partial_success().rejected_spans() == 2);
  BOOST_TEST(some.partial_success().error_message() == "2 spans rejected: ...");
  BOOST_TEST(otlp::json_response(3, 0, "", 1) == R"({"acceptedSpans":3,"rejectedSpans":0,"traces":1})");
  BOOST_TEST(otlp::json_response(3, 2, "why", 1) ==
             R"({"partialSuccess":{"rejectedSpans":"2","errorMessage":"why"},"acceptedSpans":3,"rejectedSpans":2,"traces":1})");
}

BOOST_AUTO_TEST_SUITE_END()
