// krino C++ helper: krino::CallContext, the host's services as one call sees them: the call's seed
// and indexes, cancellation, logging and the LLM judge.
//
// Threads: a CallContext belongs to the call that received it and is used on that call's thread;
// every host function behind it is [thread-safe]. judge() blocks the calling plugin code (the host
// suspends its scheduler task meanwhile). Ownership: it points at the host's krino_host and
// krino_call_context, valid for the call only; do not keep it. The context's deadline_unix_ms is not
// offered: today's host never sets it (always 0); a later version will.
#ifndef KRINO_PLUGIN_CALL_CONTEXT_HPP
#define KRINO_PLUGIN_CALL_CONTEXT_HPP

#include <krino/plugin.h>
#include <krino/plugin/error.hpp>
#include <krino/plugin/sink.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace krino {

class CallContext {
 public:
  CallContext(const krino_host* host, const krino_call_context* ctx) : host_(host), ctx_(ctx) {}

  uint64_t seed() const { return ctx_ != nullptr ? ctx_->seed : 0; }
  uint32_t run_index() const { return ctx_ != nullptr ? ctx_->run_index : 0; }
  uint64_t item_index() const { return ctx_ != nullptr ? ctx_->item_index : 0; }
  const krino_call_context* raw() const { return ctx_; }

  bool is_cancelled() const {
    return host_ != nullptr && host_->is_cancelled != nullptr && host_->is_cancelled(host_, ctx_) != 0;
  }

  void log(krino_log_level level, std::string_view message) const {
    if (host_ != nullptr && host_->log != nullptr) host_->log(host_, level, nullptr, message.data(), message.size());
  }

  // Sends a krino.judgerequest/1 document and returns the krino.judgeresponse/1 document.
  // Throws krino::Error with the host's status when the judge cannot answer.
  boost::json::value judge(const boost::json::value& request) const;

 private:
  const krino_host* host_;
  const krino_call_context* ctx_;
};

inline boost::json::value CallContext::judge(const boost::json::value& request) const {
  if (host_ == nullptr || host_->judge == nullptr) throw Error(KRINO_UNAVAILABLE, "the host offers no judge service");
  std::string body = boost::json::serialize(request);
  detail::StringSink response;
  detail::StringSink error;
  krino_status status = host_->judge(host_, ctx_, body.data(), body.size(), &response.sink, &error.sink);
  if (status != KRINO_OK) throw Error(status, error.text.empty() ? "judge call failed" : error.text);
  boost::system::error_code ec;
  boost::json::value reply = krino::json::parse(response.text, ec);
  if (ec) throw Error(KRINO_INTERNAL, "judge reply is not valid JSON: " + ec.message());
  return reply;
}

}  // namespace krino

#endif  // KRINO_PLUGIN_CALL_CONTEXT_HPP
