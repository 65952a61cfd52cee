/*
 * A plugin whose descriptor declares the ABI version given by the build:
 *   abi_major_mismatch  ABI_MAJOR=2                            the host must refuse it: major 2 vs 1
 *   newer_minor_unmet   ABI_MINOR=5 MIN_HOST_ABI_MINOR=3       the host (minor 0) is too old: refuse
 *   newer_minor_ok      ABI_MINOR=5 MIN_HOST_ABI_MINOR=0       a newer plugin that accepts old hosts: load
 * It never checks the host's version itself, so the host's own check is what is tested.
 * One evaluator, PLUGIN_NAME, that passes every test case.
 */
#include "broken_common.h"

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test." PLUGIN_NAME, PLUGIN_NAME, "1.0.0",
     "passes every test case", KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, NULL, &broken_passing_vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), ABI_MAJOR, ABI_MINOR, MIN_HOST_ABI_MINOR, 0, "test." PLUGIN_NAME, PLUGIN_NAME,
    "1.0.0", "krino tests", "Apache-2.0", "declares ABI " PLUGIN_NAME, 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
