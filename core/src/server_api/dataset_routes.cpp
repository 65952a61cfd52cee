#include "krino/core/server_api/dataset_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/common/content_digest.hpp"
#include "krino/core/store/dataset_diff.hpp"

#include <krino/event/values.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_spans.hpp>

#include <boost/beast/http/verb.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <unordered_set>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultDatasetPage = 50;
constexpr std::size_t kMaxDatasetPage = 1000;
constexpr std::size_t kMaxDatasetNameBytes = 128;
constexpr std::size_t kMaxItemIdBytes = 256;
constexpr std::size_t kMaxDescriptionBytes = 4096;
constexpr std::size_t kDatasetBodyDepth = 64;
constexpr std::size_t kDefaultDiffList = 1000;    // entries of each diff list in one answer
constexpr std::size_t kMaxDiffList = 1000000;
constexpr std::size_t kDiffReadPage = 500;        // items read from the store at a time per version

std::string_view dataset_kind_of(std::string_view token) {
  switch (token.empty() ? '\0' : token.front()) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't': case 'f': return "a boolean";
    case 'n': return "null";
    case '\0': return "missing";
    default: return "a number";
  }
}

std::string item_at(std::size_t index, std::string_view member) {
  std::string at = "items[";
  at.append(std::to_string(index)).append("]");
  if (!member.empty()) at.append(".").append(member);
  return at;
}

void append_version(std::string& out, const std::string& name, const store::DatasetVersionInfo& version) {
  out += "{\"datasetName\":";
  krino::json::append_json_string(out, name);
  append_key(out, "version");
  krino::event::append_integer(out, version.version);
  append_key(out, "description");
  append_optional_text(out, version.description);
  append_key(out, "itemCount");
  krino::event::append_integer(out, version.item_count);
  append_key(out, "createdAt");
  krino::json::append_json_string(out, version.created_at);
  out += '}';
}

void append_dataset(std::string& out, const store::DatasetSummary& dataset) {
  out += "{\"id\":";
  krino::json::append_json_string(out, dataset.id);
  append_key(out, "name");
  krino::json::append_json_string(out, dataset.name);
  append_key(out, "description");
  append_optional_text(out, dataset.description);
  append_key(out, "tenantId");
  append_optional_text(out, dataset.tenant);
  append_key(out, "createdAt");
  krino::json::append_json_string(out, dataset.created_at);
  append_key(out, "latestVersion");
  krino::event::append_optional(out, dataset.latest_version);
  append_key(out, "itemCount");
  krino::event::append_integer(out, dataset.item_count);
  out += '}';
}

void append_optional_json(std::string& out, const std::optional<std::string>& json) {
  if (json) out += *json;
  else out += "null";
}

std::string version_location(const std::string& name, std::int64_t version) {
  std::string location = "/api/v1/datasets/";
  location.append(name).append("/versions/").append(std::to_string(version));
  return location;
}

// The optional `description` member: nullopt when absent or null, or a refusal.
std::optional<Response> read_description(const std::vector<JsonMember>& members, std::optional<std::string>& description) {
  const auto value = member(members, "description");
  if (!value || *value == "null") return std::nullopt;
  if (!is_string_span(*value)) return invalid_field("description", "must be a string");
  description = krino::json::string_token_text(*value);
  if (description->size() > kMaxDescriptionBytes) return invalid_field("description", "is longer than 4096 bytes");
  return std::nullopt;
}

// The {version} of a path: a positive number, or `latest` (nullopt inside); false when neither.
bool read_version(const std::string& text, std::optional<std::int64_t>& version) {
  if (text == "latest") return true;
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end != text.data() + text.size() || number < 1) return false;
  version = number;
  return true;
}

Response no_dataset(const Request& request) { return not_found("dataset " + request.param("name")); }

Response no_version(const Request& request) {
  return not_found("version " + request.param("version") + " of dataset " + request.param("name"));
}

Response create_dataset(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  const auto name = member(*members, "name");
  if (!name || !is_string_span(*name)) return invalid_field("name", "is required and must be a string");
  const std::string text = krino::json::string_token_text(*name);
  if (!is_dataset_name(text)) return invalid_field("name", "must be 1 to 128 of the characters A-Z a-z 0-9 . _ -");
  std::optional<std::string> description;
  if (auto problem = read_description(*members, description)) return std::move(*problem);
  try {
    const store::DatasetSummary made = store.create_dataset(scope, text, description);
    std::string out;
    append_dataset(out, made);
    Response response = http_server::json_response(Status::created, std::move(out));
    response.set(boost::beast::http::field::location, "/api/v1/datasets/" + made.name);
    return response;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

Response list_datasets(store::Store& store, const store::Scope& scope) {
  std::string out = "[";
  for (const store::DatasetSummary& dataset : store.datasets(scope)) {
    if (out.size() > 1) out += ',';
    append_dataset(out, dataset);
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

Response get_dataset(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto details = store.dataset(scope, request.param("name"));
  if (!details) return no_dataset(request);
  std::string out;
  append_dataset(out, details->dataset);
  out.pop_back();
  append_key(out, "versions");
  out += '[';
  for (std::size_t i = 0; i < details->versions.size(); ++i) {
    if (i > 0) out += ',';
    append_version(out, details->dataset.name, details->versions[i]);
  }
  out += "]}";
  return http_server::json_response(Status::ok, std::move(out));
}

Response delete_dataset(store::Store& store, const Request& request, const store::Scope& scope) {
  if (!store.delete_dataset(scope, request.param("name"))) return no_dataset(request);
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

Response add_version(store::Store& store, const Request& request, const store::Scope& scope) {
  const std::string& body = request.message.body();
  const std::optional<std::vector<JsonMember>> body_members = json_object_members(body, kDatasetBodyDepth);
  if (!body_members) return invalid_field("body", "must be one JSON object (valid JSON, nested at most 64 deep)");
  if (krino::json::has_repeated_key(body)) return invalid_field("body", "has a key twice");
  const std::vector<JsonMember>& members = *body_members;
  std::optional<std::string> description;
  if (auto problem = read_description(members, description)) return std::move(*problem);
  const auto items = member(members, "items");
  if (!items || dataset_kind_of(*items) != "an array") return invalid_field("items", "is required and must be an array");
  auto read = read_dataset_items(*items);
  if (auto* problem = std::get_if<DatasetBodyProblem>(&read)) return invalid_field(problem->field, problem->message);
  try {
    const auto made = store.add_dataset_version(scope, request.param("name"), description, std::nullopt,
                                                std::get<std::vector<store::DatasetItem>>(read));
    std::string out;
    append_version(out, request.param("name"), made);
    Response response = http_server::json_response(Status::created, std::move(out));
    response.set(boost::beast::http::field::location, version_location(request.param("name"), made.version));
    return response;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

Response get_version(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<std::int64_t> number;
  if (!read_version(request.param("version"), number)) return no_version(request);
  const auto version = store.dataset_version(scope, request.param("name"), number);
  if (!version) return no_version(request);
  std::string out;
  append_version(out, request.param("name"), *version);
  return http_server::json_response(Status::ok, std::move(out));
}

void append_dataset_item(std::string& out, const store::DatasetItem& item) {
  out += "{\"id\":";
  krino::json::append_json_string(out, item.item_id);
  append_key(out, "ordinal");
  krino::event::append_integer(out, item.ordinal);
  append_key(out, "inputs");
  out += item.inputs;
  append_key(out, "expectedOutputs");
  append_optional_json(out, item.expected_outputs);
  append_key(out, "metadata");
  append_optional_json(out, item.metadata);
  out += '}';
}

Response list_items(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto page = whole_query(request, "page", 0, 0, std::size_t{1} << 40, refusal);
  if (!page) return *refusal;
  const auto size = whole_query(request, "size", kDefaultDatasetPage, 1, kMaxDatasetPage, refusal);
  if (!size) return *refusal;
  std::optional<std::int64_t> number;
  if (!read_version(request.param("version"), number)) return no_version(request);
  // `latest` is read once, so the page and its header are of one version.
  const auto version = store.dataset_version(scope, request.param("name"), number);
  if (!version) return no_version(request);
  // Ordinals are 0, 1, 2 ... so page N starts after ordinal N * size - 1: a keyset seek.
  const std::int64_t after = static_cast<std::int64_t>(*page) * static_cast<std::int64_t>(*size) - 1;
  const auto items = store.dataset_items(scope, request.param("name"), version->version, after, *size);
  if (!items) return no_version(request);
  std::string out = "{\"datasetName\":";
  krino::json::append_json_string(out, request.param("name"));
  append_key(out, "version");
  krino::event::append_integer(out, version->version);
  out += ",\"content\":[";
  for (std::size_t i = 0; i < items->items.size(); ++i) {
    if (i > 0) out += ',';
    append_dataset_item(out, items->items[i]);
  }
  out += ']';
  append_page_fields(out, *page, *size, items->total, items->items.size(),
                     static_cast<std::int64_t>((*page + 1) * *size) >= items->total);
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

// The diff's three lists as JSON arrays, each cut at `limit` entries (the counts stay whole).
class DiffLists : public store::DatasetDiffSink {
 public:
  explicit DiffLists(std::size_t limit) : limit_(limit) {}
  void added(const store::DatasetItem& item) override { append_item(added_, added_count_, item); }
  void removed(const store::DatasetItem& item) override { append_item(removed_, removed_count_, item); }
  void changed(const store::DatasetItem& before, const store::DatasetItem& after) override {
    if (changed_count_++ >= limit_) return;
    if (changed_count_ > 1) changed_ += ',';
    changed_ += "{\"id\":";
    krino::json::append_json_string(changed_, after.item_id);
    append_key(changed_, "ordinal");
    krino::event::append_integer(changed_, after.ordinal);
    append_key(changed_, "inputs");
    changed_ += after.inputs;
    append_key(changed_, "before");
    append_optional_json(changed_, before.expected_outputs);
    append_key(changed_, "after");
    append_optional_json(changed_, after.expected_outputs);
    changed_ += '}';
  }
  void append_to(std::string& out) const {
    out.append(",\"added\":[").append(added_).append("],\"removed\":[").append(removed_).append("],\"changed\":[").append(changed_).append("]");
    append_key(out, "truncated");
    out += added_count_ > limit_ || removed_count_ > limit_ || changed_count_ > limit_ ? "true" : "false";
  }

 private:
  void append_item(std::string& list, std::size_t& count, const store::DatasetItem& item) const {
    if (count++ >= limit_) return;
    if (count > 1) list += ',';
    append_dataset_item(list, item);
  }
  std::size_t limit_;
  std::string added_, removed_, changed_;
  std::size_t added_count_ = 0, removed_count_ = 0, changed_count_ = 0;
};

// GET /api/v1/datasets/{name}/diff?from=&to=[&fromDataset=][&limit=]: what version `to` changes
// against version `from` (of `fromDataset`, default the same dataset), by dataset item id.
Response diff_versions(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto limit = whole_query(request, "limit", kDefaultDiffList, 0, kMaxDiffList, refusal);
  if (!limit) return *refusal;
  const std::string to_name = request.param("name");
  const std::string from_name = request.query_value("fromDataset").value_or(to_name);
  struct Side {
    std::string name;
    std::int64_t version = 0;
  };
  std::vector<Side> sides;
  for (const auto& [name, key] : {std::pair{from_name, "from"}, std::pair{to_name, "to"}}) {
    const auto text = request.query_value(key);
    std::optional<std::int64_t> number;
    if (!text || !read_version(std::string(*text), number))
      return invalid_field(key, "is required: a version number or latest");
    const auto version = store.dataset_version(scope, name, number);
    if (!version) return not_found("version " + std::string(*text) + " of dataset " + name);
    sides.push_back(Side{name, version->version});
  }
  const auto reader = [&store, &scope](const Side& side) {
    return store::DatasetPageReader([&store, &scope, side](std::int64_t after) {
      auto page = store.dataset_items(scope, side.name, side.version, after, kDiffReadPage);
      return page ? std::move(page->items) : std::vector<store::DatasetItem>{};
    });
  };
  DiffLists lists(*limit);
  const store::DatasetDiffCounts counts = store::diff_dataset_versions(reader(sides[0]), reader(sides[1]), lists);
  std::string out = "{\"from\":";
  krino::json::append_json_string(out, sides[0].name + "@" + std::to_string(sides[0].version));
  append_key(out, "to");
  krino::json::append_json_string(out, sides[1].name + "@" + std::to_string(sides[1].version));
  append_key(out, "addedCount");
  krino::event::append_integer(out, counts.added);
  append_key(out, "removedCount");
  krino::event::append_integer(out, counts.removed);
  append_key(out, "changedCount");
  krino::event::append_integer(out, counts.changed);
  append_key(out, "inputsChanged");
  krino::event::append_integer(out, counts.inputs_changed);
  lists.append_to(out);
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

}  // namespace

bool is_dataset_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxDatasetNameBytes) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string dataset_item_id(std::string_view inputs_json) {
  const std::string canonical = boost::json::serialize(canonical_json(krino::json::parse(inputs_json)));
  return "in-" + sha256_hex(canonical).substr(0, 16);
}

std::variant<std::vector<store::DatasetItem>, DatasetBodyProblem> read_dataset_items(std::string_view items_array) {
  std::vector<store::DatasetItem> read;
  std::unordered_set<std::string> ids;
  std::optional<DatasetBodyProblem> problem;
  std::size_t index = 0;
  krino::event::for_each_element(items_array, "items", [&](std::string_view element) {
    if (problem) return;
    const std::size_t at = index++;
    if (!is_object_span(element)) {
      problem = DatasetBodyProblem{item_at(at, ""), "must be an object, not " + std::string(dataset_kind_of(element))};
      return;
    }
    if (krino::json::has_repeated_key(element)) {
      problem = DatasetBodyProblem{item_at(at, ""), "has a key twice"};
      return;
    }
    std::optional<std::string_view> id, inputs, expected, metadata;
    krino::json::for_each_member(element, [&](std::string_view key, std::string_view value) {
      if (value == "null") return true;
      if (krino::json::key_equals(key, "id")) id = value;
      else if (krino::json::key_equals(key, "inputs")) inputs = value;
      else if (krino::json::key_equals(key, "expectedOutputs")) expected = value;
      else if (krino::json::key_equals(key, "metadata")) metadata = value;
      return true;
    });
    if (!inputs || !is_object_span(*inputs)) {
      problem = DatasetBodyProblem{item_at(at, "inputs"), "is required and must be an object"};
      return;
    }
    for (auto [value, name] : {std::pair{expected, "expectedOutputs"}, std::pair{metadata, "metadata"}}) {
      if (value && !is_object_span(*value)) {
        problem = DatasetBodyProblem{item_at(at, name), "must be an object"};
        return;
      }
    }
    store::DatasetItem item;
    if (id) {
      // A number is kept as its text: JSONL files often number their examples.
      if (is_string_span(*id)) item.item_id = krino::json::string_token_text(*id);
      else if (dataset_kind_of(*id) == "a number") item.item_id = std::string(*id);
      else {
        problem = DatasetBodyProblem{item_at(at, "id"), "must be a string or a number"};
        return;
      }
      if (item.item_id.empty() || item.item_id.size() > kMaxItemIdBytes) {
        problem = DatasetBodyProblem{item_at(at, "id"), "must be 1 to 256 bytes long"};
        return;
      }
    } else {
      item.item_id = dataset_item_id(*inputs);
    }
    if (!ids.insert(item.item_id).second) {
      problem = DatasetBodyProblem{item_at(at, "id"), "\"" + item.item_id + "\" is the id of an earlier item (give each item its own id)"};
      return;
    }
    item.ordinal = static_cast<std::int64_t>(at);
    item.inputs = krino::json::compact_text(*inputs);
    if (expected) item.expected_outputs = krino::json::compact_text(*expected);
    if (metadata) item.metadata = krino::json::compact_text(*metadata);
    read.push_back(std::move(item));
  });
  if (problem) return *problem;
  return read;
}

void add_dataset_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  const std::string one = "/api/v1/datasets/{name}";
  const std::string version = one + "/versions/{version}";
  router.add(verb::post, "/api/v1/datasets", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return create_dataset(store, r, p.scope()); }));
  router.add(verb::get, "/api/v1/datasets", auth.guard(Access::read, [&store](const Request&, const Principal& p) { return list_datasets(store, p.scope()); }));
  router.add(verb::get, one + "/diff", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return diff_versions(store, r, p.scope()); }));
  router.add(verb::get, one, auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return get_dataset(store, r, p.scope()); }));
  router.add(verb::delete_, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return delete_dataset(store, r, p.scope()); }));
  router.add(verb::post, one + "/versions", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return add_version(store, r, p.scope()); }));
  router.add(verb::get, version, auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return get_version(store, r, p.scope()); }));
  router.add(verb::get, version + "/items", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_items(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
