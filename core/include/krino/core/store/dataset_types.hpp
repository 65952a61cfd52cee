#pragma once
// What the store keeps for server datasets: a named container per tenant, and its immutable
// numbered versions, each a full list of items (inputs, expected outputs, metadata as the client
// sent them, byte for byte). A version is written once, in one transaction, and never changed:
// adding examples or promoting run items writes the next version, a copy plus the new items, so
// reading any version is one range of one index.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::store {

struct DatasetVersionInfo {
  std::int64_t version = 0;  // 1, 2, ...
  std::optional<std::string> description = std::nullopt;
  std::int64_t item_count = 0;
  std::string created_at;
};

// A dataset as the list shows it: its newest version (none for an empty dataset) and how many items
// that version has.
struct DatasetSummary {
  std::string id;
  std::string name;
  std::optional<std::string> description = std::nullopt;
  std::optional<std::string> tenant = std::nullopt;
  std::string created_at;
  std::optional<std::int64_t> latest_version = std::nullopt;
  std::int64_t item_count = 0;
};

struct DatasetDetails {
  DatasetSummary dataset;
  std::vector<DatasetVersionInfo> versions;  // newest first
};

// One item of a version. `item_id` is the dataset item id runs report as `datasetItemId` (the key
// the gate pairs by); it is unique within a version and kept across versions (see docs/server.md).
// The JSON members are exact value bytes; an absent one is nullopt.
struct DatasetItem {
  std::string item_id;
  std::int64_t ordinal = 0;  // 0, 1, ... in the order the items were sent
  std::string inputs;
  std::optional<std::string> expected_outputs = std::nullopt;
  std::optional<std::string> metadata = std::nullopt;
};

struct DatasetItemPage {
  std::vector<DatasetItem> items;
  std::int64_t total = 0;  // items in the version
};

}  // namespace krino::core::store
