#pragma once
// `krino compare`'s output: a comparison as terminal text, JSON or Markdown.
#include "krino/core/gate/comparison.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace krino::core {

enum class ReportFormat { text, json, markdown };

struct ComparisonReportOptions {
  std::string baseline_name;   // what to call side A (its path)
  std::string candidate_name;  // side B
  std::string pairing;         // "positional" or "dataset_item_id"
  double alpha = 0.05;
  size_t max_items = 20;       // flipped items listed; the rest are counted
};

// Items whose pass/fail differs between the sides (shared items only), baseline order.
std::vector<const ItemComparison*> flipped_items(const Comparison& comparison);

boost::json::object comparison_json(const Comparison& comparison, const ComparisonReportOptions& options);
std::string render_comparison(const Comparison& comparison, const ComparisonReportOptions& options, ReportFormat format);

}  // namespace krino::core
