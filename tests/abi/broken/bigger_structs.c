/*
 * Not broken: a plugin from a newer minor (abi_minor one above the host's, min_host_abi_minor 0) whose descriptor,
 * component and evaluator vtable are LARGER than the host knows, with extra trailing fields. The
 * host must read only the prefix it knows, never reject a larger struct, load the plugin and run
 * its evaluator "bigger_structs" (score 1, success) normally.
 */
#include "broken_common.h"

#include <stdint.h>

typedef struct evaluator_vtable_v1_1 {
  krino_evaluator_vtable v1_0;
  krino_status (*future_warm_up)(void *instance);
  uint64_t future_flags;
} evaluator_vtable_v1_1;

typedef struct component_v1_1 {
  krino_component v1_0;
  const char *future_homepage;
  uint64_t future_flags;
} component_v1_1;

typedef struct descriptor_v1_1 {
  krino_plugin_descriptor v1_0;
  const char *future_homepage;
  uint64_t future_flags[4];
} descriptor_v1_1;

static krino_status warm_up(void *instance) {
  (void)instance;
  return KRINO_OK;
}

static const evaluator_vtable_v1_1 vtable = {
    {sizeof(evaluator_vtable_v1_1), broken_create, broken_destroy, broken_evaluate_pass, NULL}, warm_up, 0xFFu};

/* An array of bigger components: the host must step through it with the component's struct_size,
 * not with its own sizeof(krino_component). The second one is an ordinary evaluator too. */
static const component_v1_1 components[] = {
    {{sizeof(component_v1_1), KRINO_KIND_EVALUATOR, "test.bigger_structs", "bigger_structs", "1.1.0",
      "larger structs than the host knows", KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC | ((uint64_t)1 << 40),
      NULL, &vtable},
     "https://krino.dev", 1u},
    {{sizeof(component_v1_1), KRINO_KIND_EVALUATOR, "test.bigger_structs_second", "bigger_structs_second", "1.1.0",
      "the second element of the array", KRINO_CAP_THREAD_SAFE, NULL, &vtable},
     "https://krino.dev", 2u},
};

static const descriptor_v1_1 descriptor = {
    {sizeof(descriptor_v1_1), KRINO_ABI_MAJOR, KRINO_ABI_MINOR + 1, 0, 0, "test.bigger_structs", "bigger_structs", "1.1.0",
     "krino tests", "Apache-2.0", "structs larger than the host knows", 2, &components[0].v1_0, NULL, NULL},
    "https://krino.dev",
    {1u, 2u, 3u, 4u}};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor.v1_0;
}
