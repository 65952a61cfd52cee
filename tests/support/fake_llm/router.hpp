#pragma once
// Decides the answer to one HTTP request, without touching the connection: the session then
// carries it out (after the planned delay, and with the planned transport fault, if any).
#include <boost/beast/http.hpp>
#include <chrono>

#include "server_state.hpp"

namespace krino::fake_llm {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

struct Plan {
  HttpResponse response;
  // timeout, truncated and reset change how (or whether) `response` is sent; status and
  // malformed_json faults are already in `response`.
  FaultKind transport = FaultKind::none;
  std::chrono::milliseconds delay{0};
};

// [thread-safe] Records LLM requests in state.log as a side effect.
Plan route(ServerState& state, const HttpRequest& request);

}  // namespace krino::fake_llm
