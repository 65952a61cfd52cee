#include "krino/core/runner/evaluator_handle.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <cmath>

namespace krino::core {

EvaluatorHandle::EvaluatorHandle(const Component& component, const krino_host* host, std::string name,
                                 const boost::json::object& options, size_t workers)
    : component_(component), name_(std::move(name)) {
  if (auto it = options.find("threshold"); it != options.end() && it->value().is_number())
    threshold_ = it->value().to_number<double>();
  shared_ = component.has(KRINO_CAP_THREAD_SAFE);
  const size_t count = shared_ ? 1 : std::max<size_t>(1, workers);
  const std::string config = ::krino::json::to_compact_json(options);
  for (size_t i = 0; i < count; ++i) {
    StringSink error;
    void* instance = nullptr;
    krino_status status = component.evaluator().create(host, config.data(), config.size(), &instance, error.sink());
    if (status != KRINO_OK || instance == nullptr) {
      for (void* created : instances_) component.evaluator().destroy(created);
      instances_.clear();
      throw config_error("evaluator '" + name_ + "' (" + component.id + ") rejected its options: " +
                         (error.text().empty() ? "no reason given" : error.text()));
    }
    instances_.push_back(instance);
    idle_.push(instance);
  }
}

EvaluatorHandle::~EvaluatorHandle() {
  for (void* instance : instances_) component_.evaluator().destroy(instance);
}

void* EvaluatorHandle::acquire() const {
  if (shared_) return instances_.front();
  void* instance = nullptr;
  idle_.pop(instance);  // blocks only if more workers than instances, which the runner avoids
  return instance;
}

void EvaluatorHandle::release(void* instance) const {
  if (!shared_) idle_.push(instance);
}

std::variant<boost::json::object, ItemError> EvaluatorHandle::evaluate(const krino_call_context& ctx,
                                                                         std::string_view testcase,
                                                                         boost::json::storage_ptr storage) const {
  StringSink result;
  StringSink error;
  void* instance = acquire();
  krino_status status =
      component_.evaluator().evaluate(instance, &ctx, testcase.data(), testcase.size(), result.sink(), error.sink());
  release(instance);
  if (status != KRINO_OK) {
    return ItemError{"evaluator", name_, status, error.text().empty() ? "evaluator failed without a message" : error.text()};
  }
  auto checked = check_eval_result(result.text(), std::move(storage));
  if (auto* reason = std::get_if<std::string>(&checked)) {
    return ItemError{"evaluator", name_, KRINO_INTERNAL, "returned a malformed result: " + *reason};
  }
  auto& object = std::get<boost::json::object>(checked);
  object["name"] = name_;
  return std::move(object);
}

std::variant<boost::json::object, std::string> check_eval_result(std::string_view text,
                                                                 boost::json::storage_ptr storage) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec, std::move(storage));
  if (ec) return "not valid JSON (" + ec.message() + ")";
  if (!value.is_object()) return std::string("not a JSON object");
  auto& o = value.get_object();
  auto score = o.find("score");
  if (score == o.end()) return std::string("no \"score\"");
  if (!score->value().is_null()) {
    if (!score->value().is_number()) return std::string("\"score\" is neither a number nor null");
    double s = score->value().to_number<double>();
    if (!std::isfinite(s) || s < 0.0 || s > 1.0) return "\"score\" " + ::krino::json::to_compact_json(score->value()) + " is outside 0..1";
  }
  auto success = o.find("success");
  if (success == o.end() || !success->value().is_bool()) return std::string("\"success\" must be true or false");
  if (auto t = o.find("threshold"); t != o.end() && !t->value().is_null() && !t->value().is_number())
    return std::string("\"threshold\" must be a number or null");
  if (auto r = o.find("reason"); r != o.end() && !r->value().is_null() && !r->value().is_string())
    return std::string("\"reason\" must be a string");
  if (auto m = o.find("metadata"); m != o.end() && !m->value().is_null() && !m->value().is_object())
    return std::string("\"metadata\" must be an object");
  if (score->value().is_null() && success->value().get_bool()) return std::string("a null score cannot be a success");
  return std::move(o);
}

}  // namespace krino::core
