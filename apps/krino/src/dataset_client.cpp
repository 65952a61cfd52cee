#include "dataset_client.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/net/url.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <cstdlib>

namespace krino::cli {

namespace {

std::string environment_or(const std::string& given, const char* variable) {
  if (!given.empty()) return given;
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

constexpr int kPullPageSize = 1000;
constexpr const char* kWholeDiff = "1000000";  // the server's largest list: the whole diff

std::string version_text(std::optional<std::int64_t> version) { return version ? std::to_string(*version) : std::string("latest"); }

}  // namespace

DatasetClient::DatasetClient(const std::string& server, const std::string& api_key)
    : base_(environment_or(server, "KRINO_SERVER_URL")), api_key_(environment_or(api_key, "KRINO_API_KEY")), http_(io_.context()) {
  if (base_.empty()) throw core::usage_error("krino dataset needs the server's URL: --server URL or KRINO_SERVER_URL");
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
}

core::HttpResult DatasetClient::call(const std::string& method, const std::string& path, std::string body) {
  core::HttpRequest request;
  request.method = method;
  request.url = core::parse_url(base_ + path);
  request.headers.push_back({"Accept", "application/json"});
  if (!body.empty()) request.headers.push_back({"Content-Type", "application/json"});
  if (!api_key_.empty()) request.headers.push_back({"Authorization", "Bearer " + api_key_});
  request.body = std::move(body);
  core::HttpResult result = http_.request(std::move(request), std::chrono::minutes(5));
  if (result.outcome != core::HttpOutcome::response)
    throw core::runtime_error("krino dataset: no answer from " + base_ + " to " + method + " " + path + ": " + result.error);
  return result;
}

void DatasetClient::refused(const std::string& what, const core::HttpResult& result) const {
  boost::system::error_code ec;
  const boost::json::value body = krino::json::parse(result.response.body, ec);
  std::string why = result.response.body.substr(0, 300);
  if (!ec && body.is_object())
    if (const auto* message = body.as_object().if_contains("message"); message != nullptr && message->is_string()) why = message->as_string();
  if (result.response.status == 413)
    why += " (the server's --max-body-bytes is smaller than this version: raise it, or push the file in parts as separate versions)";
  throw core::runtime_error("krino dataset: " + what + ": the server answered " + std::to_string(result.response.status) + ": " + why);
}

bool DatasetClient::create(const std::string& name, const std::optional<std::string>& description) {
  std::string body = "{\"name\":";
  krino::json::append_json_string(body, name);
  if (description) {
    body += ",\"description\":";
    krino::json::append_json_string(body, *description);
  }
  body += '}';
  const core::HttpResult result = call("POST", "/api/v1/datasets", std::move(body));
  if (result.response.status == 201) return true;
  if (result.response.status == 409) return false;
  refused("creating dataset " + name, result);
}

std::int64_t DatasetClient::add_version(const std::string& name, const std::string& body) {
  const core::HttpResult result = call("POST", "/api/v1/datasets/" + name + "/versions", body);
  if (result.response.status != 201) refused("adding a version to " + name, result);
  boost::system::error_code ec;
  const boost::json::value answer = krino::json::parse(result.response.body, ec);
  const boost::json::value* version = !ec && answer.is_object() ? answer.as_object().if_contains("version") : nullptr;
  if (version == nullptr || !version->is_int64()) throw core::runtime_error("krino dataset: the server's answer names no version: " + result.response.body.substr(0, 200));
  return version->as_int64();
}

ServerDatasetVersion DatasetClient::read(const std::string& name, std::optional<std::int64_t> version) {
  ServerDatasetVersion read;
  std::string at = version ? std::to_string(*version) : std::string("latest");
  const std::string shown = name + "@" + at;
  for (int page = 0;; ++page) {
    const std::string path =
        "/api/v1/datasets/" + name + "/versions/" + at + "/items?size=" + std::to_string(kPullPageSize) + "&page=" + std::to_string(page);
    const core::HttpResult result = call("GET", path, {});
    if (result.response.status != 200) refused("reading " + shown, result);
    boost::system::error_code ec;
    const boost::json::value answer = krino::json::parse(result.response.body, ec);
    const boost::json::object* object = !ec ? answer.if_object() : nullptr;
    const boost::json::value* content = object != nullptr ? object->if_contains("content") : nullptr;
    const boost::json::value* number = object != nullptr ? object->if_contains("version") : nullptr;
    const boost::json::value* total = object != nullptr ? object->if_contains("totalElements") : nullptr;
    if (content == nullptr || !content->is_array() || number == nullptr || !number->is_int64() || total == nullptr || !total->is_int64())
      throw core::runtime_error("krino dataset: the server's answer for " + shown + " is not a page of items");
    if (page == 0) {
      read.version = number->as_int64();
      at = std::to_string(read.version);
    }
    for (const boost::json::value& element : content->as_array()) {
      const boost::json::object* item = element.if_object();
      const boost::json::value* id = item != nullptr ? item->if_contains("id") : nullptr;
      const boost::json::value* inputs = item != nullptr ? item->if_contains("inputs") : nullptr;
      if (id == nullptr || !id->is_string() || inputs == nullptr || !inputs->is_object())
        throw core::runtime_error("krino dataset: an item of " + shown + " has no id or no inputs");
      const auto member_text = [&](const char* key) {
        const boost::json::value* value = item->if_contains(key);
        return value != nullptr ? krino::json::to_compact_json(*value) : std::string("null");
      };
      read.items.push_back(ServerDatasetItem{std::string(id->as_string()), krino::json::to_compact_json(*inputs), member_text("expectedOutputs"),
                                             member_text("metadata")});
    }
    const auto have = static_cast<std::int64_t>(read.items.size());
    if (have >= total->as_int64() || content->as_array().empty()) {
      if (have != total->as_int64())
        throw core::runtime_error("krino dataset: the server sent " + std::to_string(have) + " items of " + shown + ", which has " +
                                  std::to_string(total->as_int64()));
      return read;
    }
  }
}

std::string DatasetClient::diff(const std::string& from_name, std::optional<std::int64_t> from, const std::string& to_name,
                                std::optional<std::int64_t> to) {
  std::string path = "/api/v1/datasets/" + to_name + "/diff?from=" + version_text(from) + "&to=" + version_text(to) + "&limit=" + kWholeDiff;
  if (from_name != to_name) path.append("&fromDataset=").append(from_name);
  const core::HttpResult result = call("GET", path, {});
  if (result.response.status != 200) refused("comparing " + from_name + "@" + version_text(from) + " with " + to_name + "@" + version_text(to), result);
  return result.response.body;
}

}  // namespace krino::cli
