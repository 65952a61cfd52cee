#pragma once
// What goes into the results store and what comes back out, whatever the backend.
#include <krino/event/call_metrics.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store {

// RUNNING until the client (or the server, for a run it gives up on) ends it. EVALUATING is the
// server judge's: an ended run being scored, which returns to the terminal status it had when the
// judge is done. It takes no items (it has ended) and is not terminal (gate and diff wait for it).
enum class RunStatus { running, success, failed, cancelled, evaluating };

std::string_view status_name(RunStatus status);      // "RUNNING", "SUCCESS", ..., "EVALUATING"
std::optional<RunStatus> parse_status(std::string_view name);
inline bool is_terminal(RunStatus status) { return status != RunStatus::running && status != RunStatus::evaluating; }
// Whether the run takes no more items: terminal, or being judged after it ended.
inline bool has_ended(RunStatus status) { return status != RunStatus::running; }

// Where an ended run's text search index stands (text_index.hpp): none yet, being built, or ready
// to lead searches. A run that has not ended has none: its items still change.
enum class TextIndexState { none, building, ready };
std::string_view text_index_name(TextIndexState state);  // "NONE", "BUILDING", "READY"
TextIndexState parse_text_index(std::string_view kept);  // as kept in runs.text_index: "none", ...

// Whose rows a call may see and whom the rows it creates belong to. Unscoped (no tenant: open
// mode, the KRINO_API_KEY key, a key without a tenant) sees every row and creates shared ones. A
// tenant sees its own rows and the shared ones, and stamps what it creates with its name.
//
// A row's children belong to its tenant or the parent is shared (creation keeps it so), so checking
// a row's own tenant is enough to know whether a caller may see it.
struct Scope {
  std::optional<std::string> tenant = std::nullopt;
};

struct NewRun {
  std::string project;
  std::string experiment;
  std::string metadata = "{}";  // a JSON object, stored as sent
  std::optional<std::string> dataset_version = std::nullopt;
  std::optional<std::string> git_branch = std::nullopt;
};

struct CreatedRun {
  std::string run_id;
  std::string experiment_id;
  std::string project_id;
};

// One evaluator's verdict on an item, as far as totals and comparisons need it.
struct NewResult {
  std::string name;
  std::optional<double> score = std::nullopt;  // empty: the evaluator computed none
  std::optional<double> threshold = std::nullopt;
  bool success = false;
};

struct NewItem {
  std::string document;  // the item as the client sent it: one JSON object, kept byte for byte
  bool success = false;
  std::optional<std::string> dataset_item_id = std::nullopt;
  krino::event::CallMetrics metrics;
  std::vector<NewResult> results;
  bool has_error = false;  // the document carries an item error (a member "error" holding an object)
};

enum class IngestOutcome { stored, already_stored };

// A run's totals, kept on its row and brought up to date by every batch (in the order its items
// arrived), so neither a run in progress nor an ended one is ever summed by scanning its items.
// A sum stays empty until some item measured it: "not measured" is not 0.
struct RunTotals {
  std::int64_t items = 0;
  std::int64_t passed = 0;
  std::int64_t priced = 0;     // items with a cost
  std::int64_t tokenized = 0;  // items with a token count
  std::optional<std::int64_t> tokens_in = std::nullopt;
  std::optional<std::int64_t> tokens_out = std::nullopt;
  std::optional<double> cost_usd = std::nullopt;
  std::optional<double> latency_ms = std::nullopt;
  std::int64_t errors = 0;  // items with an item error
  std::int64_t timed = 0;   // items with a latency: what latency_ms is the sum of

  void add(const NewItem& item);
};

struct RunDetails {
  std::string id;
  std::string experiment_id;
  std::string experiment_name;
  std::string project_name;
  std::optional<std::string> tenant = std::nullopt;
  RunStatus status = RunStatus::running;
  std::string metadata;
  std::string started_at;
  std::optional<std::string> completed_at = std::nullopt;
  std::int64_t total_items = 0;
  std::int64_t passed_items = 0;
  std::optional<std::int64_t> tokens_in = std::nullopt;
  std::optional<std::int64_t> tokens_out = std::nullopt;
  std::optional<double> cost_usd = std::nullopt;
  std::int64_t priced_items = 0;     // items with a cost
  std::int64_t tokenized_items = 0;  // items with token counts
  std::int64_t error_items = 0;      // items with an item error
  std::optional<std::string> dataset_version = std::nullopt;
  std::optional<std::string> git_branch = std::nullopt;
  TextIndexState text_index = TextIndexState::none;
  std::optional<double> latency_ms = std::nullopt;  // the sum over the timed items
  std::int64_t timed_items = 0;                      // items with a latency
};

// An item as comparisons read it: where it stands in its run, how it is keyed, and its verdicts;
// not its document.
struct ScoredItem {
  std::int64_t seq = 0;
  std::optional<std::string> dataset_item_id = std::nullopt;
  bool success = false;
  std::vector<NewResult> results;  // in the order the client sent them
};

// How many items Store::scan_items reads at a time: bounded memory, and short locks.
inline constexpr std::int64_t kScanChunk = 5000;

// Which earlier run a comparison takes as its baseline: the newest SUCCESS run of the experiment
// that started before the candidate, on the same dataset version (absent matches absent), on
// `git_branch` when one is given.
struct BaselineQuery {
  std::string experiment_id;
  std::string candidate_run_id;
  std::optional<std::string> dataset_version = std::nullopt;
  std::optional<std::string> git_branch = std::nullopt;
};

// The server dataset a run's dataset version belongs to: "name@" for "name@N" (a version of a
// server dataset, whose items keep their ids from version to version), else nullopt. A run on
// another version of the same dataset is a baseline when none used the same version.
std::optional<std::string> dataset_lineage(const std::optional<std::string>& dataset_version);

struct StoredItem {
  std::string id;
  std::int64_t seq = 0;
  bool success = false;
  std::string document;
};

struct ItemPage {
  std::vector<StoredItem> items;
  std::optional<std::int64_t> next_after = std::nullopt;  // the seq to pass for the next page; empty: this was the last
};

// A run as lists show it: no per-run query is needed to fill it.
struct RunSummary {
  std::string id;
  RunStatus status = RunStatus::running;
  std::string metadata;
  std::int64_t item_count = 0;
  std::int64_t passed_count = 0;
  std::string started_at;
  std::optional<std::string> completed_at = std::nullopt;
  std::optional<double> duration_ms = std::nullopt;  // from start to completion; empty while running
  std::optional<double> cost_usd = std::nullopt;
  std::optional<std::int64_t> tokens_in = std::nullopt;
  std::optional<std::int64_t> tokens_out = std::nullopt;
};

// Which of a run's items a page of the run view lists: every condition given must hold.
enum class ItemStatusFilter { all, passed, failed, error };
struct ItemFilter {
  ItemStatusFilter status = ItemStatusFilter::all;
  std::optional<std::string> evaluator = std::nullopt;  // the item has a verdict of this name...
  std::optional<bool> evaluator_passed = std::nullopt;  // ...that passed (true) or failed (false)
  std::vector<std::string> words = {};  // each appears in the item's document, ignoring case (LIKE / ILIKE)
  std::int64_t after_seq = -1;          // the page starts after this position
  std::size_t limit = 50;
  // At most this many positions after `after_seq` are looked at: a filter that matches rarely
  // answers a short (even empty) page with where to continue, instead of reading the whole run.
  // A search the run's ready text index leads reads only its candidates: no window.
  std::int64_t window = std::int64_t{1} << 62;
};

// A page of a filtered item list: next_after is where the next page starts; empty at the run's end.
struct FilteredItemPage {
  std::vector<StoredItem> items;
  std::optional<std::int64_t> next_after = std::nullopt;
};

// How many distribution buckets an evaluator's scores are counted in, between their min and max.
inline constexpr int kScoreBuckets = 20;

// One evaluator's verdicts over a run, in sums from which the API derives rates, means and
// intervals. Evaluators come in the order they first appear in the run.
struct EvaluatorStats {
  std::string name;
  std::int64_t count = 0;   // verdicts
  std::int64_t passed = 0;
  std::int64_t scored = 0;  // verdicts with a score
  double score_sum = 0;
  double score_sum_squares = 0;
  std::optional<double> score_min = std::nullopt;
  std::optional<double> score_max = std::nullopt;
  std::vector<std::int64_t> buckets = std::vector<std::int64_t>(kScoreBuckets, 0);  // scores in [min, max] by 20ths; the max in the last
};

// A gate verdict the server gave, as the dashboard lists them.
struct GateRecord {
  std::string id;
  std::string experiment_id;
  std::string experiment_name;
  std::string project_name;
  std::string candidate_run_id;
  std::optional<std::string> baseline_run_id = std::nullopt;
  std::string status;  // PASS, FAIL, NO_BASELINE, INCONCLUSIVE
  std::optional<double> pass_rate_delta = std::nullopt;
  std::string created_at;
};

struct GateQuery {
  std::optional<std::string> status = std::nullopt;
  std::optional<std::string> experiment_id = std::nullopt;
  std::size_t limit = 20;
};

struct ProjectSummary {
  std::string id;
  std::string name;
  std::optional<std::string> tenant = std::nullopt;
  std::int64_t experiment_count = 0;
  std::string created_at;
  std::optional<std::string> latest_activity = std::nullopt;  // when its newest run started
};

struct ExperimentSummary {
  std::string id;
  std::string name;
  std::string created_at;
  std::optional<RunSummary> latest_run = std::nullopt;
  std::optional<double> best_pass_rate = std::nullopt;  // the highest pass rate of its runs with items
};

struct ExperimentInfo {
  std::string id;
  std::string name;
  std::string project_name;
  std::optional<std::string> tenant = std::nullopt;
  std::optional<double> best_pass_rate = std::nullopt;
};

// What an API key may do: VIEWER reads, EDITOR also writes, ADMIN also manages keys.
enum class Role { viewer, editor, admin };
std::string_view role_name(Role role);  // "VIEWER", "EDITOR", "ADMIN"
std::optional<Role> parse_role(std::string_view name);

// An API key as stored: never the key itself, only its hash.
struct ApiKey {
  std::string id;
  std::string name;
  Role role = Role::viewer;
  std::optional<std::string> tenant = std::nullopt;
  std::string created_at;
  std::optional<std::string> disabled_at = std::nullopt;
};

// One write the server carried out, for the audit log.
struct AuditEntry {
  std::optional<std::string> key_id = std::nullopt;  // none: open mode or the KRINO_API_KEY key
  std::optional<std::string> tenant = std::nullopt;
  std::string method;
  std::string path;
  unsigned status = 0;
};

// A request the store cannot carry out, in terms the API turns into a status code.
class StoreError : public std::runtime_error {
 public:
  enum class Kind { not_found, conflict };
  StoreError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

}  // namespace krino::core::store
