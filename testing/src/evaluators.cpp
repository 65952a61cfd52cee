#include "krino/testing/evaluators.hpp"

#include "host_context.hpp"
#include "krino/testing/error.hpp"

#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/runner/component_factory.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <cmath>

namespace krino::testing {
namespace json = boost::json;

namespace {

// The reason an evaluator gave, read from its result document (the host's checked result keeps
// only what runs aggregate).
std::string reason_of(std::string_view result_json) {
  boost::system::error_code ec;
  const json::value result = krino::json::parse(result_json, ec);
  if (ec || !result.is_object()) return {};
  const json::value* reason = result.get_object().if_contains("reason");
  return reason != nullptr && reason->is_string() ? std::string(reason->get_string()) : std::string();
}

}  // namespace

Evaluator::Evaluator(std::shared_ptr<const detail::EvaluatorState> state) : state_(std::move(state)) {}

const std::string& Evaluator::name() const { return state_->handles.front()->name(); }

EvalOutcome Evaluator::score(std::string_view test_case_json) const {
  core::DatasetRecord record;
  record.kind = core::DatasetRecord::Kind::record;
  record.bytes = std::string(test_case_json);
  core::FinishedItem item;
  // Item 0 of run 0 every time: a test case gets the same seed however often and in whatever
  // order it is scored, as the first line given to `krino eval` does.
  state_->processor.process(0, 0, record, item);

  EvalOutcome outcome;
  outcome.name = name();
  if (item.event.error) {
    outcome.error = item.event.error->message;
    if (item.event.error->stage == "dataset") outcome.error.insert(0, "the test case is invalid: ");
    return outcome;
  }
  const krino::event::ItemResult& result = item.event.results.front();
  outcome.name = result.name;
  outcome.score = result.score;
  outcome.success = result.success;
  outcome.threshold = result.threshold;
  outcome.skipped = result.skipped;
  outcome.result_json = std::string(result.json);
  outcome.reason = reason_of(outcome.result_json);
  return outcome;
}

Evaluators::Evaluators(std::shared_ptr<detail::HostContext> host) : host_(std::move(host)) {}

Evaluator Evaluators::make(std::string_view evaluator, std::string_view options_json) const {
  boost::system::error_code ec;
  json::value options = krino::json::parse(options_json, ec);
  if (ec || !options.is_object())
    throw Error(std::string("the options of evaluator '").append(evaluator).append("' must be a JSON object, e.g. {\"threshold\":0.8}"));
  try {
    const core::ComponentUse use{std::string(evaluator), options.get_object()};
    // One instance: a test calls it from one thread, and a component that is not thread-safe is
    // then lent to one caller at a time.
    auto handle = core::make_evaluator(host_->registry, use, host_->host.host(), 1);
    return Evaluator(std::make_shared<const detail::EvaluatorState>(host_, std::move(handle)));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

std::string Evaluators::problems() const {
  std::string text;
  for (const auto& problem : host_->registry.problems()) text.append(problem.to_string()).append("\n");
  return text;
}

Evaluators load_evaluators(const LoadOptions& options) {
  return Evaluators(std::make_shared<detail::HostContext>(options));
}

}  // namespace krino::testing
