#pragma once
// What one server dataset version changes against another, item by item by dataset item id: the
// items it adds, the items it removes, and those whose expected outputs differ (the comparison
// `krino dataset diff` prints and the UI shows; docs/server.md "Datasets").
//
// Both versions are read page by page in ordinal order, side by side. Versions written from one
// another keep their items' ordinals (a copy plus replacements in place plus appended items), and a
// list pushed again mostly keeps its order, so an id is usually met on both sides within a few
// pages. Only items not yet met on the other side are held: memory follows how far items moved and
// how many were added or removed, never the items both versions share in place.
#include "krino/core/store/dataset_types.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace krino::core::store {

// The next items of one version after ordinal `after_ordinal` (-1: from the start), in ordinal
// order; an empty page ends the version.
using DatasetPageReader = std::function<std::vector<DatasetItem>(std::int64_t after_ordinal)>;

class DatasetDiffSink {
 public:
  virtual ~DatasetDiffSink() = default;
  virtual void added(const DatasetItem& item) = 0;
  virtual void removed(const DatasetItem& item) = 0;
  // Same id, different expected outputs (byte for byte: versions keep the bytes they were sent).
  virtual void changed(const DatasetItem& before, const DatasetItem& after) = 0;
};

struct DatasetDiffCounts {
  std::int64_t added = 0;
  std::int64_t removed = 0;
  std::int64_t changed = 0;
  std::int64_t inputs_changed = 0;  // items that kept their id with other inputs
  std::int64_t most_held = 0;       // the most items held at once, waiting to be met (the memory used)
};

// Compares version `from` with version `to`. Reports changed items as they are met (about the order
// of `to`); then removed items in the order of `from`; then added items in the order of `to`.
DatasetDiffCounts diff_dataset_versions(const DatasetPageReader& from, const DatasetPageReader& to, DatasetDiffSink& sink);

}  // namespace krino::core::store
