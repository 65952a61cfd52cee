#pragma once
// Which handler answers a request: routes are a method and a path pattern whose `{name}` segments
// match one path segment each ("/api/v1/runs/{runId}/items"). A path no route knows is 404; a path
// known for other methods is 405 with an Allow header, as HTTP asks.
#include "krino/core/http_server/http_exchange.hpp"

#include <boost/beast/http/verb.hpp>

#include <functional>
#include <string>
#include <vector>

namespace krino::core::http_server {

using Handler = std::function<Response(const Request&)>;

class Router {
 public:
  void add(boost::beast::http::verb method, std::string_view pattern, Handler handler);

  // Answers the requests whose path no route knows (instead of a 404): the web UI's pages, whose
  // paths are the browser's (/runs/<id>) and so cannot all be listed as routes.
  void set_fallback(Handler handler) { fallback_ = std::move(handler); }

  // Fills request.path_params and calls the handler, or the fallback, or answers 404 / 405 itself.
  Response dispatch(Request& request) const;

 private:
  struct Route {
    boost::beast::http::verb method;
    std::vector<std::string> segments;  // "{runId}" kept with its braces
    Handler handler;
  };
  static bool matches(const Route& route, const std::vector<std::string_view>& segments,
                      std::map<std::string, std::string>& params);

  std::vector<Route> routes_;
  Handler fallback_;
};

}  // namespace krino::core::http_server
