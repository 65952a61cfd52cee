// PostgresStore's review: annotations (one per item and principal) and the review queue. An item is
// in the queue while it has no annotation or its latest one (highest revision) is UNSURE.
#include "krino/core/store/postgres_store.hpp"

#include <chrono>

namespace krino::core::store {

namespace {

std::string review_iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::string pg_annotation_columns() {
  return "run_id, item_id, principal, verdict, overridden_expected_output, note, " + review_iso("created_at") + ", " + review_iso("updated_at") +
         ", revision";
}

Annotation read_pg_annotation(const PgResult& rows, int row) {
  Annotation annotation;
  annotation.run_id = rows.text(row, 0);
  annotation.item_id = rows.text(row, 1);
  annotation.principal = rows.text(row, 2);
  annotation.verdict = parse_verdict(rows.text(row, 3)).value_or(Verdict::unsure);
  annotation.overridden_expected_output = rows.optional_text(row, 4);
  annotation.note = rows.optional_text(row, 5);
  annotation.created_at = rows.text(row, 6);
  annotation.updated_at = rows.text(row, 7);
  annotation.revision = rows.integer(row, 8);
  return annotation;
}

constexpr std::string_view kPgInQueue =
    "COALESCE((SELECT a.verdict FROM annotations a WHERE a.item_id = i.id ORDER BY a.revision DESC LIMIT 1), 'UNSURE') = 'UNSURE'";

std::int64_t pg_review_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<Annotation> PostgresStore::put_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id,
                                                        const std::string& principal, const NewAnnotation& annotation) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  // FOR SHARE: the run cannot be deleted under the annotation being written.
  const PgResult item = connection.execute("SELECT 1 FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = $1 AND i.run_id = $2 AND " +
                                               visible("r.tenant_id", 3) + " FOR SHARE OF r",
                                           PgParams().text(item_id).text(run_id).optional(scope.tenant));
  if (item.rows() == 0) return std::nullopt;
  const PgResult written = connection.execute(
      "INSERT INTO annotations AS a (run_id, item_id, principal, verdict, overridden_expected_output, note, created_at, updated_at, revision) "
      "VALUES ($1, $2, $3, $4, $5, $6, now(), now(), GREATEST($7::bigint, COALESCE((SELECT MAX(revision) + 1 FROM annotations WHERE item_id = $2), 0))) "
      "ON CONFLICT (item_id, principal) DO UPDATE SET verdict = excluded.verdict, "
      "overridden_expected_output = excluded.overridden_expected_output, note = excluded.note, updated_at = excluded.updated_at, "
      "revision = excluded.revision RETURNING " + pg_annotation_columns(),
      PgParams().text(run_id).text(item_id).text(principal).text(verdict_name(annotation.verdict)).optional(annotation.overridden_expected_output)
          .optional(annotation.note).integer(pg_review_now_ms()));
  transaction.commit();
  return read_pg_annotation(written, 0);
}

std::optional<std::vector<Annotation>> PostgresStore::annotations(const Scope& scope, const std::string& run_id, const std::string& item_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult item = connection.execute("SELECT 1 FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = $1 AND i.run_id = $2 AND " +
                                               visible("r.tenant_id", 3),
                                           PgParams().text(item_id).text(run_id).optional(scope.tenant));
  if (item.rows() == 0) return std::nullopt;
  const PgResult rows = connection.execute("SELECT " + pg_annotation_columns() + " FROM annotations WHERE item_id = $1 ORDER BY revision",
                                           PgParams().text(item_id));
  std::vector<Annotation> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_annotation(rows, row));
  return out;
}

bool PostgresStore::delete_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id, const std::string& principal) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult gone = connection.execute(
      "DELETE FROM annotations WHERE item_id = $1 AND run_id = $2 AND principal = $3 AND run_id IN (SELECT id FROM runs r WHERE " +
          visible("r.tenant_id", 4) + ") RETURNING 1",
      PgParams().text(item_id).text(run_id).text(principal).optional(scope.tenant));
  return gone.rows() > 0;
}

ReviewPage PostgresStore::review_queue(const Scope& scope, const ReviewFilter& filter, std::size_t offset, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const std::string from =
      " FROM items i JOIN runs r ON r.id = i.run_id JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id "
      "WHERE " + visible("r.tenant_id", 1) + " AND ($2::text IS NULL OR p.name = $2::text) AND ($3::uuid IS NULL OR e.id = $3::uuid) "
      "AND ($4::uuid IS NULL OR r.id = $4::uuid) AND ($7::uuid IS NULL OR i.id > $7::uuid) AND " + std::string(kPgInQueue);
  const auto filter_params = [&] {
    return PgParams().optional(scope.tenant).optional(filter.project_name).optional(filter.experiment_id).optional(filter.run_id);
  };
  ReviewPage page;
  // The total without a scan of every item: the filtered runs' item counts less the items whose latest
  // verdict took them out of the queue (annotations are few; runs hold up to millions of items).
  const std::string runs_filter = " JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id WHERE " +
                                  visible("r.tenant_id", 1) + " AND ($2::text IS NULL OR p.name = $2::text) AND ($3::uuid IS NULL OR e.id = $3::uuid) "
                                  "AND ($4::uuid IS NULL OR r.id = $4::uuid)";
  page.total = connection
                   .execute("SELECT (SELECT COALESCE(SUM(r.item_count), 0) FROM runs r" + runs_filter + ")::bigint - (SELECT COUNT(*) FROM "
                            "(SELECT DISTINCT a.item_id FROM annotations a JOIN runs r ON r.id = a.run_id" + runs_filter + ") reviewed "
                            "WHERE (SELECT b.verdict FROM annotations b WHERE b.item_id = reviewed.item_id ORDER BY b.revision DESC LIMIT 1) "
                            "<> 'UNSURE')",
                            filter_params())
                   .integer(0, 0);
  const PgResult rows = connection.execute("SELECT r.id, e.id, p.name, i.id, i.seq, i.document" + from + " ORDER BY i.id LIMIT $5 OFFSET $6",
                                           filter_params().integer(static_cast<std::int64_t>(limit)).integer(static_cast<std::int64_t>(offset)).optional(filter.after_item_id));
  for (int row = 0; row < rows.rows(); ++row) {
    page.entries.push_back(ReviewEntry{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), std::string(rows.text(row, 2)),
                                       std::string(rows.text(row, 3)), rows.integer(row, 4), std::string(rows.text(row, 5)), {}});
  }
  for (ReviewEntry& entry : page.entries) {
    const PgResult notes = connection.execute("SELECT " + pg_annotation_columns() + " FROM annotations WHERE item_id = $1 ORDER BY revision",
                                              PgParams().text(entry.item_id));
    for (int row = 0; row < notes.rows(); ++row) entry.annotations.push_back(read_pg_annotation(notes, row));
  }
  return page;
}

std::optional<ItemForPromotion> PostgresStore::item_for_promotion(const Scope& scope, const std::string& item_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult row = connection.execute(
      "SELECT i.run_id, i.id, i.document, i.dataset_item_id, (SELECT a.overridden_expected_output FROM annotations a WHERE a.item_id = i.id "
      "ORDER BY a.revision DESC LIMIT 1) FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = $1 AND " + visible("r.tenant_id", 2),
      PgParams().text(item_id).optional(scope.tenant));
  if (row.rows() == 0) return std::nullopt;
  return ItemForPromotion{std::string(row.text(0, 0)), std::string(row.text(0, 1)), std::string(row.text(0, 2)), row.optional_text(0, 3),
                          row.optional_text(0, 4)};
}

}  // namespace krino::core::store
