/*
 * c_nonempty: a krino evaluator in plain C11 against <krino/plugin.h> alone. It scores 1 when the
 * test case's actualOutputs.output is a non-empty string, else 0.
 *
 * The ABI hands an evaluator its test case as JSON text (krino.testcase/1). A real C plugin brings
 * its own JSON parser (cJSON, jansson, yyjson, ...). To stay dependency-free this example only
 * scans the text: it finds "actualOutputs", then the first "output" key after it, and looks at the
 * first character of the value. That is enough for documents the host writes (compact JSON, keys
 * unique), but it is not a JSON parser; don't copy the scanning into production code.
 *
 * Options: only "name" (the host sets it on results). The score is 0 or 1 and the threshold 1, so
 * there is no threshold option.
 */
#include <krino/plugin.h>

#include <stdio.h>
#include <string.h>

static void write_text(krino_sink *sink, const char *text) { sink->write(sink, text, strlen(text)); }

/* The evaluator has no options and no state: every instance is the same static object. */
static int instance_token;

static krino_status nonempty_create(const krino_host *host, const char *config_json, size_t config_size,
                                    void **out_instance, krino_sink *error) {
  (void)host;
  (void)config_json;
  (void)config_size;
  (void)error;
  *out_instance = &instance_token;
  return KRINO_OK;
}

static void nonempty_destroy(void *instance) { (void)instance; }

/* Finds `needle` in the first `size` bytes of `text` (which need not be NUL-terminated). */
static const char *find(const char *text, size_t size, const char *needle) {
  const size_t length = strlen(needle);
  size_t i;
  for (i = 0; length <= size && i <= size - length; ++i)
    if (memcmp(text + i, needle, length) == 0) return text + i;
  return NULL;
}

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  return p;
}

static krino_status nonempty_evaluate(void *instance, const krino_call_context *ctx, const char *testcase_json,
                                      size_t testcase_size, krino_sink *result, krino_sink *error) {
  const char *end = testcase_json + testcase_size;
  const char *section = find(testcase_json, testcase_size, "\"actualOutputs\"");
  const char *key;
  const char *value;
  int nonempty;
  char text[256];
  (void)instance;
  (void)ctx;

  if (section == NULL) {
    write_text(error, "the test case has no actualOutputs");
    return KRINO_INVALID_ARGUMENT;
  }
  /* The first "output" followed by a colon: a key, not a string value that happens to read "output". */
  value = NULL;
  key = find(section, (size_t)(end - section), "\"output\"");
  while (key != NULL) {
    const char *colon = skip_space(key + strlen("\"output\""), end);
    if (colon < end && *colon == ':') {
      value = skip_space(colon + 1, end);
      break;
    }
    key = find(key + 1, (size_t)(end - key - 1), "\"output\"");
  }
  if (value == NULL) {
    /* No output at all: a score of 0 with a reason, not an error. */
    write_text(result,
               "{\"name\":\"c_nonempty\",\"score\":0,\"success\":false,\"threshold\":1,"
               "\"reason\":\"actualOutputs has no output\",\"metadata\":{}}");
    return KRINO_OK;
  }
  /* A non-empty string starts with a quote that is not immediately closed. */
  nonempty = value + 1 < end && value[0] == '"' && value[1] != '"';

  snprintf(text, sizeof text,
           "{\"name\":\"c_nonempty\",\"score\":%d,\"success\":%s,\"threshold\":1,\"reason\":\"%s\",\"metadata\":{}}",
           nonempty, nonempty ? "true" : "false",
           nonempty ? "the output is a non-empty string" : "the output is empty or not a string");
  write_text(result, text);
  return KRINO_OK;
}

static const krino_evaluator_vtable nonempty_vtable = {
    sizeof(krino_evaluator_vtable), nonempty_create, nonempty_destroy, nonempty_evaluate, NULL};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "dev.krino.examples.c_nonempty", "c_nonempty", "1.0.0",
     "Scores 1 when actualOutputs.output is a non-empty string", KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
     "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"additionalProperties\":false}",
     &nonempty_vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "dev.krino.examples.c_nonempty",
    "c_nonempty", "1.0.0", "krino examples", "Apache-2.0", "Example evaluator in C: non-empty output", 1, components,
    NULL, NULL};

/* The one exported symbol. Refuses a host of another ABI major. [main-thread] */
KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  if (host == NULL || host->abi_major != KRINO_ABI_MAJOR) {
    write_text(error, "c_nonempty is built for krino plugin ABI major 1");
    return NULL;
  }
  return &descriptor;
}
