#pragma once
// One request as a handler of the results server sees it, and the responses handlers give back.
// Bodies are JSON; every error is `{"error": ..., "message": ...}` with its status code, so a client
// can branch on `error` and show `message`.
#include "krino/core/http_server/response_stream.hpp"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::http_server {

using BeastRequest = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;
using Status = boost::beast::http::status;

struct Request {
  const BeastRequest& message;
  std::string path;                                // percent-decoded, without the query
  std::map<std::string, std::string> query;        // ?page=2&size=50, percent-decoded; the last of a repeated name
  std::map<std::string, std::string> path_params;  // {runId} in the route's pattern -> its segment

  std::optional<std::string_view> header(std::string_view name) const;
  // A path parameter the route declared (so it is always there).
  const std::string& param(const std::string& name) const { return path_params.at(name); }
  std::optional<std::string> query_value(const std::string& name) const;

  // Answers this request with a body written later (response_stream.hpp): the handler returns the
  // head (its body is ignored; the connection sends it chunked) and feeds the returned stream.
  std::shared_ptr<ResponseStream> stream_response() const;
  // Set by stream_response(); the connection reads it after the handler returns.
  mutable std::shared_ptr<ResponseStream> streamed{};  // (a default, so aggregate initialisers may leave it out)
};

Response json_response(Status status, std::string body);
// `error` is a short machine-readable code ("not_found", "invalid_body"), `message` says what to do.
Response error_response(Status status, std::string_view error, std::string_view message);

// "/a%20b" -> "/a b"; nullopt for a broken escape or an escaped NUL.
std::optional<std::string> percent_decode(std::string_view text);

}  // namespace krino::core::http_server
