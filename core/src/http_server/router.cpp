#include "krino/core/http_server/router.hpp"

#include <set>

namespace krino::core::http_server {

namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start < path.size()) {
    if (path[start] == '/') {
      ++start;
      continue;
    }
    const std::size_t end = path.find('/', start);
    segments.push_back(path.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return segments;
}

bool is_parameter(std::string_view segment) { return segment.size() > 2 && segment.front() == '{' && segment.back() == '}'; }

}  // namespace

void Router::add(boost::beast::http::verb method, std::string_view pattern, Handler handler) {
  Route route{method, {}, std::move(handler)};
  for (std::string_view segment : split_path(pattern)) route.segments.emplace_back(segment);
  routes_.push_back(std::move(route));
}

bool Router::matches(const Route& route, const std::vector<std::string_view>& segments, std::map<std::string, std::string>& params) {
  if (route.segments.size() != segments.size()) return false;
  std::map<std::string, std::string> found;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& expected = route.segments[i];
    if (is_parameter(expected)) {
      found.emplace(expected.substr(1, expected.size() - 2), std::string(segments[i]));
    } else if (expected != segments[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

Response Router::dispatch(Request& request) const {
  const std::vector<std::string_view> segments = split_path(request.path);
  std::set<std::string> allowed;
  for (const Route& route : routes_) {
    std::map<std::string, std::string> params;
    if (!matches(route, segments, params)) continue;
    if (route.method == request.message.method()) {
      request.path_params = std::move(params);
      return route.handler(request);
    }
    allowed.insert(std::string(boost::beast::http::to_string(route.method)));
  }
  if (allowed.empty() && fallback_) return fallback_(request);
  if (allowed.empty()) return error_response(Status::not_found, "not_found", "no such path: " + request.path);
  std::string allow;
  for (const std::string& method : allowed) allow.append(allow.empty() ? "" : ", ").append(method);
  Response response = error_response(Status::method_not_allowed, "method_not_allowed",
                                     std::string(boost::beast::http::to_string(request.message.method())) + " is not allowed on " +
                                         request.path + "; allowed: " + allow);
  response.set(boost::beast::http::field::allow, allow);
  return response;
}

}  // namespace krino::core::http_server
