// SqliteStore's server datasets: named containers and their immutable versions. A new version is
// written in one IMMEDIATE transaction (its number taken inside it, so two writers never get the
// same one), its items through one prepared statement reused row after row.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

namespace krino::core::store {

namespace {

constexpr std::string_view kSqliteDatasetColumns =
    "d.id, d.name, d.description, d.tenant_id, d.created_at, v.version, COALESCE(v.item_count, 0) FROM datasets d "
    "LEFT JOIN dataset_versions v ON v.dataset_id = d.id AND v.version = "
    "(SELECT MAX(version) FROM dataset_versions WHERE dataset_id = d.id)";

DatasetSummary read_sqlite_dataset(const SqliteStatement& row) {
  DatasetSummary dataset;
  dataset.id = row.text(0);
  dataset.name = row.text(1);
  dataset.description = row.optional_text(2);
  dataset.tenant = row.optional_text(3);
  dataset.created_at = row.text(4);
  dataset.latest_version = row.optional_integer(5);
  dataset.item_count = row.integer(6);
  return dataset;
}

DatasetVersionInfo read_sqlite_version(const SqliteStatement& row) {
  return DatasetVersionInfo{row.integer(0), row.optional_text(1), row.integer(2), std::string(row.text(3))};
}

}  // namespace

std::optional<std::string> SqliteStore::dataset_id(const Scope& scope, const std::string& name) {
  // The caller's own first: a tenant's before a shared one, a shared one first for the unscoped.
  SqliteStatement query = connection_.prepare("SELECT id FROM datasets WHERE name = ?1 AND " + visible("tenant_id", 2) +
                                              " ORDER BY CASE WHEN tenant_id IS ?2 THEN 0 ELSE 1 END LIMIT 1");
  query.bind(1, name).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return std::string(query.text(0));
}

DatasetSummary SqliteStore::create_dataset(const Scope& scope, const std::string& name, const std::optional<std::string>& description) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement taken = connection_.prepare("SELECT 1 FROM datasets WHERE name = ?1 AND tenant_id IS ?2");
  taken.bind(1, name).bind(2, scope.tenant);
  if (taken.step()) throw StoreError(StoreError::Kind::conflict, "a dataset named " + name + " already exists");
  DatasetSummary made;
  made.id = to_text(ids_.next());
  made.name = name;
  made.description = description;
  made.tenant = scope.tenant;
  made.created_at = utc_timestamp_now();
  SqliteStatement insert = connection_.prepare("INSERT INTO datasets (id, name, description, tenant_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)");
  insert.bind(1, made.id).bind(2, name).bind(3, description).bind(4, scope.tenant).bind(5, made.created_at);
  insert.step();
  transaction.commit();
  return made;
}

std::vector<DatasetSummary> SqliteStore::datasets(const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteDatasetColumns) + " WHERE " + visible("d.tenant_id", 1) +
                                              " ORDER BY d.name, d.tenant_id");
  query.bind(1, scope.tenant);
  std::vector<DatasetSummary> out;
  while (query.step()) out.push_back(read_sqlite_dataset(query));
  return out;
}

std::optional<DatasetDetails> SqliteStore::dataset(const Scope& scope, const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto id = dataset_id(scope, name);
  if (!id) return std::nullopt;
  SqliteStatement head = connection_.prepare("SELECT " + std::string(kSqliteDatasetColumns) + " WHERE d.id = ?1");
  head.bind(1, *id);
  head.step();
  DatasetDetails details{read_sqlite_dataset(head), {}};
  SqliteStatement versions = connection_.prepare(
      "SELECT version, description, item_count, created_at FROM dataset_versions WHERE dataset_id = ?1 ORDER BY version DESC");
  versions.bind(1, *id);
  while (versions.step()) details.versions.push_back(read_sqlite_version(versions));
  return details;
}

DatasetVersionInfo SqliteStore::add_dataset_version(const Scope& scope, const std::string& name, const std::optional<std::string>& description,
                                                    std::optional<std::int64_t> base, std::span<const DatasetItem> items) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  const auto id = dataset_id(scope, name);
  if (!id) throw StoreError(StoreError::Kind::not_found, "no dataset " + name);
  SqliteStatement newest = connection_.prepare("SELECT COALESCE(MAX(version), 0) FROM dataset_versions WHERE dataset_id = ?1");
  newest.bind(1, *id);
  newest.step();
  DatasetVersionInfo made;
  made.version = newest.integer(0) + 1;
  made.description = description;
  made.created_at = utc_timestamp_now();
  SqliteStatement version = connection_.prepare(
      "INSERT INTO dataset_versions (dataset_id, version, description, item_count, created_at) VALUES (?1, ?2, ?3, 0, ?4)");
  version.bind(1, *id).bind(2, made.version).bind(3, description).bind(4, made.created_at);
  version.step();
  std::int64_t ordinal = 0;
  if (base && *base == 0) base = made.version > 1 ? std::optional<std::int64_t>(made.version - 1) : std::nullopt;
  if (base) {
    SqliteStatement exists = connection_.prepare("SELECT item_count FROM dataset_versions WHERE dataset_id = ?1 AND version = ?2");
    exists.bind(1, *id).bind(2, *base);
    if (!exists.step()) throw StoreError(StoreError::Kind::not_found, "no version " + std::to_string(*base) + " of dataset " + name);
    ordinal = exists.integer(0);
    SqliteStatement copy = connection_.prepare(
        "INSERT INTO dataset_items (dataset_id, version, ordinal, item_id, inputs, expected_outputs, metadata) "
        "SELECT dataset_id, ?3, ordinal, item_id, inputs, expected_outputs, metadata FROM dataset_items WHERE dataset_id = ?1 AND version = ?2");
    copy.bind(1, *id).bind(2, *base).bind(3, made.version);
    copy.step();
  }
  // An item whose id the base already has replaces that item where it stands (a promoted run item
  // correcting an expected output); any other is appended.
  SqliteStatement replace = connection_.prepare(
      "UPDATE dataset_items SET inputs = ?4, expected_outputs = ?5, metadata = ?6 WHERE dataset_id = ?1 AND version = ?2 AND item_id = ?3");
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO dataset_items (dataset_id, version, ordinal, item_id, inputs, expected_outputs, metadata) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (const DatasetItem& item : items) {
    if (base) {
      replace.bind(1, *id).bind(2, made.version).bind(3, item.item_id).bind(4, item.inputs).bind(5, item.expected_outputs).bind(6, item.metadata);
      replace.step();
      const bool replaced = sqlite3_changes(connection_.handle()) > 0;
      replace.reset();
      if (replaced) continue;
    }
    insert.bind(1, *id).bind(2, made.version).bind(3, ordinal++).bind(4, item.item_id).bind(5, item.inputs);
    insert.bind(6, item.expected_outputs).bind(7, item.metadata);
    insert.step();
    insert.reset();
  }
  made.item_count = ordinal;
  SqliteStatement count = connection_.prepare("UPDATE dataset_versions SET item_count = ?3 WHERE dataset_id = ?1 AND version = ?2");
  count.bind(1, *id).bind(2, made.version).bind(3, made.item_count);
  count.step();
  transaction.commit();
  return made;
}

std::optional<DatasetVersionInfo> SqliteStore::dataset_version(const Scope& scope, const std::string& name, std::optional<std::int64_t> version) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto id = dataset_id(scope, name);
  if (!id) return std::nullopt;
  SqliteStatement query = connection_.prepare(
      "SELECT version, description, item_count, created_at FROM dataset_versions WHERE dataset_id = ?1 AND (?2 IS NULL OR version = ?2) "
      "ORDER BY version DESC LIMIT 1");
  query.bind(1, *id).bind(2, version);
  if (!query.step()) return std::nullopt;
  return read_sqlite_version(query);
}

std::optional<DatasetItemPage> SqliteStore::dataset_items(const Scope& scope, const std::string& name, std::int64_t version,
                                                          std::int64_t after_ordinal, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto id = dataset_id(scope, name);
  if (!id) return std::nullopt;
  SqliteStatement header = connection_.prepare("SELECT item_count FROM dataset_versions WHERE dataset_id = ?1 AND version = ?2");
  header.bind(1, *id).bind(2, version);
  if (!header.step()) return std::nullopt;
  DatasetItemPage page;
  page.total = header.integer(0);
  SqliteStatement query = connection_.prepare(
      "SELECT item_id, ordinal, inputs, expected_outputs, metadata FROM dataset_items WHERE dataset_id = ?1 AND version = ?2 AND ordinal > ?3 "
      "ORDER BY ordinal LIMIT ?4");
  query.bind(1, *id).bind(2, version).bind(3, after_ordinal).bind(4, static_cast<std::int64_t>(limit));
  while (query.step()) {
    page.items.push_back(DatasetItem{std::string(query.text(0)), query.integer(1), std::string(query.text(2)), query.optional_text(3),
                                     query.optional_text(4)});
  }
  return page;
}

bool SqliteStore::delete_dataset(const Scope& scope, const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  const auto id = dataset_id(scope, name);
  if (!id) return false;
  SqliteStatement statement = connection_.prepare("DELETE FROM datasets WHERE id = ?1");
  statement.bind(1, *id);
  statement.step();
  transaction.commit();
  return true;
}

}  // namespace krino::core::store
