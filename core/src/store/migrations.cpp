#include "krino/core/store/migrations.hpp"

#include <array>

namespace krino::core::store {

namespace {

// 1: projects, experiments, runs and their items. An item keeps its whole document as the client
// sent it (exact numbers and text), and the columns a list, a total or a comparison needs beside it.
// Every index costs each ingested item a B-tree insert, so there are only the ones a query uses;
// verdicts are keyed by their item's place in its run, so a comparison reads a run's items and its
// verdicts as two ranges of one index each; and items and their verdicts carry no foreign key (a check per ingested row costs more than the
// insert): the store, their only writer, deletes them with their run.
// Names are unique per tenant: two tenants may each have a project "chat" (a shared row has no tenant).
// `seq` is the item's place in its run, given at ingestion; pages walk (run_id, seq). A run keeps
// its totals (items, passes, coverage, tokens, cost, latency) up to date as batches arrive, so no
// page or list ever sums a run's items.
constexpr std::string_view kResultsSqlite = R"sql(
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tenant_id TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX projects_by_tenant_name ON projects (COALESCE(tenant_id, ''), name);
CREATE TABLE experiments (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  tenant_id TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX experiments_by_tenant_name ON experiments (project_id, COALESCE(tenant_id, ''), name);
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  tenant_id TEXT,
  status TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  dataset_version TEXT,
  git_branch TEXT,
  started_at TEXT NOT NULL,
  completed_at TEXT,
  item_count INTEGER NOT NULL DEFAULT 0,
  passed_count INTEGER NOT NULL DEFAULT 0,
  priced_count INTEGER NOT NULL DEFAULT 0,
  tokenized_count INTEGER NOT NULL DEFAULT 0,
  tokens_in INTEGER,
  tokens_out INTEGER,
  cost_usd REAL,
  latency_ms_sum REAL
);
CREATE INDEX runs_by_experiment ON runs (experiment_id, started_at DESC, id DESC);
CREATE INDEX runs_by_status ON runs (status);
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  dataset_item_id TEXT,
  success INTEGER NOT NULL,
  tokens_in INTEGER,
  tokens_out INTEGER,
  cost_usd REAL,
  latency_ms REAL,
  document TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (run_id, seq)
);
CREATE TABLE eval_results (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  position INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  name TEXT NOT NULL,
  score REAL,
  threshold REAL,
  success INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq, position)
) WITHOUT ROWID;
CREATE TABLE ingest_batches (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  item_count INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, idempotency_key)
);
)sql";

constexpr std::string_view kResultsPostgres = R"sql(
CREATE TABLE projects (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  tenant_id text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX projects_by_tenant_name ON projects (COALESCE(tenant_id, ''), name);
CREATE TABLE experiments (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  tenant_id text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX experiments_by_tenant_name ON experiments (project_id, COALESCE(tenant_id, ''), name);
CREATE TABLE runs (
  id uuid PRIMARY KEY,
  experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  tenant_id text,
  status text NOT NULL,
  metadata text NOT NULL DEFAULT '{}',
  dataset_version text,
  git_branch text,
  started_at timestamptz NOT NULL,
  completed_at timestamptz,
  item_count bigint NOT NULL DEFAULT 0,
  passed_count bigint NOT NULL DEFAULT 0,
  priced_count bigint NOT NULL DEFAULT 0,
  tokenized_count bigint NOT NULL DEFAULT 0,
  tokens_in bigint,
  tokens_out bigint,
  cost_usd double precision,
  latency_ms_sum double precision
);
CREATE INDEX runs_by_experiment ON runs (experiment_id, started_at DESC, id DESC);
CREATE INDEX runs_by_status ON runs (status);
CREATE TABLE items (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL,
  seq bigint NOT NULL,
  dataset_item_id text,
  success boolean NOT NULL,
  tokens_in bigint,
  tokens_out bigint,
  cost_usd double precision,
  latency_ms double precision,
  document text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (run_id, seq)
);
CREATE TABLE eval_results (
  run_id uuid NOT NULL,
  seq bigint NOT NULL,
  position integer NOT NULL,
  item_id uuid NOT NULL,
  name text NOT NULL,
  score double precision,
  threshold double precision,
  success boolean NOT NULL,
  PRIMARY KEY (run_id, seq, position)
);
CREATE TABLE ingest_batches (
  run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  item_count integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, idempotency_key)
);
)sql";

// 2: API keys (only a hash of each key is kept) and the audit log of writes.
constexpr std::string_view kKeysSqlite = R"sql(
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  tenant_id TEXT,
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  disabled_at TEXT
);
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  at TEXT NOT NULL,
  key_id TEXT,
  tenant_id TEXT,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL
);
)sql";

constexpr std::string_view kKeysPostgres = R"sql(
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL,
  tenant_id text,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz
);
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  at timestamptz NOT NULL,
  key_id uuid,
  tenant_id text,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL
);
)sql";

// 3: regression alerts. A project's webhooks (the secret is kept to sign with and never shown);
// the queue of runs to check after they end (one row per run); the deliveries, each one POST body
// for one webhook, with their attempts. A row of the queue is worked on by the worker that holds
// its lease (lease_owner until lease_until); queue times are Unix milliseconds of the workers'
// clock. A delivery keeps its run's id without a reference: its log outlives the run.
constexpr std::string_view kAlertsSqlite = R"sql(
CREATE TABLE alert_webhooks (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tenant_id TEXT,
  url TEXT NOT NULL,
  secret TEXT,
  enabled INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX alert_webhooks_by_project ON alert_webhooks (project_id, id);
CREATE TABLE alert_checks (
  run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  queued_at INTEGER NOT NULL,
  claims INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER
);
CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES alert_webhooks(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_owner TEXT,
  lease_until INTEGER,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX alert_deliveries_by_webhook ON alert_deliveries (webhook_id, id DESC);
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE TABLE alert_delivery_attempts (
  delivery_id TEXT NOT NULL REFERENCES alert_deliveries(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  PRIMARY KEY (delivery_id, number)
);
)sql";

constexpr std::string_view kAlertsPostgres = R"sql(
CREATE TABLE alert_webhooks (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tenant_id text,
  url text NOT NULL,
  secret text,
  enabled boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX alert_webhooks_by_project ON alert_webhooks (project_id, id);
CREATE TABLE alert_checks (
  run_id uuid PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  queued_at bigint NOT NULL,
  claims integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until bigint
);
CREATE TABLE alert_deliveries (
  id uuid PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES alert_webhooks(id) ON DELETE CASCADE,
  run_id uuid NOT NULL,
  payload text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  lease_owner text,
  lease_until bigint,
  delivered_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX alert_deliveries_by_webhook ON alert_deliveries (webhook_id, id DESC);
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE TABLE alert_delivery_attempts (
  delivery_id uuid NOT NULL REFERENCES alert_deliveries(id) ON DELETE CASCADE,
  number integer NOT NULL,
  at bigint NOT NULL,
  status_code integer,
  error text,
  PRIMARY KEY (delivery_id, number)
);
)sql";

// 4: what the web UI reads. An item's error (a member "error" holding an object) gets a column and
// its run a count, so the ERROR filter and its count need no document read; the columns are
// filled from the documents already stored. Partial indexes on the rare rows a filter looks for
// (failed items, errored items, failed verdicts) cost ingestion nothing for the rows that pass.
// An ended run's per-evaluator distribution is kept (it never changes), and every gate verdict
// the server gives is logged for the dashboard.
constexpr std::string_view kUiSqlite = R"sql(
ALTER TABLE items ADD COLUMN has_error INTEGER NOT NULL DEFAULT 0;
UPDATE items SET has_error = 1
WHERE document LIKE '%"error"%' AND CASE WHEN json_valid(document) THEN json_type(document, '$.error') END = 'object';
ALTER TABLE runs ADD COLUMN error_count INTEGER NOT NULL DEFAULT 0;
CREATE INDEX items_failed ON items (run_id, seq) WHERE success = 0;
CREATE INDEX items_errored ON items (run_id, seq) WHERE has_error = 1;
UPDATE runs SET error_count = (SELECT COUNT(*) FROM items WHERE items.run_id = runs.id AND has_error = 1);
CREATE INDEX eval_results_failed ON eval_results (run_id, name, seq) WHERE success = 0;
CREATE TABLE run_evaluator_stats (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  count INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  scored INTEGER NOT NULL,
  score_sum REAL,
  score_sum_squares REAL,
  score_min REAL,
  score_max REAL,
  buckets TEXT NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE TABLE gate_verdicts (
  id TEXT PRIMARY KEY,
  experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  tenant_id TEXT,
  candidate_run_id TEXT NOT NULL,
  baseline_run_id TEXT,
  status TEXT NOT NULL,
  pass_rate_delta REAL,
  created_at TEXT NOT NULL
);
CREATE INDEX gate_verdicts_by_experiment ON gate_verdicts (experiment_id, id DESC);
CREATE INDEX gate_verdicts_by_status ON gate_verdicts (status, id DESC);
)sql";

constexpr std::string_view kUiPostgres = R"sql(
ALTER TABLE items ADD COLUMN has_error boolean NOT NULL DEFAULT false;
CREATE FUNCTION pg_temp.krino_has_item_error(document text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- json refuses the escape \u0000, which JSON allows: read as \u0020, where the six characters
  -- are an escape or follow an escaped backslash alike, the text stays JSON.
  RETURN json_typeof(replace(document, '\u0000', '\u0020')::json -> 'error') = 'object';
EXCEPTION WHEN others THEN
  RETURN false;  -- other text json refuses (a lone surrogate): no error to find
END $$;
UPDATE items SET has_error = true WHERE document LIKE '%"error"%' AND pg_temp.krino_has_item_error(document);
ALTER TABLE runs ADD COLUMN error_count bigint NOT NULL DEFAULT 0;
CREATE INDEX items_failed ON items (run_id, seq) WHERE NOT success;
CREATE INDEX items_errored ON items (run_id, seq) WHERE has_error;
UPDATE runs SET error_count = (SELECT COUNT(*) FROM items WHERE items.run_id = runs.id AND has_error);
CREATE INDEX eval_results_failed ON eval_results (run_id, name, seq) WHERE NOT success;
CREATE TABLE run_evaluator_stats (
  run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text NOT NULL,
  count bigint NOT NULL,
  passed bigint NOT NULL,
  scored bigint NOT NULL,
  score_sum double precision,
  score_sum_squares double precision,
  score_min double precision,
  score_max double precision,
  buckets text NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE TABLE gate_verdicts (
  id uuid PRIMARY KEY,
  experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  tenant_id text,
  candidate_run_id uuid NOT NULL,
  baseline_run_id uuid,
  status text NOT NULL,
  pass_rate_delta double precision,
  created_at timestamptz NOT NULL
);
CREATE INDEX gate_verdicts_by_experiment ON gate_verdicts (experiment_id, id DESC);
CREATE INDEX gate_verdicts_by_status ON gate_verdicts (status, id DESC);
)sql";

// 5: server datasets and review. A dataset's name is unique per tenant (as a project's is). Each version is a
// full copy of its items, written once: reading a version is one range of (dataset, version,
// ordinal). Deleting a dataset cascades to its versions and their items; runs name the version
// they used only as text (`runs.dataset_version`), so they stay, unlinked. An annotation is one
// reviewer's (principal's) verdict on one run item; `revision` (Unix ms of the last write) orders
// the reviewers' verdicts on an item, which the review queue reads the latest of. Annotations go
// with their run.
constexpr std::string_view kDatasetsSqlite = R"sql(
CREATE TABLE datasets (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  tenant_id TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX datasets_by_tenant_name ON datasets (COALESCE(tenant_id, ''), name);
CREATE TABLE dataset_versions (
  dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  description TEXT,
  item_count INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (dataset_id, version)
);
CREATE TABLE dataset_items (
  dataset_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  inputs TEXT NOT NULL,
  expected_outputs TEXT,
  metadata TEXT,
  PRIMARY KEY (dataset_id, version, ordinal),
  FOREIGN KEY (dataset_id, version) REFERENCES dataset_versions (dataset_id, version) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE annotations (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  principal TEXT NOT NULL,
  verdict TEXT NOT NULL,
  overridden_expected_output TEXT,
  note TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  revision INTEGER NOT NULL,
  PRIMARY KEY (item_id, principal)
);
CREATE INDEX annotations_by_run ON annotations (run_id);
)sql";

constexpr std::string_view kDatasetsPostgres = R"sql(
CREATE TABLE datasets (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text,
  tenant_id text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX datasets_by_tenant_name ON datasets (COALESCE(tenant_id, ''), name);
CREATE TABLE dataset_versions (
  dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  version bigint NOT NULL,
  description text,
  item_count bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (dataset_id, version)
);
CREATE TABLE dataset_items (
  dataset_id uuid NOT NULL,
  version bigint NOT NULL,
  ordinal bigint NOT NULL,
  item_id text NOT NULL,
  inputs text NOT NULL,
  expected_outputs text,
  metadata text,
  PRIMARY KEY (dataset_id, version, ordinal),
  FOREIGN KEY (dataset_id, version) REFERENCES dataset_versions (dataset_id, version) ON DELETE CASCADE
);
CREATE TABLE annotations (
  run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  item_id uuid NOT NULL,
  principal text NOT NULL,
  verdict text NOT NULL,
  overridden_expected_output text,
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  revision bigint NOT NULL,
  PRIMARY KEY (item_id, principal)
);
CREATE INDEX annotations_by_run ON annotations (run_id);
)sql";

// 7: the server judge and the generic job queue. An LLM connection is a tenant's named model
// endpoint; its key is either the name of an environment variable (read at call time) or an inline
// key sealed with AES-256-GCM (`api_key_sealed`, never the key itself). `jobs` is every kind of
// background work (judge pages today, online evaluations of traces later): a job is QUEUED, then
// RUNNING under a lease (owner, token, expiry), then DONE or FAILED; a RUNNING job whose lease has
// run out is claimable again. `group_id` ties jobs to what they are a part of (a judge job's
// pages). A judge job scores one run with one evaluator; `previous_status` is the run's terminal
// status before it became EVALUATING. `judge_results` holds each item's judgment once per judge
// job (its primary key is what makes a page written twice impossible), with the reason or the
// error the API shows; the verdict itself also goes into `eval_results`, where the gate and the UI
// read reported ones.
constexpr std::string_view kJudgeSqlite = R"sql(
CREATE TABLE llm_connections (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tenant_id TEXT,
  provider TEXT NOT NULL,
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  credential_ref TEXT,
  api_key_sealed TEXT,
  max_concurrency INTEGER NOT NULL,
  timeout_ms INTEGER NOT NULL,
  max_retries INTEGER NOT NULL,
  requests_per_minute INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX llm_connections_by_tenant_name ON llm_connections (COALESCE(tenant_id, ''), name);
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  tenant_id TEXT,
  group_id TEXT,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  available_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_token TEXT,
  lease_until INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX jobs_claimable ON jobs (kind, status, available_at) WHERE status IN ('QUEUED', 'RUNNING');
CREATE INDEX jobs_by_group ON jobs (group_id) WHERE group_id IS NOT NULL;
CREATE TABLE judge_jobs (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tenant_id TEXT,
  connection_id TEXT NOT NULL,
  evaluator_name TEXT NOT NULL,
  config TEXT NOT NULL,
  status TEXT NOT NULL,
  previous_status TEXT NOT NULL,
  items_total INTEGER NOT NULL,
  items_scored INTEGER NOT NULL DEFAULT 0,
  items_failed INTEGER NOT NULL DEFAULT 0,
  pages_total INTEGER NOT NULL,
  pages_done INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX judge_jobs_by_run ON judge_jobs (run_id, id);
CREATE TABLE judge_results (
  judge_job_id TEXT NOT NULL REFERENCES judge_jobs(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  score REAL,
  success INTEGER NOT NULL,
  reason TEXT,
  error TEXT,
  PRIMARY KEY (judge_job_id, item_id)
);
)sql";

constexpr std::string_view kJudgePostgres = R"sql(
CREATE TABLE llm_connections (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  tenant_id text,
  provider text NOT NULL,
  base_url text NOT NULL,
  model text NOT NULL,
  credential_ref text,
  api_key_sealed text,
  max_concurrency bigint NOT NULL,
  timeout_ms bigint NOT NULL,
  max_retries bigint NOT NULL,
  requests_per_minute bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX llm_connections_by_tenant_name ON llm_connections (COALESCE(tenant_id, ''), name);
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  tenant_id text,
  group_id uuid,
  payload text NOT NULL,
  status text NOT NULL,
  attempts bigint NOT NULL DEFAULT 0,
  max_attempts bigint NOT NULL,
  available_at bigint NOT NULL,
  lease_owner text,
  lease_token text,
  lease_until bigint,
  last_error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX jobs_claimable ON jobs (kind, status, available_at) WHERE status IN ('QUEUED', 'RUNNING');
CREATE INDEX jobs_by_group ON jobs (group_id) WHERE group_id IS NOT NULL;
CREATE TABLE judge_jobs (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tenant_id text,
  connection_id uuid NOT NULL,
  evaluator_name text NOT NULL,
  config text NOT NULL,
  status text NOT NULL,
  previous_status text NOT NULL,
  items_total bigint NOT NULL,
  items_scored bigint NOT NULL DEFAULT 0,
  items_failed bigint NOT NULL DEFAULT 0,
  pages_total bigint NOT NULL,
  pages_done bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX judge_jobs_by_run ON judge_jobs (run_id, id);
CREATE TABLE judge_results (
  judge_job_id uuid NOT NULL REFERENCES judge_jobs(id) ON DELETE CASCADE,
  item_id uuid NOT NULL,
  seq bigint NOT NULL,
  score double precision,
  success boolean NOT NULL,
  reason text,
  error text,
  PRIMARY KEY (judge_job_id, item_id)
);
)sql";

// 6: text search indexes. Each ended run gets one, built off the request path by the server
// (store.hpp, EndedRunIndexer): a table of its own per run (SQLite: FTS5 trigrams; PostgreSQL: a copy
// of the documents under a pg_trgm GIN index), so that ingestion pays nothing and deleting the run
// drops it whole. The run says where its index stands; the partial index finds the ended runs
// still without one (after a restart too). A run also counts its items with a latency, beside the
// latencies' sum it already kept, so its average latency needs no scan (counted for stored runs).
constexpr std::string_view kTextIndexSqlite = R"sql(
ALTER TABLE runs ADD COLUMN text_index TEXT NOT NULL DEFAULT 'none';
ALTER TABLE runs ADD COLUMN latency_count INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET latency_count = (SELECT COUNT(latency_ms) FROM items WHERE items.run_id = runs.id);
CREATE INDEX runs_awaiting_text_index ON runs (completed_at, id) WHERE text_index <> 'ready';
)sql";

constexpr std::string_view kTextIndexPostgres = R"sql(
ALTER TABLE runs ADD COLUMN text_index text NOT NULL DEFAULT 'none';
ALTER TABLE runs ADD COLUMN latency_count bigint NOT NULL DEFAULT 0;
UPDATE runs SET latency_count = (SELECT COUNT(latency_ms) FROM items WHERE items.run_id = runs.id);
CREATE INDEX runs_awaiting_text_index ON runs (completed_at, id) WHERE text_index <> 'ready';
)sql";

// 8: production traces (OTLP spans), in tables of their own, apart from runs: high-volume ingestion
// never shares an index with experiment data. A trace is keyed by its tenant ('' for shared rows:
// a primary key cannot hold NULL) and its OTLP id; its spans by the same and their span id, so an
// exporter sending a span again stores it once. Times are Unix nanoseconds as 64-bit integers,
// exact. The list walks (start_ns DESC, trace_id DESC); retention walks received_at_ms. Spans carry
// no foreign key (a check per ingested row costs more than the insert): the store, their only
// writer, deletes them with their trace.
constexpr std::string_view kTracesSqlite = R"sql(
CREATE TABLE traces (
  tenant TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  project TEXT,
  root_span_id TEXT,
  root_name TEXT,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  span_count INTEGER NOT NULL,
  error_count INTEGER NOT NULL,
  input TEXT,
  output TEXT,
  received_at_ms INTEGER NOT NULL,
  PRIMARY KEY (tenant, trace_id)
) WITHOUT ROWID;
CREATE INDEX traces_by_start ON traces (start_ns DESC, trace_id DESC);
CREATE INDEX traces_by_project ON traces (project, start_ns DESC, trace_id DESC);
CREATE INDEX traces_by_received ON traces (received_at_ms);
CREATE TABLE spans (
  tenant TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  span_id TEXT NOT NULL,
  parent_span_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  status_code INTEGER NOT NULL,
  status_message TEXT NOT NULL,
  attributes TEXT NOT NULL,
  events TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope_name TEXT NOT NULL,
  scope_version TEXT NOT NULL,
  project TEXT,
  input TEXT,
  output TEXT,
  PRIMARY KEY (tenant, trace_id, span_id)
) WITHOUT ROWID;
)sql";

constexpr std::string_view kTracesPostgres = R"sql(
CREATE TABLE traces (
  tenant text NOT NULL,
  trace_id text NOT NULL,
  project text,
  root_span_id text,
  root_name text,
  start_ns bigint NOT NULL,
  end_ns bigint NOT NULL,
  span_count bigint NOT NULL,
  error_count bigint NOT NULL,
  input text,
  output text,
  received_at_ms bigint NOT NULL,
  PRIMARY KEY (tenant, trace_id)
);
CREATE INDEX traces_by_start ON traces (start_ns DESC, trace_id DESC);
CREATE INDEX traces_by_project ON traces (project, start_ns DESC, trace_id DESC);
CREATE INDEX traces_by_received ON traces (received_at_ms);
CREATE TABLE spans (
  tenant text NOT NULL,
  trace_id text NOT NULL,
  span_id text NOT NULL,
  parent_span_id text NOT NULL,
  name text NOT NULL,
  kind integer NOT NULL,
  start_ns bigint NOT NULL,
  end_ns bigint NOT NULL,
  status_code integer NOT NULL,
  status_message text NOT NULL,
  attributes text NOT NULL,
  events text NOT NULL,
  resource text NOT NULL,
  scope_name text NOT NULL,
  scope_version text NOT NULL,
  project text,
  input text,
  output text,
  PRIMARY KEY (tenant, trace_id, span_id)
);
)sql";

// 9: online evaluation of production traces. A trace eval rule is a tenant's (as an LLM
// connection is) and keeps its ingestion counters. A job may carry a dedupe key: at most one job
// ever has a given key (an online evaluation's names its rule, trace and span), so an export sent
// again, or matched by two replicas, queues nothing new. An online evaluation is written once per
// rule, trace and span (its unique index), beside the trace it scores; it is keyed by the trace's
// tenant as traces are ('' for shared rows) and read by trace.
constexpr std::string_view kOnlineEvalSqlite = R"sql(
ALTER TABLE jobs ADD COLUMN dedupe_key TEXT;
CREATE UNIQUE INDEX jobs_by_dedupe_key ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE TABLE trace_eval_rules (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tenant_id TEXT,
  project TEXT,
  span_name TEXT,
  attribute_key TEXT,
  attribute_value TEXT,
  target TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  evaluator_name TEXT NOT NULL,
  config TEXT NOT NULL,
  sampling_rate REAL NOT NULL,
  enabled INTEGER NOT NULL,
  matched_count INTEGER NOT NULL DEFAULT 0,
  enqueued_count INTEGER NOT NULL DEFAULT 0,
  sampled_out_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX trace_eval_rules_by_tenant_name ON trace_eval_rules (COALESCE(tenant_id, ''), name);
CREATE TABLE online_evaluations (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  rule_id TEXT NOT NULL,
  rule_name TEXT NOT NULL,
  evaluator_name TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  span_id TEXT,
  score REAL,
  success INTEGER NOT NULL,
  reason TEXT,
  error TEXT,
  cost_usd REAL,
  judged_at_ms INTEGER NOT NULL
);
CREATE UNIQUE INDEX online_evaluations_once ON online_evaluations (rule_id, trace_id, COALESCE(span_id, ''));
CREATE INDEX online_evaluations_by_trace ON online_evaluations (tenant, trace_id, judged_at_ms);
)sql";

constexpr std::string_view kOnlineEvalPostgres = R"sql(
ALTER TABLE jobs ADD COLUMN dedupe_key text;
CREATE UNIQUE INDEX jobs_by_dedupe_key ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE TABLE trace_eval_rules (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  tenant_id text,
  project text,
  span_name text,
  attribute_key text,
  attribute_value text,
  target text NOT NULL,
  connection_id uuid NOT NULL,
  evaluator_name text NOT NULL,
  config text NOT NULL,
  sampling_rate double precision NOT NULL,
  enabled boolean NOT NULL,
  matched_count bigint NOT NULL DEFAULT 0,
  enqueued_count bigint NOT NULL DEFAULT 0,
  sampled_out_count bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX trace_eval_rules_by_tenant_name ON trace_eval_rules (COALESCE(tenant_id, ''), name);
CREATE TABLE online_evaluations (
  id uuid PRIMARY KEY,
  tenant text NOT NULL,
  rule_id uuid NOT NULL,
  rule_name text NOT NULL,
  evaluator_name text NOT NULL,
  trace_id text NOT NULL,
  span_id text,
  score double precision,
  success boolean NOT NULL,
  reason text,
  error text,
  cost_usd double precision,
  judged_at_ms bigint NOT NULL
);
CREATE UNIQUE INDEX online_evaluations_once ON online_evaluations (rule_id, trace_id, COALESCE(span_id, ''));
CREATE INDEX online_evaluations_by_trace ON online_evaluations (tenant, trace_id, judged_at_ms);
)sql";

constexpr std::array kMigrations = {
    Migration{1, "runs and items", kResultsSqlite, kResultsPostgres},
    Migration{2, "api keys and audit log", kKeysSqlite, kKeysPostgres},
    Migration{3, "regression alerts", kAlertsSqlite, kAlertsPostgres},
    Migration{4, "web ui reads", kUiSqlite, kUiPostgres},
    Migration{5, "server datasets and review", kDatasetsSqlite, kDatasetsPostgres},
    Migration{6, "text search indexes", kTextIndexSqlite, kTextIndexPostgres},
    Migration{7, "server judge and job queue", kJudgeSqlite, kJudgePostgres},
    Migration{8, "production traces", kTracesSqlite, kTracesPostgres},
    Migration{9, "online evaluation of traces", kOnlineEvalSqlite, kOnlineEvalPostgres},
};

}  // namespace

std::span<const Migration> migrations() { return kMigrations; }

}  // namespace krino::core::store
