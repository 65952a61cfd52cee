// PostgresStore's server datasets: named containers and their immutable versions. A new version
// locks its dataset's row first (FOR UPDATE), so two replicas adding versions at once get numbers
// one after the other; its items go in by COPY, as a run's items do.
#include "krino/core/store/postgres_store.hpp"

namespace krino::core::store {

namespace {

std::string dataset_iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::string pg_dataset_columns() {
  return "d.id, d.name, d.description, d.tenant_id, " + dataset_iso("d.created_at") +
         ", v.version, COALESCE(v.item_count, 0) FROM datasets d LEFT JOIN dataset_versions v ON v.dataset_id = d.id AND v.version = "
         "(SELECT MAX(version) FROM dataset_versions WHERE dataset_id = d.id)";
}

std::string pg_version_columns() { return "version, description, item_count, " + dataset_iso("created_at"); }

DatasetSummary read_pg_dataset(const PgResult& rows, int row) {
  DatasetSummary dataset;
  dataset.id = rows.text(row, 0);
  dataset.name = rows.text(row, 1);
  dataset.description = rows.optional_text(row, 2);
  dataset.tenant = rows.optional_text(row, 3);
  dataset.created_at = rows.text(row, 4);
  dataset.latest_version = rows.optional_integer(row, 5);
  dataset.item_count = rows.integer(row, 6);
  return dataset;
}

DatasetVersionInfo read_pg_version(const PgResult& rows, int row) {
  return DatasetVersionInfo{rows.integer(row, 0), rows.optional_text(row, 1), rows.integer(row, 2), std::string(rows.text(row, 3))};
}

}  // namespace

std::optional<std::string> PostgresStore::dataset_id(PgConnection& connection, const Scope& scope, const std::string& name) {
  // The caller's own first: a tenant's before a shared one, a shared one first for the unscoped.
  const PgResult row = connection.execute("SELECT id FROM datasets WHERE name = $1 AND " + visible("tenant_id", 2) +
                                              " ORDER BY tenant_id IS NOT DISTINCT FROM $2::text DESC LIMIT 1",
                                          PgParams().text(name).optional(scope.tenant));
  if (row.rows() == 0) return std::nullopt;
  return std::string(row.text(0, 0));
}

DatasetSummary PostgresStore::create_dataset(const Scope& scope, const std::string& name, const std::optional<std::string>& description) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  // ON CONFLICT: two creators racing for one name get one dataset and one conflict, never an error.
  const PgResult made = connection.execute(
      "INSERT INTO datasets AS d (id, name, description, tenant_id, created_at) VALUES ($1, $2, $3, $4, now()) "
      "ON CONFLICT (COALESCE(tenant_id, ''), name) DO NOTHING RETURNING d.id, d.name, d.description, d.tenant_id, " +
          dataset_iso("d.created_at") + ", NULL::bigint, 0",
      PgParams().text(to_text(ids_.next())).text(name).optional(description).optional(scope.tenant));
  if (made.rows() == 0) throw StoreError(StoreError::Kind::conflict, "a dataset named " + name + " already exists");
  return read_pg_dataset(made, 0);
}

std::vector<DatasetSummary> PostgresStore::datasets(const Scope& scope) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute("SELECT " + pg_dataset_columns() + " WHERE " + visible("d.tenant_id", 1) +
                                               " ORDER BY d.name, d.tenant_id NULLS FIRST",
                                           PgParams().optional(scope.tenant));
  std::vector<DatasetSummary> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_dataset(rows, row));
  return out;
}

std::optional<DatasetDetails> PostgresStore::dataset(const Scope& scope, const std::string& name) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const auto id = dataset_id(connection, scope, name);
  if (!id) return std::nullopt;
  const PgResult head = connection.execute("SELECT " + pg_dataset_columns() + " WHERE d.id = $1", PgParams().text(*id));
  if (head.rows() == 0) return std::nullopt;  // deleted meanwhile
  DatasetDetails details{read_pg_dataset(head, 0), {}};
  const PgResult versions = connection.execute(
      "SELECT " + pg_version_columns() + " FROM dataset_versions WHERE dataset_id = $1 ORDER BY version DESC", PgParams().text(*id));
  for (int row = 0; row < versions.rows(); ++row) details.versions.push_back(read_pg_version(versions, row));
  return details;
}

DatasetVersionInfo PostgresStore::add_dataset_version(const Scope& scope, const std::string& name, const std::optional<std::string>& description,
                                                      std::optional<std::int64_t> base, std::span<const DatasetItem> items) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const auto id = dataset_id(connection, scope, name);
  if (!id) throw StoreError(StoreError::Kind::not_found, "no dataset " + name);
  const PgResult locked = connection.execute("SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE", PgParams().text(*id));
  if (locked.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no dataset " + name);
  const PgResult newest =
      connection.execute("SELECT COALESCE(MAX(version), 0) FROM dataset_versions WHERE dataset_id = $1", PgParams().text(*id));
  const std::int64_t number = newest.integer(0, 0) + 1;
  const PgResult version = connection.execute("INSERT INTO dataset_versions (dataset_id, version, description, item_count, created_at) "
                                              "VALUES ($1, $2, $3, 0, now()) RETURNING " + pg_version_columns(),
                                              PgParams().text(*id).integer(number).optional(description));
  DatasetVersionInfo made = read_pg_version(version, 0);
  std::int64_t ordinal = 0;
  if (base && *base == 0) base = number > 1 ? std::optional<std::int64_t>(number - 1) : std::nullopt;
  if (base) {
    const PgResult from = connection.execute("SELECT item_count FROM dataset_versions WHERE dataset_id = $1 AND version = $2",
                                             PgParams().text(*id).integer(*base));
    if (from.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no version " + std::to_string(*base) + " of dataset " + name);
    ordinal = from.integer(0, 0);
    connection.execute(
        "INSERT INTO dataset_items (dataset_id, version, ordinal, item_id, inputs, expected_outputs, metadata) "
        "SELECT dataset_id, $3, ordinal, item_id, inputs, expected_outputs, metadata FROM dataset_items WHERE dataset_id = $1 AND version = $2",
        PgParams().text(*id).integer(*base).integer(number));
  }
  PgBatchInsert rows(connection, "dataset_items (dataset_id, version, ordinal, item_id, inputs, expected_outputs, metadata)", 7);
  for (const DatasetItem& item : items) {
    // An item whose id the base already has replaces that item where it stands (a promoted run item
    // correcting an expected output); any other is appended.
    if (base) {
      const PgResult replaced = connection.execute(
          "UPDATE dataset_items SET inputs = $4, expected_outputs = $5, metadata = $6 WHERE dataset_id = $1 AND version = $2 AND item_id = $3 "
          "RETURNING 1",
          PgParams().text(*id).integer(number).text(item.item_id).text(item.inputs).optional(item.expected_outputs).optional(item.metadata));
      if (replaced.rows() > 0) continue;
    }
    rows.row().text(*id).integer(number).integer(ordinal++).text(item.item_id).text(item.inputs).optional(item.expected_outputs).optional(
        item.metadata);
  }
  rows.flush();
  made.item_count = ordinal;
  connection.execute("UPDATE dataset_versions SET item_count = $3 WHERE dataset_id = $1 AND version = $2",
                     PgParams().text(*id).integer(number).integer(ordinal));
  transaction.commit();
  return made;
}

std::optional<DatasetVersionInfo> PostgresStore::dataset_version(const Scope& scope, const std::string& name,
                                                                 std::optional<std::int64_t> version) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const auto id = dataset_id(connection, scope, name);
  if (!id) return std::nullopt;
  const PgResult row = connection.execute("SELECT " + pg_version_columns() +
                                              " FROM dataset_versions WHERE dataset_id = $1 AND ($2::bigint IS NULL OR version = $2::bigint) "
                                              "ORDER BY version DESC LIMIT 1",
                                          PgParams().text(*id).optional(version));
  if (row.rows() == 0) return std::nullopt;
  return read_pg_version(row, 0);
}

std::optional<DatasetItemPage> PostgresStore::dataset_items(const Scope& scope, const std::string& name, std::int64_t version,
                                                            std::int64_t after_ordinal, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const auto id = dataset_id(connection, scope, name);
  if (!id) return std::nullopt;
  const PgResult header = connection.execute("SELECT item_count FROM dataset_versions WHERE dataset_id = $1 AND version = $2",
                                             PgParams().text(*id).integer(version));
  if (header.rows() == 0) return std::nullopt;
  DatasetItemPage page;
  page.total = header.integer(0, 0);
  const PgResult rows = connection.execute(
      "SELECT item_id, ordinal, inputs, expected_outputs, metadata FROM dataset_items WHERE dataset_id = $1 AND version = $2 AND ordinal > $3 "
      "ORDER BY ordinal LIMIT $4",
      PgParams().text(*id).integer(version).integer(after_ordinal).integer(static_cast<std::int64_t>(limit)));
  for (int row = 0; row < rows.rows(); ++row) {
    page.items.push_back(DatasetItem{std::string(rows.text(row, 0)), rows.integer(row, 1), std::string(rows.text(row, 2)),
                                     rows.optional_text(row, 3), rows.optional_text(row, 4)});
  }
  return page;
}

bool PostgresStore::delete_dataset(const Scope& scope, const std::string& name) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const auto id = dataset_id(connection, scope, name);
  if (!id) return false;
  const PgResult gone = connection.execute("DELETE FROM datasets WHERE id = $1 RETURNING 1", PgParams().text(*id));
  transaction.commit();
  return gone.rows() > 0;
}

}  // namespace krino::core::store
