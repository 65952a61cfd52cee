/*
 * Broken descriptors the host must reject as "invalid descriptor", naming the problem:
 *   invalid_descriptor_null_id      the component's id is NULL
 *   invalid_descriptor_bad_kind     the component's kind is 99 (the plugin is built against the
 *                                   host's own minor, so it cannot be a kind from a newer minor)
 *   invalid_descriptor_null_vtable  the evaluator's vtable is NULL
 *   invalid_descriptor_schema_not_json   the config schema is not JSON ({"type": )
 *   invalid_descriptor_schema_unusable   the config schema is JSON but no usable JSON Schema
 *                                        ("minimum" is a string); the host must reject the plugin,
 *                                        not abort inside its schema library
 * The case comes from the build: NULL_ID, BAD_KIND, NULL_VTABLE, SCHEMA_NOT_JSON or
 * SCHEMA_UNUSABLE.
 */
#include "broken_common.h"

#if defined(NULL_ID)
#define COMPONENT_ID NULL
#define COMPONENT_KIND KRINO_KIND_EVALUATOR
#define COMPONENT_SCHEMA NULL
#define COMPONENT_VTABLE (&broken_passing_vtable)
#define PLUGIN_NAME "invalid_descriptor_null_id"
#elif defined(BAD_KIND)
#define COMPONENT_ID "test.invalid_descriptor"
#define COMPONENT_KIND 99
#define COMPONENT_SCHEMA NULL
#define COMPONENT_VTABLE (&broken_passing_vtable)
#define PLUGIN_NAME "invalid_descriptor_bad_kind"
#elif defined(NULL_VTABLE)
#define COMPONENT_ID "test.invalid_descriptor"
#define COMPONENT_KIND KRINO_KIND_EVALUATOR
#define COMPONENT_SCHEMA NULL
#define COMPONENT_VTABLE NULL
#define PLUGIN_NAME "invalid_descriptor_null_vtable"
#elif defined(SCHEMA_NOT_JSON)
#define COMPONENT_ID "test.invalid_descriptor"
#define COMPONENT_KIND KRINO_KIND_EVALUATOR
#define COMPONENT_SCHEMA "{\"type\": "
#define COMPONENT_VTABLE (&broken_passing_vtable)
#define PLUGIN_NAME "invalid_descriptor_schema_not_json"
#elif defined(SCHEMA_UNUSABLE)
#define COMPONENT_ID "test.invalid_descriptor"
#define COMPONENT_KIND KRINO_KIND_EVALUATOR
#define COMPONENT_SCHEMA "{\"type\": \"object\", \"properties\": {\"limit\": {\"minimum\": \"one\"}}}"
#define COMPONENT_VTABLE (&broken_passing_vtable)
#define PLUGIN_NAME "invalid_descriptor_schema_unusable"
#else
#error "define NULL_ID, BAD_KIND, NULL_VTABLE, SCHEMA_NOT_JSON or SCHEMA_UNUSABLE"
#endif

static const krino_component components[] = {
    {sizeof(krino_component), COMPONENT_KIND, COMPONENT_ID, "invalid_descriptor", "1.0.0", "broken on purpose",
     KRINO_CAP_THREAD_SAFE, COMPONENT_SCHEMA, COMPONENT_VTABLE},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test." PLUGIN_NAME, PLUGIN_NAME,
    "1.0.0", "krino tests", "Apache-2.0", "an invalid descriptor", 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
