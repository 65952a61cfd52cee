#include "experiment_record.hpp"

#include <krino/report/text.hpp>

namespace krino::markdown {

void ExperimentRecord::on_item(const report::ItemFinished& item) {
  const report::ItemStatus status = progress_.on_item(item);
  if (status != report::ItemStatus::failed && status != report::ItemStatus::errored) return;
  std::vector<ListedItem>& list = status == report::ItemStatus::errored ? errored_ : failed_;
  if (list.size() >= max_listed_) return;

  const std::size_t max = max_text_chars_;
  ListedItem listed;
  listed.label = report::short_line(item.label(), 80);
  listed.run_index = item.run_index;
  listed.input = report::short_line(report::section_text(item.inputs, "input"), max);
  listed.expected = report::short_line(report::section_text(item.expected_outputs, "output"), max);
  listed.actual = report::short_line(report::section_text(item.actual_outputs, "output"), max);
  for (const auto& r : item.results) {
    if (r.success) continue;
    report::Result check = r;
    check.reason = report::short_line(r.reason, max);
    listed.failed_checks.push_back(std::move(check));
  }
  if (item.error) {
    listed.error = *item.error;
    listed.error->message = report::short_line(item.error->message, max);
  }
  list.push_back(std::move(listed));
}

}  // namespace krino::markdown
