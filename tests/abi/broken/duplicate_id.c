/*
 * Broken: component ids must be unique across every loaded plugin.
 *   duplicate_id_a, duplicate_id_b  (built into ONE folder) each declare an evaluator with id
 *                                   "test.dup" (short names dup_a, dup_b): the second one loaded
 *                                   clashes with the first.
 *   duplicate_id_within             declares "test.dup" twice itself (names dup_first, dup_second).
 * PLUGIN_NAME, FIRST_NAME and SECOND_NAME come from the build; SECOND_NAME only for _within.
 */
#include "broken_common.h"

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.dup", FIRST_NAME, "1.0.0", "passes every test case",
     KRINO_CAP_DETERMINISTIC, NULL, &broken_passing_vtable},
#ifdef SECOND_NAME
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.dup", SECOND_NAME, "1.0.0", "same id again",
     KRINO_CAP_DETERMINISTIC, NULL, &broken_passing_vtable},
#endif
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test." PLUGIN_NAME, PLUGIN_NAME,
    "1.0.0", "krino tests", "Apache-2.0", "declares component id test.dup",
    sizeof components / sizeof components[0], components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
