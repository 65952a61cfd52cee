// Recorded HTTP exchanges with a model API, in the shapes users keep them. Header-only, C++17.
//
//   {"interactions": [{"request": {"body": ...}, "response": {"body": ...}}, ...]}   VCR cassettes
//   {"request": {...}, "response": {...}}                                           one request+response pair
//   [{"request": ..., "response": ...}, ...]                                         a list of pairs
//
// A request or response is either an HTTP record with a "body" or the body itself. A body may be a
// JSON object, a string holding one, or VCR.py's {"string": "<JSON text>"}. Bodies that are text
// are parsed here and owned by the Recording.
#ifndef KRINO_SUPPORT_TRACE_RECORDING_HPP
#define KRINO_SUPPORT_TRACE_RECORDING_HPP

#include <krino/plugin.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::trace {

struct Exchange {
  const boost::json::object* request = nullptr;   // the request body, when it is a JSON object
  const boost::json::object* response = nullptr;  // the response body, when it is a JSON object
};

class Recording {
 public:
  // nullopt when `document` is none of the shapes above.
  static std::optional<Recording> read(const boost::json::value& document) {
    const boost::json::array* pairs = nullptr;
    Recording recording;
    if (document.is_object()) {
      const boost::json::object& object = document.get_object();
      if (const boost::json::value* interactions = object.if_contains("interactions")) {
        if (!interactions->is_array()) return std::nullopt;
        pairs = &interactions->get_array();
      } else if (is_pair(object)) {
        recording.add(object);
        return recording;
      } else {
        return std::nullopt;
      }
    } else if (document.is_array() && !document.get_array().empty()) {
      pairs = &document.get_array();
      for (const boost::json::value& element : *pairs)
        if (!element.is_object() || !is_pair(element.get_object())) return std::nullopt;
    } else {
      return std::nullopt;
    }
    for (const boost::json::value& element : *pairs)
      if (element.is_object()) recording.add(element.get_object());
    return recording;
  }

  const std::vector<Exchange>& exchanges() const { return exchanges_; }

  Recording() = default;
  // Exchanges point into parsed_, whose elements never move (a deque), and into the document.
  Recording(Recording&&) = default;
  Recording& operator=(Recording&&) = default;

 private:
  static bool is_pair(const boost::json::object& object) {
    return object.contains("request") && object.contains("response");
  }

  void add(const boost::json::object& pair) {
    Exchange exchange;
    if (const boost::json::value* request = pair.if_contains("request")) exchange.request = body_of(*request);
    if (const boost::json::value* response = pair.if_contains("response")) exchange.response = body_of(*response);
    exchanges_.push_back(exchange);
  }

  const boost::json::object* body_of(const boost::json::value& record) {
    const boost::json::value* body = &record;
    if (record.is_object())
      if (const boost::json::value* inner = record.get_object().if_contains("body")) body = inner;
    if (body->is_object())
      if (const boost::json::value* text = body->get_object().if_contains("string"); text != nullptr && text->is_string())
        body = text;
    if (body->is_string()) {
      boost::system::error_code ec;
      boost::json::value parsed = krino::json::parse(body->get_string(), ec);
      if (ec || !parsed.is_object()) return nullptr;
      parsed_.push_back(std::move(parsed));
      return &parsed_.back().get_object();
    }
    return body->is_object() ? &body->get_object() : nullptr;
  }

  std::vector<Exchange> exchanges_;
  std::deque<boost::json::value> parsed_;
};

// How sure an API extractor is that `recording` is its API's: 95 when a reply is one of its reply
// bodies (`is_reply`), 50 when only a request is (`is_api` without such a reply), 0 otherwise.
template <class IsReply, class IsApi>
int recording_confidence(const Recording& recording, IsReply is_reply, IsApi is_api) {
  int best = 0;
  for (const Exchange& exchange : recording.exchanges()) {
    if (exchange.response != nullptr && is_reply(*exchange.response)) return 95;
    if (is_api(exchange)) best = 50;
  }
  return best;
}

// Reads a recording the way the API extractors do: the trace is the conversation of the LAST
// exchange in `api` (its request's history, then its reply), since each request of an agent loop
// carries the whole conversation so far; every exchange's reply counts as a model call, whatever its
// API, so a recording that mixes providers still adds up its usage. `is_api` says whether an
// exchange is in the extractor's API; `read` adds that exchange's request history and reply to the
// builder, without the model call. Throws krino::Error when no exchange is in the API.
template <class IsApi, class Read>
void add_recording(TraceBuilder& builder, const Recording& recording, IsApi is_api, Read read, std::string_view api) {
  const std::vector<Exchange>& exchanges = recording.exchanges();
  std::optional<std::size_t> last;
  for (std::size_t i = 0; i < exchanges.size(); ++i)
    if (is_api(exchanges[i])) last = i;
  if (!last)
    throw invalid_argument("the recording holds " + std::to_string(exchanges.size()) + " exchange" +
                           (exchanges.size() == 1 ? "" : "s") + ", none of them with the " + std::string(api) + " API");
  for (std::size_t i = 0; i < exchanges.size(); ++i) {
    const Exchange& exchange = exchanges[i];
    if (i == *last) read(exchange);
    else if (!is_api(exchange))
      builder.note("exchange " + std::to_string(i) + " is not a " + std::string(api) +
                   " exchange: only its usage is counted");
    if (exchange.response != nullptr) {
      ModelCall call = read_model_call(*exchange.response, exchange.request);
      if (!call.model.empty() || !call.usage.empty()) builder.model_call(std::move(call));
    }
  }
}

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_RECORDING_HPP
