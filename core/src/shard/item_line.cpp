#include "krino/core/shard/item_line.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/text_number.hpp"

#include <boost/json.hpp>
#include <krino/json_spans.hpp>

#include <optional>

namespace krino::core {
namespace {

using krino::json::for_each_member;
using krino::json::key_equals;

[[noreturn]] void bad(const std::string& what) { throw runtime_error("item_finished line: " + what); }

template <class Number>
Number required_number(std::string_view token, const char* name) {
  auto value = parse_whole_number<Number>(token);
  if (!value) bad(std::string("\"") + name + "\" is not a number of the expected kind");
  return *value;
}

bool boolean_token(std::string_view token, const char* name) {
  if (token == "true") return true;
  if (token == "false") return false;
  bad(std::string("\"") + name + "\" is not true or false");
}

// Calls visit(element) for each element of the array in `array_text`.
template <class Visit>
void for_each_element(std::string_view t, Visit&& visit) {
  size_t i = t.find('[');
  if (i == std::string_view::npos) return;
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (krino::json::detail::is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size() || t[i] == ']') return;
    const size_t end = krino::json::detail::skip_value(t, i);
    visit(t.substr(i, end - i));
    i = end;
  }
}

// A JudgeUsage as to_item_json() wrote it (or as to_json() did, in files written before
// costUsdExact existed: the rounded cost is then all there is).
JudgeUsage judge_usage(std::string_view object) {
  JudgeUsage u;
  std::optional<double> rounded_cost;
  std::optional<double> exact_cost;
  for_each_member(object, [&](std::string_view key, std::string_view value) {
    if (key_equals(key, "calls")) u.calls = required_number<uint64_t>(value, "judge.calls");
    else if (key_equals(key, "cachedCalls")) u.cached_calls = required_number<uint64_t>(value, "judge.cachedCalls");
    else if (key_equals(key, "failedCalls")) u.failed_calls = required_number<uint64_t>(value, "judge.failedCalls");
    else if (key_equals(key, "retries")) u.retries = required_number<uint64_t>(value, "judge.retries");
    else if (key_equals(key, "repairs")) u.repairs = required_number<uint64_t>(value, "judge.repairs");
    else if (key_equals(key, "tokensIn") && value != "null") u.tokens_in = required_number<int64_t>(value, "judge.tokensIn");
    else if (key_equals(key, "tokensOut") && value != "null") u.tokens_out = required_number<int64_t>(value, "judge.tokensOut");
    else if (key_equals(key, "costUsd") && value != "null") rounded_cost = required_number<double>(value, "judge.costUsd");
    else if (key_equals(key, "costUsdExact") && value != "null") exact_cost = required_number<double>(value, "judge.costUsdExact");
    else if (key_equals(key, "unpricedTokens")) u.unpriced_tokens = boolean_token(value, "judge.unpricedTokens");
    return true;
  });
  u.cost_usd = exact_cost ? exact_cost : rounded_cost;
  return u;
}

ScoreRecord score_record(std::string_view result) {
  // The runner read the score with Boost.JSON's parser from these bytes (check_eval_result), so
  // the same parser reads it here: the same bytes give the same double.
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(result, ec);
  if (ec || !parsed.is_object()) bad("a member of \"results\" is not a JSON object");
  const auto& o = parsed.get_object();
  ScoreRecord r;
  const auto* name = o.if_contains("name");
  const auto* score = o.if_contains("score");
  const auto* success = o.if_contains("success");
  if (name == nullptr || !name->is_string()) bad("a result has no \"name\"");
  if (score == nullptr || !(score->is_number() || score->is_null())) bad("a result has no \"score\"");
  if (success == nullptr || !success->is_bool()) bad("a result has no \"success\"");
  r.name = std::string(name->get_string());
  if (score->is_number()) r.score = score->to_number<double>();
  r.success = success->get_bool();
  return r;
}

}  // namespace

ItemLine read_item_line(std::string_view line) {
  ItemLine item;
  bool seen_run = false, seen_index = false, seen_success = false, seen_error = false;
  for_each_member(line, [&](std::string_view key, std::string_view value) {
    if (key_equals(key, "run_index")) {
      item.run_index = required_number<uint32_t>(value, "run_index");
      seen_run = true;
    } else if (key_equals(key, "index")) {
      item.index = required_number<uint64_t>(value, "index");
      seen_index = true;
    } else if (key_equals(key, "success")) {
      item.success = boolean_token(value, "success");
      seen_success = true;
    } else if (key_equals(key, "error")) {
      item.error = value != "null";
      seen_error = true;
    } else if (key_equals(key, "results")) {
      item.scores.clear();
      for_each_element(value, [&](std::string_view result) { item.scores.push_back(score_record(result)); });
    } else if (key_equals(key, "judge") && value != "null") {
      item.judge = judge_usage(value);
      item.judge_by_evaluator.clear();
      if (auto per = krino::json::find_member(value, "byEvaluator")) {
        for_each_member(*per, [&](std::string_view name, std::string_view usage) {
          item.judge_by_evaluator.emplace_back(krino::json::key_text(name), judge_usage(usage));
          return true;
        });
      }
    }
    return true;
  });
  if (!seen_run) bad("no \"run_index\"");
  if (!seen_index) bad("no \"index\"");
  if (!seen_success) bad("no \"success\"");
  if (!seen_error) bad("no \"error\"");
  return item;
}

}  // namespace krino::core
