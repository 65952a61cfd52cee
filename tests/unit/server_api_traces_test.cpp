// Production traces over loopback HTTP on both backends: every OTLP fixture ingested as JSON, the
// same export in protobuf stored identically, answers in the request's encoding with partial
// success, gzip (and its bound), refusals, keyset pages and filters, tenants, the span tree,
// retention by the sweeper with explicit old timestamps, and the canonical trace by the otel
// extractor over the API's own span list.
#include "server_api_fixture.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/otlp/otlp_request.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/server/otel_canonical_trace.hpp"
#include "krino/core/server/trace_sweeper.hpp"

#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"

#include "test_paths.hpp"
#include "trace_extractor_calls.hpp"

#include <boost/beast/zlib/deflate_stream.hpp>

#include <fstream>
#include <sstream>

using namespace krino::test;
namespace pb_collector = opentelemetry::proto::collector::trace::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;

namespace {

using TraceHeaders = std::vector<std::pair<std::string, std::string>>;

std::string trace_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every OTLP/JSON file among the fixtures: the public example and the hand-written GenAI traces.
std::vector<std::string> otlp_fixtures() {
  const std::string genai = std::string(krino::test::paths::source_dir()) + "/tests/fixtures/traces/otlp-genai/";
  return {std::string(krino::test::paths::shared_data_dir()) + "/traces/otlp_json_captured/opentelemetry-proto_examples_trace.json",
          genai + "weather_agent.otlp.json", genai + "weather_agent.protobuf-json.json", genai + "events_and_tool_errors.otlp.json",
          genai + "derived_fields.otlp.json"};
}

template <class Fixture>
HttpResult post_traces(Fixture& fixture, const std::string& content_type, std::string body, TraceHeaders headers = {},
                       const std::string& path = "/v1/traces") {
  HttpCall request;
  request.method = "POST";
  request.target = path;
  request.body = std::move(body);
  request.headers = std::move(headers);
  request.headers.emplace_back("Content-Type", content_type);
  request.deadline = std::chrono::minutes(2);
  return fixture.client->send(request);
}

boost::json::value trace_json(const HttpResult& result) { return krino::json::parse(result.body()); }

std::string hex_bytes(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

// A protobuf export of `count` spans of one trace (the first the root), in service `project`.
pb_collector::ExportTraceServiceRequest made_export(const std::string& trace_hex, std::uint64_t start_ns, const std::string& project,
                                                    int count, bool with_error = false) {
  pb_collector::ExportTraceServiceRequest request;
  pb_trace::ResourceSpans* resource = request.add_resource_spans();
  auto* name = resource->mutable_resource()->add_attributes();
  name->set_key("krino.project");
  name->mutable_value()->set_string_value(project);
  pb_trace::ScopeSpans* scope = resource->add_scope_spans();
  for (int i = 0; i < count; ++i) {
    pb_trace::Span* span = scope->add_spans();
    span->set_trace_id(hex_bytes(trace_hex));
    span->set_span_id(hex_bytes("00000000000000" + std::string(i < 15 ? "0" : "") + std::to_string(i + 1)));
    if (i > 0) span->set_parent_span_id(hex_bytes("0000000000000001"));
    span->set_name(i == 0 ? "agent" : "step");
    span->set_start_time_unix_nano(start_ns + static_cast<std::uint64_t>(i));
    span->set_end_time_unix_nano(start_ns + 1000);
    if (with_error && i == count - 1) span->mutable_status()->set_code(pb_trace::Status::STATUS_CODE_ERROR);
    auto* input = span->add_attributes();
    input->set_key("input.value");
    input->mutable_value()->set_string_value("question " + std::to_string(i));
  }
  return request;
}

// What two servers must agree on: the trace's page without the time it was received.
std::string stored_view(const HttpResult& result) {
  boost::json::object page = trace_json(result).as_object();
  page.erase("receivedAtMs");
  return krino::json::to_compact_json(page);
}

std::string gzip_of(const std::string& bytes) {
  std::string out = std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  boost::beast::zlib::deflate_stream deflater;
  deflater.reset(6, 15, 8, boost::beast::zlib::Strategy::normal);
  std::string deflated(bytes.size() + 1024, '\0');
  boost::beast::zlib::z_params stream;
  stream.next_in = bytes.data();
  stream.avail_in = bytes.size();
  stream.next_out = deflated.data();
  stream.avail_out = deflated.size();
  boost::system::error_code ec;
  deflater.write(stream, boost::beast::zlib::Flush::finish, ec);
  deflated.resize(stream.total_out);
  out += deflated;
  out += std::string(8, '\0');  // CRC-32 and size: not checked
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_traces)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(every_otlp_fixture_is_stored_with_its_spans_and_derived_fields, Backend, Backends, ServerFixture<Backend>) {
  for (const std::string& path : otlp_fixtures()) {
    BOOST_TEST_CONTEXT(path) {
      const std::string body = trace_file(path);
      const std::size_t expected = krino::core::otlp::decode_json_request(body).spans.size();
      const HttpResult posted = post_traces(*this, "application/json", body, {}, "/api/v1/traces");
      BOOST_REQUIRE_EQUAL(posted.status(), 200u);
      BOOST_TEST(trace_json(posted).at("acceptedSpans").as_int64() == static_cast<std::int64_t>(expected));
      BOOST_TEST(trace_json(posted).at("rejectedSpans").as_int64() == 0);
      BOOST_TEST(!trace_json(posted).as_object().contains("partialSuccess"));
    }
  }
  const boost::json::value list = trace_json(this->call("GET", "/api/v1/traces"));
  // The two spellings of the weather agent are one trace: its spans are stored once.
  BOOST_TEST(list.at("traces").as_array().size() == 4u);
  const HttpResult rag = this->call("GET", "/api/v1/traces/A1B2C3D4E5F60718293A4B5C6D7E8F90");  // either case
  BOOST_REQUIRE_EQUAL(rag.status(), 200u);
  const boost::json::value trace = trace_json(rag);
  BOOST_TEST(trace.at("input").as_string() == "What is the refund window?");
  BOOST_TEST(trace.at("output").as_string() == "30 days from delivery.");
  BOOST_TEST(trace.at("spanCount").as_int64() == 2);
  const boost::json::array& spans = trace.at("spans").as_array();
  BOOST_TEST(spans[0].at("depth").as_int64() == 0);
  BOOST_TEST(spans[1].at("depth").as_int64() == 1);
  BOOST_TEST(spans[0].at("childSpanIds").as_array().size() == 1u);
  BOOST_TEST(spans[1].at("kind").as_string() == "SPAN_KIND_CLIENT");
  BOOST_TEST(spans[1].at("attributes").at("gen_ai.usage.input_tokens").as_int64() == 412);
  BOOST_TEST(spans[1].at("input").as_string() == "Context: ... Question: What is the refund window?");
  BOOST_TEST(trace.at("canonicalTrace").is_null());  // no extractor given to this server
  const boost::json::value agent = trace_json(this->call("GET", "/api/v1/traces/4bf92f3577b34da6a3ce929d0e0e4736"));
  BOOST_TEST(agent.at("project").as_string() == "weather-bot");
  BOOST_TEST(agent.at("spanCount").as_int64() == 4);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_same_export_in_protobuf_and_json_is_stored_the_same, Backend, Backends, ServerFixture<Backend>) {
  const std::string json = trace_file(otlp_fixtures()[0]);
  // The official example, built as protobuf from what its JSON says (otlp_request_test checks the
  // decoders field by field; here the whole path through the store and back).
  pb_collector::ExportTraceServiceRequest request;
  pb_trace::ResourceSpans* resource = request.add_resource_spans();
  auto* service = resource->mutable_resource()->add_attributes();
  service->set_key("service.name");
  service->mutable_value()->set_string_value("my.service");
  pb_trace::ScopeSpans* scope = resource->add_scope_spans();
  scope->mutable_scope()->set_name("my.library");
  scope->mutable_scope()->set_version("1.0.0");
  pb_trace::Span* span = scope->add_spans();
  span->set_trace_id(hex_bytes("5B8EFFF798038103D269B633813FC60C"));
  span->set_span_id(hex_bytes("EEE19B7EC3C1B174"));
  span->set_parent_span_id(hex_bytes("EEE19B7EC3C1B173"));
  span->set_name("I'm a server span");
  span->set_start_time_unix_nano(1544712660000000000ULL);
  span->set_end_time_unix_nano(1544712661000000000ULL);
  span->set_kind(pb_trace::Span::SPAN_KIND_SERVER);
  auto* attribute = span->add_attributes();
  attribute->set_key("my.span.attr");
  attribute->mutable_value()->set_string_value("some value");

  ServerFixture<Backend> other;
  BOOST_REQUIRE_EQUAL(post_traces(*this, "application/json", json).status(), 200u);
  const HttpResult posted = post_traces(other, "application/x-protobuf", request.SerializeAsString());
  BOOST_REQUIRE_EQUAL(posted.status(), 200u);
  BOOST_TEST(posted.response[boost::beast::http::field::content_type] == "application/x-protobuf");
  pb_collector::ExportTraceServiceResponse answer;
  BOOST_REQUIRE(answer.ParseFromString(posted.body()));
  BOOST_TEST(!answer.has_partial_success());
  const std::string path = "/api/v1/traces/5b8efff798038103d269b633813fc60c";
  BOOST_TEST(stored_view(this->call("GET", path)) == stored_view(other.call("GET", path)));
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(bad_spans_are_rejected_alone_and_the_answer_says_why, Backend, Backends, ServerFixture<Backend>) {
  pb_collector::ExportTraceServiceRequest request = made_export("0102030405060708090a0b0c0d0e0f10", 1000, "shop", 3);
  request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(1)->clear_name();
  request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(2)->set_span_id("abc");
  const HttpResult posted = post_traces(*this, "application/x-protobuf", request.SerializeAsString());
  BOOST_REQUIRE_EQUAL(posted.status(), 200u);
  pb_collector::ExportTraceServiceResponse answer;
  BOOST_REQUIRE(answer.ParseFromString(posted.body()));
  BOOST_TEST(answer.partial_success().rejected_spans() == 2);
  BOOST_TEST(answer.partial_success().error_message().find("resourceSpans[0].scopeSpans[0].spans[1]: no name") != std::string::npos);
  BOOST_TEST(answer.partial_success().error_message().find("spans[2]: spanId is not 8 bytes") != std::string::npos);
  BOOST_TEST(trace_json(this->call("GET", "/api/v1/traces/0102030405060708090a0b0c0d0e0f10")).at("spanCount").as_int64() == 1);
  // Sent again (an exporter retrying): accepted, stored once.
  BOOST_REQUIRE_EQUAL(post_traces(*this, "application/x-protobuf", request.SerializeAsString()).status(), 200u);
  BOOST_TEST(trace_json(this->call("GET", "/api/v1/traces/0102030405060708090a0b0c0d0e0f10")).at("spanCount").as_int64() == 1);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(gzip_is_inflated_within_the_limit_and_other_bodies_are_refused, Backend, Backends, ServerFixture<Backend>) {
  const std::string json = trace_file(otlp_fixtures()[4]);
  const HttpResult zipped = post_traces(*this, "application/json; charset=utf-8", gzip_of(json), {{"Content-Encoding", "gzip"}});
  BOOST_REQUIRE_EQUAL(zipped.status(), 200u);
  BOOST_TEST(trace_json(zipped).at("acceptedSpans").as_int64() == 2);
  // 80 MB of one byte in a few kilobytes of gzip: refused while inflating, past the 64 MiB bound.
  const HttpResult bomb = post_traces(*this, "application/json", gzip_of(std::string(80u << 20, ' ')), {{"Content-Encoding", "gzip"}});
  BOOST_TEST(bomb.status() == 413u);
  BOOST_TEST(post_traces(*this, "application/json", "\x1f\x8b garbage", {{"Content-Encoding", "gzip"}}).status() == 400u);
  BOOST_TEST(post_traces(*this, "application/json", json, {{"Content-Encoding", "br"}}).status() == 415u);
  BOOST_TEST(post_traces(*this, "text/plain", json).status() == 415u);
  BOOST_TEST(post_traces(*this, "application/json", "{\"resourceSpans\":7}").status() == 400u);
  BOOST_TEST(post_traces(*this, "application/x-protobuf", std::string("\xff\xff\xff", 3)).status() == 400u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(traces_are_listed_newest_first_in_keyset_pages_with_filters, Backend, Backends, ServerFixture<Backend>) {
  // Five traces: starts 1000..5000, two in project "b", the 4000 one with an error.
  const char* const ids[] = {"10000000000000000000000000000001", "10000000000000000000000000000002", "10000000000000000000000000000003",
                             "10000000000000000000000000000004", "10000000000000000000000000000005"};
  for (int i = 0; i < 5; ++i) {
    const auto request = made_export(ids[i], 1000u * static_cast<std::uint64_t>(i + 1), i % 2 == 1 ? "b" : "a", 2, i == 3);
    BOOST_REQUIRE_EQUAL(post_traces(*this, "application/x-protobuf", request.SerializeAsString()).status(), 200u);
  }
  std::vector<std::string> seen;
  std::string target = "/api/v1/traces?limit=2";
  for (int page = 0; page < 5; ++page) {
    const boost::json::value body = trace_json(this->call("GET", target));
    for (const auto& trace : body.at("traces").as_array()) seen.emplace_back(trace.at("traceId").as_string());
    if (body.at("nextCursor").is_null()) break;
    target = "/api/v1/traces?limit=2&cursor=" + std::string(body.at("nextCursor").as_string());
  }
  BOOST_REQUIRE_EQUAL(seen.size(), 5u);
  BOOST_TEST(seen.front() == ids[4]);
  BOOST_TEST(seen.back() == ids[0]);
  const boost::json::value in_b = trace_json(this->call("GET", "/api/v1/traces?project=b"));
  BOOST_TEST(in_b.at("traces").as_array().size() == 2u);
  const boost::json::value errors = trace_json(this->call("GET", "/api/v1/traces?errors=true"));
  BOOST_REQUIRE_EQUAL(errors.at("traces").as_array().size(), 1u);
  BOOST_TEST(errors.at("traces").as_array()[0].at("errorCount").as_int64() == 1);
  const boost::json::value window = trace_json(this->call("GET", "/api/v1/traces?from=2000&to=4000&name=agent"));
  BOOST_TEST(window.at("traces").as_array().size() == 2u);
  BOOST_TEST(this->call("GET", "/api/v1/traces?cursor=nonsense").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/traces?limit=0").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/traces/ffffffffffffffffffffffffffffffff").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/traces/not-an-id").status() == 404u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(writes_need_an_editor_and_tenants_see_their_own_traces, Backend, Backends, ServerFixture<Backend>) {
  const HttpResult root = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  BOOST_REQUIRE_EQUAL(root.status(), 201u);
  const std::string root_key(trace_json(root).at("key").as_string());
  auto key = [&](const std::string& role, const std::string& tenant) {
    const HttpResult made = this->call("POST", "/api/v1/api-keys", R"({"name":"k","role":")" + role + R"(","tenantId":")" + tenant + R"("})",
                                       {{"Authorization", "Bearer " + root_key}});
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    return "Bearer " + std::string(trace_json(made).at("key").as_string());
  };
  const std::string a_editor = key("EDITOR", "a");
  const std::string a_viewer = key("VIEWER", "a");
  const std::string b_editor = key("EDITOR", "b");
  const std::string body = made_export("20000000000000000000000000000001", 5, "p", 1).SerializeAsString();
  BOOST_TEST(post_traces(*this, "application/x-protobuf", body).status() == 401u);
  BOOST_TEST(post_traces(*this, "application/x-protobuf", body, {{"Authorization", a_viewer}}).status() == 403u);
  BOOST_REQUIRE_EQUAL(post_traces(*this, "application/x-protobuf", body, {{"Authorization", a_editor}}).status(), 200u);
  const std::string path = "/api/v1/traces/20000000000000000000000000000001";
  BOOST_TEST(this->call("GET", path, {}, {{"Authorization", a_viewer}}).status() == 200u);
  BOOST_TEST(this->call("GET", path, {}, {{"Authorization", b_editor}}).status() == 404u);
  BOOST_TEST(trace_json(this->call("GET", "/api/v1/traces", {}, {{"Authorization", b_editor}})).at("traces").as_array().empty());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_sweeper_deletes_traces_received_before_the_retention_window, Backend, Backends, ServerFixture<Backend>) {
  using krino::core::otlp::decode_protobuf_request;
  const std::int64_t day_ms = 24LL * 3600 * 1000;
  const std::int64_t now = 1'800'000'000'000;
  // Three old traces (received 40 days ago) and one recent (2 days ago), by explicit timestamps.
  for (int i = 0; i < 4; ++i) {
    const std::string id = "3000000000000000000000000000000" + std::to_string(i + 1);
    const auto spans = decode_protobuf_request(made_export(id, 100, "p", 3).SerializeAsString()).spans;
    this->store->add_spans({}, spans, i < 3 ? now - 40 * day_ms : now - 2 * day_ms);
  }
  krino::core::server::TraceRetentionOptions retention;
  retention.retention = std::chrono::milliseconds(30 * day_ms);
  retention.batch = 2;  // two transactions: 2, then 1
  retention.now_ms = [now] { return now; };
  krino::core::server::TraceSweeper sweeper(*this->store, retention);
  BOOST_TEST(sweeper.sweep() == 3u);
  BOOST_TEST(this->call("GET", "/api/v1/traces/30000000000000000000000000000001").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/traces/30000000000000000000000000000004").status() == 200u);
  BOOST_TEST(sweeper.sweep() == 0u);
  // A trace receiving a new span is young again.
  const auto late = decode_protobuf_request(made_export("30000000000000000000000000000004", 100, "p", 4).SerializeAsString()).spans;
  this->store->add_spans({}, late, now);
  retention.now_ms = [now, day_ms] { return now + 29 * day_ms; };
  BOOST_TEST(krino::core::server::TraceSweeper(*this->store, retention).sweep() == 0u);
  // Without retention nothing is deleted.
  krino::core::server::TraceRetentionOptions keep;
  keep.now_ms = [now, day_ms] { return now + 1000 * day_ms; };
  BOOST_TEST(krino::core::server::TraceSweeper(*this->store, keep).sweep() == 0u);
}

BOOST_AUTO_TEST_CASE(the_canonical_trace_is_the_otel_extractors_reading_of_the_api_span_list) {
  krino::core::Cancellation cancellation;
  krino::core::HostServices host{cancellation};
  krino::core::PluginRegistry registry;
  BOOST_TEST(!krino::core::server::otel_canonical_trace(registry));  // none loaded: no function
  BOOST_TEST_REQUIRE(registry.load_file(krino::test::plugin_module("otel"), *host.host_info()));
  const auto canonical = krino::core::server::otel_canonical_trace(registry);
  BOOST_REQUIRE(canonical);
  const std::string fixture = std::string(krino::test::paths::source_dir()) + "/tests/fixtures/traces/otlp-genai/weather_agent.otlp.json";
  const auto spans = krino::core::otlp::decode_json_request(trace_file(fixture)).spans;
  const krino::core::server_api::CanonicalTraceResult result = canonical(krino::core::server_api::spans_json(spans));
  BOOST_REQUIRE_MESSAGE(result.trace, result.error);
  const boost::json::value trace = krino::json::parse(*result.trace);
  BOOST_TEST(trace.at("output").as_string() == "The weather in Paris is currently rainy with a temperature of 57\xC2\xB0""F.");
  BOOST_REQUIRE_EQUAL(trace.at("toolCalls").as_array().size(), 1u);
  BOOST_TEST(trace.at("toolCalls").as_array()[0].at("name").as_string() == "get_weather");
  // The extractor reading the raw export directly agrees with its reading of the stored spans.
  const auto direct = krino::core::server::otel_canonical_trace(registry)(trace_file(fixture));
  BOOST_REQUIRE(direct.trace);
  BOOST_TEST(krino::json::parse(*direct.trace).at("toolCalls") == trace.at("toolCalls"));
  BOOST_TEST(krino::json::parse(*direct.trace).at("metrics") == trace.at("metrics"));
}

BOOST_AUTO_TEST_SUITE_END()
