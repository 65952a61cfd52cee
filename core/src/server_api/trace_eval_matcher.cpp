#include "krino/core/server_api/trace_eval_matcher.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <set>
#include <utility>

namespace krino::core::server_api {

struct TraceEvalMatcher::CompiledRule {
  std::string id;
  std::optional<std::string> project;
  std::optional<std::string> span_name;
  std::optional<std::string> attribute_key;
  std::optional<boost::json::value> attribute_value;
  bool whole_trace = true;
  double rate = 1.0;
};

struct TraceEvalMatcher::TenantRules {
  std::vector<CompiledRule> rules;
  bool needs_attributes = false;
  std::int64_t loaded_at_ms = 0;
  std::uint64_t generation = 0;
};

double sampling_point(std::string_view rule_id, std::string_view trace_id, std::string_view span_id) {
  // FNV-1a, 64 bits: fully specified, so every replica and every version decides alike.
  std::uint64_t hash = 14695981039346656037ull;
  const auto feed = [&hash](std::string_view text) {
    for (const char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
  };
  feed(rule_id);
  feed("/");
  feed(trace_id);
  if (!span_id.empty()) {
    feed("/");
    feed(span_id);
  }
  // FNV-1a alone leaves its high bits nearly fixed for ids that differ in their last digits (as
  // sequential trace ids do): MurmurHash3's 64-bit finaliser spreads every input bit over them.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdull;
  hash ^= hash >> 33;
  hash *= 0xc4ceb9fe1a85ec53ull;
  hash ^= hash >> 33;
  // The top 53 bits: every value is a double exactly, and below 1.
  return static_cast<double>(hash >> 11) * 0x1.0p-53;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative, with one backtrack point (the last `*`): linear in practice, never recursive.
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

TraceEvalMatcher::TraceEvalMatcher(store::Store& store, TraceEvalMatcherOptions options) : store_(store), options_(std::move(options)) {}

TraceEvalMatcher::~TraceEvalMatcher() = default;

std::int64_t TraceEvalMatcher::now() const {
  if (options_.now_ms) return options_.now_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void TraceEvalMatcher::invalidate() { ++generation_; }

std::shared_ptr<const TraceEvalMatcher::TenantRules> TraceEvalMatcher::rules_of(const std::optional<std::string>& tenant, std::int64_t at) {
  const std::string key = tenant ? "t:" + *tenant : std::string();
  const std::uint64_t generation = generation_.load();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = cache_.find(key);
    if (found != cache_.end() && found->second->generation == generation && at - found->second->loaded_at_ms < options_.refresh_ms)
      return found->second;
  }
  auto fresh = std::make_shared<TenantRules>();
  fresh->loaded_at_ms = at;
  fresh->generation = generation;
  for (const store::TraceEvalRule& rule : store_.enabled_trace_eval_rules(tenant)) {
    CompiledRule compiled;
    compiled.id = rule.id;
    compiled.project = rule.project;
    compiled.span_name = rule.span_name;
    compiled.attribute_key = rule.attribute_key;
    if (rule.attribute_value) {
      boost::json::error_code ec;
      boost::json::value value = krino::json::parse(*rule.attribute_value, ec);
      if (ec) continue;  // the routes wrote it: a value that does not read back matches nothing
      compiled.attribute_value = std::move(value);
    }
    compiled.whole_trace = rule.target != "SPAN";
    compiled.rate = rule.sampling_rate;
    fresh->needs_attributes = fresh->needs_attributes || compiled.attribute_key.has_value();
    fresh->rules.push_back(std::move(compiled));
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  cache_[key] = fresh;
  return fresh;
}

void TraceEvalMatcher::match(const std::optional<std::string>& tenant, std::span<const store::SpanRecord> spans) {
  if (spans.empty()) return;
  const std::int64_t at = now();
  std::vector<store::OnlineEvalMatch> matches;
  try {
    const std::shared_ptr<const TenantRules> rules = rules_of(tenant, at);
    if (rules->rules.empty()) return;
    std::set<std::pair<std::size_t, std::string_view>> traces_seen;  // (rule, trace) of TRACE rules
    for (const store::SpanRecord& span : spans) {
      std::optional<boost::json::value> attributes;  // parsed once a rule needs them
      for (std::size_t r = 0; r < rules->rules.size(); ++r) {
        const CompiledRule& rule = rules->rules[r];
        if (rule.project && (!span.project || *span.project != *rule.project)) continue;
        if (rule.span_name && !glob_match(*rule.span_name, span.name)) continue;
        if (rule.whole_trace && traces_seen.count({r, span.trace_id})) continue;
        if (rule.attribute_key) {
          if (!attributes) {
            boost::json::error_code ec;
            attributes = krino::json::parse(span.attributes, ec);
            if (ec) attributes = boost::json::value();
          }
          const auto* object = attributes->if_object();
          const auto* value = object ? object->if_contains(*rule.attribute_key) : nullptr;
          if (value == nullptr) continue;
          if (rule.attribute_value && !(*value == *rule.attribute_value)) continue;
        }
        store::OnlineEvalMatch found;
        found.rule_id = rule.id;
        found.trace_id = span.trace_id;
        if (rule.whole_trace) {
          traces_seen.insert({r, span.trace_id});
          found.available_at_ms = at + options_.trace_delay_ms;
        } else {
          found.span_id = span.span_id;
          found.available_at_ms = at;
        }
        found.sampled = sampling_point(found.rule_id, found.trace_id, found.span_id) < rule.rate;
        matches.push_back(std::move(found));
      }
    }
    if (matches.empty()) return;
    const store::OnlineEvalEnqueued outcome = store_.enqueue_online_evals(tenant, matches, options_.max_attempts);
    counters_.enqueued += static_cast<std::uint64_t>(outcome.enqueued);
    counters_.sampled_out += static_cast<std::uint64_t>(outcome.sampled_out);
    if (outcome.enqueued > 0 && options_.enqueued) options_.enqueued();
  } catch (const std::exception& error) {
    // The spans are stored: the export stays accepted, and these matches are not scored.
    ++counters_.enqueue_failed;
    std::string line = "{\"event\":\"online_eval_enqueue_failed\",\"matches\":";
    line.append(std::to_string(matches.size())).append(",\"message\":");
    krino::json::append_json_string(line, error.what());
    line.append("}\n");
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
}

void TraceEvalMatcher::count_spans(std::size_t accepted, std::size_t rejected) {
  counters_.spans_accepted += accepted;
  counters_.spans_rejected += rejected;
}

std::string online_eval_metrics_text(const OnlineEvalCounters& counters) {
  const auto line = [](std::string& out, std::string_view family, std::string_view outcome, std::uint64_t value) {
    out.append(family).append("{outcome=\"").append(outcome).append("\"} ").append(std::to_string(value)).append("\n");
  };
  std::string out;
  out.append("# HELP krino_trace_spans_total OTLP spans this server received: stored (accepted) or left out of their export (rejected).\n");
  out.append("# TYPE krino_trace_spans_total counter\n");
  line(out, "krino_trace_spans_total", "accepted", counters.spans_accepted.load());
  line(out, "krino_trace_spans_total", "rejected", counters.spans_rejected.load());
  out.append("# HELP krino_online_evals_total Online evaluations of traces on this server: matches queued or sampled out at ingestion "
             "(enqueue_failed: lost to a store error), evaluations written scored or as errors.\n");
  out.append("# TYPE krino_online_evals_total counter\n");
  line(out, "krino_online_evals_total", "enqueued", counters.enqueued.load());
  line(out, "krino_online_evals_total", "sampled_out", counters.sampled_out.load());
  line(out, "krino_online_evals_total", "enqueue_failed", counters.enqueue_failed.load());
  line(out, "krino_online_evals_total", "scored", counters.scored.load());
  line(out, "krino_online_evals_total", "error", counters.errors.load());
  return out;
}

}  // namespace krino::core::server_api
