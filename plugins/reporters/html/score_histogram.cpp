#include "score_histogram.hpp"

#include <krino/report/markup.hpp>
#include <krino/report/text.hpp>

#include <algorithm>
#include <cmath>

namespace krino::html {
namespace {

constexpr double kWidth = 300;
constexpr double kHeight = 140;
constexpr double kLeft = 30;    // room for the count axis
constexpr double kBottom = 20;  // room for the score axis
constexpr double kTop = 8;

std::string number(double value) { return report::fixed(value, 1); }

}  // namespace

void ScoreHistogram::add(double score) {
  if (!std::isfinite(score)) return;
  const double clamped = std::clamp(score, 0.0, 1.0);
  const std::size_t bins = counts_.size();
  auto bin = static_cast<std::size_t>(clamped * static_cast<double>(bins));
  if (bin >= bins) bin = bins - 1;
  ++counts_[bin];
  ++scored_;
}

std::string ScoreHistogram::svg(const std::optional<double>& threshold, const std::string& label) const {
  const std::size_t bins = counts_.size();
  const uint64_t highest = std::max<uint64_t>(1, *std::max_element(counts_.begin(), counts_.end()));
  const double plot_width = kWidth - kLeft - 4;
  const double plot_height = kHeight - kBottom - kTop;
  const double bar_width = plot_width / static_cast<double>(bins);

  std::string out = "<svg class=\"histogram\" viewBox=\"0 0 " + number(kWidth) + " " + number(kHeight) +
                    "\" role=\"img\"";
  report::append_attribute(out, "aria-label", label);
  out += ">";
  // Axes.
  out += "<line class=\"axis\" x1=\"" + number(kLeft) + "\" y1=\"" + number(kTop + plot_height) + "\" x2=\"" +
         number(kLeft + plot_width) + "\" y2=\"" + number(kTop + plot_height) + "\"/>";
  out += "<text class=\"tick\" x=\"" + number(kLeft) + "\" y=\"" + number(kHeight - 5) + "\">0</text>";
  out += "<text class=\"tick\" x=\"" + number(kLeft + plot_width) + "\" y=\"" + number(kHeight - 5) +
         "\" text-anchor=\"end\">1</text>";
  out += "<text class=\"tick\" x=\"" + number(kLeft - 4) + "\" y=\"" + number(kTop + 8) + "\" text-anchor=\"end\">" +
         std::to_string(highest) + "</text>";
  for (std::size_t k = 0; k < bins; ++k) {
    const double low = static_cast<double>(k) / static_cast<double>(bins);
    const double high = static_cast<double>(k + 1) / static_cast<double>(bins);
    const double height = plot_height * static_cast<double>(counts_[k]) / static_cast<double>(highest);
    const char* kind = !threshold ? "bar" : low + 1e-9 >= *threshold ? "bar pass" : "bar fail";
    const std::string range = "[" + report::fixed(low, 2) + ", " + report::fixed(high, 2) + (k + 1 == bins ? "]" : ")");
    out += std::string("<rect class=\"") + kind + "\" x=\"" + number(kLeft + bar_width * static_cast<double>(k) + 1) +
           "\" y=\"" + number(kTop + plot_height - height) + "\" width=\"" + number(std::max(1.0, bar_width - 2)) +
           "\" height=\"" + number(height) + "\"><title>" + range + ": " + std::to_string(counts_[k]) +
           (counts_[k] == 1 ? " score" : " scores") + "</title></rect>";
  }
  if (threshold) {
    const double x = kLeft + plot_width * std::clamp(*threshold, 0.0, 1.0);
    out += "<line class=\"threshold\" x1=\"" + number(x) + "\" y1=\"" + number(kTop) + "\" x2=\"" + number(x) +
           "\" y2=\"" + number(kTop + plot_height) + "\"><title>threshold " + report::fixed(*threshold, 2) +
           "</title></line>";
  }
  out += "</svg>";
  return out;
}

}  // namespace krino::html
