#include "krino/core/server_api/review_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/server_api/dataset_routes.hpp"

#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>

#include <boost/beast/http/verb.hpp>

#include <unordered_map>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultQueuePage = 50;
constexpr std::size_t kMaxQueuePage = 500;
constexpr std::size_t kMaxNoteBytes = 10000;
constexpr std::size_t kMaxPromoted = 10000;

std::string principal_of(const Principal& principal) { return principal.key_id.value_or("anonymous"); }

void append_annotation(std::string& out, const store::Annotation& annotation) {
  out += "{\"runId\":";
  krino::json::append_json_string(out, annotation.run_id);
  append_key(out, "itemResultId");
  krino::json::append_json_string(out, annotation.item_id);
  append_key(out, "verdict");
  krino::json::append_json_string(out, store::verdict_name(annotation.verdict));
  append_key(out, "overriddenExpectedOutput");
  out += annotation.overridden_expected_output.value_or("null");
  append_key(out, "note");
  append_optional_text(out, annotation.note);
  append_key(out, "principal");
  krino::json::append_json_string(out, annotation.principal);
  append_key(out, "createdAt");
  krino::json::append_json_string(out, annotation.created_at);
  append_key(out, "updatedAt");
  krino::json::append_json_string(out, annotation.updated_at);
  out += '}';
}

// A member of an item's stored document, or `null`.
std::string_view document_member(const std::string& document, std::string_view key) {
  const auto value = krino::json::find_member(document, key);
  return value ? *value : std::string_view("null");
}

Response no_item(const Request& request) {
  return not_found("item " + request.param("itemResultId") + " in run " + request.param("runId"));
}

// The run and item ids of the path, or nullopt when either is not an id.
std::optional<std::pair<std::string, std::string>> item_path(const Request& request) {
  const auto run_id = uuid_param(request, "runId");
  const auto item_id = uuid_param(request, "itemResultId");
  if (!run_id || !item_id) return std::nullopt;
  return std::pair{*run_id, *item_id};
}

Response put_annotation(store::Store& store, const Request& request, const Principal& principal) {
  const auto ids = item_path(request);
  if (!ids) return no_item(request);
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  store::NewAnnotation annotation;
  const auto verdict = member(*members, "verdict");
  const auto parsed = verdict && is_string_span(*verdict) ? store::parse_verdict(krino::json::string_token_text(*verdict)) : std::nullopt;
  if (!parsed) return invalid_field("verdict", "is required and must be CORRECT, INCORRECT or UNSURE");
  annotation.verdict = *parsed;
  if (const auto overridden = member(*members, "overriddenExpectedOutput"); overridden && *overridden != "null")
    annotation.overridden_expected_output = krino::json::compact_text(*overridden);
  if (const auto note = member(*members, "note"); note && *note != "null") {
    if (!is_string_span(*note)) return invalid_field("note", "must be a string");
    annotation.note = krino::json::string_token_text(*note);
    if (annotation.note->size() > kMaxNoteBytes) return invalid_field("note", "is longer than 10000 bytes");
  }
  const auto written = store.put_annotation(principal.scope(), ids->first, ids->second, principal_of(principal), annotation);
  if (!written) return no_item(request);
  std::string out;
  append_annotation(out, *written);
  return http_server::json_response(Status::ok, std::move(out));
}

Response get_annotation(store::Store& store, const Request& request, const Principal& principal) {
  const auto ids = item_path(request);
  const auto all = ids ? store.annotations(principal.scope(), ids->first, ids->second) : std::nullopt;
  if (!all) return no_item(request);
  for (const store::Annotation& annotation : *all) {
    if (annotation.principal != principal_of(principal)) continue;
    std::string out;
    append_annotation(out, annotation);
    return http_server::json_response(Status::ok, std::move(out));
  }
  return not_found("annotation of item " + request.param("itemResultId") + " by " + principal_of(principal));
}

Response list_annotations(store::Store& store, const Request& request, const Principal& principal) {
  const auto ids = item_path(request);
  const auto all = ids ? store.annotations(principal.scope(), ids->first, ids->second) : std::nullopt;
  if (!all) return no_item(request);
  std::string out = "[";
  for (const store::Annotation& annotation : *all) {
    if (out.size() > 1) out += ',';
    append_annotation(out, annotation);
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

Response delete_annotation(store::Store& store, const Request& request, const Principal& principal) {
  const auto ids = item_path(request);
  if (!ids || !store.delete_annotation(principal.scope(), ids->first, ids->second, principal_of(principal)))
    return not_found("annotation of item " + request.param("itemResultId") + " by " + principal_of(principal));
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

Response review_queue(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto page = whole_query(request, "page", 0, 0, std::size_t{1} << 30, refusal);
  if (!page) return *refusal;
  const auto size = whole_query(request, "size", kDefaultQueuePage, 1, kMaxQueuePage, refusal);
  if (!size) return *refusal;
  store::ReviewFilter filter;
  if (auto name = request.query_value("projectName"); name && !name->empty()) filter.project_name = std::string(*name);
  for (auto [key, target] :
       {std::pair{"experimentId", &filter.experiment_id}, std::pair{"runId", &filter.run_id}, std::pair{"after", &filter.after_item_id}}) {
    const auto text = request.query_value(key);
    if (!text || text->empty()) continue;
    const auto id = store::parse_uuid(*text);
    if (!id) return invalid_field(key, "must be an id");
    *target = store::to_text(*id);
  }
  const store::ReviewPage found = store.review_queue(scope, filter, *page * *size, *size);
  std::string out = "{\"content\":[";
  for (std::size_t i = 0; i < found.entries.size(); ++i) {
    const store::ReviewEntry& entry = found.entries[i];
    if (i > 0) out += ',';
    out += "{\"runId\":";
    krino::json::append_json_string(out, entry.run_id);
    append_key(out, "itemResultId");
    krino::json::append_json_string(out, entry.item_id);
    append_key(out, "experimentId");
    krino::json::append_json_string(out, entry.experiment_id);
    append_key(out, "projectName");
    krino::json::append_json_string(out, entry.project_name);
    append_key(out, "index");
    krino::event::append_integer(out, entry.seq);
    for (const char* key : {"datasetItemId", "inputs", "expectedOutputs", "actualOutputs", "success", "evalResults"}) {
      append_key(out, key);
      out += document_member(entry.document, key);
    }
    append_key(out, "annotations");
    out += '[';
    for (std::size_t a = 0; a < entry.annotations.size(); ++a) {
      if (a > 0) out += ',';
      append_annotation(out, entry.annotations[a]);
    }
    out += "]}";
  }
  out += ']';
  // A full page may have more after it; `nextCursor` is what to pass as `after` for the next one.
  const bool full = found.entries.size() == *size;
  const bool last = filter.after_item_id ? !full : static_cast<std::int64_t>((*page + 1) * *size) >= found.total;
  append_page_fields(out, *page, *size, found.total, found.entries.size(), last);
  append_key(out, "nextCursor");
  if (full) {
    krino::json::append_json_string(out, found.entries.back().item_id);
  } else {
    out += "null";
  }
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

// An expected output as a dataset keeps it: an object as it is, anything else as {"output": value}
// (the shape a simple example's expectedOutput takes).
std::string as_expected_outputs(std::string_view value) {
  if (is_object_span(value)) return krino::json::compact_text(value);
  std::string wrapped = "{\"output\":";
  wrapped.append(krino::json::compact_text(value)).append("}");
  return wrapped;
}

Response promote(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const std::optional<std::vector<JsonMember>> body = object_body(request, refusal);
  if (!body) return std::move(*refusal);
  const std::vector<JsonMember>& members = *body;
  const auto name_token = member(members, "datasetName");
  if (!name_token || !is_string_span(*name_token)) return invalid_field("datasetName", "is required and must be a string");
  const std::string name = krino::json::string_token_text(*name_token);
  std::optional<std::string> description;
  if (const auto text = member(members, "description"); text && *text != "null") {
    if (!is_string_span(*text)) return invalid_field("description", "must be a string");
    description = krino::json::string_token_text(*text);
  }
  const auto items = member(members, "items");
  if (!items || items->empty() || items->front() != '[') return invalid_field("items", "is required and must be an array");
  std::vector<store::DatasetItem> promoted;
  std::unordered_map<std::string, std::size_t> by_id;  // a second promotion of one dataset item replaces the first
  std::optional<Response> problem;
  std::size_t index = 0;
  krino::event::for_each_element(*items, "items", [&](std::string_view element) {
    if (problem) return;
    const std::string at = "items[" + std::to_string(index++) + "]";
    if (!is_object_span(element)) {
      problem = invalid_field(at, "must be an object");
      return;
    }
    const auto item_token = krino::json::find_member(element, "itemResultId");
    const auto item_uuid = item_token && is_string_span(*item_token) ? store::parse_uuid(krino::json::string_token_text(*item_token)) : std::nullopt;
    if (!item_uuid) {
      problem = invalid_field(at + ".itemResultId", "is required and must be an item's id");
      return;
    }
    const auto item = store.item_for_promotion(scope, store::to_text(*item_uuid));
    if (!item) {
      problem = not_found("item " + store::to_text(*item_uuid));
      return;
    }
    store::DatasetItem made;
    const std::string_view inputs = document_member(item->document, "inputs");
    made.inputs = is_object_span(inputs) ? krino::json::compact_text(inputs) : std::string("{}");
    made.item_id = item->dataset_item_id.value_or(dataset_item_id(made.inputs));
    // The request's correction first, then the latest reviewer's, then the run's own.
    const auto overridden = krino::json::find_member(element, "overriddenExpectedOutput");
    if (overridden && *overridden != "null") made.expected_outputs = as_expected_outputs(*overridden);
    else if (item->overridden_expected_output) made.expected_outputs = as_expected_outputs(*item->overridden_expected_output);
    else if (const std::string_view expected = document_member(item->document, "expectedOutputs"); is_object_span(expected))
      made.expected_outputs = krino::json::compact_text(expected);
    if (const std::string_view metadata = document_member(item->document, "metadata"); is_object_span(metadata))
      made.metadata = krino::json::compact_text(metadata);
    const auto [found, fresh] = by_id.emplace(made.item_id, promoted.size());
    if (fresh) promoted.push_back(std::move(made));
    else promoted[found->second] = std::move(made);
  });
  if (problem) return std::move(*problem);
  if (promoted.empty()) return invalid_field("items", "must not be empty");
  if (promoted.size() > kMaxPromoted) return invalid_field("items", "holds more than 10000 items");
  try {
    // Base 0: the dataset's newest version when the new one is written; promotion never creates a dataset.
    const store::DatasetVersionInfo made = store.add_dataset_version(scope, name, description, 0, promoted);
    std::string out = "{\"datasetName\":";
    krino::json::append_json_string(out, name);
    append_key(out, "version");
    krino::event::append_integer(out, made.version);
    append_key(out, "description");
    append_optional_text(out, made.description);
    append_key(out, "itemCount");
    krino::event::append_integer(out, made.item_count);
    append_key(out, "createdAt");
    krino::json::append_json_string(out, made.created_at);
    out += '}';
    Response response = http_server::json_response(Status::created, std::move(out));
    response.set(boost::beast::http::field::location, "/api/v1/datasets/" + name + "/versions/" + std::to_string(made.version));
    return response;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

}  // namespace

void add_review_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  const std::string item = "/api/v1/runs/{runId}/items/{itemResultId}";
  router.add(verb::get, "/api/v1/review-queue", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return review_queue(store, r, p.scope()); }));
  router.add(verb::put, item + "/annotation", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return put_annotation(store, r, p); }));
  router.add(verb::get, item + "/annotation", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return get_annotation(store, r, p); }));
  router.add(verb::delete_, item + "/annotation", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return delete_annotation(store, r, p); }));
  router.add(verb::get, item + "/annotations", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_annotations(store, r, p); }));
  router.add(verb::post, "/api/v1/datasets/promote", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return promote(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
