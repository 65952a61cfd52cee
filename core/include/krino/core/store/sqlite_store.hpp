#pragma once
// The default Store: one SQLite file in the data directory. WAL journal, so readers never wait for
// the writer and a crash loses no committed transaction; synchronous=NORMAL, so a commit costs no
// fsync (the WAL is synced at checkpoints: a power cut may lose the last commits, never corrupt the
// file); foreign keys on, so deleting a run deletes its items.
#include "krino/core/store/sqlite_connection.hpp"
#include "krino/core/store/store.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <filesystem>
#include <mutex>

namespace krino::core::store {

class SqliteStore final : public Store {
 public:
  // Opens or creates `path` and applies every migration it lacks. Throws KrinoError naming the
  // file when it cannot be opened, is not a krino database, or was written by a newer krino.
  explicit SqliteStore(const std::filesystem::path& path);

  std::string backend() const override { return "sqlite"; }
  int schema_version() override;
  CreatedRun create_run(const Scope& scope, const NewRun& run) override;
  IngestOutcome add_items(const Scope& scope, const std::string& run_id, std::optional<std::string_view> idempotency_key,
                          std::span<const NewItem> items) override;
  void set_run_status(const Scope& scope, const std::string& run_id, RunStatus status) override;
  std::optional<RunDetails> run(const Scope& scope, const std::string& run_id) override;
  ItemPage items(const Scope& scope, const std::string& run_id, std::int64_t after_seq, std::size_t limit) override;
  std::vector<StoredItem> items_at(const Scope& scope, const std::string& run_id, std::span<const std::int64_t> seqs) override;
  void scan_items(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) override;
  std::optional<std::string> baseline_run(const Scope& scope, const BaselineQuery& query) override;
  std::vector<ProjectSummary> projects(const Scope& scope) override;
  std::optional<std::vector<ExperimentSummary>> experiments(const Scope& scope, const std::string& project_name) override;
  std::optional<ExperimentInfo> experiment(const Scope& scope, const std::string& experiment_id) override;
  std::vector<RunSummary> runs(const Scope& scope, const std::string& experiment_id, std::size_t limit) override;
  bool delete_run(const Scope& scope, const std::string& run_id) override;
  bool delete_experiment(const Scope& scope, const std::string& experiment_id) override;
  bool delete_project(const Scope& scope, const std::string& project_name) override;
  ApiKey create_key(const std::string& name, Role role, const std::optional<std::string>& tenant, const std::string& key_hash) override;
  std::optional<ApiKey> key_by_hash(const std::string& key_hash) override;
  std::vector<ApiKey> keys(const Scope& scope) override;
  bool has_keys() override;
  bool disable_key(const Scope& scope, const std::string& key_id) override;
  bool delete_key(const Scope& scope, const std::string& key_id) override;
  void record_write(const AuditEntry& entry) override;
  // What the web UI reads (sqlite_ui_reads.cpp).
  std::optional<FilteredItemPage> filtered_items(const Scope& scope, const std::string& run_id, const ItemFilter& filter) override;
  void scan_verdicts(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) override;
  std::optional<std::vector<EvaluatorStats>> kept_evaluator_stats(const std::string& run_id) override;
  void keep_evaluator_stats(const std::string& run_id, const std::vector<EvaluatorStats>& stats) override;
  void record_gate(const std::string& experiment_id, const std::string& candidate_run_id, const std::optional<std::string>& baseline_run_id,
                   std::string_view status, std::optional<double> pass_rate_delta) override;
  std::vector<GateRecord> gates(const Scope& scope, const GateQuery& query) override;
  // Text search indexes (sqlite_text_index.cpp).
  std::vector<std::string> runs_awaiting_text_index(std::size_t limit) override;
  bool build_text_index(const std::string& run_id, std::int64_t chunk, const std::function<bool()>& keep_going) override;

 private:
  void apply_migrations();
  // SQL for the highest pass rate of the experiment's runs with items that the scope of ?param sees.
  static std::string best_pass_rate(std::string_view experiment, int param);
  // SQL for "`column` is visible to the scope whose tenant is parameter ?param".
  static std::string visible(std::string_view column, int param);
  // SQL for "the key belongs to the tenant of parameter ?param, or that parameter is NULL".
  static std::string own_key(int param);
  // The id of the project (no parent) or experiment (under `parent_id`) named `name` that the scope
  // writes into, inserted for it when there is none.
  std::string writable_id(std::string_view table, std::string_view parent_column, const std::optional<std::string>& parent_id,
                          const std::string& name, const Scope& scope);
  // The project a scope means by `name` (see Store::experiments).
  std::optional<std::string> readable_project_id(const Scope& scope, const std::string& name);
  // Deletes the items and verdicts of the runs `runs_sql` selects (parameter ?1 `key`): they have no
  // foreign key to cascade from. Inside the caller's transaction.
  void purge_items(std::string_view runs_sql, const std::string& key);
  // The text index files of the runs `runs_sql` selects (sqlite_text_index.cpp), read inside the
  // caller's transaction and removed (remove_text_index_files) once it has committed.
  std::vector<std::filesystem::path> text_index_files(const std::string& runs_sql, const std::string& key);
  static void remove_text_index_files(const std::vector<std::filesystem::path>& files);
  // The file an ended run's text index is kept in: <data dir>/text-index/<run id>.db.
  std::filesystem::path text_index_file(const std::string& run_id) const;
  // At the start: drops the index tables an older krino kept in the main file, marks a run whose
  // index file is gone as unindexed (so it is built again), and removes the files of unfinished
  // builds and of runs that no longer exist.
  void reconcile_text_indexes();
  // Deletes the row `id` of `table` when the scope sees it, with the items of the runs `runs_sql`
  // selects (?1 = id), in one transaction; whether there was one.
  bool delete_visible(std::string_view table, const std::string& id, const Scope& scope, std::string_view runs_sql);
  // Runs `sql` (parameters ?1 `key` and ?2 the scope's tenant); whether it changed a row.
  bool changed(std::string_view sql, const std::string& key, const Scope& scope);
  // The run's status, or StoreError(not_found) when the scope sees no such run.
  RunStatus status_of(const Scope& scope, const std::string& run_id);

  std::mutex mutex_;  // one connection, one user at a time
  SqliteConnection connection_;
  std::filesystem::path text_index_dir_;  // the runs' text index files (sqlite_text_index.cpp)
  UuidV7Generator ids_;

 public:
  // Regression alerts (sqlite_alerts.cpp).
  std::optional<ProjectRef> project_by_id(const Scope& scope, const std::string& project_id) override;
  AlertWebhook create_webhook(const Scope& scope, const std::string& project_id, const NewWebhook& webhook) override;
  std::optional<std::vector<AlertWebhook>> webhooks(const Scope& scope, const std::string& project_id) override;
  std::optional<AlertWebhook> webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) override;
  std::optional<AlertWebhook> update_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                             const WebhookChange& change) override;
  bool delete_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) override;
  std::optional<DeliveryPage> deliveries(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                         std::size_t offset, std::size_t limit) override;
  std::optional<AlertDelivery> redeliver(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                         const std::string& delivery_id, std::int64_t now_ms) override;
  std::vector<AlertCheck> claim_alert_checks(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                             std::size_t limit) override;
  std::size_t finish_alert_check(const std::string& run_id, const std::string& owner, const std::optional<std::string>& payload,
                                 std::int64_t now_ms) override;
  std::vector<ClaimedDelivery> claim_deliveries(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                std::size_t limit) override;
  bool record_attempt(const std::string& delivery_id, const std::string& owner, const AttemptOutcome& outcome) override;
  AlertQueueDepth alert_queue_depth() override;

 private:
  // Inside set_run_status's transaction: queues the run that just ended for an alert check when
  // its project has an enabled webhook (no lock of its own).
  void queue_alert_check(const std::string& run_id);
  // The webhook's id when the scope sees it under the project (no lock of its own).
  std::optional<std::string> visible_webhook_id(const Scope& scope, const std::string& project_id, const std::string& webhook_id);
  // One delivery with its attempts (no lock of its own).
  AlertDelivery read_delivery(const std::string& delivery_id);
 public:
  // Server datasets (sqlite_datasets.cpp).
  DatasetSummary create_dataset(const Scope& scope, const std::string& name, const std::optional<std::string>& description) override;
  std::vector<DatasetSummary> datasets(const Scope& scope) override;
  std::optional<DatasetDetails> dataset(const Scope& scope, const std::string& name) override;
  DatasetVersionInfo add_dataset_version(const Scope& scope, const std::string& name, const std::optional<std::string>& description,
                                         std::optional<std::int64_t> base, std::span<const DatasetItem> items) override;
  std::optional<DatasetVersionInfo> dataset_version(const Scope& scope, const std::string& name, std::optional<std::int64_t> version) override;
  std::optional<DatasetItemPage> dataset_items(const Scope& scope, const std::string& name, std::int64_t version, std::int64_t after_ordinal,
                                               std::size_t limit) override;
  bool delete_dataset(const Scope& scope, const std::string& name) override;

 private:
  // The id of the dataset the scope means by `name` (Store's rule), or nullopt (no lock of its own).
  std::optional<std::string> dataset_id(const Scope& scope, const std::string& name);
 public:
  // Review (sqlite_review.cpp).
  std::optional<Annotation> put_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id, const std::string& principal,
                                           const NewAnnotation& annotation) override;
  std::optional<std::vector<Annotation>> annotations(const Scope& scope, const std::string& run_id, const std::string& item_id) override;
  bool delete_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id, const std::string& principal) override;
  ReviewPage review_queue(const Scope& scope, const ReviewFilter& filter, std::size_t offset, std::size_t limit) override;
  std::optional<ItemForPromotion> item_for_promotion(const Scope& scope, const std::string& item_id) override;
 public:
  // Online evaluation of traces (sqlite_online_eval.cpp).
  TraceEvalRule create_trace_eval_rule(const Scope& scope, const NewTraceEvalRule& rule) override;
  std::vector<TraceEvalRule> trace_eval_rules(const Scope& scope) override;
  std::optional<TraceEvalRule> trace_eval_rule(const Scope& scope, const std::string& rule_id) override;
  std::optional<TraceEvalRule> replace_trace_eval_rule(const Scope& scope, const std::string& rule_id, const NewTraceEvalRule& rule) override;
  bool delete_trace_eval_rule(const Scope& scope, const std::string& rule_id) override;
  std::vector<TraceEvalRule> enabled_trace_eval_rules(const std::optional<std::string>& tenant) override;
  OnlineEvalEnqueued enqueue_online_evals(const std::optional<std::string>& tenant, std::span<const OnlineEvalMatch> matches,
                                          std::int64_t max_attempts) override;
  bool record_online_evaluation(const std::string& job_id, const std::string& lease_token, const std::optional<std::string>& tenant,
                                const OnlineEvaluation& evaluation) override;
  std::vector<OnlineEvaluation> online_evaluations(const Scope& scope, const std::string& trace_id) override;
  // The server judge and the job queue (sqlite_judge.cpp, sqlite_jobs.cpp).
  LlmConnection create_llm_connection(const Scope& scope, const NewLlmConnection& connection) override;
  std::vector<LlmConnection> llm_connections(const Scope& scope) override;
  std::optional<LlmConnection> llm_connection(const Scope& scope, const std::string& connection_id) override;
  std::optional<LlmConnection> replace_llm_connection(const Scope& scope, const std::string& connection_id,
                                                      const NewLlmConnection& connection) override;
  bool delete_llm_connection(const Scope& scope, const std::string& connection_id) override;
  void enqueue_jobs(std::span<const NewJob> jobs) override;
  std::optional<ClaimedJob> claim_job(const std::string& owner, std::span<const std::string> kinds, std::int64_t now_ms,
                                      std::int64_t lease_ms) override;
  bool renew_job_lease(const std::string& job_id, const std::string& lease_token, std::int64_t now_ms, std::int64_t lease_ms) override;
  bool complete_job(const std::string& job_id, const std::string& lease_token) override;
  bool retry_job(const std::string& job_id, const std::string& lease_token, const std::string& error, std::int64_t available_at_ms) override;
  bool fail_job(const std::string& job_id, const std::string& lease_token, const std::string& error) override;
  JobQueueDepth job_queue_depth() override;
  JudgeJob create_judge_job(const Scope& scope, const std::string& run_id, const NewJudgeJob& job) override;
  std::optional<std::vector<JudgeJob>> judge_jobs(const Scope& scope, const std::string& run_id) override;
  std::optional<JudgeJob> judge_job(const std::string& judge_job_id) override;
  std::vector<JudgeItem> judge_items(const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq) override;
  bool record_judge_page(const std::string& job_id, const std::string& lease_token, const std::string& judge_job_id,
                         std::span<const JudgeVerdict> verdicts) override;
  std::optional<std::vector<JudgeVerdict>> judge_job_results(const Scope& scope, const std::string& run_id, const std::string& judge_job_id,
                                                             std::int64_t after_seq, std::size_t limit) override;
  std::optional<AgreementInput> agreement_input(const Scope& scope, const std::string& run_id) override;
  // Production traces (sqlite_traces.cpp).
  SpanIngestOutcome add_spans(const Scope& scope, std::span<const SpanRecord> spans, std::int64_t received_at_ms) override;
  TracePage traces(const Scope& scope, const TraceFilter& filter) override;
  std::optional<StoredTrace> trace(const Scope& scope, const std::string& trace_id) override;
  std::size_t delete_traces_received_before(std::int64_t cutoff_ms, std::size_t limit) override;
};

}  // namespace krino::core::store
