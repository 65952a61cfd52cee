#include "krino/core/server_api/trace_eval_rule_routes.hpp"

#include "route_helpers.hpp"
#include "krino/core/server_api/judge_evaluator.hpp"

#include <krino/json_parse.hpp>

#include <boost/beast/http/verb.hpp>
#include <boost/json.hpp>

#include <cmath>
#include <variant>

namespace krino::core::server_api {

namespace {

bool blank_text(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// An optional member that must be a non-blank string when present (null counts as absent).
std::variant<std::optional<std::string>, Response> optional_text(const boost::json::object& body, std::string_view key) {
  const auto* value = body.if_contains(key);
  if (value == nullptr || value->is_null()) return std::optional<std::string>();
  if (!value->is_string() || blank_text(value->get_string())) return invalid_field(key, "must be a non-blank string when given");
  if (value->get_string().size() > 1000) return invalid_field(key, "is longer than 1000 bytes");
  return std::optional<std::string>(std::string(value->get_string()));
}

std::variant<store::NewTraceEvalRule, Response> read_rule(const Request& request) {
  std::optional<Response> refusal;
  if (!object_body(request, refusal)) return std::move(*refusal);
  const boost::json::value parsed = krino::json::parse(request.message.body());
  const boost::json::object& body = parsed.get_object();
  store::NewTraceEvalRule rule;
  const auto* name = body.if_contains("name");
  if (name == nullptr || !name->is_string() || blank_text(name->get_string())) return invalid_field("name", "is required and must not be blank");
  if (name->get_string().size() > 200) return invalid_field("name", "is longer than 200 bytes");
  rule.name = std::string(name->get_string());
  for (const auto& [key, out] : {std::pair<std::string_view, std::optional<std::string>*>{"project", &rule.project}, {"spanName", &rule.span_name}}) {
    auto read = optional_text(body, key);
    if (auto* problem = std::get_if<Response>(&read)) return std::move(*problem);
    *out = std::get<std::optional<std::string>>(read);
  }
  if (const auto* attribute = body.if_contains("attribute"); attribute && !attribute->is_null()) {
    const auto* object = attribute->if_object();
    const auto* key = object ? object->if_contains("key") : nullptr;
    if (key == nullptr || !key->is_string() || blank_text(key->get_string()))
      return invalid_field("attribute", "must be an object {key, value?} with a non-blank key");
    rule.attribute_key = std::string(key->get_string());
    if (const auto* value = object->if_contains("value"); value && !value->is_null()) {
      if (value->is_object() || value->is_array()) return invalid_field("attribute.value", "must be a string, a number or a boolean");
      rule.attribute_value = boost::json::serialize(*value);
    }
  }
  const auto* target = body.if_contains("target");
  if (target == nullptr || !target->is_string() || (target->get_string() != "TRACE" && target->get_string() != "SPAN"))
    return invalid_field("target", "is required and must be TRACE (score the trace's root input and output) or SPAN (each matching span's)");
  rule.target = std::string(target->get_string());
  const auto* connection = body.if_contains("connectionId");
  const auto connection_id = connection && connection->is_string() ? store::parse_uuid(connection->get_string()) : std::nullopt;
  if (!connection_id) return invalid_field("connectionId", "is required and must be an LLM connection's id (a UUID)");
  rule.connection_id = store::to_text(*connection_id);
  if (const auto* rate = body.if_contains("samplingRate"); rate && !rate->is_null()) {
    if (!rate->is_number() || !std::isfinite(rate->to_number<double>()) || rate->to_number<double>() < 0 || rate->to_number<double>() > 1)
      return invalid_field("samplingRate", "must be a number from 0 to 1");
    rule.sampling_rate = rate->to_number<double>();
  }
  if (const auto* enabled = body.if_contains("enabled"); enabled && !enabled->is_null()) {
    if (!enabled->is_bool()) return invalid_field("enabled", "must be true or false");
    rule.enabled = enabled->get_bool();
  }
  auto evaluator = read_judge_evaluator(request.message.body());
  if (auto* problem = std::get_if<std::string>(&evaluator)) return http_server::error_response(Status::bad_request, "invalid_request", *problem);
  rule.evaluator_name = std::get<JudgeEvaluator>(evaluator).name;
  rule.config = judge_evaluator_json(std::get<JudgeEvaluator>(evaluator));
  return rule;
}

std::string rule_json(const store::TraceEvalRule& rule) {
  boost::json::object out;
  out["id"] = rule.id;
  out["name"] = rule.name;
  const auto optional = [&out](std::string_view key, const std::optional<std::string>& value) {
    if (value) out[key] = *value;
    else out[key] = nullptr;
  };
  optional("project", rule.project);
  optional("spanName", rule.span_name);
  if (rule.attribute_key) {
    boost::json::object attribute;
    attribute["key"] = *rule.attribute_key;
    boost::json::error_code ec;
    attribute["value"] = rule.attribute_value ? krino::json::parse(*rule.attribute_value, ec) : boost::json::value();
    out["attribute"] = std::move(attribute);
  } else {
    out["attribute"] = nullptr;
  }
  out["target"] = rule.target;
  out["connectionId"] = rule.connection_id;
  // The judge settings as the body gives them (evaluatorName, criteria, evaluationParams, scores).
  boost::json::error_code ec;
  const boost::json::value settings = krino::json::parse(rule.config, ec);
  if (const auto* object = settings.if_object())
    for (const auto& member : *object) out[member.key()] = member.value();
  out["samplingRate"] = rule.sampling_rate;
  out["enabled"] = rule.enabled;
  out["matched"] = rule.matched;
  out["enqueued"] = rule.enqueued;
  out["sampledOut"] = rule.sampled_out;
  out["createdAt"] = rule.created_at;
  out["updatedAt"] = rule.updated_at;
  return boost::json::serialize(out);
}

Response no_rule(const Request& request) { return not_found("trace eval rule " + request.param("ruleId")); }

// A connection the caller does not see is a mistake in the body, not a missing rule.
Response rule_store_failure(const store::StoreError& error) {
  if (error.kind() == store::StoreError::Kind::not_found) return invalid_field("connectionId", std::string("names ") + error.what());
  return store_failure(error);
}

Response create_rule(store::Store& store, const Request& request, const store::Scope& scope, const std::function<void()>& changed) {
  auto read = read_rule(request);
  if (auto* refusal = std::get_if<Response>(&read)) return std::move(*refusal);
  try {
    const store::TraceEvalRule made = store.create_trace_eval_rule(scope, std::get<store::NewTraceEvalRule>(read));
    if (changed) changed();
    Response response = http_server::json_response(Status::created, rule_json(made));
    response.set(boost::beast::http::field::location, "/api/v1/trace-eval-rules/" + made.id);
    return response;
  } catch (const store::StoreError& error) {
    return rule_store_failure(error);
  }
}

Response replace_rule(store::Store& store, const Request& request, const store::Scope& scope, const std::function<void()>& changed) {
  const auto id = uuid_param(request, "ruleId");
  if (!id) return no_rule(request);
  auto read = read_rule(request);
  if (auto* refusal = std::get_if<Response>(&read)) return std::move(*refusal);
  try {
    const auto updated = store.replace_trace_eval_rule(scope, *id, std::get<store::NewTraceEvalRule>(read));
    if (!updated) return no_rule(request);
    if (changed) changed();
    return http_server::json_response(Status::ok, rule_json(*updated));
  } catch (const store::StoreError& error) {
    return rule_store_failure(error);
  }
}

Response list_rules(store::Store& store, const store::Scope& scope) {
  std::string out = "[";
  for (const store::TraceEvalRule& rule : store.trace_eval_rules(scope)) {
    if (out.size() > 1) out += ',';
    out += rule_json(rule);
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

Response get_rule(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto id = uuid_param(request, "ruleId");
  if (!id) return no_rule(request);
  const auto rule = store.trace_eval_rule(scope, *id);
  if (!rule) return no_rule(request);
  return http_server::json_response(Status::ok, rule_json(*rule));
}

Response delete_rule(store::Store& store, const Request& request, const store::Scope& scope, const std::function<void()>& changed) {
  const auto id = uuid_param(request, "ruleId");
  if (!id || !store.delete_trace_eval_rule(scope, *id)) return no_rule(request);
  if (changed) changed();
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

}  // namespace

void add_trace_eval_rule_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, std::function<void()> changed) {
  using boost::beast::http::verb;
  const std::string base = "/api/v1/trace-eval-rules";
  const std::string one = base + "/{ruleId}";
  auto hook = std::make_shared<const std::function<void()>>(std::move(changed));
  router.add(verb::post, base, auth.guard(Access::write, [&store, hook](const Request& r, const Principal& p) { return create_rule(store, r, p.scope(), *hook); }));
  router.add(verb::get, base, auth.guard(Access::write, [&store](const Request&, const Principal& p) { return list_rules(store, p.scope()); }));
  router.add(verb::get, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return get_rule(store, r, p.scope()); }));
  router.add(verb::put, one, auth.guard(Access::write, [&store, hook](const Request& r, const Principal& p) { return replace_rule(store, r, p.scope(), *hook); }));
  router.add(verb::delete_, one, auth.guard(Access::write, [&store, hook](const Request& r, const Principal& p) { return delete_rule(store, r, p.scope(), *hook); }));
}

}  // namespace krino::core::server_api
