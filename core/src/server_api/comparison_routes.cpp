#include "krino/core/server_api/comparison_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"

#include "krino/core/gate/run_projection.hpp"

#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <boost/beast/http/verb.hpp>

#include <algorithm>
#include <unordered_map>

namespace krino::core::server_api {

namespace {


constexpr std::size_t kDefaultCasesPerPage = 50;
constexpr std::size_t kMaxCasesPerPage = 1000;

Response gate(RunComparisons& comparisons, const Request& request, const store::Scope& scope) {
  const auto experiment_id = uuid_param(request, "experimentId");
  if (!experiment_id) return not_found("experiment " + request.param("experimentId"));
  std::optional<Response> refusal;
  const auto members = object_body(request, refusal);
  if (!members) return *refusal;
  GateRequest gate_request;
  gate_request.experiment_id = *experiment_id;
  const auto candidate = member(*members, "candidateRunId");
  if (!candidate || !is_string_span(*candidate)) return invalid_field("candidateRunId", "is required and must be a string");
  const std::string candidate_text = krino::json::string_token_text(*candidate);
  const auto candidate_id = store::parse_uuid(candidate_text);
  if (!candidate_id) return not_found("run " + candidate_text);
  gate_request.candidate_run_id = store::to_text(*candidate_id);
  if (const auto baseline = member(*members, "baselineRunId"); baseline && *baseline != "null") {
    if (!is_string_span(*baseline)) return invalid_field("baselineRunId", "must be a string");
    const std::string text = krino::json::string_token_text(*baseline);
    const auto id = store::parse_uuid(text);
    if (!id) return not_found("run " + text);
    gate_request.baseline_run_id = store::to_text(*id);
  }
  if (const auto branch = member(*members, "baselineBranch"); branch && *branch != "null") {
    if (!is_string_span(*branch)) return invalid_field("baselineBranch", "must be a string");
    gate_request.baseline_branch = krino::json::string_token_text(*branch);
  }
  try {
    return http_server::json_response(Status::ok, gate_outcome_json(comparisons.gate(scope, gate_request)));
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

enum class CaseFilter { all, regressed, improved, changed };

std::optional<CaseFilter> parse_filter(std::string_view text) {
  if (text == "ALL") return CaseFilter::all;
  if (text == "REGRESSED") return CaseFilter::regressed;
  if (text == "IMPROVED") return CaseFilter::improved;
  if (text == "CHANGED") return CaseFilter::changed;
  return std::nullopt;
}

const char* item_evaluator_status(double delta) {
  if (delta < -kGateEpsilon) return "REGRESSED";
  if (delta > kGateEpsilon) return "IMPROVED";
  return "UNCHANGED";
}

// Opens an evaluator's entry with what the summary and the cases share: {name, baselineMean,
// candidateMean, delta (the caller adds the rest and closes it).
void append_evaluator_move(std::string& out, const std::string& name, double baseline, double candidate, double delta) {
  out += "{\"name\":";
  krino::json::append_json_string(out, name);
  append_key(out, "baselineMean");
  krino::json::append_double(out, baseline);
  append_key(out, "candidateMean");
  krino::json::append_double(out, candidate);
  append_key(out, "delta");
  krino::json::append_double(out, delta);
}

void append_summary(std::string& out, const RunComparison& compared) {
  const Comparison& c = compared.comparison;
  out += "{\"baselineRunId\":";
  krino::json::append_json_string(out, compared.baseline.id);
  append_key(out, "candidateRunId");
  krino::json::append_json_string(out, compared.candidate.id);
  append_key(out, "pairing");
  krino::json::append_json_string(out, pairing_name(compared.pairing));
  append_key(out, "baselinePassRate");
  krino::json::append_double(out, c.baseline_pass_rate);
  append_key(out, "candidatePassRate");
  krino::json::append_double(out, c.candidate_pass_rate);
  append_key(out, "passRateDelta");
  krino::json::append_double(out, c.pass_rate_delta);
  append_key(out, "significant");
  krino::event::append_bool(out, c.pass_rate_significant);
  append_key(out, "passRateTest");
  krino::json::append_json_string(out, c.pass_rate_test);
  append_key(out, "passRatePValue");
  krino::json::append_double(out, c.pass_rate_p_value);
  append_key(out, "pairedItems");
  krino::event::append_integer(out, c.shared);
  append_key(out, "improvedCount");
  krino::event::append_integer(out, compared.improved.size());
  append_key(out, "regressedCount");
  krino::event::append_integer(out, compared.regressed.size());
  append_key(out, "unchangedCount");
  krino::event::append_integer(out, compared.unchanged_count);
  append_key(out, "addedCount");
  krino::event::append_integer(out, compared.added_count);
  append_key(out, "removedCount");
  krino::event::append_integer(out, compared.removed_count);
  out += ",\"evaluators\":[";
  for (std::size_t i = 0; i < c.evaluators.size(); ++i) {
    const EvaluatorComparison& e = c.evaluators[i];
    if (i > 0) out += ',';
    append_evaluator_move(out, e.name, e.baseline_mean, e.candidate_mean, e.delta);
    append_key(out, "pValue");
    krino::json::append_double(out, e.p_value);
    append_key(out, "pairedItems");
    krino::event::append_integer(out, e.paired);
    append_key(out, "status");
    krino::json::append_json_string(out, change_status_name(e.status));
    append_key(out, "significant");
    krino::event::append_bool(out, e.significant);
    out += '}';
  }
  out += "]}";
}

// One case of the diff: the item's place, how it changed, its input, and each evaluator's move.
void append_case(std::string& out, const RunComparison& compared, const ItemComparison& item, const store::StoredItem* stored) {
  out += "{\"status\":";
  krino::json::append_json_string(out, change_status_name(item.status));
  append_key(out, "passFlip");
  const bool paired = item.status != ChangeStatus::added && item.status != ChangeStatus::removed;
  krino::event::append_bool(out, paired && item.baseline_pass != item.candidate_pass);
  append_key(out, "index");
  if (item.index) krino::event::append_integer(out, *item.index);
  else out += "null";
  append_key(out, "datasetItemId");
  if (compared.pairing == Pairing::dataset_item_id) krino::json::append_json_string(out, item.key);
  else out += "null";
  append_key(out, "itemId");
  if (stored != nullptr) krino::json::append_json_string(out, stored->id);
  else out += "null";
  append_key(out, "input");
  const auto inputs = stored != nullptr ? krino::json::find_member(stored->document, "inputs") : std::nullopt;
  if (inputs) krino::json::append_json_string(out, input_anchor(*inputs));
  else out += "null";
  append_key(out, "baselinePass");
  krino::event::append_bool(out, item.baseline_pass);
  append_key(out, "candidatePass");
  krino::event::append_bool(out, item.candidate_pass);
  append_key(out, "severe");
  krino::event::append_bool(out, item.severe);
  out += ",\"evaluators\":[";
  const auto& evaluators = compared.comparison.evaluators;
  for (std::size_t i = 0; i < item.deltas.size(); ++i) {
    const EvaluatorDelta& d = item.deltas[i];
    if (i > 0) out += ',';
    append_evaluator_move(out, d.name, d.baseline, d.candidate, d.delta);
    append_key(out, "status");
    krino::json::append_json_string(out, item_evaluator_status(d.delta));
    const auto found = std::lower_bound(evaluators.begin(), evaluators.end(), d.name,
                                        [](const EvaluatorComparison& e, const std::string& name) { return e.name < name; });
    append_key(out, "significant");
    krino::event::append_bool(out, found != evaluators.end() && found->name == d.name && found->significant);
    out += '}';
  }
  out += "]}";
}

Response diff(store::Store& store, RunComparisons& comparisons, const Request& request, const store::Scope& scope) {
  const auto experiment_id = uuid_param(request, "experimentId");
  if (!experiment_id) return not_found("experiment " + request.param("experimentId"));
  const auto candidate_id = uuid_param(request, "candidateRunId");
  if (!candidate_id) return not_found("run " + request.param("candidateRunId"));
  const auto baseline_text = request.query_value("baselineRunId");
  if (!baseline_text || baseline_text->empty()) return invalid_field("baselineRunId", "is required");
  const auto baseline_id = store::parse_uuid(*baseline_text);
  if (!baseline_id) return not_found("run " + std::string(*baseline_text));
  const auto filter = parse_filter(request.query_value("status").value_or("ALL"));
  if (!filter) return invalid_field("status", "must be one of ALL, REGRESSED, IMPROVED, CHANGED");
  std::optional<Response> refusal;
  const auto page = whole_query(request, "page", 0, 0, std::size_t{1} << 40, refusal);
  if (!page) return *refusal;
  const auto size = whole_query(request, "size", kDefaultCasesPerPage, 1, kMaxCasesPerPage, refusal);
  if (!size) return *refusal;

  std::shared_ptr<const RunComparison> compared;
  try {
    if (!store.experiment(scope, *experiment_id)) return not_found("experiment " + *experiment_id);
    compared = comparisons.compare(scope, *experiment_id, store::to_text(*baseline_id), *candidate_id);
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
  const auto& items = compared->comparison.items;
  const std::vector<std::uint32_t>* selection = *filter == CaseFilter::regressed  ? &compared->regressed
                                                : *filter == CaseFilter::improved ? &compared->improved
                                                : *filter == CaseFilter::changed  ? &compared->changed
                                                                                  : nullptr;
  const std::size_t total = selection != nullptr ? selection->size() : items.size();
  const std::size_t first = std::min(total, *page * *size);
  const std::size_t last = std::min(total, first + *size);
  std::vector<const ItemComparison*> cases;
  for (std::size_t i = first; i < last; ++i) cases.push_back(&items[selection != nullptr ? (*selection)[i] : i]);

  // The page's documents, from the candidate run (the baseline run for a removed item).
  std::vector<std::int64_t> candidate_seqs, baseline_seqs;
  for (const ItemComparison* item : cases)
    if (item->index) (item->status == ChangeStatus::removed ? baseline_seqs : candidate_seqs).push_back(static_cast<std::int64_t>(*item->index));
  std::sort(candidate_seqs.begin(), candidate_seqs.end());
  std::sort(baseline_seqs.begin(), baseline_seqs.end());
  const std::vector<store::StoredItem> candidate_items = store.items_at(scope, compared->candidate.id, candidate_seqs);
  const std::vector<store::StoredItem> baseline_items = store.items_at(scope, compared->baseline.id, baseline_seqs);
  std::unordered_map<std::int64_t, const store::StoredItem*> by_candidate_seq, by_baseline_seq;
  for (const auto& stored : candidate_items) by_candidate_seq.emplace(stored.seq, &stored);
  for (const auto& stored : baseline_items) by_baseline_seq.emplace(stored.seq, &stored);

  std::string body = "{\"summary\":";
  append_summary(body, *compared);
  body += ",\"cases\":{\"content\":[";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ItemComparison& item = *cases[i];
    if (i > 0) body += ',';
    const auto& lookup = item.status == ChangeStatus::removed ? by_baseline_seq : by_candidate_seq;
    const auto found = item.index ? lookup.find(static_cast<std::int64_t>(*item.index)) : lookup.end();
    append_case(body, *compared, item, found != lookup.end() ? found->second : nullptr);
  }
  body += ']';
  append_page_fields(body, *page, *size, static_cast<std::int64_t>(total), cases.size(), last >= total);
  body += "}}";
  return http_server::json_response(Status::ok, std::move(body));
}

}  // namespace

void add_comparison_routes(http_server::Router& router, store::Store& store, RunComparisons& comparisons, const Authenticator& auth) {
  using boost::beast::http::verb;
  router.add(verb::post, "/api/v1/experiments/{experimentId}/gate",
             auth.guard(Access::write, [&comparisons](const Request& r, const Principal& p) { return gate(comparisons, r, p.scope()); }));
  router.add(verb::get, "/api/v1/experiments/{experimentId}/runs/{candidateRunId}/diff",
             auth.guard(Access::read, [&store, &comparisons](const Request& r, const Principal& p) { return diff(store, comparisons, r, p.scope()); }));
}

}  // namespace krino::core::server_api
