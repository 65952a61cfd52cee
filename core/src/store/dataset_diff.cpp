#include "krino/core/store/dataset_diff.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace krino::core::store {

namespace {

// The items of one side not yet met on the other: by id to match, by ordinal to report in order.
class UnmatchedItems {
 public:
  void hold(DatasetItem item) {
    by_id_.emplace(item.item_id, item.ordinal);
    by_ordinal_.emplace(item.ordinal, std::move(item));
  }
  // Takes the held item with this id out, or returns false.
  bool take(const std::string& id, DatasetItem& taken) {
    const auto found = by_id_.find(id);
    if (found == by_id_.end()) return false;
    auto node = by_ordinal_.extract(found->second);
    taken = std::move(node.mapped());
    by_id_.erase(found);
    return true;
  }
  const std::map<std::int64_t, DatasetItem>& in_order() const { return by_ordinal_; }
  std::int64_t size() const { return static_cast<std::int64_t>(by_ordinal_.size()); }

 private:
  std::unordered_map<std::string, std::int64_t> by_id_;
  std::map<std::int64_t, DatasetItem> by_ordinal_;
};

// One version read page by page.
class VersionCursor {
 public:
  explicit VersionCursor(const DatasetPageReader& read) : read_(read) {}
  // The next page, empty once the version is read to its end.
  std::vector<DatasetItem> next_page() {
    if (ended_) return {};
    std::vector<DatasetItem> page = read_(after_);
    if (page.empty()) ended_ = true;
    else after_ = page.back().ordinal;
    return page;
  }
  bool ended() const { return ended_; }

 private:
  const DatasetPageReader& read_;
  std::int64_t after_ = -1;
  bool ended_ = false;
};

}  // namespace

DatasetDiffCounts diff_dataset_versions(const DatasetPageReader& from, const DatasetPageReader& to, DatasetDiffSink& sink) {
  DatasetDiffCounts counts;
  UnmatchedItems only_from, only_to;
  const auto compare = [&](const DatasetItem& before, const DatasetItem& after) {
    if (before.expected_outputs != after.expected_outputs) {
      ++counts.changed;
      sink.changed(before, after);
    }
    if (before.inputs != after.inputs) ++counts.inputs_changed;
  };
  VersionCursor from_pages(from), to_pages(to);
  DatasetItem other;
  while (!from_pages.ended() || !to_pages.ended()) {
    for (DatasetItem& item : from_pages.next_page()) {
      if (only_to.take(item.item_id, other)) compare(item, other);
      else only_from.hold(std::move(item));
    }
    for (DatasetItem& item : to_pages.next_page()) {
      if (only_from.take(item.item_id, other)) compare(other, item);
      else only_to.hold(std::move(item));
    }
    counts.most_held = std::max(counts.most_held, only_from.size() + only_to.size());
  }
  for (const auto& [ordinal, item] : only_from.in_order()) {
    ++counts.removed;
    sink.removed(item);
  }
  for (const auto& [ordinal, item] : only_to.in_order()) {
    ++counts.added;
    sink.added(item);
  }
  return counts;
}

}  // namespace krino::core::store
