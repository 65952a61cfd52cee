/*
 * Shared by the deliberately broken test plugins (C): a sink helper and one evaluator vtable whose
 * evaluate writes a fixed eval result. Each plugin breaks one rule; its file says which.
 */
#ifndef KRINO_TESTS_BROKEN_COMMON_H
#define KRINO_TESTS_BROKEN_COMMON_H

#include <krino/plugin.h>

#include <string.h>

static inline void broken_write(krino_sink *sink, const char *text) {
  if (sink != NULL && sink->write != NULL) sink->write(sink, text, strlen(text));
}

static inline krino_status broken_create(const krino_host *host, const char *config_json, size_t config_size,
                                         void **out_instance, krino_sink *error) {
  static int instance;
  (void)host;
  (void)config_json;
  (void)config_size;
  (void)error;
  *out_instance = &instance;
  return KRINO_OK;
}

static inline void broken_destroy(void *instance) { (void)instance; }

/* A correct evaluate: score 1, success. */
static inline krino_status broken_evaluate_pass(void *instance, const krino_call_context *ctx,
                                                const char *testcase_json, size_t testcase_size, krino_sink *result,
                                                krino_sink *error) {
  (void)instance;
  (void)ctx;
  (void)testcase_json;
  (void)testcase_size;
  (void)error;
  broken_write(result, "{\"name\":\"pass\",\"score\":1,\"success\":true,\"threshold\":null,\"reason\":\"\",\"metadata\":{}}");
  return KRINO_OK;
}

static const krino_evaluator_vtable broken_passing_vtable = {
    sizeof(krino_evaluator_vtable), broken_create, broken_destroy, broken_evaluate_pass, NULL};

#endif /* KRINO_TESTS_BROKEN_COMMON_H */
