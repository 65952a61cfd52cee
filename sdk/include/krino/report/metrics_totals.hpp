// Totals of the task's call metrics over items (the `metrics` of item_finished events): tokens,
// cost and latency, with the "N/M items priced" coverage of docs/judges.md#cost. Header-only.
#ifndef KRINO_REPORT_METRICS_TOTALS_HPP
#define KRINO_REPORT_METRICS_TOTALS_HPP

#include <krino/report/events.hpp>
#include <krino/report/text.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace krino::report {

class MetricsTotals {
 public:
  void add(const std::optional<CallMetrics>& metrics) {
    if (!metrics) return;
    const bool tokenized = metrics->tokens_in.has_value() || metrics->tokens_out.has_value();
    if (tokenized) ++tokenized_items_;
    if (metrics->tokens_in) tokens_in_ += *metrics->tokens_in;
    if (metrics->tokens_out) tokens_out_ += *metrics->tokens_out;
    if (metrics->cost_usd) {
      cost_usd_ += *metrics->cost_usd;
      ++costed_items_;
      if (tokenized) ++priced_items_;
    }
    if (metrics->latency_ms) {
      latency_ms_ += *metrics->latency_ms;
      ++timed_items_;
    }
  }

  bool empty() const { return tokenized_items_ == 0 && costed_items_ == 0 && timed_items_ == 0; }
  // Items with a token count (tokensIn or tokensOut), and those of them with a cost.
  uint64_t tokenized_items() const { return tokenized_items_; }
  uint64_t priced_items() const { return priced_items_; }
  double tokens_in() const { return tokens_in_; }
  double tokens_out() const { return tokens_out_; }
  // The sum of the known costs; empty when no item had one.
  std::optional<double> cost_usd() const { return costed_items_ > 0 ? std::optional<double>(cost_usd_) : std::nullopt; }
  std::optional<double> mean_latency_ms() const {
    return timed_items_ > 0 ? std::optional<double>(latency_ms_ / static_cast<double>(timed_items_)) : std::nullopt;
  }
  // "N/M items priced" when some items with tokens had no cost (the denominator is the items with
  // tokens), else "".
  std::string coverage() const {
    if (priced_items_ >= tokenized_items_) return {};
    return std::to_string(priced_items_) + "/" + std::to_string(tokenized_items_) + " items priced";
  }

  // One line for people: "1200 tokens in / 300 out, $0.0123 (9/10 items priced), mean latency 250 ms";
  // "" when no item had metrics.
  std::string describe() const {
    if (empty()) return {};
    std::string parts;
    auto add = [&](const std::string& part) {
      if (!parts.empty()) parts += ", ";
      parts += part;
    };
    if (tokenized_items_ > 0) add(count(tokens_in_) + " tokens in / " + count(tokens_out_) + " out");
    if (const auto cost = cost_usd()) {
      std::string text = "$" + fixed(*cost, 4);
      if (const std::string c = coverage(); !c.empty()) text += " (" + c + ")";
      add(text);
    }
    if (const auto latency = mean_latency_ms()) add("mean latency " + duration(*latency));
    return parts;
  }

 private:
  uint64_t tokenized_items_ = 0;
  uint64_t priced_items_ = 0;
  uint64_t costed_items_ = 0;
  uint64_t timed_items_ = 0;
  double tokens_in_ = 0;
  double tokens_out_ = 0;
  double cost_usd_ = 0;
  double latency_ms_ = 0;
};

// The judge usage of a summary as one line: "30 calls (2 cached, 1 retry), 3000 tokens in / 600 out,
// $0.0012 (9/10 items priced)".
inline std::string describe_judge(const JudgeTotals& judge) {
  std::string text = count(judge.calls) + (judge.calls == 1 ? " call" : " calls");
  std::string details;
  auto detail = [&](double n, const char* one, const char* many) {
    if (n <= 0) return;
    if (!details.empty()) details += ", ";
    details += count(n) + " " + (n == 1 ? one : many);
  };
  detail(judge.cached_calls, "cached", "cached");
  detail(judge.retries, "retry", "retries");
  detail(judge.failed_calls, "failed", "failed");
  if (!details.empty()) text += " (" + details + ")";
  if (judge.tokens_in || judge.tokens_out)
    text += ", " + count(judge.tokens_in.value_or(0)) + " tokens in / " + count(judge.tokens_out.value_or(0)) + " out";
  if (judge.cost_usd) {
    text += ", $" + fixed(*judge.cost_usd, 4);
    if (!judge.cost_coverage.empty()) text += " (" + judge.cost_coverage + ")";
  }
  return text;
}

}  // namespace krino::report

#endif  // KRINO_REPORT_METRICS_TOTALS_HPP
