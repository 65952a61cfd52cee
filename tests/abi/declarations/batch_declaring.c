/*
 * KRINO_CAP_BATCH is reserved (plugin.h): an evaluator that declares it, with an evaluate_batch that
 * fails loudly. The host must load it and score through evaluate alone, never the batch slot.
 * Built with NO_BATCH_SLOT, the bit comes without the slot, which the loader refuses.
 */
#include "../broken/broken_common.h"

#ifndef NO_BATCH_SLOT
static krino_status batch_must_not_be_called(void *instance, const krino_call_context *ctx, const char *testcases_json,
                                             size_t testcases_size, size_t count, krino_sink *results,
                                             krino_sink *error) {
  (void)instance;
  (void)ctx;
  (void)testcases_json;
  (void)testcases_size;
  (void)count;
  (void)results;
  broken_write(error, "evaluate_batch was called");
  return KRINO_INTERNAL;
}
#endif

static const krino_evaluator_vtable batch_vtable = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                                    broken_evaluate_pass,
#ifdef NO_BATCH_SLOT
                                                    NULL
#else
                                                    batch_must_not_be_called
#endif
};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test." PLUGIN_NAME, PLUGIN_NAME, "1.0.0",
     "declares the reserved BATCH bit", KRINO_CAP_THREAD_SAFE | KRINO_CAP_BATCH, NULL, &batch_vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test." PLUGIN_NAME, PLUGIN_NAME,
    "1.0.0", "krino tests", "Apache-2.0", "declares KRINO_CAP_BATCH", 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
