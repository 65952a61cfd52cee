#include "krino/core/host/host_http.hpp"

#include "krino/core/host/host_services.hpp"

#include <future>
#include <stdexcept>
#include <string_view>

namespace krino::core {
namespace {

constexpr std::chrono::milliseconds kDefaultHttpTimeout{30'000};

void write_to(krino_sink* sink, std::string_view text) {
  if (sink != nullptr && sink->write != nullptr) sink->write(sink, text.data(), text.size());
}

krino_status request_entry(const krino_host* host, const char* method, const char* url,
                           const krino_http_header* headers, size_t header_count, const char* body, size_t body_size,
                           uint32_t timeout_ms, int32_t* out_status, krino_sink* response_headers,
                           krino_sink* response_body, krino_sink* error) {
  // No exception may cross the boundary.
  try {
    HostHttp* http = host != nullptr ? static_cast<const HostServices*>(host->host_data)->http() : nullptr;
    if (http == nullptr) {
      write_to(error, "this host lends no HTTP client");
      return KRINO_UNAVAILABLE;
    }
    if (method == nullptr || url == nullptr) {
      write_to(error, "the request has no method or URL");
      return KRINO_INVALID_ARGUMENT;
    }
    HttpRequest request;
    request.method = method;
    request.url = parse_url(url);
    for (size_t i = 0; i < header_count; ++i)
      request.headers.push_back({std::string(headers[i].name, headers[i].name_size),
                                 std::string(headers[i].value, headers[i].value_size)});
    if (body != nullptr) request.body.assign(body, body_size);
    const HttpResult result =
        http->request(std::move(request), timeout_ms == 0 ? kDefaultHttpTimeout : std::chrono::milliseconds(timeout_ms));
    switch (result.outcome) {
      case HttpOutcome::response: {
        if (out_status != nullptr) *out_status = static_cast<int32_t>(result.response.status);
        std::string lines;
        for (const HttpHeader& header : result.response.headers) {
          lines.append(header.name).append(": ").append(header.value).append("\n");
        }
        write_to(response_headers, lines);
        write_to(response_body, result.response.body);
        return KRINO_OK;
      }
      case HttpOutcome::timeout:
        write_to(error, result.error.empty() ? std::string_view("timed out") : std::string_view(result.error));
        return KRINO_DEADLINE_EXCEEDED;
      case HttpOutcome::connection_error:
        break;
    }
    write_to(error, result.error);
    return KRINO_UNAVAILABLE;
  } catch (const std::invalid_argument& e) {
    write_to(error, e.what());
    return KRINO_INVALID_ARGUMENT;
  } catch (const std::exception& e) {
    write_to(error, e.what());
    return KRINO_INTERNAL;
  } catch (...) {
    write_to(error, "unknown error in the host's HTTP client");
    return KRINO_INTERNAL;
  }
}

}  // namespace

HostHttp::HostHttp(boost::asio::io_context& io, HttpClientOptions options) : client_(io, std::move(options)) {}

const krino_host_http* HostHttp::table() noexcept {
  static const krino_host_http table = {sizeof(krino_host_http), &request_entry};
  return &table;
}

HttpResult HostHttp::request(HttpRequest request, std::chrono::milliseconds timeout) {
  std::promise<HttpResult> done;
  std::future<HttpResult> result = done.get_future();
  client_.send(std::move(request), timeout, [&done](HttpResult r) { done.set_value(std::move(r)); });
  return result.get();
}

}  // namespace krino::core
