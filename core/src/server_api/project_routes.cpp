#include "krino/core/server_api/project_routes.hpp"

#include "krino/core/store/evaluator_stats.hpp"
#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/statistics/intervals.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <boost/beast/http/verb.hpp>

#include <algorithm>

namespace krino::core::server_api {

namespace {


constexpr std::size_t kDefaultRunLimit = 100;
constexpr std::size_t kDefaultTrendLimit = 20;
constexpr std::size_t kMaxLimit = 1000;


Response list_projects(store::Store& store, const store::Scope& scope) {
  std::string body = "[";
  for (const store::ProjectSummary& project : store.projects(scope)) {
    if (body.size() > 1) body += ',';
    body += "{\"id\":";
    krino::json::append_json_string(body, project.id);
    append_key(body, "name");
    krino::json::append_json_string(body, project.name);
    append_key(body, "tenantId");
    append_optional_text(body, project.tenant);
    append_key(body, "experimentCount");
    krino::event::append_integer(body, project.experiment_count);
    append_key(body, "createdAt");
    krino::json::append_json_string(body, project.created_at);
    append_key(body, "latestActivity");
    append_optional_text(body, project.latest_activity);
    body += '}';
  }
  body += ']';
  return http_server::json_response(Status::ok, std::move(body));
}

Response list_experiments(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto experiments = store.experiments(scope, request.param("projectName"));
  if (!experiments) return not_found("project " + request.param("projectName"));
  std::string body = "[";
  for (const store::ExperimentSummary& experiment : *experiments) {
    if (body.size() > 1) body += ',';
    body += "{\"id\":";
    krino::json::append_json_string(body, experiment.id);
    append_key(body, "name");
    krino::json::append_json_string(body, experiment.name);
    append_key(body, "createdAt");
    krino::json::append_json_string(body, experiment.created_at);
    append_key(body, "latestRun");
    if (const auto& run = experiment.latest_run) {
      body += "{\"runId\":";
      krino::json::append_json_string(body, run->id);
      append_key(body, "status");
      krino::json::append_json_string(body, store::status_name(run->status));
      append_key(body, "passRate");
      append_pass_rate(body, run->passed_count, run->item_count);
      append_key(body, "startedAt");
      krino::json::append_json_string(body, run->started_at);
      append_run_costs(body, *run);
      body += '}';
    } else {
      body += "null";
    }
    append_key(body, "bestPassRate");
    krino::event::append_optional(body, experiment.best_pass_rate);
    body += '}';
  }
  body += ']';
  return http_server::json_response(Status::ok, std::move(body));
}

Response list_runs(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto limit = whole_query(request, "limit", kDefaultRunLimit, 1, kMaxLimit, refusal);
  if (!limit) return *refusal;
  const auto id = uuid_param(request, "experimentId");
  if (!id || !store.experiment(scope, *id)) return not_found("experiment " + request.param("experimentId"));
  std::string body = "[";
  for (const store::RunSummary& run : store.runs(scope, *id, *limit)) {
    if (body.size() > 1) body += ',';
    append_run_summary(body, run);
  }
  body += ']';
  return http_server::json_response(Status::ok, std::move(body));
}

// Each evaluator's mean score with its interval: [{name, mean, ci, count}] (mean and ci null for
// an evaluator that gave no scores; count is its scored verdicts).
void append_evaluator_means(std::string& out, const std::vector<store::EvaluatorStats>& evaluators) {
  out += '[';
  for (std::size_t i = 0; i < evaluators.size(); ++i) {
    const store::EvaluatorStats& e = evaluators[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    krino::json::append_json_string(out, e.name);
    append_key(out, "mean");
    if (e.scored > 0) append_finite(out, e.score_sum / static_cast<double>(e.scored));
    else out += "null";
    append_key(out, "ci");
    if (e.scored > 0) append_interval(out, mean_interval(e.scored, e.score_sum, e.score_sum_squares));
    else out += "null";
    append_key(out, "count");
    krino::event::append_integer(out, e.scored);
    out += '}';
  }
  out += ']';
}

// The newest `limit` runs, oldest first: what a chart of the pass rate over time draws.
Response trends(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto limit = whole_query(request, "limit", kDefaultTrendLimit, 1, kMaxLimit, refusal);
  if (!limit) return *refusal;
  const auto id = uuid_param(request, "experimentId");
  const auto experiment = id ? store.experiment(scope, *id) : std::nullopt;
  if (!experiment) return not_found("experiment " + request.param("experimentId"));
  std::vector<store::RunSummary> runs = store.runs(scope, *id, *limit);
  std::reverse(runs.begin(), runs.end());
  std::string body = "{\"experimentName\":";
  krino::json::append_json_string(body, experiment->name);
  append_key(body, "projectName");
  krino::json::append_json_string(body, experiment->project_name);
  append_key(body, "bestPassRate");
  krino::event::append_optional(body, experiment->best_pass_rate);
  body += ",\"runs\":[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0) body += ',';
    body += "{\"runId\":";
    krino::json::append_json_string(body, runs[i].id);
    append_key(body, "startedAt");
    krino::json::append_json_string(body, runs[i].started_at);
    append_key(body, "passRate");
    append_pass_rate(body, runs[i].passed_count, runs[i].item_count);
    append_key(body, "totalItems");
    krino::event::append_integer(body, runs[i].item_count);
    append_key(body, "passedItems");
    krino::event::append_integer(body, runs[i].passed_count);
    append_key(body, "passRateCi");
    if (runs[i].item_count > 0) append_interval(body, wilson_interval(runs[i].passed_count, runs[i].item_count));
    else body += "null";
    append_run_costs(body, runs[i]);
    append_key(body, "evaluators");
    append_evaluator_means(body, store::evaluator_stats(store, scope, runs[i].id).value_or(std::vector<store::EvaluatorStats>{}));
    body += '}';
  }
  body += "]}";
  return http_server::json_response(Status::ok, std::move(body));
}

Response deleted(bool found, const std::string& what) {
  if (!found) return not_found(what);
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

}  // namespace

void add_project_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  router.add(verb::get, "/api/v1/projects", auth.guard(Access::read, [&store](const Request&, const Principal& p) { return list_projects(store, p.scope()); }));
  router.add(verb::get, "/api/v1/projects/{projectName}/experiments", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_experiments(store, r, p.scope()); }));
  router.add(verb::get, "/api/v1/experiments/{experimentId}/runs", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_runs(store, r, p.scope()); }));
  router.add(verb::get, "/api/v1/experiments/{experimentId}/trends", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return trends(store, r, p.scope()); }));
  router.add(verb::delete_, "/api/v1/runs/{runId}", auth.guard(Access::write, [&store](const Request& r, const Principal& p) {
    const auto id = uuid_param(r, "runId");
    return deleted(id && store.delete_run(p.scope(), *id), "run " + r.param("runId"));
  }));
  router.add(verb::delete_, "/api/v1/experiments/{experimentId}", auth.guard(Access::write, [&store](const Request& r, const Principal& p) {
    const auto id = uuid_param(r, "experimentId");
    return deleted(id && store.delete_experiment(p.scope(), *id), "experiment " + r.param("experimentId"));
  }));
  router.add(verb::delete_, "/api/v1/projects/{projectName}", auth.guard(Access::write, [&store](const Request& r, const Principal& p) {
    return deleted(store.delete_project(p.scope(), r.param("projectName")), "project " + r.param("projectName"));
  }));
}

}  // namespace krino::core::server_api
