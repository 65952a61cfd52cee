/*
 * An evaluator in plain C that reads its test case only through the host's parse
 * ("krino.host.document/1"), never the bytes: its result's metadata.walk is the whole test case
 * written back from that parse (numbers as their exact text, strings re-escaped), and its
 * metadata.lent says whether the host lent a parse for the call. The host tests compare the walk
 * with the test case they sent.
 */
#include <krino/host_document.h>
#include <krino/plugin.h>

#include <stdio.h>
#include <string.h>

static const krino_host *reader_host;
static const krino_host_document *reader_document;

typedef struct reader_buffer {
  char text[16384];
  size_t size;
} reader_buffer;

static void put(reader_buffer *out, const char *data, size_t size) {
  if (out->size + size >= sizeof(out->text)) size = sizeof(out->text) - 1 - out->size;
  memcpy(out->text + out->size, data, size);
  out->size += size;
}

static void put_string(reader_buffer *out, const char *data, size_t size) {
  size_t i;
  put(out, "\"", 1);
  for (i = 0; i < size; ++i) {
    const char c = data[i];
    if (c == '"' || c == '\\') put(out, "\\", 1);
    if ((unsigned char)c < 0x20) {
      char escaped[8];
      snprintf(escaped, sizeof escaped, "\\u%04x", (unsigned)(unsigned char)c);
      put(out, escaped, 6);
    } else {
      put(out, &c, 1);
    }
  }
  put(out, "\"", 1);
}

static void walk(reader_buffer *out, krino_json_ref ref) {
  krino_json_value v;
  const char *key = NULL;
  size_t key_size = 0;
  krino_json_ref child;
  int first = 1;
  reader_document->read(ref, &v);
  switch (v.kind) {
    case KRINO_JSON_NULL: put(out, "null", 4); break;
    case KRINO_JSON_FALSE: put(out, "false", 5); break;
    case KRINO_JSON_TRUE: put(out, "true", 4); break;
    case KRINO_JSON_NUMBER: put(out, v.text, v.text_size); break;
    case KRINO_JSON_STRING: put_string(out, v.text, v.text_size); break;
    case KRINO_JSON_ARRAY:
      put(out, "[", 1);
      for (child = reader_document->first(ref, NULL, NULL); child.document != NULL;
           child = reader_document->next(child, NULL, NULL)) {
        if (!first) put(out, ",", 1);
        first = 0;
        walk(out, child);
      }
      put(out, "]", 1);
      break;
    case KRINO_JSON_OBJECT:
      put(out, "{", 1);
      for (child = reader_document->first(ref, &key, &key_size); child.document != NULL;
           child = reader_document->next(child, &key, &key_size)) {
        if (!first) put(out, ",", 1);
        first = 0;
        put_string(out, key, key_size);
        put(out, ":", 1);
        walk(out, child);
      }
      put(out, "}", 1);
      break;
    default: put(out, "\"unreadable\"", 12); break;
  }
}

static krino_status reader_create(const krino_host *host, const char *config_json, size_t config_size,
                                  void **out_instance, krino_sink *error) {
  static int instance;
  (void)config_json;
  (void)config_size;
  (void)error;
  reader_host = host;
  reader_document = (const krino_host_document *)host->get_extension(host, KRINO_HOST_DOCUMENT_EXTENSION_ID);
  *out_instance = &instance;
  return KRINO_OK;
}

static void reader_destroy(void *instance) { (void)instance; }

static krino_status reader_evaluate(void *instance, const krino_call_context *ctx, const char *testcase_json,
                                    size_t testcase_size, krino_sink *result, krino_sink *error) {
  static const char head[] = "{\"name\":\"document_reader\",\"score\":1,\"success\":true,\"threshold\":null,"
                             "\"reason\":\"\",\"metadata\":{\"lent\":";
  reader_buffer out;
  krino_json_ref root = {NULL, 0};
  (void)instance;
  (void)testcase_json;
  (void)testcase_size;
  (void)error;
  out.size = 0;
  if (reader_document != NULL) root = reader_document->testcase(reader_host, ctx);
  put(&out, head, sizeof head - 1);
  if (root.document == NULL) {
    put(&out, "false}}", 7);
  } else {
    put(&out, "true,\"walk\":", 12);
    walk(&out, root);
    put(&out, "}}", 2);
  }
  result->write(result, out.text, out.size);
  return KRINO_OK;
}

static const krino_evaluator_vtable reader_vtable = {sizeof(krino_evaluator_vtable), reader_create, reader_destroy,
                                                     reader_evaluate, NULL};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.document_reader", "document_reader", "1.0.0",
     "writes back the test case as the host parsed it", KRINO_CAP_DETERMINISTIC, NULL, &reader_vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test.document_reader",
    "document_reader", "1.0.0", "krino tests", "Apache-2.0", "reads krino.host.document/1", 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
