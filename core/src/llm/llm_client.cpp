#include "krino/core/llm/llm_client.hpp"

#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/llm/circuit_breaker.hpp"
#include "krino/core/llm/concurrency_limiter.hpp"
#include "krino/core/llm/judge_request.hpp"
#include "krino/core/llm/llm_transport.hpp"
#include "krino/core/llm/rate_limiter.hpp"
#include "krino/core/llm/reply_cache.hpp"
#include "krino/core/llm/reply_parsing.hpp"
#include "krino/core/net/cancellable_wait.hpp"
#include "krino/core/net/http_client.hpp"
#include "krino/core/usage/cost_rollup.hpp"

#include <krino/json_extract.hpp>
#include <krino/event/values.hpp>
#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>
#include <krino/json_parse.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <variant>

namespace krino::core {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

// One configured model and the limits it enforces across every call to it.
struct ModelLane {
  LlmConfig config;
  LlmTransport transport;
  RateLimiter rate;
  ConcurrencyLimiter window;
  CircuitBreaker breaker;

  ModelLane(HttpClient& http, LlmConfig c)
      : config(c),
        transport(http, std::move(c)),
        rate(RateLimits{to_rate(config.requests_per_minute), to_rate(config.tokens_per_minute)}, Clock::now()),
        window(static_cast<int>(config.max_concurrency)),
        breaker(CircuitBreakerOptions{config.breaker_failures, std::chrono::milliseconds(config.breaker_cooldown_ms)}) {}

  static std::optional<double> to_rate(const std::optional<std::int64_t>& per_minute) {
    if (!per_minute) return std::nullopt;
    return static_cast<double>(*per_minute);
  }
};

struct LlmClient::Impl {
  explicit Impl(boost::asio::io_context& context) : io(context) {}

  LlmClientOptions options;
  boost::asio::io_context& io;  // the shared I/O service's
  std::unique_ptr<HttpClient> http;
  std::vector<std::unique_ptr<ModelLane>> lanes;
  std::vector<std::string> names;
  std::optional<ReplyCache> cache;

  mutable std::mutex stats_mutex;
  LlmClientStats stats;
  CostRollup cost;

  ModelLane* lane(const std::string& name) {
    for (auto& l : lanes)
      if (l->config.name == name) return l.get();
    return nullptr;
  }

  void count(void (*update)(LlmClientStats&)) {
    std::lock_guard lock(stats_mutex);
    update(stats);
  }

  // The cache must never fail a run, but a cache that silently never stores is a surprise on the
  // bill: the first problem of a run is said once, on the options' warn channel.
  std::atomic<bool> cache_warned{false};
  void warn_about_cache(const std::string& problem) {
    if (cache_warned.exchange(true)) return;
    const std::string text = "judge cache: " + problem + "; replies are not cached (further problems are not reported)";
    if (options.warn) options.warn(text);
    else std::fprintf(stderr, "krino: warning: %s\n", text.c_str());
  }
};

namespace {

// Rough tokens of a request before the provider counts them: a quarter of the characters of the
// messages, plus the reply budget. Only the rate limiter's estimate; settled with real usage.
std::int64_t estimate_tokens(const json::object& request, const LlmConfig& config) {
  std::size_t characters = 0;
  if (const auto* messages = request.if_contains("messages"); messages != nullptr && messages->is_array())
    for (const auto& m : messages->get_array())
      if (m.is_object())
        if (const auto* content = m.get_object().if_contains("content"); content != nullptr && content->is_string())
          characters += content->get_string().size();
  const std::int64_t reply = request.contains("max_tokens") && request.at("max_tokens").is_int64()
                                 ? request.at("max_tokens").get_int64()
                                 : config.max_tokens.value_or(512);
  return static_cast<std::int64_t>(characters / 4 + 1) + reply;
}

krino_status give_up_status(const LlmAttempt& attempt) {
  switch (attempt.outcome) {
    case AttemptOutcome::timeout: return KRINO_DEADLINE_EXCEEDED;
    case AttemptOutcome::connection_error: return KRINO_UNAVAILABLE;
    case AttemptOutcome::invalid_reply: return KRINO_UNAVAILABLE;
    case AttemptOutcome::reply: return KRINO_INTERNAL;
    case AttemptOutcome::http_error: break;
  }
  if (attempt.http_status == 429) return KRINO_RESOURCE_EXHAUSTED;
  if (attempt.http_status == 401 || attempt.http_status == 403) return KRINO_PERMISSION_DENIED;
  if (attempt.http_status >= 500) return KRINO_UNAVAILABLE;
  return KRINO_INVALID_ARGUMENT;
}

AttemptFailure failure_of(const LlmAttempt& attempt) {
  switch (attempt.outcome) {
    case AttemptOutcome::timeout: return AttemptFailure::timed_out();
    case AttemptOutcome::connection_error: return AttemptFailure::connection_failed();
    // A 2xx the provider's format does not explain (a proxy's page, a cut body) is treated like
    // a bad gateway: worth another try, and still bounded by max_retries.
    case AttemptOutcome::invalid_reply: return AttemptFailure::status(502);
    default: return AttemptFailure::status(static_cast<int>(attempt.http_status));
  }
}


// The tool calls of a reply as krino.judgeresponse/1 carries them: arguments as an object, or as the
// model's raw text when that is not a JSON object (the caller decides what a malformed call means).
std::string tool_calls_json(const std::vector<ProviderToolCall>& calls) {
  if (calls.empty()) return {};
  json::array out;
  for (const auto& call : calls) {
    boost::system::error_code ec;
    json::value arguments = krino::json::parse(call.arguments, ec);
    if (ec || !arguments.is_object()) arguments = json::string(call.arguments);
    out.push_back(json::object{{"id", call.id}, {"name", call.name}, {"arguments", std::move(arguments)}});
  }
  return ::krino::json::to_compact_json(out);
}

struct ReplyDocument {
  const std::string& content;
  const std::string& model;
  const std::string& tool_calls;   // compact JSON array or empty
  const std::string& stop_reason;  // may be empty
  std::optional<std::int64_t> tokens_in;
  std::optional<std::int64_t> tokens_out;
  std::optional<double> cost;
  bool cached = false;
  int attempts = 0;
};

// Written straight into its text, members in the order the document has always had: building a
// Boost.JSON object first (a node per member) and serialising it cost a judge call about 12,000
// instructions, on the I/O thread. The bytes are those append_compact_json writes.
std::string response_document(const ReplyDocument& reply) {
  using krino::event::append_optional;
  std::string out;
  out.reserve(reply.content.size() + reply.model.size() + reply.tool_calls.size() + reply.stop_reason.size() + 160);
  out += "{\"content\":";
  ::krino::json::append_json_string(out, reply.content);
  out += ",\"model\":";
  ::krino::json::append_json_string(out, reply.model);
  out += ",\"usage\":{\"tokensIn\":";
  append_optional(out, reply.tokens_in);
  out += ",\"tokensOut\":";
  append_optional(out, reply.tokens_out);
  out += "},\"costUsd\":";
  append_optional(out, reply.cost);
  out += ",\"cached\":";
  krino::event::append_bool(out, reply.cached);
  out += ",\"attempts\":";
  krino::event::append_integer(out, reply.attempts);
  // Re-read and written again as every other value is, so the document's numbers keep one form.
  if (!reply.tool_calls.empty()) {
    out += ",\"toolCalls\":";
    ::krino::json::append_compact_json(out, krino::json::parse(reply.tool_calls));
  }
  if (!reply.stop_reason.empty()) {
    out += ",\"stopReason\":";
    ::krino::json::append_json_string(out, reply.stop_reason);
  }
  out += '}';
  return out;
}

// One logical call, alive until its completion runs: the attempts, their timers and the repair.
class Call : public std::enable_shared_from_this<Call> {
 public:
  using Done = std::function<void(LlmCallOutcome)>;

  // `request` is resolved once, here and not per attempt; `estimated_tokens` is the rate limiter's guess.
  Call(LlmClient::Impl& service, ModelLane& lane, JudgeRequest request, std::int64_t estimated_tokens,
       std::optional<ReplyCacheKey> key, uint64_t seed, const Cancellation* cancellation, Done done)
      : service_(service),
        lane_(lane),
        request_(std::move(request)),
        key_(std::move(key)),
        json_reply_(request_.json_reply),
        jitter_(seed),
        cancellation_(cancellation),
        done_(std::move(done)),
        deadline_(Clock::now() + std::chrono::milliseconds(lane_.config.call_budget_ms)),
        timer_(std::make_shared<boost::asio::steady_timer>(service.io)),
        estimated_tokens_(estimated_tokens) {}

  void start() {
    boost::asio::post(service_.io, [self = shared_from_this()] { self->begin(); });
  }

 private:
  // The breaker first: a model that keeps failing is not asked, and the item says why at once.
  void begin() {
    const CircuitBreaker::Admission admission = lane_.breaker.admit(Clock::now());
    if (!admission.go) return finish_failure(KRINO_UNAVAILABLE, role() + ": " + admission.refusal, Breaker::leave);
    probe_ = admission.probe;
    admit();
  }

  void admit() {
    if (cancelled(cancellation_)) return cancel("the run was cancelled before the call was sent");
    const RateAdmission admission = lane_.rate.try_acquire(Clock::now(), estimated_tokens_);
    if (!admission.go) {
      if (admission.not_before >= deadline_)
        return finish_failure(KRINO_DEADLINE_EXCEEDED, role() + ": the rate limit (requests_per_minute, tokens_per_minute) " +
                                                           "would hold the call past its time budget" + budget_text(),
                              Breaker::leave);
      wait_cancellably(timer_, admission.not_before, cancellation_, [self = shared_from_this()](bool stopped) {
        if (stopped) return self->cancel("cancelled while waiting for the rate limit");
        self->admit();
      });
      return;
    }
    lane_.window.acquire([self = shared_from_this()](ConcurrencySlot slot) {
      self->slot_ = slot;
      boost::asio::post(self->service_.io, [self] { self->send(); });
    });
  }

  void send() {
    if (cancelled(cancellation_)) {
      lane_.window.release(slot_, SlotOutcome::other);
      return cancel("the run was cancelled before the call was sent");
    }
    ++attempts_;
    service_.count([](LlmClientStats& s) { ++s.http_attempts; });
    // The last attempt gets what is left of the budget, not a whole timeout_ms.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
    const auto timeout = std::clamp(left, std::chrono::milliseconds(1), std::chrono::milliseconds(lane_.config.timeout_ms));
    lane_.transport.send(request_, [self = shared_from_this()](LlmAttempt attempt) { self->on_attempt(std::move(attempt)); },
                         timeout);
  }

  void on_attempt(LlmAttempt attempt) {
    const SlotOutcome slot_outcome = attempt.outcome == AttemptOutcome::reply ? SlotOutcome::success
                                     : attempt.http_status == 429          ? SlotOutcome::rate_limited
                                                                           : SlotOutcome::other;
    lane_.window.release(slot_, slot_outcome);
    if (attempt.outcome == AttemptOutcome::reply) return on_reply(std::move(attempt.reply));

    const RetryPolicy policy = [&] {
      RetryPolicy p = service_.options.retry;
      p.max_attempts = static_cast<int>(lane_.config.max_retries) + 1;
      return p;
    }();
    std::optional<std::string_view> retry_after;
    if (attempt.retry_after) retry_after = *attempt.retry_after;
    const RetryDecision decision =
        decide_retry(policy, failed_attempts_ + 1, failure_of(attempt), retry_after, std::chrono::system_clock::now(), jitter_.engine());
    ++failed_attempts_;
    const std::string last = attempt.error.empty() ? std::string() : " (" + attempt.error + ")";
    if (const auto* wait = std::get_if<RetryAfterDelay>(&decision)) {
      const std::string tried = "gave up after " + std::to_string(attempts_) + (attempts_ == 1 ? " attempt" : " attempts");
      // Other calls have opened the breaker meanwhile: the model is down, waiting helps nobody.
      if (auto refusal = lane_.breaker.refusing(Clock::now()))
        return finish_failure(give_up_status(attempt), role() + ": " + tried + "; " + *refusal, Breaker::leave);
      if (Clock::now() + wait->delay >= deadline_) {
        return finish_failure(give_up_status(attempt),
                              role() + ": " + tried + ": the next would start after the call's time budget" + budget_text() +
                                  (wait->from_retry_after_header ? " (the server asked to wait " : " (the back-off is ") +
                                  seconds_text(wait->delay) + ")" + last,
                              Breaker::count);
      }
      service_.count([](LlmClientStats& s) { ++s.retries; });
      ++retries_;
      const std::string waited = seconds_text(wait->delay);
      wait_cancellably(timer_, Clock::now() + wait->delay, cancellation_,
                       [self = shared_from_this(), waited, last](bool stopped) {
                         if (stopped) return self->cancel("cancelled while waiting " + waited + " to try again" + last);
                         self->admit();
                       });
      return;
    }
    const krino_status status = give_up_status(attempt);
    // A request the model refuses (400, 404, 422) says nothing about whether the model is up.
    finish_failure(status, role() + ": " + std::get<GiveUp>(decision).reason + last,
                   status == KRINO_INVALID_ARGUMENT ? Breaker::leave : Breaker::count);
  }

  void on_reply(ProviderReply reply) {
    const std::int64_t in = reply.tokens_in ? static_cast<std::int64_t>(*reply.tokens_in) : 0;
    const std::int64_t out = reply.tokens_out ? static_cast<std::int64_t>(*reply.tokens_out) : 0;
    lane_.rate.settle(Clock::now(), estimated_tokens_,
                      reply.tokens_in || reply.tokens_out ? in + out : estimated_tokens_);
    if (reply.tokens_in) tokens_in_ = tokens_in_.value_or(0) + in;
    if (reply.tokens_out) tokens_out_ = tokens_out_.value_or(0) + out;

    std::string content = std::move(reply.content);
    if (json_reply_) {
      JsonExtraction extraction = extract_json(content, JsonShape::object_or_array);
      if (!extraction.value) {
        if (repaired_) {
          lane_.breaker.succeeded();  // the model answers; what it says is the item's problem
          return finish_failure(KRINO_INTERNAL,
                                role() + " replied with no usable JSON, even when asked again: " + extraction.failure +
                                    "; reply begins: " + ::krino::json::reply_excerpt(lane_.config.api_key.redact(content)),
                                Breaker::leave);
        }
        // One repair round: show the model its reply and ask again for the JSON alone.
        repaired_ = true;
        service_.count([](LlmClientStats& s) { ++s.repairs; });
        request_.messages.push_back(JudgeMessage{"assistant", content});
        request_.messages.push_back(JudgeMessage{"user", repair_instruction(extraction.failure, JsonShape::object_or_array)});
        return admit();
      }
      content = ::krino::json::to_compact_json(*extraction.value);
    }
    succeed(std::move(content), reply.model.empty() ? lane_.config.model : reply.model, tool_calls_json(reply.tool_calls),
            reply.stop_reason);
  }

  void succeed(std::string content, const std::string& model, const std::string& tool_calls, const std::string& stop_reason) {
    lane_.breaker.succeeded();
    const std::optional<double> cost = service_.options.prices.cost_usd(model, tokens_in_, tokens_out_);
    if (service_.cache && key_) {
      ReplyCacheEntry entry{content, model, tool_calls, stop_reason, tokens_in_, tokens_out_, {}};
      // A failed store is only a lost hit, but said once.
      if (auto problem = service_.cache->store(*key_, entry, std::chrono::system_clock::now())) service_.warn_about_cache(*problem);
    }
    {
      std::lock_guard lock(service_.stats_mutex);
      service_.stats.tokens_in += static_cast<uint64_t>(tokens_in_.value_or(0));
      service_.stats.tokens_out += static_cast<uint64_t>(tokens_out_.value_or(0));
      service_.cost.add(tokens_in_, tokens_out_, cost);
    }
    done_(LlmCallOutcome{KRINO_OK,
                           response_document({content, model, tool_calls, stop_reason, tokens_in_, tokens_out_, cost, false, attempts_}),
                           JudgeCallRecord{true, false, attempts_, retries_, repaired_, tokens_in_, tokens_out_, cost}});
  }

  // Whether a failure counts towards the model's circuit breaker.
  enum class Breaker { count, leave };

  void finish_failure(krino_status status, const std::string& message, Breaker effect) {
    std::string redacted = lane_.config.api_key.redact(message);
    if (effect == Breaker::count) {
      // The breaker quotes the failure without the role, which its own message names already.
      const std::string prefix = role() + ": ";
      const std::string_view why = std::string_view(redacted).substr(redacted.rfind(prefix, 0) == 0 ? prefix.size() : 0);
      lane_.breaker.failed(Clock::now(), probe_, utf8::excerpt(why, 200));
    } else {
      lane_.breaker.abandoned(probe_);
    }
    service_.count([](LlmClientStats& s) { ++s.failures; });
    done_(LlmCallOutcome{status, std::move(redacted),
                           JudgeCallRecord{false, false, attempts_, retries_, repaired_, tokens_in_, tokens_out_, std::nullopt}});
  }

  void cancel(const std::string& why) { finish_failure(KRINO_CANCELLED, role() + ": " + why, Breaker::leave); }

  std::string role() const { return describe_model_role(lane_.config); }
  std::string budget_text() const {
    return " of " + seconds_text(std::chrono::milliseconds(lane_.config.call_budget_ms)) + " (call_budget_ms)";
  }
  static std::string seconds_text(std::chrono::milliseconds wait) {
    if (wait.count() % 1000 == 0) return std::to_string(wait.count() / 1000) + " s";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(wait.count()) / 1000.0);
    return text;
  }

  LlmClient::Impl& service_;
  ModelLane& lane_;
  JudgeRequest request_;
  std::optional<ReplyCacheKey> key_;
  bool json_reply_;
  RetryJitter jitter_;
  const Cancellation* cancellation_;
  Done done_;
  const Clock::time_point deadline_;  // the call's budget runs out here
  std::shared_ptr<boost::asio::steady_timer> timer_;  // one wait at a time: rate limit or back-off
  bool probe_ = false;  // the breaker let this call through to test a model it had stopped asking
  std::int64_t estimated_tokens_ = 0;
  ConcurrencySlot slot_{};
  int attempts_ = 0;
  int failed_attempts_ = 0;
  int retries_ = 0;
  bool repaired_ = false;
  std::optional<std::int64_t> tokens_in_;
  std::optional<std::int64_t> tokens_out_;
};

}  // namespace

LlmClient::LlmClient(IoService& io, LlmClientOptions options) : impl_(std::make_unique<Impl>(io.context())) {
  Impl& s = *impl_;
  if (options.models.empty()) throw std::invalid_argument("LlmClient: no model configured");
  HttpClientOptions http;
  http.extra_ca_pem = options.extra_ca_pem;
  std::int64_t widest = 1;
  for (const auto& m : options.models) widest = std::max(widest, m.max_concurrency);
  http.max_idle_per_origin = static_cast<std::size_t>(widest);
  s.http = std::make_unique<HttpClient>(s.io, http);
  for (const auto& m : options.models) {
    s.names.push_back(m.name);
    s.lanes.push_back(std::make_unique<ModelLane>(*s.http, m));
  }
  if (options.default_model.empty()) options.default_model = options.models.front().name;
  if (s.lane(options.default_model) == nullptr)
    throw std::invalid_argument("LlmClient: the default model '" + options.default_model + "' is not configured");
  s.options = std::move(options);
  if (s.options.cache_dir) {
    s.cache.emplace(*s.options.cache_dir);
    if (auto problem = s.cache->prepare()) {
      s.warn_about_cache(*problem);
      s.cache.reset();
    }
  }
}

// Every call has completed when the last caller returns from call(); what is left on the shared
// I/O service (idle connections) belongs to the HTTP client, which closes it.
LlmClient::~LlmClient() = default;

const std::vector<std::string>& LlmClient::model_names() const { return impl_->names; }

size_t LlmClient::capacity() const noexcept {
  size_t total = 0;
  for (const auto& lane : impl_->lanes) total += static_cast<size_t>(std::max<std::int64_t>(1, lane->config.max_concurrency));
  return total;
}

LlmClientStats LlmClient::stats() const {
  std::lock_guard lock(impl_->stats_mutex);
  LlmClientStats copy = impl_->stats;
  copy.cost_usd = impl_->cost.total();
  return copy;
}

namespace {

// A judge request read, checked and resolved: all a Call needs, with nothing pointing into the
// request's parse.
struct ReadRequest {
  ModelLane* lane = nullptr;
  JudgeRequest resolved;
  std::int64_t estimated_tokens = 0;
  std::optional<ReplyCacheKey> key;
};

// Either the request read, or the call's outcome already (an invalid request, a cache hit). The
// parse lives in an arena of this function's own (one block instead of a malloc per key, string and
// table, about 25 a judge call), gone before the call waits: nothing read from it is kept in it
// (strings are copied, and values are assigned into objects of their own, which copy into their
// own memory).
std::variant<ReadRequest, LlmCallOutcome> read_request(LlmClient::Impl& s, std::string_view request_json, uint64_t seed) {
  json::monotonic_resource arena(request_json.size() * 2 + 1024);
  boost::system::error_code ec;
  json::value parsed = krino::json::parse(request_json, ec, &arena);
  if (ec || !parsed.is_object()) return LlmCallOutcome{KRINO_INVALID_ARGUMENT, "the judge request is not a JSON object", {}};
  json::object& request = parsed.get_object();

  std::string name = s.options.default_model;
  if (const auto* named = request.if_contains("judge")) {
    if (!named->is_string()) return LlmCallOutcome{KRINO_INVALID_ARGUMENT, "the judge request's 'judge' must be a string", {}};
    name = std::string(named->get_string());
  }
  ReadRequest read;
  read.lane = s.lane(name);
  if (read.lane == nullptr) {
    std::string known;
    for (const auto& n : s.names) known += (known.empty() ? "" : ", ") + n;
    return LlmCallOutcome{KRINO_INVALID_ARGUMENT, "no judge named '" + name + "' (configured: " + known + ")", {}};
  }
  const LlmConfig& config = read.lane->config;
  request.erase("judge");
  // What decides the answer is written into the request, so the cache key and the wire agree.
  if (!request.contains("seed")) {
    if (config.seed) request["seed"] = *config.seed;
    else request["seed"] = static_cast<std::int64_t>(seed & 0x7fffffffffffffffULL);
  }
  // Resolved once for every attempt. The request keeps what the resolution decided (the key and the
  // estimate read it), so resolving it again would give the same JudgeRequest.
  try {
    read.resolved = resolve_judge_request(request, config);
    request["temperature"] = read.resolved.temperature;
    if (read.resolved.max_tokens) request["max_tokens"] = *read.resolved.max_tokens;
  } catch (const InvalidJudgeRequest& e) {
    return LlmCallOutcome{KRINO_INVALID_ARGUMENT, e.what(), {}};
  }
  read.estimated_tokens = estimate_tokens(request, config);

  if (s.cache) {
    // The key's summary is built by assignment, so it holds copies, not the arena's values.
    read.key = make_reply_cache_key(LlmCallIdentity{std::string(provider_name(config.provider)),
                                                    config.base_url.origin() + config.base_url.target, config.model,
                                                    json::object(request, json::storage_ptr())});
    if (auto hit = s.cache->lookup(*read.key)) {
      s.count([](LlmClientStats& st) { ++st.cache_hits; });
      return LlmCallOutcome{KRINO_OK,
                            response_document({hit->content, hit->model, hit->tool_calls, hit->stop_reason, hit->tokens_in,
                                               hit->tokens_out, 0.0, true, 0}),
                            JudgeCallRecord{true, true, 0, 0, false, hit->tokens_in, hit->tokens_out, 0.0}};
    }
  }
  return read;
}

}  // namespace

LlmCallOutcome LlmClient::call(std::string_view request_json, uint64_t seed, const Cancellation* cancellation) {
  Impl& s = *impl_;
  s.count([](LlmClientStats& st) { ++st.calls; });
  auto read = read_request(s, request_json, seed);
  if (auto* answered = std::get_if<LlmCallOutcome>(&read)) return std::move(*answered);
  ReadRequest& request = std::get<ReadRequest>(read);
  if (cancelled(cancellation))
    return {KRINO_CANCELLED, describe_model_role(request.lane->config) + ": the run was cancelled before the call was sent", {}};
  return await_callback<LlmCallOutcome>([&](Call::Done done) {
    std::make_shared<Call>(s, *request.lane, std::move(request.resolved), request.estimated_tokens, std::move(request.key), seed,
                           cancellation, std::move(done))
        ->start();
  });
}

}  // namespace krino::core
