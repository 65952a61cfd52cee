/*
 * krino plugin ABI, major version 1.
 *
 * A krino plugin is a shared library that exports exactly one symbol, `krino_plugin_entry`. It
 * returns a descriptor listing the plugin's components: evaluators, dataset resolvers, trace
 * extractors and reporters. Everything else crosses the boundary through the function tables
 * declared here.
 *
 * Rules that hold for the whole ABI:
 *  - Pure C99, <stdint.h> and <stddef.h> only. Compiled by CI as C11, C++17 and C++20.
 *  - Every struct starts with `struct_size`. A reader uses only the prefix it knows and never
 *    rejects a larger struct; fields are only ever appended within a major version.
 *  - Nothing allocated on one side is freed by the other. Buffers the host passes in are valid for
 *    the duration of the call only. Output goes through a host-owned `krino_sink`, which copies
 *    synchronously, so a plugin may write from its stack.
 *  - Documents are UTF-8 JSON with named schemas (`krino.testcase/1`, `krino.evalresult/1`,
 *    `krino.example/1`, `krino.trace/1`, `krino.event/1`; see sdk/schemas/). Readers ignore
 *    unknown fields.
 *  - No exception, longjmp or other non-local exit ever crosses the boundary.
 *
 * Threading tags, written next to every function:
 *  [main-thread]  called by the host on its main thread only.
 *  [worker]       called on a host worker thread. Without KRINO_CAP_THREAD_SAFE, the host calls one
 *                 instance from at most one thread at a time and gets parallelism from several
 *                 instances.
 *  [serial]       called on any thread, but never concurrently for the same object, and in order.
 *  [thread-safe]  may be called from any thread at any time.
 */
#ifndef KRINO_PLUGIN_H
#define KRINO_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KRINO_ABI_MAJOR 1
#define KRINO_ABI_MINOR 2

#if defined(_WIN32)
#define KRINO_EXPORT __declspec(dllexport)
#else
#define KRINO_EXPORT __attribute__((visibility("default")))
#endif

/* The one exported symbol. Its name, as a string, for loaders. */
#define KRINO_PLUGIN_ENTRY_SYMBOL "krino_plugin_entry"

/* ------------------------------------------------------------------------------------------------
 * Status codes, numbered like absl::StatusCode. A failed evaluation (score under threshold) is
 * KRINO_OK with "success": false; a non-OK status means the component itself could not do its job
 * (bad input, judge down, bug). The host turns it into an item error, reported apart from scores.
 * ---------------------------------------------------------------------------------------------- */
typedef int32_t krino_status;
enum {
  KRINO_OK = 0,
  KRINO_CANCELLED = 1,
  KRINO_UNKNOWN = 2,
  KRINO_INVALID_ARGUMENT = 3,
  KRINO_DEADLINE_EXCEEDED = 4,
  KRINO_NOT_FOUND = 5,
  KRINO_ALREADY_EXISTS = 6,
  KRINO_PERMISSION_DENIED = 7,
  KRINO_RESOURCE_EXHAUSTED = 8,
  KRINO_FAILED_PRECONDITION = 9,
  KRINO_ABORTED = 10,
  KRINO_OUT_OF_RANGE = 11,
  KRINO_UNIMPLEMENTED = 12,
  KRINO_INTERNAL = 13,
  KRINO_UNAVAILABLE = 14,
  KRINO_DATA_LOSS = 15
};

/* ------------------------------------------------------------------------------------------------
 * Sink: where a plugin writes output bytes. Owned by the host.
 * ---------------------------------------------------------------------------------------------- */
/* Since ABI 1.2: one eval result as values, the fields of krino.evalresult/1 (see the evaluator
 * below). Strings are UTF-8 byte spans, not NUL-terminated, read during the call only. */
typedef struct krino_eval_result {
  uint32_t struct_size;
  const char *name;
  size_t name_size;
  int32_t has_score; /* 0: the score is null (it could not be computed; `reason` says why) */
  double score;      /* 0..1 when has_score */
  int32_t success;   /* 0 or 1 */
  int32_t has_threshold;
  double threshold;
  const char *reason; /* NULL with size 0: "" */
  size_t reason_size;
  /* The metadata object as compact JSON text ({"k":1}), numbers as they are to be reported; NULL
   * with size 0: {} */
  const char *metadata_json;
  size_t metadata_size;
} krino_eval_result;

typedef struct krino_sink {
  uint32_t struct_size;
  void *host_data; /* opaque to the plugin */

  /* Appends `size` bytes; successive writes concatenate. The bytes are copied before it returns.
   * [same thread as the call that received the sink] Valid only during that call. */
  void (*write)(struct krino_sink *sink, const char *data, size_t size);

  /* Since ABI 1.2 (read it only when struct_size covers it); NULL on sinks that take no result.
   * On the result sink of an evaluate call: hands the host the eval result as values instead of
   * its krino.evalresult/1 text, so the text is neither written by the plugin nor parsed by the
   * host. KRINO_OK: the host checked and kept it, and the plugin writes nothing more. Any other
   * status: nothing was kept (a value the host does not take this way, such as a score outside
   * 0..1 or ill-formed UTF-8), and the plugin writes the result's text through `write` as it
   * would without this function; the host then checks the text and reports what is wrong with it.
   * Copies before it returns. [same thread as the call that received the sink] */
  krino_status (*write_eval_result)(struct krino_sink *sink, const krino_eval_result *result);
} krino_sink;

/* ------------------------------------------------------------------------------------------------
 * Per-call context: what the host knows about the item being processed.
 * ---------------------------------------------------------------------------------------------- */
/* A byte range: `offset` bytes from the start of a buffer, `size` bytes long. */
typedef struct krino_span {
  uint64_t offset;
  uint64_t size;
} krino_span;

typedef struct krino_call_context {
  uint32_t struct_size;
  /* Deterministic seed for this call; plugins derive any randomness from it. */
  uint64_t seed;
  /* Absolute deadline in milliseconds since the Unix epoch; 0 means none. The host sets it for
   * evaluator calls when the evaluator has a timeout_ms (and in worker processes, from theirs); at
   * the deadline it stops waiting and the call's result is discarded. Honour it when non-zero. */
  int64_t deadline_unix_ms;
  /* Zero-based index of the run (repetition) and of the item in dataset order. */
  uint32_t run_index;
  uint64_t item_index;
  /* Identifies one serialized test case: the same value, and the same bytes, are handed to every
   * evaluator of an item, so a plugin may cache its parse of the document under this key. Never 0. */
  uint64_t document_serial;
  /* The host's handle for cancellation and attribution; pass it back unchanged. */
  const void *host_handle;
  /* Since ABI 1.1 (read it only when struct_size covers it). In evaluator calls, where the four
   * sections of the test case lie in its bytes, in the order inputs, actualOutputs,
   * expectedOutputs, metadata; a size of 0 means the section is absent. The host builds the test
   * case and knows these for free; a plugin that uses them need not scan the document. All four
   * zero means "not given" (other calls, and hosts that do not track them): find the sections in
   * the bytes then. */
  krino_span testcase_sections[4];
} krino_call_context;

/* ------------------------------------------------------------------------------------------------
 * Host services, handed to the plugin at entry. Every function here is [thread-safe].
 * ---------------------------------------------------------------------------------------------- */
typedef enum krino_log_level {
  KRINO_LOG_DEBUG = 0,
  KRINO_LOG_INFO = 1,
  KRINO_LOG_WARNING = 2,
  KRINO_LOG_ERROR = 3
} krino_log_level;

typedef struct krino_host {
  uint32_t struct_size;
  void *host_data; /* opaque to the plugin */

  /* Writes one log line attributed to `component_id` (may be NULL). `message` need not be
   * NUL-terminated. [thread-safe] */
  void (*log)(const struct krino_host *host, int32_t level, const char *component_id,
              const char *message, size_t size);

  /* Non-zero once the host wants the work behind `ctx` abandoned (Ctrl-C, deadline). A
   * KRINO_CAP_CANCELLABLE component polls it in long loops and returns KRINO_CANCELLED.
   * `ctx` may be NULL to ask about the run as a whole. [thread-safe] */
  int32_t (*is_cancelled)(const struct krino_host *host, const krino_call_context *ctx);

  /* Asks an LLM judge. `request_json` is a krino.judgerequest/1 document; the reply, a
   * krino.judgeresponse/1 document, goes to `response`. Blocking from the caller's point of view:
   * the host performs the call on its I/O threads with rate limits, retries, caching and cost
   * accounting, and suspends the calling scheduler task meanwhile. Answers KRINO_UNAVAILABLE when
   * no judge is configured. On a non-OK status, `error` holds the reason. [thread-safe] */
  krino_status (*judge)(const struct krino_host *host, const krino_call_context *ctx,
                        const char *request_json, size_t request_size, krino_sink *response,
                        krino_sink *error);

  /* Looks up a host extension by versioned id, e.g. "krino.host.judge_async/1". NULL when the
   * host does not have it. The returned table lives as long as the host. [thread-safe] */
  const void *(*get_extension)(const struct krino_host *host, const char *extension_id);
} krino_host;

/* What the host tells a plugin at entry. Valid until the plugin's deinit returns. */
typedef struct krino_host_info {
  uint32_t struct_size;
  uint16_t abi_major;
  uint16_t abi_minor;
  const char *host_name;    /* "krino" */
  const char *host_version; /* e.g. "0.1.0" */
  const krino_host *host;
} krino_host_info;

/* ------------------------------------------------------------------------------------------------
 * Components.
 * ---------------------------------------------------------------------------------------------- */
typedef enum krino_component_kind {
  KRINO_KIND_EVALUATOR = 1,
  KRINO_KIND_DATASET_RESOLVER = 2,
  KRINO_KIND_TRACE_EXTRACTOR = 3,
  KRINO_KIND_REPORTER = 4
} krino_component_kind;

/* Capability bits. The host ignores bits it does not know. */
#define KRINO_CAP_THREAD_SAFE ((uint64_t)1 << 0)   /* one instance may be called concurrently */
#define KRINO_CAP_NEEDS_JUDGE ((uint64_t)1 << 1)   /* calls host->judge */
#define KRINO_CAP_DETERMINISTIC ((uint64_t)1 << 2) /* same input, same output */
#define KRINO_CAP_CANCELLABLE ((uint64_t)1 << 3)   /* polls host->is_cancelled */
#define KRINO_CAP_BATCH ((uint64_t)1 << 4)         /* reserved: see evaluate_batch */
#define KRINO_CAP_NEEDS_NETWORK ((uint64_t)1 << 5) /* reaches the network itself */
/* A resolver whose records may already be krino.example/1 documents (ABI 1.1). The host passes
 * such a record through after its own validation and calls decode only for the others; decode
 * must still accept canonical records, as a 1.0 host sends them all. */
#define KRINO_CAP_PASSES_EXAMPLES ((uint64_t)1 << 6)

/* --- Evaluator -------------------------------------------------------------------------------
 * Scores one test case (krino.testcase/1) and writes one eval result (krino.evalresult/1):
 *   {"name": str, "score": number 0..1 | null, "success": bool, "threshold": number|null,
 *    "reason": str, "metadata": {...}}
 * A score that cannot be computed is null with a reason, never NaN. */
typedef struct krino_evaluator_vtable {
  uint32_t struct_size;

  /* Creates an instance from the user's configuration (a JSON object already validated by the host
   * against the component's config schema). [main-thread] */
  krino_status (*create)(const krino_host *host, const char *config_json, size_t config_size,
                         void **out_instance, krino_sink *error);

  /* [main-thread] */
  void (*destroy)(void *instance);

  /* Scores one test case. `testcase_json` is valid for this call only. [worker] */
  krino_status (*evaluate)(void *instance, const krino_call_context *ctx, const char *testcase_json,
                           size_t testcase_size, krino_sink *result, krino_sink *error);

  /* Reserved, with KRINO_CAP_BATCH: the host never calls it. Leave the slot NULL and the bit clear.
   * The loader refuses a component that sets the bit with a NULL slot, and otherwise ignores both.
   * Should a later minor give them meaning, its host will call the slot only for plugins whose
   * descriptor says that minor or newer, so nothing built today is ever called through it. The
   * intended shape: `count` test cases as one JSON array in, one JSON array of the same length out,
   * each element an eval result or {"error": {"code": int, "message": str}}. [worker] */
  krino_status (*evaluate_batch)(void *instance, const krino_call_context *ctx,
                                 const char *testcases_json, size_t testcases_size, size_t count,
                                 krino_sink *results, krino_sink *error);
} krino_evaluator_vtable;

/* --- Dataset resolver ------------------------------------------------------------------------
 * Turns a dataset URI into a stream of examples (krino.example/1), one at a time, never loading
 * the whole dataset. Reading is split in two so parsing can run in parallel:
 *   next()   [serial]       cuts the next record out of the source and names its location;
 *   decode() [thread-safe]  turns one record into an example (optional: when NULL, next() already
 *                           wrote the example itself as the record). */
typedef enum krino_next_outcome {
  KRINO_NEXT_RECORD = 0, /* a record was written */
  KRINO_NEXT_END = 1,    /* the source is exhausted; nothing was written */
  KRINO_NEXT_BAD = 2     /* a malformed record: `error` says why; the stream goes on */
} krino_next_outcome;

typedef struct krino_dataset_resolver_vtable {
  uint32_t struct_size;

  /* Comma-separated URI schemes handled (e.g. "file"; a plain path counts as "file") and
   * comma-separated file extensions with the dot (e.g. ".json,.jsonl,.csv"). */
  const char *schemes;
  const char *extensions;

  /* Opens a stream. `options_json` is the dataset's options object (validated against the
   * component's config schema). On success writes a krino.datasetinfo/1 document
   * ({"name": str, "description": str}) to `info`. [main-thread] */
  krino_status (*open)(const krino_host *host, const char *uri, const char *options_json,
                       size_t options_size, void **out_stream, krino_sink *info, krino_sink *error);

  /* Cuts the next record. Writes it to `record` and its location ("path:line") to `location`,
   * and sets `*outcome`. A non-OK status means the source itself failed (I/O error) and the
   * stream is over. [serial] */
  krino_status (*next)(void *stream, krino_sink *record, krino_sink *location, int32_t *outcome,
                       krino_sink *error);

  /* Optional. Turns a record into an example. A non-OK status makes that record an item error
   * (message in `error`); the stream goes on. [thread-safe] */
  krino_status (*decode)(void *stream, const char *record, size_t record_size, krino_sink *example,
                         krino_sink *error);

  /* [main-thread] */
  void (*close)(void *stream);
} krino_dataset_resolver_vtable;

/* --- Trace extractor -------------------------------------------------------------------------
 * Reads a framework's raw output (OpenAI, Anthropic, OTel GenAI, LangSmith, ...) and writes a
 * canonical trace (krino.trace/1). */
typedef struct krino_trace_extractor_vtable {
  uint32_t struct_size;

  /* Confidence in 0..100 that `raw_json` is in this extractor's format; 0 = not mine. [thread-safe] */
  int32_t (*detect)(const char *raw_json, size_t raw_size);

  /* [thread-safe] */
  krino_status (*extract)(const char *raw_json, size_t raw_size, krino_sink *trace, krino_sink *error);
} krino_trace_extractor_vtable;

/* --- Reporter --------------------------------------------------------------------------------
 * Receives krino.event/1 documents: "run_started", "item_finished" (in dataset order),
 * "run_finished" for every run, then one "experiment_finished". */
typedef struct krino_reporter_vtable {
  uint32_t struct_size;

  /* [main-thread] */
  krino_status (*create)(const krino_host *host, const char *config_json, size_t config_size,
                         void **out_instance, krino_sink *error);

  /* [main-thread] */
  void (*destroy)(void *instance);

  /* One event; events arrive in order, never concurrently. [serial] */
  krino_status (*on_event)(void *instance, const char *event_json, size_t event_size,
                           krino_sink *error);

  /* Pushes buffered output to its destination; called at the end of every run and on Ctrl-C.
   * [serial] */
  krino_status (*flush)(void *instance, krino_sink *error);
} krino_reporter_vtable;

/* A component: one evaluator, resolver, extractor or reporter. Owned by the plugin; lives until
 * deinit returns. */
typedef struct krino_component {
  uint32_t struct_size;
  int32_t kind;              /* krino_component_kind */
  const char *id;            /* stable, globally unique: "krino.exact_match", "com.acme.word_count" */
  const char *name;          /* short name users type in experiment files: "exact_match" */
  const char *version;       /* the component's own version, e.g. "1.0.0" */
  const char *description;   /* one line */
  uint64_t capabilities;     /* KRINO_CAP_* */
  const char *config_schema; /* JSON Schema (draft 7) of the configuration object; NULL = {} only */
  const void *vtable;        /* krino_<kind>_vtable, matching `kind` */
} krino_component;

/* What a plugin returns from its entry. Owned by the plugin; lives until deinit returns. */
typedef struct krino_plugin_descriptor {
  uint32_t struct_size;
  uint16_t abi_major;          /* must equal the host's */
  uint16_t abi_minor;          /* the minor this plugin was built against */
  uint16_t min_host_abi_minor; /* the oldest host minor this plugin works with */
  uint16_t reserved;           /* 0 */
  const char *id;              /* reverse DNS for third parties */
  const char *name;
  const char *version;
  const char *vendor;
  const char *license; /* SPDX expression */
  const char *description;
  size_t component_count;
  /* An array of component_count components, each components[0].struct_size bytes long: a plugin
   * built against a newer minor may have a larger krino_component, so a host steps through the
   * array by that size, never by its own sizeof(krino_component). Every element has the same
   * struct_size. */
  const krino_component *components;

  /* Releases everything the entry allocated. Called once, after every instance is destroyed.
   * May be NULL. [main-thread] */
  void (*deinit)(void);

  /* Looks up a plugin extension by versioned id; NULL when absent. May itself be NULL.
   * [thread-safe] */
  const void *(*get_extension)(const char *extension_id);
} krino_plugin_descriptor;

/* The entry point. Returns the descriptor, or NULL to refuse loading with a reason written to
 * `error` (for instance a host ABI minor older than the plugin needs). [main-thread] */
typedef const krino_plugin_descriptor *(*krino_plugin_entry_fn)(const krino_host_info *host,
                                                                krino_sink *error);

#ifdef __cplusplus
}
#endif

#endif /* KRINO_PLUGIN_H */
