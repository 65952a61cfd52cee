#include "html_reporter.hpp"

#include "html_page.hpp"
#include "item_data.hpp"

#include <krino/report/dispatch.hpp>

#include <algorithm>

namespace krino::html {

HtmlReporter::HtmlReporter(const HtmlOptions& options)
    : options_(options),
      target_(options.path, report::ReportTarget::Mode::replace),
      problems_(target_.spool_directory()),
      others_(target_.spool_directory()) {}

HtmlReporter::~HtmlReporter() {
  if (!finished_) report::finish_from_destructor("html", [this] { write_page("interrupted"); });
}

void HtmlReporter::on_experiment_finished(const report::Finished& finished) {
  progress_.on_experiment_finished(finished);
  write_page(finished.cancelled() ? "cancelled" : "completed");
}

void HtmlReporter::on_run_started(const report::RunStarted& run) {
  if (!progress_.first_run()) {
    evaluators_ = run.evaluators;
    for (const auto& e : evaluators_) {
      evaluator_names_.push_back(e.name);
      histograms_.emplace_back(options_.histogram_bins);
    }
  }
  progress_.on_run_started(run);
}

void HtmlReporter::on_item(const report::ItemFinished& item) {
  const report::ItemStatus status = progress_.on_item(item);
  for (const auto& result : item.results) {
    const auto it = std::find(evaluator_names_.begin(), evaluator_names_.end(), result.name);
    if (it == evaluator_names_.end()) continue;
    const auto k = static_cast<std::size_t>(it - evaluator_names_.begin());
    // run_started carries a threshold only when the experiment file sets one; an evaluator on its
    // default threshold (often 1.0) states it on every result instead.
    if (!evaluators_[k].threshold && result.threshold) evaluators_[k].threshold = result.threshold;
    ScoreHistogram& histogram = histograms_[k];
    if (result.score) histogram.add(*result.score);
    else histogram.add_null();
  }

  const uint64_t cap = options_.max_items;
  const bool problem = status == report::ItemStatus::failed || status == report::ItemStatus::errored;
  uint64_t& kept = problem ? problems_kept_ : others_kept_;
  if (cap > 0 && kept >= cap) return;
  report::Spool& spool = problem ? problems_ : others_;
  scratch_.clear();
  if (kept > 0) scratch_ += ',';
  append_item_json(scratch_, item, evaluator_names_, options_.max_text_chars);
  spool.write(scratch_);
  ++kept;
  if (!problem && cap > 0) other_ends_.push_back(spool.size());
}

void HtmlReporter::write_page(const std::string& status) {
  finished_ = true;
  const uint64_t cap = options_.max_items;
  const uint64_t problems_shown = cap > 0 ? std::min(problems_kept_, cap) : problems_kept_;
  const uint64_t others_shown = cap > 0 ? std::min(others_kept_, cap - problems_shown) : others_kept_;

  PageContent content;
  content.progress = &progress_;
  content.status = status;
  content.evaluators = evaluators_;
  content.histograms = &histograms_;
  content.items_in_table = problems_shown + others_shown;
  content.problems_in_table = problems_shown;
  content.max_items = cap;

  report::ReportFile file(target_);
  file.write(page_start(content));
  file.write(problems_);
  if (others_shown > 0) {
    // The passing items' data starts with a comma, except the first's.
    if (problems_shown > 0) file.write(",");
    const uint64_t bytes =
        others_shown == others_kept_ || other_ends_.empty() ? others_.size() : other_ends_[others_shown - 1];
    uint64_t written = 0;
    others_.read_all([&](std::string_view chunk) {
      if (written >= bytes) return;
      const auto take = static_cast<std::size_t>(std::min<uint64_t>(chunk.size(), bytes - written));
      file.write(chunk.substr(0, take));
      written += take;
    });
  }
  file.write(page_end());
  file.commit();
}

}  // namespace krino::html
