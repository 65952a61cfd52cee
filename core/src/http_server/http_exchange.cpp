#include "krino/core/http_server/http_exchange.hpp"

#include <krino/json_text.hpp>

namespace krino::core::http_server {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string_view> Request::header(std::string_view name) const {
  const auto found = message.find(boost::beast::string_view(name.data(), name.size()));
  if (found == message.end()) return std::nullopt;
  return std::string_view(found->value().data(), found->value().size());
}

std::optional<std::string> Request::query_value(const std::string& name) const {
  const auto found = query.find(name);
  if (found == query.end()) return std::nullopt;
  return found->second;
}

std::shared_ptr<ResponseStream> Request::stream_response() const {
  if (!streamed) streamed = std::make_shared<ResponseStream>();
  return streamed;
}

Response json_response(Status status, std::string body) {
  Response response(status, 11);
  response.set(boost::beast::http::field::content_type, "application/json");
  response.set(boost::beast::http::field::cache_control, "no-store");
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

Response error_response(Status status, std::string_view error, std::string_view message) {
  std::string body = "{\"error\":";
  krino::json::append_json_string(body, error);
  body += ",\"message\":";
  krino::json::append_json_string(body, message);
  body += '}';
  return json_response(status, std::move(body));
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    const int high = i + 1 < text.size() ? hex_digit(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
    if (high < 0 || low < 0) return std::nullopt;
    const char c = static_cast<char>(high << 4 | low);
    if (c == '\0') return std::nullopt;
    out.push_back(c);
    i += 2;
  }
  return out;
}

}  // namespace krino::core::http_server
