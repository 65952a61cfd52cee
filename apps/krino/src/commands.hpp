#pragma once
// One function per subcommand; main() only wires them to CLI11.
#include "plugin_options.hpp"

#include "krino/core/gate/gate_config.hpp"
#include "krino/core/server/alert_dispatcher.hpp"
#include "krino/core/server/job_worker.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace krino::cli {

struct RunArguments {
  std::string experiment;
  std::vector<std::string> overrides;
  PluginOptions plugins;
  bool no_cache = false;  // --no-cache: the judge cache is neither read nor written
  std::string shard;      // --shard K/N: evaluate only that share of the dataset (docs/sharding.md)
  std::string resume;     // --resume REPORT: continue an interrupted run (docs/resume.md)
  bool retry_errors = false;  // --retry-errors: with --resume, run errored items again
};

struct EvalArguments {
  std::string evaluator;
  std::string config = "{}";
  std::string input = "-";
  int parallelism = 0;  // 0 = every core
  PluginOptions plugins;
  std::string judges;      // --judges FILE: judge settings, as in an experiment file
  bool no_cache = false;   // --no-cache
};

struct PluginsArguments {
  std::string name;  // for `info`
  bool json = false;
  bool names = false;         // list --names: component short names only, one a line
  bool plugin_names = false;  // list --plugin-names: what --plugins accepts, one a line
  std::string kind;           // list --kind: only components of this kind
  PluginOptions plugins;
};

// `krino plugins check LIB.so`: the library's components called on sample inputs in workers.
struct PluginsCheckArguments {
  std::string library;
  int timeout_ms = 10000;  // per component
  int memory_mb = 2048;    // per component's worker; 0: no limit
};

struct ExtractArguments {
  std::string input = "-";
  std::string extractor = "auto";  // a short name or id, or auto (detection)
  bool detect = false;             // --detect: print every extractor's confidence instead
  bool compact = false;            // --compact: one line of JSON
  PluginOptions plugins;
};

// krino merge: shard outputs back into one krino.event/1 file (docs/sharding.md).
struct MergeArguments {
  std::vector<std::string> inputs;
  std::string output;
  bool allow_missing = false;
};

// Options `krino gate` and `krino compare` share (gate_command.cpp).
struct GateArguments {
  double alpha = 0.05;
  uint64_t seed = 42;
  std::string pairing = "auto";
  uint32_t permutation_iterations = 10000;
  uint32_t bootstrap_iterations = 10000;
  double severity_margin = 0.15;
  // `krino gate` only
  std::string baseline, run, verdict_dir = "krino-gate", on_removed_evaluator = "fail";
  bool update = false, no_fail_on_regression = false, fail_on_removed_items = false, fail_on_inconclusive = false,
       no_bootstrap_pass = false, json = false;
  // `krino gate --server`: the results server's gate on a stored run (docs/server.md)
  std::string server;          // default: $KRINO_SERVER_URL
  std::string api_key;         // default: $KRINO_API_KEY
  std::string experiment_id, run_id, baseline_run_id, baseline_branch;
  void add_to(CLI::App& command);
  void apply(core::GateConfig& config) const;
};

struct CompareArguments {
  std::string a, b, format = "text";
  size_t max_items = 20;
  bool fail_on_regression = false;
  GateArguments options;
};

// krino serve: the results server (docs/server.md).
struct ServeArguments {
  std::string listen = "127.0.0.1:8080";  // HOST:PORT
  std::string data_dir;                   // default: $XDG_DATA_HOME/krino, else ~/.local/share/krino
  std::string database;                   // default: krino.db in the data directory
  std::uint64_t max_body_bytes = 64ull * 1024 * 1024;
  bool require_read_key = false;  // reads need a key too, once keys are in use
  // The regression-alert worker; the defaults are AlertOptions' own, the --alert-* flags change them.
  core::server::AlertOptions alerts;
  void add_alert_options(CLI::App& command);
  // The job worker and the server judge (--job-*, --judge-*).
  core::server::JobWorkerOptions jobs;
  std::int64_t judge_page_size = 50;
  std::int64_t judge_max_attempts = 3;
  std::int64_t online_eval_delay_ms = 5000;  // a TRACE rule's match waits this long for the trace to settle
  void add_job_options(CLI::App& command);
  // MCP at /mcp (docs/mcp.md): the plugins its tools read, and the browser origins allowed besides
  // localhost's.
  PluginOptions plugins;
  std::vector<std::string> mcp_allowed_origins;
  // Production traces are deleted this many days after their last span arrived; 0: kept forever.
  unsigned trace_retention_days = 0;
};

// krino upload: a json report or the server reporter's spool sent to a results server (docs/server.md).
struct UploadArguments {
  std::string file;
  std::string server;      // default: $KRINO_SERVER_URL (a spool: its records' server)
  std::string project;     // default: $KRINO_PROJECT (a spool: its records' project)
  std::string experiment;  // default: the report's experiment name (a spool: its records')
  std::string api_key;     // default: $KRINO_API_KEY
  bool allow_loss = false;
  PluginOptions plugins;
};

// krino dataset push | pull | diff: server datasets (dataset_command.cpp, docs/cli.md).
struct DatasetArguments {
  std::string file;                        // push: the local dataset (any format `krino run` reads)
  std::string name;                        // push: the server dataset
  std::optional<std::string> description;  // push: the new version's (and a new dataset's)
  std::vector<std::string> refs;           // pull: name@V; diff: name@A name@B
  std::string output;                      // pull: the file (default standard output)
  bool force = false;                      // pull: overwrite `output`
  bool json = false;                       // diff: JSON for CI
  std::string server;                      // default: $KRINO_SERVER_URL
  std::string api_key;                     // default: $KRINO_API_KEY
  PluginOptions plugins;
};
int dataset_command(const DatasetArguments& args, const std::string& action);

// krino mcp: the MCP server over stdio (docs/mcp.md).
struct McpArguments {
  PluginOptions plugins;
  std::string data_dir;  // where runs are stored; default as krino serve's
  std::string database;  // default: krino.db in the data directory
};

int mcp_command(const McpArguments& args);
int upload_command(const UploadArguments& args);
int gate_command(const GateArguments& args);
int server_gate_command(const GateArguments& args);
int serve_command(const ServeArguments& args);
int compare_command(const CompareArguments& args);
int run_command(const RunArguments& args);
int merge_command(const MergeArguments& args);
int extract_command(const ExtractArguments& args);
int eval_command(const EvalArguments& args);
int plugins_list_command(const PluginsArguments& args);
int plugins_info_command(const PluginsArguments& args);
int plugins_check_command(const PluginsCheckArguments& args);

}  // namespace krino::cli
