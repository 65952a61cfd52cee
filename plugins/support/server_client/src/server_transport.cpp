#include <krino/support/server_transport.hpp>

#include <krino/plugin.hpp>

#include <cctype>

namespace krino::server {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> HttpReply::header(std::string_view name) const {
  std::string_view rest = headers;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !same_name(line.substr(0, colon), name)) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
    return std::string(value);
  }
  return std::nullopt;
}

HostTransport::HostTransport(const krino_host* host)
    : host_(host),
      http_(host != nullptr && host->get_extension != nullptr
                ? static_cast<const krino_host_http*>(host->get_extension(host, KRINO_HOST_HTTP_EXTENSION_ID))
                : nullptr) {
  if (http_ == nullptr || http_->struct_size < sizeof(krino_host_http) || http_->request == nullptr)
    throw krino::Error(KRINO_UNAVAILABLE, "this krino lends plugins no HTTP client (krino.host.http/1)");
}

HttpReply HostTransport::send(std::string_view method, const std::string& url, const HeaderList& headers,
                              std::string_view body, uint32_t timeout_ms) {
  std::vector<krino_http_header> wire;
  wire.reserve(headers.size());
  for (const auto& [name, value] : headers) wire.push_back({name.data(), name.size(), value.data(), value.size()});
  const std::string method_text(method);
  krino::detail::StringSink response_headers;
  krino::detail::StringSink response_body;
  krino::detail::StringSink error;
  int32_t status = 0;
  HttpReply reply;
  reply.transport = http_->request(host_, method_text.c_str(), url.c_str(), wire.data(), wire.size(), body.data(),
                                   body.size(), timeout_ms, &status, &response_headers.sink, &response_body.sink,
                                   &error.sink);
  reply.status = status;
  reply.headers = std::move(response_headers.text);
  reply.body = std::move(response_body.text);
  reply.error = std::move(error.text);
  return reply;
}

}  // namespace krino::server
