/*
 * Broken evaluator: evaluate returns KRINO_FAILED_PRECONDITION with the message
 *   "status_evaluator needs expectedOutputs.output"
 * and writes no result. The host must report an item error with that code and message.
 */
#include "broken_common.h"

static krino_status evaluate(void *instance, const krino_call_context *ctx, const char *testcase_json,
                             size_t testcase_size, krino_sink *result, krino_sink *error) {
  (void)instance;
  (void)ctx;
  (void)testcase_json;
  (void)testcase_size;
  (void)result;
  broken_write(error, "status_evaluator needs expectedOutputs.output");
  return KRINO_FAILED_PRECONDITION;
}

static const krino_evaluator_vtable vtable = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy, evaluate,
                                              NULL};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.status_evaluator", "status_evaluator", "1.0.0",
     "always fails with FAILED_PRECONDITION", KRINO_CAP_THREAD_SAFE, NULL, &vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test.status_evaluator",
    "status_evaluator", "1.0.0", "krino tests", "Apache-2.0", "returns a non-OK status", 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
