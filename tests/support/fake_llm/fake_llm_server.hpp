#pragma once
// A fake OpenAI- and Anthropic-compatible HTTP server for tests and offline dry runs: answers from
// a script (see script.hpp and docs/fake-llm-server.md), injects faults and latency, records requests.
//
//   FakeLlmServer server({.script = parse_script(R"({"default": {"content": "ok"}})")});
//   client.post(server.base_url() + "/v1/messages", ...);
//   BOOST_TEST(server.request_count(Endpoint::anthropic_messages) == 1);
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "request_log.hpp"
#include "script.hpp"

namespace krino::fake_llm {

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: an ephemeral port, read it back with port()
  unsigned threads = 2;    // I/O threads; everything is asynchronous, so few serve many connections
  std::uint32_t latency_ms = 0;             // added to every LLM reply, on top of a rule's own
  std::optional<std::string> required_key;  // when set, LLM requests without this key get 401
  std::size_t keep_last_requests = 100;     // how many request bodies recent_requests() keeps
  Script script;
};

struct ServerState;

class FakeLlmServer {
 public:
  // [main-thread] Binds and starts serving before returning. Throws std::system_error when the
  // address cannot be bound.
  explicit FakeLlmServer(ServerOptions options = {});
  // [main-thread] Stops; see stop().
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  // [thread-safe]
  std::uint16_t port() const { return port_; }
  std::string base_url() const;  // "http://127.0.0.1:PORT", no trailing slash

  // [main-thread] Stops the I/O threads and closes every connection, hanging ones included.
  // Idempotent. Not from a handler thread of this server.
  void stop();

  // [thread-safe] Replace the script; rule use counts start over.
  void set_script(Script script);
  // [thread-safe] Forget recorded requests and rule use counts (what POST /_reset does).
  void reset();

  // [thread-safe] Requests to the LLM endpoints, rejected ones (401, 400) included.
  std::uint64_t request_count(Endpoint endpoint) const;
  std::uint64_t request_count() const;
  std::vector<RecordedRequest> recent_requests() const;  // oldest first

 private:
  struct Runtime;
  std::shared_ptr<ServerState> state_;
  std::unique_ptr<Runtime> runtime_;
  std::string host_;
  std::uint16_t port_ = 0;
};

}  // namespace krino::fake_llm
