// SqliteStore's review: annotations (one per item and principal) and the review queue. An item is
// in the queue while it has no annotation or its latest one (highest revision) is UNSURE.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

#include <chrono>

namespace krino::core::store {

namespace {

constexpr std::string_view kSqliteAnnotationColumns =
    "run_id, item_id, principal, verdict, overridden_expected_output, note, created_at, updated_at, revision";

Annotation read_sqlite_annotation(const SqliteStatement& row) {
  Annotation annotation;
  annotation.run_id = row.text(0);
  annotation.item_id = row.text(1);
  annotation.principal = row.text(2);
  annotation.verdict = parse_verdict(row.text(3)).value_or(Verdict::unsure);
  annotation.overridden_expected_output = row.optional_text(4);
  annotation.note = row.optional_text(5);
  annotation.created_at = row.text(6);
  annotation.updated_at = row.text(7);
  annotation.revision = row.integer(8);
  return annotation;
}

// "The item's latest verdict is UNSURE, or it has none", for the queue.
constexpr std::string_view kSqliteInQueue =
    "COALESCE((SELECT a.verdict FROM annotations a WHERE a.item_id = i.id ORDER BY a.revision DESC LIMIT 1), 'UNSURE') = 'UNSURE'";

std::int64_t review_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<Annotation> SqliteStore::put_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id,
                                                      const std::string& principal, const NewAnnotation& annotation) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement item = connection_.prepare("SELECT 1 FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = ?1 AND i.run_id = ?2 AND " +
                                             visible("r.tenant_id", 3));
  item.bind(1, item_id).bind(2, run_id).bind(3, scope.tenant);
  if (!item.step()) return std::nullopt;
  // A revision above every earlier one of the item, even when two writes share a millisecond.
  SqliteStatement write = connection_.prepare(
      "INSERT INTO annotations (run_id, item_id, principal, verdict, overridden_expected_output, note, created_at, updated_at, revision) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, MAX(?8, COALESCE((SELECT MAX(revision) + 1 FROM annotations WHERE item_id = ?2), 0))) "
      "ON CONFLICT (item_id, principal) DO UPDATE SET verdict = excluded.verdict, "
      "overridden_expected_output = excluded.overridden_expected_output, note = excluded.note, updated_at = excluded.updated_at, "
      "revision = excluded.revision");
  write.bind(1, run_id).bind(2, item_id).bind(3, principal).bind(4, verdict_name(annotation.verdict));
  write.bind(5, annotation.overridden_expected_output).bind(6, annotation.note).bind(7, utc_timestamp_now()).bind(8, review_now_ms());
  write.step();
  SqliteStatement read = connection_.prepare("SELECT " + std::string(kSqliteAnnotationColumns) +
                                             " FROM annotations WHERE item_id = ?1 AND principal = ?2");
  read.bind(1, item_id).bind(2, principal);
  read.step();
  Annotation written = read_sqlite_annotation(read);
  transaction.commit();
  return written;
}

std::optional<std::vector<Annotation>> SqliteStore::annotations(const Scope& scope, const std::string& run_id, const std::string& item_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement item = connection_.prepare("SELECT 1 FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = ?1 AND i.run_id = ?2 AND " +
                                             visible("r.tenant_id", 3));
  item.bind(1, item_id).bind(2, run_id).bind(3, scope.tenant);
  if (!item.step()) return std::nullopt;
  SqliteStatement read = connection_.prepare("SELECT " + std::string(kSqliteAnnotationColumns) +
                                             " FROM annotations WHERE item_id = ?1 ORDER BY revision");
  read.bind(1, item_id);
  std::vector<Annotation> out;
  while (read.step()) out.push_back(read_sqlite_annotation(read));
  return out;
}

bool SqliteStore::delete_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id, const std::string& principal) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement statement = connection_.prepare(
      "DELETE FROM annotations WHERE item_id = ?1 AND run_id = ?2 AND principal = ?3 AND run_id IN (SELECT id FROM runs r WHERE " +
      visible("r.tenant_id", 4) + ")");
  statement.bind(1, item_id).bind(2, run_id).bind(3, principal).bind(4, scope.tenant);
  statement.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

ReviewPage SqliteStore::review_queue(const Scope& scope, const ReviewFilter& filter, std::size_t offset, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const std::string from =
      " FROM items i JOIN runs r ON r.id = i.run_id JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id "
      "WHERE " + visible("r.tenant_id", 1) + " AND (?2 IS NULL OR p.name = ?2) AND (?3 IS NULL OR e.id = ?3) AND (?4 IS NULL OR r.id = ?4) AND (?7 IS NULL OR i.id > ?7) AND " +
      std::string(kSqliteInQueue);
  const auto bind_filter = [&](SqliteStatement& statement) {
    statement.bind(1, scope.tenant).bind(2, filter.project_name).bind(3, filter.experiment_id).bind(4, filter.run_id);
  };
  ReviewPage page;
  // The total without a scan of every item: the filtered runs' item counts less the items whose latest
  // verdict took them out of the queue (annotations are few; runs hold up to millions of items).
  const std::string runs_filter = " JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id WHERE " +
                                  visible("r.tenant_id", 1) + " AND (?2 IS NULL OR p.name = ?2) AND (?3 IS NULL OR e.id = ?3) AND (?4 IS NULL OR r.id = ?4)";
  SqliteStatement count = connection_.prepare(
      "SELECT (SELECT COALESCE(SUM(r.item_count), 0) FROM runs r" + runs_filter + ") - (SELECT COUNT(*) FROM (SELECT DISTINCT a.item_id "
      "FROM annotations a JOIN runs r ON r.id = a.run_id" + runs_filter + ") reviewed WHERE (SELECT b.verdict FROM annotations b "
      "WHERE b.item_id = reviewed.item_id ORDER BY b.revision DESC LIMIT 1) <> 'UNSURE')");
  bind_filter(count);
  count.step();
  page.total = count.integer(0);
  SqliteStatement rows = connection_.prepare("SELECT r.id, e.id, p.name, i.id, i.seq, i.document" + from + " ORDER BY i.id LIMIT ?5 OFFSET ?6");
  bind_filter(rows);
  rows.bind(5, static_cast<std::int64_t>(limit)).bind(6, static_cast<std::int64_t>(offset)).bind(7, filter.after_item_id);
  while (rows.step()) {
    page.entries.push_back(ReviewEntry{std::string(rows.text(0)), std::string(rows.text(1)), std::string(rows.text(2)), std::string(rows.text(3)),
                                       rows.integer(4), std::string(rows.text(5)), {}});
  }
  SqliteStatement notes = connection_.prepare("SELECT " + std::string(kSqliteAnnotationColumns) + " FROM annotations WHERE item_id = ?1 ORDER BY revision");
  for (ReviewEntry& entry : page.entries) {
    notes.bind(1, entry.item_id);
    while (notes.step()) entry.annotations.push_back(read_sqlite_annotation(notes));
    notes.reset();
  }
  return page;
}

std::optional<ItemForPromotion> SqliteStore::item_for_promotion(const Scope& scope, const std::string& item_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT i.run_id, i.id, i.document, i.dataset_item_id, (SELECT a.overridden_expected_output FROM annotations a WHERE a.item_id = i.id "
      "ORDER BY a.revision DESC LIMIT 1) FROM items i JOIN runs r ON r.id = i.run_id WHERE i.id = ?1 AND " + visible("r.tenant_id", 2));
  query.bind(1, item_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return ItemForPromotion{std::string(query.text(0)), std::string(query.text(1)), std::string(query.text(2)), query.optional_text(3),
                          query.optional_text(4)};
}

}  // namespace krino::core::store
