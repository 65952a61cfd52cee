#include "krino/core/runner/http_evaluator_protocol.hpp"

#include "krino/core/common/json_scan.hpp"
#include "krino/core/common/json_whole_number.hpp"
#include "krino/core/process/printable_text.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <boost/json.hpp>

#include <optional>
#include <unordered_map>

namespace krino::core {
namespace {

namespace json = boost::json;

constexpr std::size_t kQuotedReplyBytes = 200;

std::vector<WorkerAnswer> all_broken(std::size_t count, const std::string& why) {
  WorkerAnswer broken;
  broken.text = why;
  return std::vector<WorkerAnswer>(count, broken);
}

}  // namespace

std::string http_evaluator_batch_body(std::string_view options_json, const std::vector<std::string>& requests) {
  std::size_t size = options_json.size() + 96;
  for (const std::string& request : requests) size += request.size() + 1;
  std::string body;
  body.reserve(size);
  body.append("{\"protocol\":\"").append(kEvaluatorWorkerProtocol).append("\",\"options\":");
  body.append(options_json).append(",\"requests\":[");
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (i != 0) body.push_back(',');
    std::string_view request = requests[i];
    if (!request.empty() && request.back() == '\n') request.remove_suffix(1);
    body.append(request);
  }
  body.append("]}");
  return body;
}

namespace {

// The bytes of each "answers" element's "result", in order (none where it has none), in a body the
// parser has already accepted as it is: results go on as the server wrote them, digit for digit, as
// a worker's do (read_worker_answer). The syntax is trusted, not checked again.
std::vector<std::optional<std::string_view>> raw_results(std::string_view body) {
  std::vector<std::optional<std::string_view>> raw;
  const auto answers = member(top_level_members(body), "answers");
  if (!answers || answers->empty() || answers->front() != '[') return raw;
  krino::json::walk_elements(*answers, 0, [&](std::size_t at) {
    const std::size_t end = krino::json::detail::skip_value(*answers, at);
    const std::string_view element = answers->substr(at, end - at);
    // Validated with the body: its members can be found without checking again.
    raw.push_back(is_object_span(element) ? member(top_level_members(element), "result") : std::nullopt);
    return end;
  });
  return raw;
}

}  // namespace

std::vector<WorkerAnswer> read_http_evaluator_answers(std::string_view body, const std::vector<uint64_t>& ids) {
  json::error_code ec;
  const bool valid_utf8 = utf8::is_valid(body);
  json::value reply = valid_utf8 ? krino::json::parse(body, ec) : krino::json::parse(utf8::repaired(body), ec);
  if (ec || !reply.is_object())
    return all_broken(ids.size(), "a reply that is not a JSON object: " + printable_head(body, kQuotedReplyBytes));
  const json::object& object = reply.get_object();
  if (const json::value* protocol = object.if_contains("protocol"); protocol != nullptr) {
    if (!protocol->is_string() || protocol->get_string() != kEvaluatorWorkerProtocol)
      return all_broken(ids.size(), "a reply in protocol " + krino::json::to_compact_json(*protocol) + ", not '" +
                                        std::string(kEvaluatorWorkerProtocol) + "'");
  }
  const json::value* answers = object.if_contains("answers");
  if (answers == nullptr || !answers->is_array())
    return all_broken(ids.size(), "a reply without an 'answers' array: " + printable_head(body, kQuotedReplyBytes));

  std::unordered_map<uint64_t, std::size_t> position;  // request id -> its place in `ids`
  for (std::size_t i = 0; i < ids.size(); ++i) position.emplace(ids[i], i);
  std::vector<WorkerAnswer> read(ids.size());
  std::vector<int> seen(ids.size(), 0);
  // A body that had to be repaired first is read from its parse alone, its results written anew.
  std::vector<std::optional<std::string_view>> raw;
  if (valid_utf8) raw = raw_results(body);
  const bool exact = raw.size() == answers->get_array().size();
  for (std::size_t k = 0; k < answers->get_array().size(); ++k) {
    const json::value& element = answers->get_array()[k];
    if (!element.is_object()) continue;  // counted below: its request has no answer
    const json::object& answer = element.get_object();
    const std::optional<uint64_t> id = json_whole_number(answer.if_contains("id"));
    if (!id) continue;
    auto at = position.find(*id);
    if (at == position.end()) continue;  // an answer to a request of another batch: ignored
    const std::size_t i = at->second;
    if (++seen[i] > 1) continue;
    read[i] = worker_answer_from(answer, krino::json::to_compact_json(element));
    if (read[i].kind == WorkerAnswer::Kind::result && exact && raw[k]) read[i].text.assign(*raw[k]);
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string id = std::to_string(ids[i]);
    if (seen[i] == 0) {
      read[i] = WorkerAnswer{};
      read[i].text = "a reply with no answer for request id " + id;
    } else if (seen[i] > 1) {
      read[i] = WorkerAnswer{};
      read[i].text = "a reply that answers request id " + id + " " + std::to_string(seen[i]) + " times";
    }
  }
  return read;
}

}  // namespace krino::core
