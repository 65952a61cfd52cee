#include "krino/core/server_api/run_routes.hpp"

#include "krino/core/common/json_scan.hpp"
#include "krino/core/server_api/item_batch.hpp"
#include "krino/core/store/evaluator_stats.hpp"
#include "krino/core/store/uuid_v7.hpp"
#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"

#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <boost/beast/http/verb.hpp>


namespace krino::core::server_api {

namespace {

using krino::event::append_optional;

constexpr std::size_t kDefaultPageSize = 50;
constexpr std::size_t kMaxPageSize = 1000;

// A run id from the path: ids are UUIDs, so anything else is a 404 without a database query.
std::optional<std::string> run_id_of(const Request& request) { return uuid_param(request, "runId"); }

Response no_run(const Request& request) {
  return not_found("run " + request.param("runId"));
}

Response create_run(store::Store& store, const Request& request, const store::Scope& scope, IngestCounters& counters) {
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  store::NewRun run;
  run.project = request.param("projectName");
  if (run.project.empty()) return invalid_field("projectName", "must not be empty");
  const auto experiment = member(*members, "experimentName");
  if (!experiment || !is_string_span(*experiment)) return invalid_field("experimentName", "is required and must be a string");
  run.experiment = krino::json::string_token_text(*experiment);
  if (run.experiment.find_first_not_of(" \t\r\n") == std::string::npos) return invalid_field("experimentName", "must not be blank");
  if (const auto metadata = member(*members, "metadata"); metadata && *metadata != "null") {
    if (!is_object_span(*metadata)) return invalid_field("metadata", "must be an object");
    run.metadata = krino::json::compact_text(*metadata);
  }
  for (auto [key, target] : {std::pair{"datasetVersion", &run.dataset_version}, std::pair{"gitBranch", &run.git_branch}}) {
    const auto value = member(*members, key);
    if (!value || *value == "null") continue;
    if (!is_string_span(*value)) return invalid_field(key, "must be a string");
    *target = krino::json::string_token_text(*value);
  }
  const store::CreatedRun created = store.create_run(scope, run);
  ++counters.runs_started;
  std::string body = "{\"runId\":";
  krino::json::append_json_string(body, created.run_id);
  append_key(body, "experimentId");
  krino::json::append_json_string(body, created.experiment_id);
  body += '}';
  Response response = http_server::json_response(Status::created, std::move(body));
  response.set(boost::beast::http::field::location, "/api/v1/runs/" + created.run_id);
  return response;
}

Response add_items(store::Store& store, const Request& request, const store::Scope& scope, IngestCounters& counters) {
  const auto run_id = run_id_of(request);
  if (!run_id) {
    ++counters.batches_refused;
    return no_run(request);
  }
  auto batch = read_item_batch(request.message.body());
  if (const auto* problem = std::get_if<BatchProblem>(&batch)) {
    ++counters.batches_refused;
    return invalid_field(problem->field, problem->message);
  }
  std::optional<std::string_view> key = request.header("Idempotency-Key");
  if (key && key->empty()) key.reset();
  try {
    const auto& items = std::get<std::vector<store::NewItem>>(batch);
    const auto outcome = store.add_items(scope, *run_id, key, items);
    if (outcome == store::IngestOutcome::already_stored) {
      ++counters.batches_repeated;
      return http_server::json_response(Status::ok, R"({"status":"ok","alreadyStored":true})");
    }
    ++counters.batches_stored;
    counters.items_stored += items.size();
    return http_server::json_response(Status::created, R"({"status":"ok"})");
  } catch (const store::StoreError& error) {
    ++counters.batches_refused;
    return store_failure(error);
  }
}

Response update_run(store::Store& store, const Request& request, const store::Scope& scope, IngestCounters& counters) {
  const auto run_id = run_id_of(request);
  if (!run_id) return no_run(request);
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  const auto status_token = member(*members, "status");
  if (!status_token || !is_string_span(*status_token)) return invalid_field("status", "is required and must be a string");
  const auto status = store::parse_status(krino::json::string_token_text(*status_token));
  // EVALUATING is the server judge's to set (POST .../judge-jobs), never a client's.
  if (!status || *status == store::RunStatus::evaluating) return invalid_field("status", "must be one of RUNNING, SUCCESS, FAILED, CANCELLED");
  try {
    store.set_run_status(scope, *run_id, *status);
    // The ended run's evaluator distributions are summed and kept by the server's background
    // worker (EndedRunIndexer), not here: seconds at a million items, which the client would wait.
    if (store::is_terminal(*status)) ++counters.runs_ended;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
  return http_server::json_response(Status::ok, R"({"status":"updated"})");
}

Response get_run(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = run_id_of(request);
  if (!run_id) return no_run(request);
  std::optional<Response> refusal;
  // Pages past 2^40 items would overflow page * size; no run is that long.
  const auto page = whole_query(request, "page", 0, 0, std::size_t{1} << 40, refusal);
  if (!page) return *refusal;
  const auto size = whole_query(request, "size", kDefaultPageSize, 1, kMaxPageSize, refusal);
  if (!size) return *refusal;
  const auto run = store.run(scope, *run_id);
  if (!run) return no_run(request);
  // Items are numbered 0, 1, 2 ... in their run, so page N starts after number N * size - 1: a
  // keyset seek, as fast on the last page of a million items as on the first.
  const std::int64_t after = static_cast<std::int64_t>(*page) * static_cast<std::int64_t>(*size) - 1;
  const store::ItemPage items = store.items(scope, *run_id, after, *size);

  std::string body = "{\"id\":";
  krino::json::append_json_string(body, run->id);
  append_key(body, "experimentId");
  krino::json::append_json_string(body, run->experiment_id);
  append_key(body, "experimentName");
  krino::json::append_json_string(body, run->experiment_name);
  append_key(body, "projectName");
  krino::json::append_json_string(body, run->project_name);
  // krino's extra: the dataset version the run used (provenance), null when it named none.
  append_key(body, "datasetVersion");
  append_optional_text(body, run->dataset_version);
  append_key(body, "status");
  krino::json::append_json_string(body, store::status_name(run->status));
  append_key(body, "config");
  body += run->metadata;
  append_key(body, "totalItems");
  krino::event::append_integer(body, run->total_items);
  append_key(body, "passedItems");
  krino::event::append_integer(body, run->passed_items);
  append_key(body, "passRate");
  append_pass_rate(body, run->passed_items, run->total_items);
  append_key(body, "startedAt");
  krino::json::append_json_string(body, run->started_at);
  append_key(body, "completedAt");
  append_optional_text(body, run->completed_at);
  append_key(body, "tokensIn");
  append_optional(body, run->tokens_in);
  append_key(body, "tokensOut");
  append_optional(body, run->tokens_out);
  append_key(body, "costUsd");
  append_optional(body, run->cost_usd);
  append_key(body, "pricedItemCount");
  krino::event::append_integer(body, run->priced_items);
  append_key(body, "tokenizedItemCount");
  krino::event::append_integer(body, run->tokenized_items);
  // krino's extra: the mean latency of the items that had one (null when none had), from the
  // run's sum and count kept at ingestion.
  append_key(body, "latencyMsMean");
  if (run->timed_items > 0 && run->latency_ms) append_finite(body, *run->latency_ms / static_cast<double>(run->timed_items));
  else body += "null";
  // krino's extra: where the ended run's text search index stands (NONE, BUILDING, READY).
  append_key(body, "textIndex");
  krino::json::append_json_string(body, store::text_index_name(run->text_index));
  // The page in the shape of a Spring Data page, which the Dokimos UI and clients read.
  body += ",\"items\":{\"content\":[";
  for (std::size_t i = 0; i < items.items.size(); ++i) {
    if (i > 0) body += ',';
    append_item(body, items.items[i]);
  }
  body += ']';
  append_page_fields(body, *page, *size, run->total_items, items.items.size(), !items.next_after.has_value());
  body += "}}";
  return http_server::json_response(Status::ok, std::move(body));
}

}  // namespace

void add_run_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, IngestCounters& counters) {
  using boost::beast::http::verb;
  router.add(verb::post, "/api/v1/projects/{projectName}/runs", auth.guard(Access::write, [&store, &counters](const Request& r, const Principal& p) { return create_run(store, r, p.scope(), counters); }));
  router.add(verb::post, "/api/v1/runs/{runId}/items", auth.guard(Access::write, [&store, &counters](const Request& r, const Principal& p) { return add_items(store, r, p.scope(), counters); }));
  router.add(verb::patch, "/api/v1/runs/{runId}", auth.guard(Access::write, [&store, &counters](const Request& r, const Principal& p) { return update_run(store, r, p.scope(), counters); }));
  router.add(verb::get, "/api/v1/runs/{runId}", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return get_run(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
