// `krino gate --server URL --experiment ID --run-id ID`: the results server's gate on a stored run,
// for CI. The server decides (the same engine as the local gate); this prints its verdict and
// turns it into the exit code the local gate would give.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_http.hpp"
#include "krino/core/net/url.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace krino::cli {

namespace {

std::string from_environment(const std::string& given, const char* variable) {
  if (!given.empty()) return given;
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

std::string percent(const boost::json::value& rate) {
  return rate.is_number() ? fmt::format("{:.1f}%", rate.to_number<double>() * 100.0) : "n/a";
}

// The verdict for a terminal, like the local gate's summary.
std::string summary(const boost::json::object& verdict) {
  const auto text = [&](const char* key) -> std::string {
    const auto* value = verdict.if_contains(key);
    return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
  };
  std::string out = fmt::format("gate: {} (run {} against {})\n", text("status"), text("candidateRunId"),
                                text("baselineRunId").empty() ? "no baseline" : "run " + text("baselineRunId"));
  if (const auto* base = verdict.if_contains("baselinePassRate"))
    out += fmt::format("  pass rate {} -> {}, {} regressed, {} improved, pairing {}\n", percent(*base), percent(verdict.at("candidatePassRate")),
                       verdict.at("regressedCount").to_number<std::int64_t>(), verdict.at("improvedCount").to_number<std::int64_t>(),
                       text("pairing"));
  if (const auto* evaluators = verdict.if_contains("regressedEvaluators"); evaluators != nullptr && evaluators->is_array())
    for (const auto& e : evaluators->get_array())
      out += fmt::format("  regressed: {} {} -> {} (p = {:.6g})\n", std::string(e.at("evaluator").as_string()),
                         e.at("baselineMean").to_number<double>(), e.at("candidateMean").to_number<double>(), e.at("pValue").to_number<double>());
  out += text("message") + "\n";
  if (const auto* warnings = verdict.if_contains("warnings"); warnings != nullptr && warnings->is_array())
    for (const auto& w : warnings->get_array()) out += "  warning: " + std::string(w.as_string()) + "\n";
  return out;
}

}  // namespace

int server_gate_command(const GateArguments& args) {
  const std::string server = from_environment(args.server, "KRINO_SERVER_URL");
  if (server.empty()) throw core::usage_error("krino gate --experiment needs --server URL (or KRINO_SERVER_URL)");
  if (args.experiment_id.empty() || args.run_id.empty())
    throw core::usage_error("krino gate --server needs --experiment ID and --run-id ID (the run to gate)");
  if (!args.run.empty() || !args.baseline.empty())
    throw core::usage_error("krino gate --server gates a stored run: give no run file and no --baseline");
  std::string base = server;
  while (!base.empty() && base.back() == '/') base.pop_back();

  core::HttpRequest request;
  request.method = "POST";
  request.url = core::parse_url(base + "/api/v1/experiments/" + args.experiment_id + "/gate");
  request.headers.push_back({"Content-Type", "application/json"});
  const std::string key = from_environment(args.api_key, "KRINO_API_KEY");
  if (!key.empty()) request.headers.push_back({"Authorization", "Bearer " + key});
  request.body = "{\"candidateRunId\":";
  krino::json::append_json_string(request.body, args.run_id);
  if (!args.baseline_run_id.empty()) {
    request.body += ",\"baselineRunId\":";
    krino::json::append_json_string(request.body, args.baseline_run_id);
  }
  if (!args.baseline_branch.empty()) {
    request.body += ",\"baselineBranch\":";
    krino::json::append_json_string(request.body, args.baseline_branch);
  }
  request.body += '}';

  core::IoService io;
  core::HostHttp http(io.context());
  // A million-item comparison is computed once, in seconds; give it room.
  const core::HttpResult result = http.request(std::move(request), std::chrono::minutes(5));
  if (result.outcome != core::HttpOutcome::response) throw core::runtime_error("krino gate: no answer from " + base + ": " + result.error);
  const core::HttpResponse& response = result.response;
  boost::system::error_code ec;
  const boost::json::value body = krino::json::parse(response.body, ec);
  if (response.status != 200) {
    std::string why = !ec && body.is_object() && body.as_object().if_contains("message") ? std::string(body.at("message").as_string()) : response.body;
    throw core::runtime_error(fmt::format("krino gate: the server answered {}: {}", response.status, why));
  }
  if (ec || !body.is_object() || !body.as_object().if_contains("status"))
    throw core::runtime_error("krino gate: the server's answer is not a verdict: " + response.body.substr(0, 200));
  const boost::json::object& verdict = body.as_object();
  if (args.json) std::fputs((response.body + "\n").c_str(), stdout);
  else std::fputs(summary(verdict).c_str(), stdout);
  const std::string status(verdict.at("status").as_string());
  if (status == "FAIL" && !args.no_fail_on_regression) return kEvaluationFailed;
  if (status == "INCONCLUSIVE" && args.fail_on_inconclusive) return kEvaluationFailed;
  return kSuccess;
}

}  // namespace krino::cli
