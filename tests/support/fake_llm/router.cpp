#include "router.hpp"

#include <stdexcept>
#include <string_view>

#include "llm_protocol.hpp"

namespace krino::fake_llm {
namespace http = boost::beast::http;
namespace {

HttpResponse make_response(const HttpRequest& request, unsigned status, std::string body) {
  HttpResponse response;
  response.version(request.version());
  response.result(status);
  response.set(http::field::server, "krino-fake-llm");
  response.set(http::field::content_type, "application/json");
  response.keep_alive(request.keep_alive());
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

std::string api_key_of(Endpoint endpoint, const HttpRequest& request) {
  if (endpoint == Endpoint::anthropic_messages) return std::string(request["x-api-key"]);
  // OpenAI's APIs and the app endpoint: a bearer token.
  std::string_view authorization = request[http::field::authorization];
  constexpr std::string_view bearer = "Bearer ";
  if (authorization.substr(0, bearer.size()) != bearer) return {};
  return std::string(authorization.substr(bearer.size()));
}

Plan answer_llm(ServerState& state, Endpoint endpoint, const HttpRequest& request) {
  RecordedRequest record;
  record.endpoint = endpoint;
  record.body = request.body();
  record.api_key = api_key_of(endpoint, request);
  Plan plan;
  auto finish = [&](unsigned status, std::string body) {
    plan.response = make_response(request, status, std::move(body));
    record.status = plan.transport == FaultKind::none ? status : 0;
    state.log.record(std::move(record));
    return std::move(plan);  // plan is the enclosing local, returned once
  };

  // The app endpoint stands in for the user's own service: it checks no LLM key.
  if (endpoint != Endpoint::app && state.required_key && record.api_key != *state.required_key) {
    const char* header = endpoint == Endpoint::anthropic_messages ? "x-api-key" : "Authorization: Bearer";
    return finish(401, render_error(endpoint, 401, std::string("fake-llm: missing or wrong API key in ") + header));
  }
  LlmRequest llm;
  try {
    llm = parse_llm_request(endpoint, request.body());
  } catch (const std::invalid_argument& e) {
    return finish(400, render_error(endpoint, 400, std::string("fake-llm: ") + e.what()));
  }
  if (endpoint == Endpoint::app) {
    llm.method = std::string(request.method_string());
    llm.path = std::string(request.target());
  }
  record.model = llm.model;
  record.prompt = llm.prompt;

  Choice choice = state.rules.choose(llm);
  record.rule = choice.rule;
  const Reply& reply = choice.reply;
  const Fault& fault = reply.fault;
  plan.delay = std::chrono::milliseconds(state.latency_ms + reply.latency_ms);
  std::uint64_t sequence = ++state.sequence;
  switch (fault.kind) {
    case FaultKind::status: {
      std::string message = fault.message.empty() ? "fake-llm: scripted HTTP " + std::to_string(fault.status) : fault.message;
      Plan answer = finish(fault.status, render_error(endpoint, fault.status, message));
      if (!fault.retry_after.empty()) answer.response.set(http::field::retry_after, fault.retry_after);
      return answer;
    }
    case FaultKind::malformed_json:
      return finish(200, fault.body.empty() ? "this is not JSON {\"choices\": [" : fault.body);
    case FaultKind::timeout:
    case FaultKind::truncated:
    case FaultKind::reset:
      plan.transport = fault.kind;
      return finish(200, render_completion(llm, reply, sequence));
    case FaultKind::none:
      break;
  }
  return finish(200, render_completion(llm, reply, sequence));
}

}  // namespace

Plan route(ServerState& state, const HttpRequest& request) {
  std::string_view target = request.target();
  std::string_view path = target.substr(0, target.find('?'));
  const bool get = request.method() == http::verb::get;
  const bool post = request.method() == http::verb::post;

  if (path == "/health" && get) return {make_response(request, 200, R"({"status":"ok"})")};
  if (path == "/_requests" && get) return {make_response(request, 200, state.log.to_json())};
  if (path == "/_reset" && post) {
    state.log.clear();
    state.rules.reset_uses();
    return {make_response(request, 200, R"({"reset":true})")};
  }
  if (path.substr(0, endpoint_path(Endpoint::app).size()) == endpoint_path(Endpoint::app))
    return answer_llm(state, Endpoint::app, request);  // any method: it stands in for the user's service
  for (Endpoint endpoint : {Endpoint::openai_chat, Endpoint::anthropic_messages, Endpoint::openai_responses}) {
    if (path != endpoint_path(endpoint)) continue;
    if (!post) return {make_response(request, 405, render_plain_error(405, "fake-llm: use POST on " + std::string(path)))};
    return answer_llm(state, endpoint, request);
  }
  return {make_response(request, 404, render_plain_error(404, "fake-llm: no endpoint " + std::string(request.method_string()) +
                                                                  " " + std::string(path)))};
}

}  // namespace krino::fake_llm
