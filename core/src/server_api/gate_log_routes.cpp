#include "krino/core/server_api/gate_log_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"

#include <boost/beast/http/verb.hpp>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultGateLimit = 20;
constexpr std::size_t kMaxGateLimit = 1000;

Response gate_log(store::Store& store, const Request& request, const store::Scope& scope, bool of_experiment) {
  store::GateQuery query;
  if (of_experiment) {
    const auto id = uuid_param(request, "experimentId");
    if (!id || !store.experiment(scope, *id)) return not_found("experiment " + request.param("experimentId"));
    query.experiment_id = *id;
  }
  if (auto status = request.query_value("status")) {
    if (*status != "PASS" && *status != "FAIL" && *status != "NO_BASELINE" && *status != "INCONCLUSIVE")
      return invalid_field("status", "must be one of PASS, FAIL, NO_BASELINE, INCONCLUSIVE");
    query.status = std::move(*status);
  }
  std::optional<Response> refusal;
  const auto limit = whole_query(request, "limit", kDefaultGateLimit, 1, kMaxGateLimit, refusal);
  if (!limit) return *refusal;
  query.limit = *limit;
  std::string body = "{\"gates\":[";
  bool first = true;
  for (const store::GateRecord& gate : store.gates(scope, query)) {
    if (!first) body += ',';
    first = false;
    body += "{\"id\":";
    krino::json::append_json_string(body, gate.id);
    append_key(body, "experimentId");
    krino::json::append_json_string(body, gate.experiment_id);
    append_key(body, "experimentName");
    krino::json::append_json_string(body, gate.experiment_name);
    append_key(body, "projectName");
    krino::json::append_json_string(body, gate.project_name);
    append_key(body, "candidateRunId");
    krino::json::append_json_string(body, gate.candidate_run_id);
    append_key(body, "baselineRunId");
    append_optional_text(body, gate.baseline_run_id);
    append_key(body, "status");
    krino::json::append_json_string(body, gate.status);
    append_key(body, "passRateDelta");
    krino::event::append_optional(body, gate.pass_rate_delta);
    append_key(body, "createdAt");
    krino::json::append_json_string(body, gate.created_at);
    body += '}';
  }
  body += "]}";
  return http_server::json_response(Status::ok, std::move(body));
}

}  // namespace

void add_gate_log_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  router.add(verb::get, "/api/v1/gates", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return gate_log(store, r, p.scope(), false); }));
  router.add(verb::get, "/api/v1/experiments/{experimentId}/gates", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return gate_log(store, r, p.scope(), true); }));
}

}  // namespace krino::core::server_api
