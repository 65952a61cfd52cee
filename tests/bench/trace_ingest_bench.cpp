// Spans ingested per second by `krino serve` over OTLP/HTTP protobuf (POST /v1/traces), on SQLite (a
// file in a temporary directory) or PostgreSQL (a throwaway cluster, --postgres). The server runs
// as its own process on loopback; C client threads post exports of B spans (512: the OpenTelemetry
// SDKs' default batch), encoded before the clock starts. Each trace is an agent run of 8 spans as
// the GenAI instrumentations write them: an invoke_agent root, three chat spans with model, token
// and message attributes (about 600 bytes of messages each), three execute_tool spans and a
// retrieval span. The figure is spans / wall time from the first export to the last answer; the
// server's peak RSS comes from wait4 after SIGTERM. --rules gives the server three trace eval rules
// before the clock starts, so the figure includes matching every span at ingestion: one on a span
// name no span has, one on an attribute every chat span has (a SPAN rule sampled at 0: each match
// is decided and counted, none queued), one on the agent root's name (a TRACE rule sampled at 0).
//   krino_trace_ingest_bench [--spans N] [--batch B] [--clients C] [--postgres] [--rules] [--krino PATH]
#include "bench_server.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"

#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace pb_collector = opentelemetry::proto::collector::trace::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::TestHttpClient;

constexpr int kSpansPerTrace = 8;

std::string id_bytes(std::uint64_t high, std::uint64_t low, std::size_t size) {
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    const std::uint64_t word = i < size - 8 ? high : low;
    out[i] = static_cast<char>((word >> (8 * (7 - i % 8))) & 0xFF);
  }
  return out;
}

void set_string(pb_trace::Span& span, const std::string& key, const std::string& value) {
  auto* attribute = span.add_attributes();
  attribute->set_key(key);
  attribute->mutable_value()->set_string_value(value);
}

void set_int(pb_trace::Span& span, const std::string& key, std::int64_t value) {
  auto* attribute = span.add_attributes();
  attribute->set_key(key);
  attribute->mutable_value()->set_int_value(value);
}

// Span `index` (0..7) of trace `trace`.
void add_span(pb_trace::ScopeSpans& scope, std::uint64_t trace, int index) {
  pb_trace::Span* span = scope.add_spans();
  span->set_trace_id(id_bytes(0x4bf92f3577b34da6ULL, trace, 16));
  span->set_span_id(id_bytes(0, trace * kSpansPerTrace + static_cast<std::uint64_t>(index) + 1, 8));
  if (index > 0) span->set_parent_span_id(id_bytes(0, trace * kSpansPerTrace + 1, 8));
  const std::uint64_t start = 1718000000000000000ULL + trace * 10000000000ULL + static_cast<std::uint64_t>(index) * 100000000ULL;
  span->set_start_time_unix_nano(start);
  span->set_end_time_unix_nano(start + 90000000ULL);
  const std::string question = "What is the weather in city " + std::to_string(trace) + " today, and should I take an umbrella?";
  if (index == 0) {
    span->set_name("invoke_agent weather_bot");
    span->set_kind(pb_trace::Span::SPAN_KIND_INTERNAL);
    set_string(*span, "gen_ai.operation.name", "invoke_agent");
    set_string(*span, "gen_ai.agent.name", "weather_bot");
    set_string(*span, "input.value", question);
    set_string(*span, "output.value", "It is rainy, 14 degrees: take an umbrella.");
  } else if (index % 2 == 1 && index < 7) {
    span->set_name("chat gpt-4o");
    span->set_kind(pb_trace::Span::SPAN_KIND_CLIENT);
    set_string(*span, "gen_ai.operation.name", "chat");
    set_string(*span, "gen_ai.provider.name", "openai");
    set_string(*span, "gen_ai.request.model", "gpt-4o");
    set_string(*span, "gen_ai.response.model", "gpt-4o-2024-08-06");
    set_string(*span, "gen_ai.response.id", "chatcmpl-" + std::to_string(trace * 10 + static_cast<std::uint64_t>(index)));
    set_int(*span, "gen_ai.usage.input_tokens", 412 + index);
    set_int(*span, "gen_ai.usage.output_tokens", 37);
    set_string(*span, "gen_ai.input.messages",
               R"([{"role":"system","parts":[{"type":"text","content":"You are a weather assistant. Use the tools when asked about the weather, and answer in one sentence."}]},)"
               R"({"role":"user","parts":[{"type":"text","content":")" + question + R"("}]}])");
    set_string(*span, "gen_ai.output.messages",
               R"([{"role":"assistant","parts":[{"type":"tool_call","id":"call_)" + std::to_string(trace) +
                   R"(","name":"get_weather","arguments":{"location":"city )" + std::to_string(trace) + R"("}}],"finish_reason":"tool_call"}])");
  } else if (index == 7) {
    span->set_name("retrieve documents");
    span->set_kind(pb_trace::Span::SPAN_KIND_CLIENT);
    set_string(*span, "gen_ai.operation.name", "retrieval");
    set_string(*span, "db.system.name", "pgvector");
    set_int(*span, "gen_ai.retrieval.top_k", 5);
  } else {
    span->set_name("execute_tool get_weather");
    span->set_kind(pb_trace::Span::SPAN_KIND_INTERNAL);
    set_string(*span, "gen_ai.operation.name", "execute_tool");
    set_string(*span, "gen_ai.tool.name", "get_weather");
    set_string(*span, "gen_ai.tool.call.id", "call_" + std::to_string(trace));
    set_string(*span, "gen_ai.tool.call.result", R"({"condition":"rainy","celsius":14})");
  }
}

// Exports of `batch` spans each, `spans` in all, as protobuf bodies.
std::vector<std::string> encoded_exports(std::size_t spans, std::size_t batch) {
  std::vector<std::string> bodies;
  std::size_t made = 0;
  while (made < spans) {
    pb_collector::ExportTraceServiceRequest request;
    pb_trace::ResourceSpans* resource = request.add_resource_spans();
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"service.name", "weather-bot"}, {"krino.project", "weather"},
                                     {"telemetry.sdk.language", "python"}, {"telemetry.sdk.name", "opentelemetry"}}) {
      auto* attribute = resource->mutable_resource()->add_attributes();
      attribute->set_key(key);
      attribute->mutable_value()->set_string_value(value);
    }
    pb_trace::ScopeSpans* scope = resource->add_scope_spans();
    scope->mutable_scope()->set_name("opentelemetry.instrumentation.openai_v2");
    scope->mutable_scope()->set_version("2.1b0");
    for (std::size_t i = 0; i < batch && made < spans; ++i, ++made)
      add_span(*scope, made / kSpansPerTrace, static_cast<int>(made % kSpansPerTrace));
    bodies.push_back(request.SerializeAsString());
  }
  return bodies;
}

// Three trace eval rules (see the top) through a connection no rule ever calls.
bool add_rules(unsigned short port) {
  TestHttpClient client(port);
  const auto post = [&client](const std::string& target, const std::string& body) {
    HttpCall call;
    call.method = "POST";
    call.target = target;
    call.headers = {{"Content-Type", "application/json"}};
    call.body = body;
    return client.send(call);
  };
  const auto connection = post("/api/v1/llm-connections",
                               R"({"name":"unused","baseUrl":"http://127.0.0.1:9/v1","model":"m","credentialRef":"NO_SUCH_KEY"})");
  if (connection.status() != 201u) return false;
  const std::string body = connection.body();
  const std::size_t at = body.find("\"id\":\"") + 6;
  const std::string judge = R"(,"connectionId":")" + body.substr(at, 36) + R"(","evaluatorName":"e","criteria":"c"})";
  return post("/api/v1/trace-eval-rules", R"({"name":"absent","spanName":"no such span","target":"TRACE")" + judge).status() == 201u &&
         post("/api/v1/trace-eval-rules",
              R"({"name":"chats","attribute":{"key":"gen_ai.operation.name","value":"chat"},"target":"SPAN","samplingRate":0)" + judge)
                 .status() == 201u &&
         post("/api/v1/trace-eval-rules", R"({"name":"agents","spanName":"invoke_agent *","target":"TRACE","samplingRate":0)" + judge).status() ==
             201u;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t spans = 200000;
  std::size_t batch = 512;
  int clients = 2;
  bool postgres = false;
  bool rules = false;
  std::string krino = krino::bench::default_krino();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--spans" && i + 1 < argc) spans = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--batch" && i + 1 < argc) batch = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--clients" && i + 1 < argc) clients = std::atoi(argv[++i]);
    else if (a == "--postgres") postgres = true;
    else if (a == "--rules") rules = true;
    else if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--spans N] [--batch B] [--clients C] [--postgres] [--rules] [--krino PATH]\n", argv[0]);
      return 2;
    }
  }
  if (batch == 0 || clients <= 0) return 2;
  const std::vector<std::string> bodies = encoded_exports(spans, batch);
  std::size_t body_bytes = 0;
  for (const std::string& body : bodies) body_bytes += body.size();

  const krino::bench::BenchStorage storage = krino::bench::bench_storage(postgres, "krino-trace-bench");
  const std::string& data_dir = storage.data_dir;
  std::optional<krino::bench::BenchServer> server;
  if (!krino::bench::start_bench_server(server, krino, storage.flags)) return 3;
  const unsigned short port = server->port();
  if (rules && !add_rules(port)) {
    std::fprintf(stderr, "the server refused the trace eval rules\n");
    return 3;
  }

  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failures{0};
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int c = 0; c < clients; ++c) {
    workers.emplace_back([&] {
      TestHttpClient client(port);
      for (std::size_t b = next++; b < bodies.size(); b = next++) {
        HttpCall call;
        call.target = "/v1/traces";
        call.headers = {{"Content-Type", "application/x-protobuf"}};
        call.deadline = std::chrono::milliseconds(60000);
        call.body = bodies[b];
        const auto answer = client.send(call);
        // A full success is an empty ExportTraceServiceResponse.
        if (answer.status() != 200u || !answer.body().empty()) ++failures;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const krino::bench::Measured served = server->stop();
  std::filesystem::remove_all(data_dir);

  std::printf("backend      spans   batch  clients  MB sent   seconds    spans/s   server peak RSS   failed exports\n");
  std::printf("%-10s %7zu %7zu %8d %8.1f %9.2f %10.0f %14.1f MB %16zu\n", postgres ? "postgresql" : "sqlite", spans, batch, clients,
              static_cast<double>(body_bytes) / 1e6, seconds, static_cast<double>(spans) / seconds, served.peak_rss_mb, failures.load());
  return failures == 0 ? 0 : 1;
}
