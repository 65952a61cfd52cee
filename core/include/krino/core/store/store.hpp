#pragma once
// Where the results server keeps projects, experiments, runs and their items: one interface, a
// backend per database (SQLite by default, PostgreSQL for a team). Everything above it (API
// handlers, gate, diff, alerts) talks to a Store and never to SQL.
#include "krino/core/store/alert_types.hpp"
#include "krino/core/store/dataset_types.hpp"
#include "krino/core/store/job_types.hpp"
#include "krino/core/store/judge_types.hpp"
#include "krino/core/store/online_eval_types.hpp"
#include "krino/core/store/review_types.hpp"
#include "krino/core/store/store_types.hpp"
#include "krino/core/store/trace_types.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace krino::core::store {

class Store {
 public:
  virtual ~Store() = default;

  // "sqlite" or "postgresql", for /readyz and the logs.
  virtual std::string backend() const = 0;
  // The highest migration applied.
  virtual int schema_version() = 0;

  // Every call that reads or changes results takes the caller's Scope (store_types.hpp): a row the
  // scope cannot see is, to that caller, a row that does not exist.

  // Starts a run of `run.experiment` in `run.project`, creating both when the scope sees none of
  // that name. A tenant uses its own project (or experiment) first, then a shared one; an unscoped
  // caller only ever writes into shared ones.
  virtual CreatedRun create_run(const Scope& scope, const NewRun& run) = 0;

  // Adds a batch of items to a run that has not ended, in order, after the items it already has;
  // all of them or none. A batch sent again with the same `idempotency_key` (a client retrying
  // after a lost answer) changes nothing and says so. Throws StoreError: not_found for an unknown
  // run, conflict for a run that has ended.
  virtual IngestOutcome add_items(const Scope& scope, const std::string& run_id, std::optional<std::string_view> idempotency_key,
                                  std::span<const NewItem> items) = 0;

  // Moves a run to `status`. Reaching a terminal status (SUCCESS, FAILED, CANCELLED) stamps the
  // completion time and materialises the run's totals; a terminal run cannot change again
  // (conflict). Throws not_found for an unknown run.
  virtual void set_run_status(const Scope& scope, const std::string& run_id, RunStatus status) = 0;

  // The run's header and totals, or nullopt when there is no such run.
  virtual std::optional<RunDetails> run(const Scope& scope, const std::string& run_id) = 0;

  // Up to `limit` items of the run after position `after_seq` (-1: from the start), in order.
  virtual ItemPage items(const Scope& scope, const std::string& run_id, std::int64_t after_seq, std::size_t limit) = 0;

  // The run's items that pass `filter`, in order, from filter.after_seq on, looking at no more than
  // filter.window positions. nullopt when the scope sees no such run.
  virtual std::optional<FilteredItemPage> filtered_items(const Scope& scope, const std::string& run_id, const ItemFilter& filter) = 0;

  // Text search indexes (text_index.hpp), built after a run ends by the server's EndedRunIndexer, never
  // in a request. Unscoped, as the indexer acts for every tenant.
  // Ended runs whose index is not ready (none, or a build cut off by a restart), first ended first.
  virtual std::vector<std::string> runs_awaiting_text_index(std::size_t limit) = 0;
  // Builds the ended run's index from the start (a build cut off before starts again), `chunk`
  // items at a time, asking `keep_going` once per chunk while the build's transaction is open;
  // whether the index is ready at the end (false: stopped, the run was deleted or has not ended).
  // No request waits for a build: readers never, and the store's writers for no more than a write
  // of the run's state (SQLite builds in a file of its own, PostgreSQL's readers do not wait).
  virtual bool build_text_index(const std::string& run_id, std::int64_t chunk, const std::function<bool()>& keep_going) = 0;

  // An ended run's evaluator distributions as kept (evaluator_stats.hpp sums and keeps them), or
  // nullopt when none are kept. Unscoped: the caller has looked the run up in its scope.
  virtual std::optional<std::vector<EvaluatorStats>> kept_evaluator_stats(const std::string& run_id) = 0;
  virtual void keep_evaluator_stats(const std::string& run_id, const std::vector<EvaluatorStats>& stats) = 0;

  // Logs a verdict of the server's gate on a run of the experiment (stamped with the experiment's
  // tenant); the newest matching `query`, newest first.
  virtual void record_gate(const std::string& experiment_id, const std::string& candidate_run_id,
                           const std::optional<std::string>& baseline_run_id, std::string_view status,
                           std::optional<double> pass_rate_delta) = 0;
  virtual std::vector<GateRecord> gates(const Scope& scope, const GateQuery& query) = 0;

  // The items at positions `seqs` (ascending) of the run, documents included: a page of a
  // comparison's cases.
  virtual std::vector<StoredItem> items_at(const Scope& scope, const std::string& run_id, std::span<const std::int64_t> seqs) = 0;

  // Calls `visit` for every item of the run in order, a bounded chunk read at a time: what the
  // comparisons build their sides from. Nothing when the scope sees no such run.
  virtual void scan_items(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) = 0;

  // As scan_items, with only each item's position and verdicts (the items' rows are not read):
  // what the evaluator distributions are summed from.
  virtual void scan_verdicts(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) = 0;

  // The baseline run a comparison takes when none is named (BaselineQuery), or nullopt.
  virtual std::optional<std::string> baseline_run(const Scope& scope, const BaselineQuery& query) = 0;

  // Every project, by name, with how many experiments it has and when its newest run started.
  virtual std::vector<ProjectSummary> projects(const Scope& scope) = 0;
  // The project's experiments by name, each with its newest run; nullopt when there is no project.
  // A name the scope sees twice (a tenant's project beside a shared one of the same name) means the
  // caller's own: the tenant's for a tenant, the shared one for an unscoped caller.
  virtual std::optional<std::vector<ExperimentSummary>> experiments(const Scope& scope, const std::string& project_name) = 0;
  virtual std::optional<ExperimentInfo> experiment(const Scope& scope, const std::string& experiment_id) = 0;
  // The experiment's newest `limit` runs, newest first.
  virtual std::vector<RunSummary> runs(const Scope& scope, const std::string& experiment_id, std::size_t limit) = 0;

  // Each deletes the row with everything under it; false when there was none.
  virtual bool delete_run(const Scope& scope, const std::string& run_id) = 0;
  virtual bool delete_experiment(const Scope& scope, const std::string& experiment_id) = 0;
  virtual bool delete_project(const Scope& scope, const std::string& project_name) = 0;

  // API keys, by the SHA-256 of the key text (the key itself is never stored). A tenant's admin
  // manages only its tenant's keys (shared keys are more powerful than it is); an unscoped one, all.
  virtual ApiKey create_key(const std::string& name, Role role, const std::optional<std::string>& tenant,
                            const std::string& key_hash) = 0;
  virtual std::optional<ApiKey> key_by_hash(const std::string& key_hash) = 0;  // disabled keys too
  virtual std::vector<ApiKey> keys(const Scope& scope) = 0;                     // oldest first
  virtual bool has_keys() = 0;                                                  // disabled ones count
  virtual bool disable_key(const Scope& scope, const std::string& key_id) = 0;
  virtual bool delete_key(const Scope& scope, const std::string& key_id) = 0;
  virtual void record_write(const AuditEntry& entry) = 0;

  // Regression alerts (alert_types.hpp). A webhook belongs to a project, named by id, and is
  // stamped with its creator's tenant; a caller sees the webhooks its scope sees of a project it
  // sees. Each call returns nullopt / false / throws not_found when the project or webhook is not
  // visible to the scope.
  virtual std::optional<ProjectRef> project_by_id(const Scope& scope, const std::string& project_id) = 0;
  virtual AlertWebhook create_webhook(const Scope& scope, const std::string& project_id, const NewWebhook& webhook) = 0;
  virtual std::optional<std::vector<AlertWebhook>> webhooks(const Scope& scope, const std::string& project_id) = 0;  // oldest first
  virtual std::optional<AlertWebhook> webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) = 0;
  virtual std::optional<AlertWebhook> update_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                     const WebhookChange& change) = 0;
  virtual bool delete_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) = 0;
  // The webhook's deliveries, newest first, `offset` and `limit` over them, with their attempts.
  virtual std::optional<DeliveryPage> deliveries(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                 std::size_t offset, std::size_t limit) = 0;
  // Sends a DEAD delivery again from `now_ms` with a fresh budget of attempts; nullopt when there
  // is no such delivery; StoreError(conflict) when it is not DEAD.
  virtual std::optional<AlertDelivery> redeliver(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                 const std::string& delivery_id, std::int64_t now_ms) = 0;

  // The alert queue, for the workers (unscoped: they act for every tenant). A run reaching a
  // terminal status in a project with an enabled webhook is queued to be checked in the same
  // transaction (set_run_status). Claims give one owner a lease until `now_ms + lease_ms`; a row
  // whose lease has run out (its owner died) can be claimed again. Several stores on one
  // PostgreSQL database never claim the same row at once (FOR UPDATE SKIP LOCKED).
  virtual std::vector<AlertCheck> claim_alert_checks(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                     std::size_t limit) = 0;
  // Ends a claimed check: when `payload` is given, queues one delivery of it, due at `now_ms`, for
  // each enabled webhook of the run's project that the run's tenant sees. Nothing happens when the
  // owner's lease was lost (another worker has the check). Returns the deliveries queued.
  virtual std::size_t finish_alert_check(const std::string& run_id, const std::string& owner, const std::optional<std::string>& payload,
                                         std::int64_t now_ms) = 0;
  // Pending deliveries due by `now_ms` whose webhook is enabled, oldest due first.
  virtual std::vector<ClaimedDelivery> claim_deliveries(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                        std::size_t limit) = 0;
  // Logs an attempt of a claimed delivery and moves it on (delivered, retried later, dead), releasing
  // the lease; false (and nothing logged) when the owner no longer holds it.
  virtual bool record_attempt(const std::string& delivery_id, const std::string& owner, const AttemptOutcome& outcome) = 0;
  virtual AlertQueueDepth alert_queue_depth() = 0;
  // Server datasets (dataset_types.hpp). A name means, to a tenant, its own dataset of that name
  // before a shared one; to an unscoped caller, the shared one first. Names are unique per tenant.
  // Creates an empty dataset; StoreError(conflict) when the caller's tenant already has that name.
  virtual DatasetSummary create_dataset(const Scope& scope, const std::string& name, const std::optional<std::string>& description) = 0;
  virtual std::vector<DatasetSummary> datasets(const Scope& scope) = 0;  // by name
  virtual std::optional<DatasetDetails> dataset(const Scope& scope, const std::string& name) = 0;
  // Writes the next version of the dataset: the items of version `base` first when given (a copy;
  // base 0 means the newest version at the time of writing, none for an empty dataset), then
  // `items`, an item whose id the base has replacing it in place; all in one transaction. Throws
  // StoreError(not_found) for an unknown dataset or base version.
  virtual DatasetVersionInfo add_dataset_version(const Scope& scope, const std::string& name, const std::optional<std::string>& description,
                                                 std::optional<std::int64_t> base, std::span<const DatasetItem> items) = 0;
  // One version (nullopt `version`: the newest), or nullopt when there is none.
  virtual std::optional<DatasetVersionInfo> dataset_version(const Scope& scope, const std::string& name,
                                                            std::optional<std::int64_t> version) = 0;
  // Up to `limit` items of the version after ordinal `after_ordinal` (-1: from the start), in order;
  // nullopt when there is no such version.
  virtual std::optional<DatasetItemPage> dataset_items(const Scope& scope, const std::string& name, std::int64_t version,
                                                       std::int64_t after_ordinal, std::size_t limit) = 0;
  // Deletes the dataset with all its versions; runs keep their `datasetVersion` text. False when none.
  virtual bool delete_dataset(const Scope& scope, const std::string& name) = 0;
  // Review (review_types.hpp). The item must belong to the run, and the run be visible to the scope:
  // otherwise nullopt / false.
  // Writes the principal's annotation of the item, replacing the one it wrote before.
  virtual std::optional<Annotation> put_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id,
                                                   const std::string& principal, const NewAnnotation& annotation) = 0;
  // Every annotation of the item, oldest revision first (an empty list: none yet).
  virtual std::optional<std::vector<Annotation>> annotations(const Scope& scope, const std::string& run_id, const std::string& item_id) = 0;
  virtual bool delete_annotation(const Scope& scope, const std::string& run_id, const std::string& item_id, const std::string& principal) = 0;
  // The queue, oldest item first, `offset` and `limit` over it.
  virtual ReviewPage review_queue(const Scope& scope, const ReviewFilter& filter, std::size_t offset, std::size_t limit) = 0;
  // A run item by its id, with what promotion takes from it; nullopt when the scope sees none.
  virtual std::optional<ItemForPromotion> item_for_promotion(const Scope& scope, const std::string& item_id) = 0;
  // LLM connections (judge_types.hpp). A connection belongs to its maker's tenant; a caller sees
  // its tenant's and shared ones. Names are unique per tenant: create and replace throw
  // StoreError(conflict) on a taken one. Replacing keeps the stored credential when the new one
  // sets neither credential_ref nor api_key_sealed.
  virtual LlmConnection create_llm_connection(const Scope& scope, const NewLlmConnection& connection) = 0;
  virtual std::vector<LlmConnection> llm_connections(const Scope& scope) = 0;  // by name
  virtual std::optional<LlmConnection> llm_connection(const Scope& scope, const std::string& connection_id) = 0;
  virtual std::optional<LlmConnection> replace_llm_connection(const Scope& scope, const std::string& connection_id,
                                                              const NewLlmConnection& connection) = 0;
  virtual bool delete_llm_connection(const Scope& scope, const std::string& connection_id) = 0;

  // The generic job queue (job_types.hpp), for the workers of every replica (unscoped: a job
  // carries its tenant). Claims take the oldest claimable job of one of `kinds`: QUEUED and due, or
  // RUNNING with a lease that ran out. Replicas on one PostgreSQL never claim one job at once (FOR
  // UPDATE SKIP LOCKED); SQLite's single writer claims in one transaction. Each call after the
  // claim is fenced by the claim's lease token: false, and nothing changed, when the caller no
  // longer holds the job.
  virtual void enqueue_jobs(std::span<const NewJob> jobs) = 0;
  virtual std::optional<ClaimedJob> claim_job(const std::string& owner, std::span<const std::string> kinds, std::int64_t now_ms,
                                              std::int64_t lease_ms) = 0;
  virtual bool renew_job_lease(const std::string& job_id, const std::string& lease_token, std::int64_t now_ms, std::int64_t lease_ms) = 0;
  virtual bool complete_job(const std::string& job_id, const std::string& lease_token) = 0;
  // Back to the queue, due at `available_at_ms`, with `error` as its last error.
  virtual bool retry_job(const std::string& job_id, const std::string& lease_token, const std::string& error, std::int64_t available_at_ms) = 0;
  virtual bool fail_job(const std::string& job_id, const std::string& lease_token, const std::string& error) = 0;
  virtual JobQueueDepth job_queue_depth() = 0;

  // The server judge. Starts judging an ended run: the run becomes EVALUATING (remembering the
  // terminal status it returns to), and one page job per `page_size` items is queued. Throws
  // not_found for a run or connection the scope does not see, conflict for a run still RUNNING.
  virtual JudgeJob create_judge_job(const Scope& scope, const std::string& run_id, const NewJudgeJob& job) = 0;
  virtual std::optional<std::vector<JudgeJob>> judge_jobs(const Scope& scope, const std::string& run_id) = 0;  // oldest first
  // For the workers (unscoped).
  virtual std::optional<JudgeJob> judge_job(const std::string& judge_job_id) = 0;
  virtual std::vector<JudgeItem> judge_items(const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq) = 0;
  // Writes a page's judgments and completes its page job, in one transaction fenced by the page
  // job's lease token (false, nothing written, when the lease was lost): each scored item gets the
  // evaluator's verdict in eval_results (replacing one of the same name), every item its row in
  // judge_results. The last page finishes the judge job and, when no other judge job of the run is
  // left, returns the run to its terminal status (its kept evaluator distributions are dropped, to
  // be summed again with the new verdicts).
  virtual bool record_judge_page(const std::string& job_id, const std::string& lease_token, const std::string& judge_job_id,
                                 std::span<const JudgeVerdict> verdicts) = 0;
  // A judge job's judgments (scores with reasons, and errors with their causes), by item position
  // after `after_seq`; nullopt when the scope sees no such job of the run.
  virtual std::optional<std::vector<JudgeVerdict>> judge_job_results(const Scope& scope, const std::string& run_id, const std::string& judge_job_id,
                                                                     std::int64_t after_seq, std::size_t limit) = 0;
  // What agreement is computed from: the verdicts of the run's annotated items and every
  // annotation; nullopt when the scope sees no such run.
  virtual std::optional<AgreementInput> agreement_input(const Scope& scope, const std::string& run_id) = 0;

  // Online evaluation (online_eval_types.hpp). A rule belongs to its maker's tenant; a caller sees
  // its tenant's and shared ones (as LLM connections). Names are unique per tenant: create and
  // replace throw StoreError(conflict); a connection the scope does not see is not_found.
  virtual TraceEvalRule create_trace_eval_rule(const Scope& scope, const NewTraceEvalRule& rule) = 0;
  virtual std::vector<TraceEvalRule> trace_eval_rules(const Scope& scope) = 0;  // by name
  virtual std::optional<TraceEvalRule> trace_eval_rule(const Scope& scope, const std::string& rule_id) = 0;
  virtual std::optional<TraceEvalRule> replace_trace_eval_rule(const Scope& scope, const std::string& rule_id, const NewTraceEvalRule& rule) = 0;
  virtual bool delete_trace_eval_rule(const Scope& scope, const std::string& rule_id) = 0;
  // The enabled rules of exactly this tenant (none: the shared ones): what a tenant's spans are
  // matched against at ingestion.
  virtual std::vector<TraceEvalRule> enabled_trace_eval_rules(const std::optional<std::string>& tenant) = 0;
  // In one transaction: queues a job of kind "online_eval" for each sampled match whose dedupe key
  // no job has yet, stamped with `tenant`, and adds the matches to their rules' counters.
  virtual OnlineEvalEnqueued enqueue_online_evals(const std::optional<std::string>& tenant, std::span<const OnlineEvalMatch> matches,
                                                  std::int64_t max_attempts) = 0;
  // Writes the evaluation and completes its job in one transaction fenced by the job's lease token
  // (false, nothing written, when the lease was lost). `tenant` is the job's.
  virtual bool record_online_evaluation(const std::string& job_id, const std::string& lease_token, const std::optional<std::string>& tenant,
                                        const OnlineEvaluation& evaluation) = 0;
  // The trace's evaluations the scope sees, oldest first.
  virtual std::vector<OnlineEvaluation> online_evaluations(const Scope& scope, const std::string& trace_id) = 0;

  // Production traces (trace_types.hpp), stamped with the caller's tenant ('' in the tables for an
  // unscoped caller); a tenant sees its own and shared traces, an unscoped caller every trace.
  // Stores the spans in one transaction, each trace's row summed up with them; a span already
  // stored (same tenant, trace and span id) is left as it is and counted as a duplicate.
  // `received_at_ms` stamps the traces touched (retention).
  virtual SpanIngestOutcome add_spans(const Scope& scope, std::span<const SpanRecord> spans, std::int64_t received_at_ms) = 0;
  virtual TracePage traces(const Scope& scope, const TraceFilter& filter) = 0;
  // The trace with all its spans; nullopt when the scope sees none (its own before a shared one).
  virtual std::optional<StoredTrace> trace(const Scope& scope, const std::string& trace_id) = 0;
  // Retention (unscoped: the sweeper acts for every tenant): deletes up to `limit` traces last
  // received before `cutoff_ms`, with their spans and online evaluations, oldest first, in one
  // transaction; how many.
  virtual std::size_t delete_traces_received_before(std::int64_t cutoff_ms, std::size_t limit) = 0;
};

}  // namespace krino::core::store
