#include "krino/core/server_api/judge_routes.hpp"

#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/server_api/judge_evaluator.hpp"
#include "krino/core/statistics/agreement.hpp"

#include <krino/json_parse.hpp>

#include <boost/beast/http/verb.hpp>
#include <boost/json.hpp>

#include <map>
#include <set>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultResultsPage = 100;
constexpr std::size_t kMaxResultsPage = 1000;

boost::json::object judge_job_object(const store::JudgeJob& job) {
  boost::json::object out;
  out["id"] = job.id;
  out["runId"] = job.run_id;
  out["connectionId"] = job.connection_id;
  out["evaluatorName"] = job.evaluator_name;
  boost::json::error_code ec;
  out["settings"] = krino::json::parse(job.config, ec);
  out["status"] = job.status;
  out["previousRunStatus"] = job.previous_status;
  out["itemsTotal"] = job.items_total;
  out["itemsScored"] = job.items_scored;
  out["itemsFailed"] = job.items_failed;
  out["pagesTotal"] = job.pages_total;
  out["pagesDone"] = job.pages_done;
  out["createdAt"] = job.created_at;
  if (job.finished_at) out["finishedAt"] = *job.finished_at;
  else out["finishedAt"] = nullptr;
  return out;
}

Response no_run(const Request& request) { return not_found("run " + request.param("runId")); }

Response start_judge_job(store::Store& store, const Request& request, const store::Scope& scope, const JudgeRouteOptions& options) {
  const auto run_id = uuid_param(request, "runId");
  if (!run_id) return no_run(request);
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  const auto connection = member(*members, "connectionId");
  const auto connection_id = connection && is_string_span(*connection) ? store::parse_uuid(krino::json::string_token_text(*connection)) : std::nullopt;
  if (!connection_id) return invalid_field("connectionId", "is required and must be an LLM connection's id (a UUID)");
  auto evaluator = read_judge_evaluator(request.message.body());
  if (auto* problem = std::get_if<std::string>(&evaluator)) return http_server::error_response(Status::bad_request, "invalid_request", *problem);
  const JudgeEvaluator& settings = std::get<JudgeEvaluator>(evaluator);
  store::NewJudgeJob job;
  job.connection_id = store::to_text(*connection_id);
  job.evaluator_name = settings.name;
  job.config = judge_evaluator_json(settings);
  job.page_size = options.page_size;
  job.max_attempts = options.max_attempts;
  try {
    const store::JudgeJob made = store.create_judge_job(scope, *run_id, job);
    if (options.enqueued) options.enqueued();
    Response response = http_server::json_response(Status::created, boost::json::serialize(judge_job_object(made)));
    response.set(boost::beast::http::field::location, "/api/v1/runs/" + *run_id + "/judge-jobs/" + made.id);
    return response;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

Response list_judge_jobs(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = uuid_param(request, "runId");
  if (!run_id) return no_run(request);
  const auto jobs = store.judge_jobs(scope, *run_id);
  if (!jobs) return no_run(request);
  boost::json::array out;
  for (const store::JudgeJob& job : *jobs) out.push_back(judge_job_object(job));
  return http_server::json_response(Status::ok, boost::json::serialize(out));
}

Response judge_job_results(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = uuid_param(request, "runId");
  const auto job_id = uuid_param(request, "jobId");
  if (!run_id || !job_id) return not_found("judge job " + request.param("jobId") + " of run " + request.param("runId"));
  std::optional<Response> refusal;
  const auto size = whole_query(request, "size", kDefaultResultsPage, 1, kMaxResultsPage, refusal);
  if (!size) return *refusal;
  std::int64_t after = -1;
  if (const auto text = request.query_value("after")) {
    const auto value = whole_query(request, "after", 0, 0, std::size_t{1} << 40, refusal);
    if (!value) return *refusal;
    after = static_cast<std::int64_t>(*value);
  }
  const auto results = store.judge_job_results(scope, *run_id, *job_id, after, *size);
  if (!results) return not_found("judge job " + *job_id + " of run " + *run_id);
  boost::json::array content;
  for (const store::JudgeVerdict& verdict : *results) {
    boost::json::object one;
    one["itemResultId"] = verdict.item_id;
    one["index"] = verdict.seq;
    if (verdict.score) one["score"] = *verdict.score;
    else one["score"] = nullptr;
    one["success"] = verdict.success;
    if (verdict.reason) one["reason"] = *verdict.reason;
    else one["reason"] = nullptr;
    if (verdict.error) one["error"] = *verdict.error;
    else one["error"] = nullptr;
    content.push_back(std::move(one));
  }
  boost::json::object out;
  const bool full = content.size() == *size;
  if (full && !results->empty()) out["nextAfter"] = results->back().seq;
  else out["nextAfter"] = nullptr;
  out["content"] = std::move(content);
  return http_server::json_response(Status::ok, boost::json::serialize(out));
}

boost::json::object figures_object(const BinaryConfusion& confusion, std::string_view yes_yes, std::string_view yes_no, std::string_view no_yes,
                                   std::string_view no_no) {
  const AgreementFigures figures = agreement_figures(confusion);
  boost::json::object out;
  out["items"] = figures.items;
  out["agreements"] = figures.agreements;
  if (figures.rate) out["agreementRate"] = *figures.rate;
  else out["agreementRate"] = nullptr;
  if (figures.kappa) out["cohensKappa"] = *figures.kappa;
  else out["cohensKappa"] = nullptr;
  if (figures.note.empty()) out["kappaNote"] = nullptr;
  else out["kappaNote"] = figures.note;
  boost::json::object matrix;
  matrix[yes_yes] = confusion.both_yes;
  matrix[yes_no] = confusion.a_yes_b_no;
  matrix[no_yes] = confusion.a_no_b_yes;
  matrix[no_no] = confusion.both_no;
  out["confusion"] = std::move(matrix);
  return out;
}

Response agreement(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = uuid_param(request, "runId");
  if (!run_id) return no_run(request);
  const auto input = store.agreement_input(scope, *run_id);
  if (!input) return no_run(request);
  return http_server::json_response(Status::ok, agreement_json(*run_id, *input));
}

}  // namespace

std::string agreement_json(const std::string& run_id, const store::AgreementInput& input) {
  // The human label of an item: its most recent annotation (as the review queue reads it); an item
  // whose most recent one is UNSURE is left out. Reviewer pairs compare each one's own verdict.
  std::map<std::string, const store::ItemAnnotation*> latest;
  std::map<std::string, std::map<std::string, bool>> by_principal;  // principal -> item -> CORRECT?
  std::int64_t unsure = 0;
  for (const store::ItemAnnotation& annotation : input.annotations) {
    auto& slot = latest[annotation.item_id];
    if (slot == nullptr || annotation.revision > slot->revision) slot = &annotation;
    if (annotation.verdict != "UNSURE") by_principal[annotation.principal][annotation.item_id] = annotation.verdict == "CORRECT";
  }
  for (const auto& [item, annotation] : latest)
    if (annotation->verdict == "UNSURE") ++unsure;

  std::vector<std::string> order;  // evaluators in the order their verdicts come
  std::map<std::string, BinaryConfusion> judge_human;
  for (const store::ItemVerdict& verdict : input.verdicts) {
    const auto found = latest.find(verdict.item_id);
    if (found == latest.end() || found->second->verdict == "UNSURE") continue;
    if (!judge_human.count(verdict.evaluator)) order.push_back(verdict.evaluator);
    judge_human[verdict.evaluator].add(verdict.success, found->second->verdict == "CORRECT");
  }
  boost::json::array evaluators;
  for (const std::string& name : order) {
    boost::json::object one = figures_object(judge_human[name], "judgePassHumanCorrect", "judgePassHumanIncorrect", "judgeFailHumanCorrect",
                                             "judgeFailHumanIncorrect");
    one.emplace("evaluatorName", name);
    evaluators.push_back(std::move(one));
  }
  boost::json::array reviewers;
  for (auto a = by_principal.begin(); a != by_principal.end(); ++a) {
    for (auto b = std::next(a); b != by_principal.end(); ++b) {
      BinaryConfusion pair;
      for (const auto& [item, a_correct] : a->second)
        if (const auto other = b->second.find(item); other != b->second.end()) pair.add(a_correct, other->second);
      boost::json::object one = figures_object(pair, "bothCorrect", "firstCorrectSecondIncorrect", "firstIncorrectSecondCorrect", "bothIncorrect");
      one.emplace("principals", boost::json::array{boost::json::string(a->first), boost::json::string(b->first)});
      reviewers.push_back(std::move(one));
    }
  }
  boost::json::object out;
  out["runId"] = run_id;
  out["annotatedItems"] = static_cast<std::int64_t>(latest.size());
  out["unsureItems"] = unsure;
  out["evaluators"] = std::move(evaluators);
  out["reviewers"] = std::move(reviewers);
  return boost::json::serialize(out);
}

void add_judge_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, JudgeRouteOptions options) {
  using boost::beast::http::verb;
  const std::string jobs = "/api/v1/runs/{runId}/judge-jobs";
  auto shared = std::make_shared<JudgeRouteOptions>(std::move(options));
  router.add(verb::post, jobs, auth.guard(Access::write, [&store, shared](const Request& r, const Principal& p) { return start_judge_job(store, r, p.scope(), *shared); }));
  router.add(verb::get, jobs, auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_judge_jobs(store, r, p.scope()); }));
  router.add(verb::get, jobs + "/{jobId}/results",
             auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return judge_job_results(store, r, p.scope()); }));
  for (const char* path : {"/api/v1/runs/{runId}/alignment", "/api/v1/runs/{runId}/agreement"})
    router.add(verb::get, path, auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return agreement(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
