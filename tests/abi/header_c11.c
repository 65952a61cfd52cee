/*
 * <krino/plugin.h> as strict C11 (-std=c11 -Wall -Wextra -Wpedantic -Werror): the layout checks of
 * abi_layout.h, then a complete C plugin with one component of every kind, driven through its entry
 * point by a small fake host in main(). Every type, enumerator and macro of the header is used.
 */
#include "abi_layout.h"

#include <stdio.h>
#include <string.h>

/* --- host side ------------------------------------------------------------------------------ */

typedef struct text_buffer {
  char data[512];
  size_t size;
} text_buffer;

static void buffer_write(krino_sink *sink, const char *data, size_t size) {
  text_buffer *buffer = (text_buffer *)sink->host_data;
  if (size > sizeof buffer->data - 1 - buffer->size) size = sizeof buffer->data - 1 - buffer->size;
  memcpy(buffer->data + buffer->size, data, size);
  buffer->size += size;
  buffer->data[buffer->size] = '\0';
}

static krino_sink make_sink(text_buffer *buffer) {
  krino_sink sink;
  buffer->size = 0;
  buffer->data[0] = '\0';
  sink.struct_size = sizeof(krino_sink);
  sink.host_data = buffer;
  sink.write = buffer_write;
  return sink;
}

static int log_lines;

static void host_log(const krino_host *host, int32_t level, const char *component_id, const char *message,
                     size_t size) {
  (void)host;
  (void)component_id;
  (void)message;
  (void)size;
  if (level >= KRINO_LOG_DEBUG && level <= KRINO_LOG_ERROR) ++log_lines;
}

static int32_t host_is_cancelled(const krino_host *host, const krino_call_context *ctx) {
  (void)host;
  (void)ctx;
  return 0;
}

static krino_status host_judge(const krino_host *host, const krino_call_context *ctx, const char *request_json,
                               size_t request_size, krino_sink *response, krino_sink *error) {
  static const char reply[] =
      "{\"content\":\"yes\",\"model\":\"fake\",\"usage\":{\"tokensIn\":1,\"tokensOut\":1},\"costUsd\":null,"
      "\"cached\":false}";
  (void)host;
  (void)ctx;
  (void)request_json;
  if (request_size == 0) {
    error->write(error, "empty request", 13);
    return KRINO_INVALID_ARGUMENT;
  }
  response->write(response, reply, sizeof reply - 1);
  return KRINO_OK;
}

static const void *host_get_extension(const krino_host *host, const char *extension_id) {
  (void)host;
  (void)extension_id;
  return NULL;
}

/* --- plugin side ---------------------------------------------------------------------------- */

static const krino_host *plugin_host;
static int evaluator_instance, reporter_instance, stream_instance;

static krino_status evaluator_create(const krino_host *host, const char *config_json, size_t config_size,
                                     void **out_instance, krino_sink *error) {
  (void)host;
  if (config_size < 2 || config_json[0] != '{') {
    error->write(error, "config must be an object", 24);
    return KRINO_INVALID_ARGUMENT;
  }
  *out_instance = &evaluator_instance;
  return KRINO_OK;
}

static void evaluator_destroy(void *instance) { (void)instance; }

static krino_status evaluator_evaluate(void *instance, const krino_call_context *ctx, const char *testcase_json,
                                       size_t testcase_size, krino_sink *result, krino_sink *error) {
  static const char passed[] = "{\"name\":\"c\",\"score\":1,\"success\":true}";
  text_buffer reply;
  krino_sink reply_sink = make_sink(&reply);
  (void)instance;
  (void)testcase_json;
  (void)testcase_size;
  if (plugin_host->is_cancelled(plugin_host, ctx)) return KRINO_CANCELLED;
  if (plugin_host->judge(plugin_host, ctx, "{}", 2, &reply_sink, error) != KRINO_OK) return KRINO_UNAVAILABLE;
  plugin_host->log(plugin_host, KRINO_LOG_INFO, "test.c11.evaluator", reply.data, reply.size);
  result->write(result, passed, sizeof passed - 1);
  return KRINO_OK;
}

static krino_status resolver_open(const krino_host *host, const char *uri, const char *options_json,
                                  size_t options_size, void **out_stream, krino_sink *info, krino_sink *error) {
  (void)host;
  (void)options_json;
  (void)options_size;
  if (strcmp(uri, "file:data.txt") != 0) {
    error->write(error, "no such file", 12);
    return KRINO_NOT_FOUND;
  }
  info->write(info, "{\"name\":\"data\"}", 15);
  *out_stream = &stream_instance;
  return KRINO_OK;
}

static krino_status resolver_next(void *stream, krino_sink *record, krino_sink *location, int32_t *outcome,
                                  krino_sink *error) {
  int *emitted = (int *)stream;
  (void)error;
  if (*emitted > 0) {
    *outcome = KRINO_NEXT_END;
    return KRINO_OK;
  }
  ++*emitted;
  record->write(record, "hello", 5);
  location->write(location, "data.txt:1", 10);
  *outcome = KRINO_NEXT_RECORD;
  return KRINO_OK;
}

static krino_status resolver_decode(void *stream, const char *record, size_t record_size, krino_sink *example,
                                    krino_sink *error) {
  (void)stream;
  (void)record;
  if (record_size == 0) {
    error->write(error, "empty record", 12);
    return KRINO_INVALID_ARGUMENT;
  }
  example->write(example, "{\"inputs\":{},\"expectedOutputs\":{},\"metadata\":{}}", 47);
  return KRINO_OK;
}

static void resolver_close(void *stream) { *(int *)stream = 0; }

static int32_t extractor_detect(const char *raw_json, size_t raw_size) {
  return raw_size > 0 && raw_json[0] == '{' ? 100 : 0;
}

static krino_status extractor_extract(const char *raw_json, size_t raw_size, krino_sink *trace, krino_sink *error) {
  (void)raw_json;
  (void)raw_size;
  (void)error;
  trace->write(trace, "{\"output\":null,\"toolCalls\":[]}", 30);
  return KRINO_OK;
}

static krino_status reporter_create(const krino_host *host, const char *config_json, size_t config_size,
                                    void **out_instance, krino_sink *error) {
  (void)host;
  (void)config_json;
  (void)config_size;
  (void)error;
  *out_instance = &reporter_instance;
  return KRINO_OK;
}

static void reporter_destroy(void *instance) { (void)instance; }

static krino_status reporter_on_event(void *instance, const char *event_json, size_t event_size,
                                      krino_sink *error) {
  (void)event_json;
  (void)error;
  *(int *)instance += (int)event_size;
  return KRINO_OK;
}

static krino_status reporter_flush(void *instance, krino_sink *error) {
  (void)instance;
  (void)error;
  return KRINO_OK;
}

static const krino_evaluator_vtable evaluator_vtable = {
    sizeof(krino_evaluator_vtable), evaluator_create, evaluator_destroy, evaluator_evaluate, NULL};
static const krino_dataset_resolver_vtable resolver_vtable = {
    sizeof(krino_dataset_resolver_vtable), "file", ".txt", resolver_open, resolver_next, resolver_decode,
    resolver_close};
static const krino_trace_extractor_vtable extractor_vtable = {sizeof(krino_trace_extractor_vtable),
                                                              extractor_detect, extractor_extract};
static const krino_reporter_vtable reporter_vtable = {sizeof(krino_reporter_vtable), reporter_create,
                                                      reporter_destroy, reporter_on_event, reporter_flush};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.c11.evaluator", "c11_evaluator", "1.0.0", "evaluator",
     KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC | KRINO_CAP_NEEDS_JUDGE | KRINO_CAP_CANCELLABLE,
     "{\"type\":\"object\"}", &evaluator_vtable},
    {sizeof(krino_component), KRINO_KIND_DATASET_RESOLVER, "test.c11.resolver", "c11_resolver", "1.0.0", "resolver",
     KRINO_CAP_DETERMINISTIC, NULL, &resolver_vtable},
    {sizeof(krino_component), KRINO_KIND_TRACE_EXTRACTOR, "test.c11.extractor", "c11_extractor", "1.0.0",
     "extractor", KRINO_CAP_THREAD_SAFE, NULL, &extractor_vtable},
    {sizeof(krino_component), KRINO_KIND_REPORTER, "test.c11.reporter", "c11_reporter", "1.0.0", "reporter",
     0, NULL, &reporter_vtable},
};

static int deinit_calls;
static void plugin_deinit(void) { ++deinit_calls; }
static const void *plugin_get_extension(const char *extension_id) {
  (void)extension_id;
  return NULL;
}

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test.c11", "c11", "1.0.0", "krino",
    "Apache-2.0", "header test plugin", sizeof components / sizeof components[0], components, plugin_deinit,
    plugin_get_extension};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  if (host->abi_major != KRINO_ABI_MAJOR) {
    error->write(error, "ABI major mismatch", 18);
    return NULL;
  }
  plugin_host = host->host;
  return &descriptor;
}

/* --- the fake host drives the plugin ---------------------------------------------------------- */

static int failures;
#define EXPECT(condition)                                                 \
  do {                                                                    \
    if (!(condition)) {                                                   \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

int main(void) {
  krino_host host = {sizeof(krino_host), NULL, host_log, host_is_cancelled, host_judge, host_get_extension};
  krino_host_info info = {sizeof(krino_host_info), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, "krino", "0.0.0-test", &host};
  krino_call_context ctx = {sizeof(krino_call_context), 42u, 0, 0u, 7u, 1u, &host, {{0u, 0u}, {0u, 0u}, {0u, 0u}, {0u, 0u}}};
  krino_log_level level = KRINO_LOG_WARNING;
  krino_component_kind kind = KRINO_KIND_EVALUATOR;
  krino_next_outcome end = KRINO_NEXT_END;
  krino_plugin_entry_fn entry = krino_plugin_entry;
  text_buffer out, err, loc;
  krino_sink out_sink = make_sink(&out), err_sink = make_sink(&err), loc_sink = make_sink(&loc);
  const krino_plugin_descriptor *d;
  void *instance = NULL;
  int32_t outcome = -1;

  EXPECT(strcmp(KRINO_PLUGIN_ENTRY_SYMBOL, "krino_plugin_entry") == 0);
  EXPECT(level == KRINO_LOG_WARNING && kind == KRINO_KIND_EVALUATOR && end == KRINO_NEXT_END);

  d = entry(&info, &err_sink);
  EXPECT(d != NULL);
  if (d == NULL) return 1;
  EXPECT(d->abi_major == KRINO_ABI_MAJOR && d->component_count == 4 && d->reserved == 0);

  {
    const krino_evaluator_vtable *v = (const krino_evaluator_vtable *)d->components[0].vtable;
    EXPECT(d->components[0].kind == KRINO_KIND_EVALUATOR && v->evaluate_batch == NULL);
    EXPECT(v->create(&host, "{}", 2, &instance, &err_sink) == KRINO_OK);
    EXPECT(v->evaluate(instance, &ctx, "{}", 2, &out_sink, &err_sink) == KRINO_OK);
    EXPECT(strstr(out.data, "\"success\":true") != NULL);
    EXPECT(log_lines == 1);
    v->destroy(instance);
  }
  {
    const krino_dataset_resolver_vtable *v = (const krino_dataset_resolver_vtable *)d->components[1].vtable;
    out_sink = make_sink(&out);
    EXPECT(v->open(&host, "file:data.txt", "{}", 2, &instance, &out_sink, &err_sink) == KRINO_OK);
    out_sink = make_sink(&out);
    EXPECT(v->next(instance, &out_sink, &loc_sink, &outcome, &err_sink) == KRINO_OK);
    EXPECT(outcome == KRINO_NEXT_RECORD && strcmp(out.data, "hello") == 0 && strcmp(loc.data, "data.txt:1") == 0);
    out_sink = make_sink(&out);
    EXPECT(v->decode(instance, "hello", 5, &out_sink, &err_sink) == KRINO_OK);
    EXPECT(v->next(instance, &out_sink, &loc_sink, &outcome, &err_sink) == KRINO_OK && outcome == KRINO_NEXT_END);
    v->close(instance);
  }
  {
    const krino_trace_extractor_vtable *v = (const krino_trace_extractor_vtable *)d->components[2].vtable;
    out_sink = make_sink(&out);
    EXPECT(v->detect("{}", 2) == 100 && v->detect("x", 1) == 0);
    EXPECT(v->extract("{}", 2, &out_sink, &err_sink) == KRINO_OK && strstr(out.data, "toolCalls") != NULL);
  }
  {
    const krino_reporter_vtable *v = (const krino_reporter_vtable *)d->components[3].vtable;
    EXPECT(v->create(&host, "{}", 2, &instance, &err_sink) == KRINO_OK);
    EXPECT(v->on_event(instance, "{}", 2, &err_sink) == KRINO_OK && v->flush(instance, &err_sink) == KRINO_OK);
    v->destroy(instance);
    EXPECT(reporter_instance == 2);
  }
  EXPECT(d->get_extension("krino.plugin.none/1") == NULL && host.get_extension(&host, "x") == NULL);
  d->deinit();
  EXPECT(deinit_calls == 1);
  return failures == 0 ? 0 : 1;
}
