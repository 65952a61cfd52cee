/*
 * Misbehaving evaluators for `isolation: process` (issue 19): each one scores most items and, on
 * some, does what no host process survives. One library per behaviour, all in the folder
 * "misbehaving"; the component is named after the behaviour:
 *   SEGFAULT   segfault_evaluator   writes through a null pointer on items 7, 107, 207...
 *   ABORT      abort_evaluator      abort() on items 13, 113, 213...
 *   LOOP       loop_evaluator       loops for ever on items 5, 255, 505, 755
 *   LEAK       leak_evaluator       leaks 64 MB (every page touched: about 1 GB/s) on every tenth item,
 *                                   and reports RESOURCE_EXHAUSTED when malloc fails
 *   STDOUT     stdout_evaluator     prints to stdout on every item (the plugin host's protocol channel)
 *   BAD_UTF8   bad_utf8_evaluator   ill-formed UTF-8 in every reason
 * The item is the call context's item_index, so the same items misbehave however work is spread.
 */
#include "broken_common.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(SEGFAULT)
#define BEHAVIOUR "segfault"
#elif defined(ABORT)
#define BEHAVIOUR "abort"
#elif defined(LOOP)
#define BEHAVIOUR "loop"
#elif defined(LEAK)
#define BEHAVIOUR "leak"
#elif defined(STDOUT)
#define BEHAVIOUR "stdout"
#elif defined(BAD_UTF8)
#define BEHAVIOUR "bad_utf8"
#else
#error "say which behaviour"
#endif

static krino_status evaluate(void *instance, const krino_call_context *ctx, const char *testcase_json,
                             size_t testcase_size, krino_sink *result, krino_sink *error) {
  const uint64_t item = ctx->item_index;
  (void)item;
  (void)instance;
  (void)testcase_json;
  (void)testcase_size;
#if defined(SEGFAULT)
  if (item % 100 == 7) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#elif defined(ABORT)
  if (item % 100 == 13) abort();
#elif defined(LOOP)
  if (item % 250 == 5) {
    volatile unsigned long spin = 0;
    for (;;) ++spin;
  }
#elif defined(LEAK)
  if (item % 10 == 0) {
    const size_t size = (size_t)64 << 20;
    char *block = malloc(size);
    size_t at;
    if (block == NULL) {
      broken_write(error, "leak_evaluator: out of memory");
      return KRINO_RESOURCE_EXHAUSTED;
    }
    for (at = 0; at < size; at += 4096) block[at] = 1;  /* never freed */
  }
#elif defined(STDOUT)
  printf("stdout_evaluator was here (item %lu)\n", (unsigned long)item);
  fflush(stdout);
#endif
#if defined(BAD_UTF8)
  broken_write(result, "{\"name\":\"x\",\"score\":1,\"success\":true,\"threshold\":null,\"reason\":\"caf\xC3 \xFF\xFE ok\",\"metadata\":{}}");
#else
  broken_write(result, "{\"name\":\"x\",\"score\":1,\"success\":true,\"threshold\":null,\"reason\":\"fine\",\"metadata\":{}}");
#endif
  (void)error;
  return KRINO_OK;
}

static const krino_evaluator_vtable vtable = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy, evaluate,
                                              NULL};

static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test." BEHAVIOUR "_evaluator", BEHAVIOUR "_evaluator", "1.0.0",
     "misbehaves on some items (tests of isolation: process)", KRINO_CAP_THREAD_SAFE, NULL, &vtable},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test." BEHAVIOUR "_evaluator",
    BEHAVIOUR "_evaluator", "1.0.0", "krino tests", "Apache-2.0", "misbehaves on some items", 1, components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
