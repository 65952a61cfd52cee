#include "krino/core/server_api/run_view_routes.hpp"

#include "krino/core/statistics/intervals.hpp"
#include "krino/core/store/evaluator_stats.hpp"
#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"

#include <krino/utf8.hpp>

#include <boost/beast/http/verb.hpp>

#include <charconv>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultItemsPerPage = 50;
constexpr std::size_t kMaxItemsPerPage = 1000;
constexpr std::size_t kMaxSearchBytes = 256;
constexpr std::size_t kMaxSearchWords = 8;
// How many positions a page looks at when no index leads to its matches (PASSED, an evaluator's
// verdicts, a combination of conditions), and when it searches text (reading every document of the
// window): each a fraction of a second with either backend (docs/decisions.md), so a rare match
// costs the client more pages, never a slow one.
constexpr std::int64_t kScanWindow = 100000;
constexpr std::int64_t kTextWindow = 20000;

std::optional<store::ItemStatusFilter> parse_item_status(std::string_view text) {
  if (text == "ALL") return store::ItemStatusFilter::all;
  if (text == "PASSED") return store::ItemStatusFilter::passed;
  if (text == "FAILED") return store::ItemStatusFilter::failed;
  if (text == "ERROR") return store::ItemStatusFilter::error;
  return std::nullopt;
}

// The filter the query asks for, or nullopt with `refusal` set to the 400 that says why.
std::optional<store::ItemFilter> item_filter(const Request& request, std::optional<Response>& refusal) {
  store::ItemFilter filter;
  if (const auto status = request.query_value("status")) {
    const auto parsed = parse_item_status(*status);
    if (!parsed) {
      refusal = invalid_field("status", "must be one of ALL, PASSED, FAILED, ERROR");
      return std::nullopt;
    }
    filter.status = *parsed;
  }
  if (auto evaluator = request.query_value("evaluator")) {
    if (evaluator->empty() || !krino::utf8::is_valid(*evaluator)) {
      refusal = invalid_field("evaluator", "must be an evaluator's name");
      return std::nullopt;
    }
    filter.evaluator = std::move(*evaluator);
  }
  if (const auto status = request.query_value("evaluatorStatus")) {
    if (!filter.evaluator || (*status != "PASSED" && *status != "FAILED")) {
      refusal = invalid_field("evaluatorStatus", "must be PASSED or FAILED, with evaluator");
      return std::nullopt;
    }
    filter.evaluator_passed = *status == "PASSED";
  }
  if (const auto q = request.query_value("q")) {
    if (q->size() > kMaxSearchBytes || !krino::utf8::is_valid(*q)) {
      refusal = invalid_field("q", "must be UTF-8 text of at most " + std::to_string(kMaxSearchBytes) + " bytes");
      return std::nullopt;
    }
    for (std::size_t at = 0; at < q->size();) {
      const std::size_t start = q->find_first_not_of(" \t\r\n", at);
      if (start == std::string::npos) break;
      const std::size_t end = std::min(q->find_first_of(" \t\r\n", start), q->size());
      filter.words.push_back(q->substr(start, end - start));
      at = end;
    }
    if (filter.words.size() > kMaxSearchWords) {
      refusal = invalid_field("q", "must have at most " + std::to_string(kMaxSearchWords) + " words");
      return std::nullopt;
    }
  }
  if (const auto after = request.query_value("after")) {
    const auto [end, ec] = std::from_chars(after->data(), after->data() + after->size(), filter.after_seq);
    if (ec != std::errc() || end != after->data() + after->size() || filter.after_seq < -1) {
      refusal = invalid_field("after", "must be an item's index (nextAfter of the page before)");
      return std::nullopt;
    }
  }
  const auto size = whole_query(request, "size", kDefaultItemsPerPage, 1, kMaxItemsPerPage, refusal);
  if (!size) return std::nullopt;
  filter.limit = *size;
  // One condition an index leads to (failed or errored items, an evaluator's failed verdicts)
  // reads only its matches: no window. Anything else looks at kScanWindow positions at most.
  const int conditions = (filter.status != store::ItemStatusFilter::all) + filter.evaluator.has_value() + !filter.words.empty();
  const bool indexed = (filter.status == store::ItemStatusFilter::failed || filter.status == store::ItemStatusFilter::error) ||
                       (filter.evaluator && filter.evaluator_passed == false);
  if (conditions > 1 || (conditions == 1 && !indexed)) filter.window = filter.words.empty() ? kScanWindow : kTextWindow;
  return filter;
}

// How many items of the whole run match, when the run's totals say it (a status alone); else none.
std::optional<std::int64_t> match_count(const store::ItemFilter& filter, const store::RunDetails& run) {
  if (filter.evaluator || !filter.words.empty()) return std::nullopt;
  switch (filter.status) {
    case store::ItemStatusFilter::all: return run.total_items;
    case store::ItemStatusFilter::passed: return run.passed_items;
    case store::ItemStatusFilter::failed: return run.total_items - run.passed_items;
    case store::ItemStatusFilter::error: return run.error_items;
  }
  return std::nullopt;
}

Response run_items(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = uuid_param(request, "runId");
  if (!run_id) return not_found("run " + request.param("runId"));
  std::optional<Response> refusal;
  const auto filter = item_filter(request, refusal);
  if (!filter) return *refusal;
  const auto run = store.run(scope, *run_id);
  if (!run) return not_found("run " + request.param("runId"));
  const auto page = store.filtered_items(scope, *run_id, *filter);
  if (!page) return not_found("run " + request.param("runId"));
  std::string body = "{\"content\":[";
  for (std::size_t i = 0; i < page->items.size(); ++i) {
    if (i > 0) body += ',';
    append_item(body, page->items[i]);
  }
  body += ']';
  append_key(body, "size");
  krino::event::append_integer(body, filter->limit);
  append_key(body, "numberOfElements");
  krino::event::append_integer(body, page->items.size());
  append_key(body, "nextAfter");
  krino::event::append_optional(body, page->next_after);
  append_key(body, "matchCount");
  krino::event::append_optional(body, match_count(*filter, *run));
  body += '}';
  return http_server::json_response(Status::ok, std::move(body));
}

void append_evaluator(std::string& out, const store::EvaluatorStats& stats) {
  out += "{\"name\":";
  krino::json::append_json_string(out, stats.name);
  append_key(out, "count");
  krino::event::append_integer(out, stats.count);
  append_key(out, "passed");
  krino::event::append_integer(out, stats.passed);
  append_key(out, "passRate");
  append_pass_rate(out, stats.passed, stats.count);
  append_key(out, "scoredCount");
  krino::event::append_integer(out, stats.scored);
  append_key(out, "meanScore");
  if (stats.scored > 0) append_finite(out, stats.score_sum / static_cast<double>(stats.scored));
  else out += "null";
  append_key(out, "scoreCi");
  if (stats.scored > 0) append_interval(out, mean_interval(stats.scored, stats.score_sum, stats.score_sum_squares));
  else out += "null";
  out += ",\"histogram\":{\"min\":";
  krino::event::append_optional(out, stats.score_min);
  append_key(out, "max");
  krino::event::append_optional(out, stats.score_max);
  append_key(out, "buckets");
  out += '[';
  for (std::size_t b = 0; b < stats.buckets.size(); ++b) {
    if (b > 0) out += ',';
    krino::event::append_integer(out, stats.buckets[b]);
  }
  out += "]}}";
}

Response run_evaluators(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto run_id = uuid_param(request, "runId");
  if (!run_id) return not_found("run " + request.param("runId"));
  const auto evaluators = store::evaluator_stats(store, scope, *run_id);
  if (!evaluators) return not_found("run " + request.param("runId"));
  std::string body = "{\"evaluators\":[";
  for (std::size_t i = 0; i < evaluators->size(); ++i) {
    if (i > 0) body += ',';
    append_evaluator(body, (*evaluators)[i]);
  }
  body += "]}";
  return http_server::json_response(Status::ok, std::move(body));
}

}  // namespace

void add_run_view_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  router.add(verb::get, "/api/v1/runs/{runId}/items", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return run_items(store, r, p.scope()); }));
  router.add(verb::get, "/api/v1/runs/{runId}/evaluators", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return run_evaluators(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
