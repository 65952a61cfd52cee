#pragma once
// What one HTTP exchange ended in. A response is anything the server answered, error statuses
// included (429 and 5xx are the provider talking); timeout and connection_error mean there was no
// complete answer. The retry policy decides what to do with each.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct HttpHeader {
  std::string name;
  std::string value;
};

struct HttpResponse {
  unsigned status = 0;
  std::vector<HttpHeader> headers;
  std::string body;

  // The first header of that name, compared case-insensitively.
  std::optional<std::string> header(std::string_view name) const;
  // The raw Retry-After value (seconds or an HTTP date), when the server sent one.
  std::optional<std::string> retry_after() const { return header("retry-after"); }
};

enum class HttpOutcome {
  response,          // the server answered; see response.status
  timeout,           // the deadline passed before a complete response arrived
  connection_error,  // name resolution, connect, TLS (certificate checks included), or the connection broke
};

struct HttpResult {
  HttpOutcome outcome = HttpOutcome::connection_error;
  HttpResponse response;  // when outcome == response
  std::string error;      // otherwise: what happened, naming the host but never request headers
};

}  // namespace krino::core
