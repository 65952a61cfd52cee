// The HTML report page around its item data: everything before the data (head, summary cards,
// evaluator table, histograms, the empty item table) and everything after it (the script).
#ifndef KRINO_HTML_HTML_PAGE_HPP
#define KRINO_HTML_HTML_PAGE_HPP

#include "score_histogram.hpp"

#include <krino/report/events.hpp>
#include <krino/report/experiment_progress.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace krino::html {

struct PageContent {
  const report::ExperimentProgress* progress = nullptr;
  std::string status;  // completed, cancelled, interrupted
  std::vector<report::EvaluatorInfo> evaluators;
  const std::vector<ScoreHistogram>* histograms = nullptr;  // one per evaluator, same order
  uint64_t items_in_table = 0;
  uint64_t problems_in_table = 0;  // failed and errored items in the table
  uint64_t max_items = 0;          // 0: no cap
};

// Ends inside the data <script> element, right where the first item's JSON goes.
std::string page_start(const PageContent& content);
// Closes the item list and the data element, then the page's script and the document.
std::string page_end();

}  // namespace krino::html

#endif  // KRINO_HTML_HTML_PAGE_HPP
