#include "dataset_fetch.hpp"

#include <krino/event/values.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

namespace krino::server_datasets {

namespace {

std::string items_path(const std::string& name, const std::string& version, int page) {
  std::string path = "/api/v1/datasets/";
  path.append(krino::server::encode_path_segment(name)).append("/versions/").append(version);
  path.append("/items?size=").append(std::to_string(kFetchPageSize)).append("&page=").append(std::to_string(page));
  return path;
}

bool is_object_token(const std::optional<std::string_view>& token) { return token && !token->empty() && token->front() == '{'; }
bool is_absent(const std::optional<std::string_view>& token) { return !token || *token == "null"; }

}  // namespace

std::optional<std::string> read_items_page(std::string_view body, std::vector<std::string>& examples, std::int64_t& version,
                                           std::int64_t& total) {
  // Parsed in full first: the span readers below trust their input, and a server's body is not ours.
  boost::json::error_code ec;
  const boost::json::value page = krino::json::parse(body, ec);
  if (ec || !page.is_object()) return "the answer is not a JSON object";
  const boost::json::object& object = page.as_object();
  const auto* number = object.if_contains("version");
  const auto* elements = object.if_contains("totalElements");
  const auto* content = object.if_contains("content");
  if (number == nullptr || !number->is_int64() || elements == nullptr || !elements->is_int64() || content == nullptr || !content->is_array())
    return "the answer is not a page of dataset items (version, totalElements and content expected)";
  version = number->as_int64();
  total = elements->as_int64();
  const std::string_view content_text = *krino::json::find_member(body, "content");
  std::optional<std::string> problem;
  std::size_t index = 0;
  krino::event::for_each_element(content_text, "content", [&](std::string_view item) {
    if (problem) return;
    const std::size_t at = index++;
    const auto id = krino::json::find_member(item, "id");
    const auto inputs = krino::json::find_member(item, "inputs");
    const auto expected = krino::json::find_member(item, "expectedOutputs");
    const auto metadata = krino::json::find_member(item, "metadata");
    const bool well_formed = item.front() == '{' && id && !id->empty() && id->front() == '"' && *id != "\"\"" && is_object_token(inputs) &&
                             (is_absent(expected) || is_object_token(expected)) && (is_absent(metadata) || is_object_token(metadata));
    if (!well_formed) {
      problem = "item " + std::to_string(at) + " of the page is not {id, inputs, expectedOutputs?, metadata?}";
      return;
    }
    std::string example = "{\"id\":";
    example.append(*id).append(",\"datasetItemId\":").append(*id);
    example.append(",\"inputs\":").append(krino::json::compact_text(*inputs));
    example.append(",\"expectedOutputs\":").append(is_absent(expected) ? std::string("{}") : krino::json::compact_text(*expected));
    example.append(",\"metadata\":").append(is_absent(metadata) ? std::string("{}") : krino::json::compact_text(*metadata));
    example += '}';
    examples.push_back(std::move(example));
  });
  return problem;
}

FetchedVersion fetch_version(krino::server::ServerClient& client, const DatasetRef& ref) {
  FetchedVersion fetched;
  std::string version_text = ref.version ? std::to_string(*ref.version) : std::string("latest");
  for (int page = 0;; ++page) {
    const krino::server::CallOutcome outcome = client.get(items_path(ref.name, version_text, page));
    if (!outcome.delivered()) {
      fetched.kind = outcome.kind == krino::server::CallOutcome::Kind::unreachable ? FetchedVersion::Kind::unreachable
                                                                                     : FetchedVersion::Kind::refused;
      fetched.message = outcome.message;
      if (outcome.status == 404) fetched.message = "the server has no dataset version " + ref.text() + " (HTTP 404)";
      return fetched;
    }
    std::int64_t version = 0;
    std::int64_t total = 0;
    const std::size_t before = fetched.examples.size();
    if (auto problem = read_items_page(outcome.body, fetched.examples, version, total)) {
      fetched.kind = FetchedVersion::Kind::refused;
      fetched.message = "the server's answer for " + ref.text() + " page " + std::to_string(page) + ": " + *problem;
      return fetched;
    }
    if (page == 0) {
      fetched.version = version;
      version_text = std::to_string(version);
    }
    const auto have = static_cast<std::int64_t>(fetched.examples.size());
    if (have >= total || fetched.examples.size() == before) {
      if (have != total) {
        fetched.kind = FetchedVersion::Kind::refused;
        fetched.message = "the server sent " + std::to_string(have) + " items of " + ref.text() + ", which has " + std::to_string(total);
      }
      return fetched;
    }
  }
}

}  // namespace krino::server_datasets
