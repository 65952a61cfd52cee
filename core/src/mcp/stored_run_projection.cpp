#include "krino/core/mcp/stored_run_projection.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json/object.hpp>

#include <algorithm>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

std::optional<double> number_member(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  return v != nullptr && v->is_number() ? std::optional<double>(v->to_number<double>()) : std::nullopt;
}

// As RunProjectionBuilder reads an item_finished event of a single run.
ItemProjection project_item(const store::StoredItem& stored, const json::object& item) {
  ItemProjection projection;
  const json::value* index = item.if_contains("itemIndex");
  projection.index = index != nullptr && index->is_number() ? index->to_number<std::uint64_t>() : static_cast<std::uint64_t>(stored.seq);
  if (const json::value* id = item.if_contains("itemId"); id != nullptr && id->is_string()) projection.id = std::string(id->get_string());
  if (const json::value* inputs = item.if_contains("inputs")) projection.input = input_anchor(krino::json::to_compact_json(*inputs));
  projection.runs = 1;
  if (const json::value* error = item.if_contains("error"); error != nullptr && error->is_object()) {
    projection.failed_runs = 1;
    const json::value* message = error->get_object().if_contains("message");
    projection.first_error = message != nullptr && message->is_string() && !message->get_string().empty() ? std::string(message->get_string()) : "an error";
    return projection;
  }
  if (const json::value* success = item.if_contains("success"); success != nullptr && success->is_bool() && success->get_bool())
    projection.passing_runs = 1;
  if (const json::value* results = item.if_contains("evalResults"); results != nullptr && results->is_array()) {
    for (const json::value& r : results->get_array()) {
      if (!r.is_object()) continue;
      const json::object& result = r.get_object();
      const json::value* name = result.if_contains("name");
      if (name == nullptr || !name->is_string()) continue;
      EvaluatorProjection evaluator;
      evaluator.name = std::string(name->get_string());
      evaluator.score = number_member(result, "score");
      const json::value* passed = result.if_contains("success");
      evaluator.pass = passed != nullptr && passed->is_bool() && passed->get_bool();
      evaluator.threshold = number_member(result, "threshold");
      projection.evaluators.push_back(std::move(evaluator));
    }
  }
  std::stable_sort(projection.evaluators.begin(), projection.evaluators.end(),
                   [](const EvaluatorProjection& a, const EvaluatorProjection& b) { return a.name < b.name; });
  return projection;
}

}  // namespace

RunProjection stored_run_projection(store::Store& store, const store::Scope& scope, const std::string& run_id) {
  const std::optional<store::RunDetails> run = store.run(scope, run_id);
  if (!run) throw runtime_error("no run '" + run_id + "' in the results store");
  RunProjection projection;
  projection.experiment = run->experiment_name;
  projection.runs = 1;
  std::int64_t after = -1;
  while (true) {
    store::ItemPage page = store.items(scope, run_id, after, 1000);
    for (const store::StoredItem& stored : page.items) {
      json::error_code ec;
      json::value document = krino::json::parse(stored.document, ec);
      if (ec || !document.is_object()) throw runtime_error("run " + run_id + ": item " + std::to_string(stored.seq) + " is not a JSON object");
      projection.items.push_back(project_item(stored, document.get_object()));
    }
    if (!page.next_after) break;
    after = *page.next_after;
  }
  std::stable_sort(projection.items.begin(), projection.items.end(),
                   [](const ItemProjection& a, const ItemProjection& b) { return a.index < b.index; });
  return projection;
}

}  // namespace krino::core::mcp
