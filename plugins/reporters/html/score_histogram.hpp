// One evaluator's score distribution, accumulated item by item, drawn as an inline SVG bar chart.
#ifndef KRINO_HTML_SCORE_HISTOGRAM_HPP
#define KRINO_HTML_SCORE_HISTOGRAM_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::html {

class ScoreHistogram {
 public:
  explicit ScoreHistogram(std::size_t bins) : counts_(bins, 0) {}

  // Bin k holds scores in [k/n, (k+1)/n); the last bin also holds 1.0. Scores outside 0..1 are
  // clamped (the host never sends them).
  void add(double score);
  void add_null() { ++nulls_; }

  const std::vector<uint64_t>& counts() const { return counts_; }
  uint64_t nulls() const { return nulls_; }
  uint64_t scored() const { return scored_; }

  // An <svg> element: a bar per bin (each with a tooltip), bars at or above `threshold` in the
  // passing colour and the others in the failing one (when a threshold is known), the threshold as
  // a dashed line, and the axis ends. `label` names the chart for screen readers.
  std::string svg(const std::optional<double>& threshold, const std::string& label) const;

 private:
  std::vector<uint64_t> counts_;
  uint64_t nulls_ = 0;
  uint64_t scored_ = 0;
};

}  // namespace krino::html

#endif  // KRINO_HTML_SCORE_HISTOGRAM_HPP
