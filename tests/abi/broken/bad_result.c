/*
 * Broken evaluators that return KRINO_OK with a result the host must not accept:
 *   malformed_json_evaluator  {"name": "x", "score":       (truncated JSON)
 *   bad_score_high            score 1.7                   (outside 0..1)
 *   bad_score_string          score "0.9"                 (not a number)
 * The host must turn each into an item error (KRINO_INTERNAL, "malformed result ...") rather than
 * a score. Which evaluators the plugin carries comes from the build: MALFORMED or BAD_SCORE.
 */
#include "broken_common.h"

static krino_status write_fixed(krino_sink *result, const char *text) {
  broken_write(result, text);
  return KRINO_OK;
}

#define FIXED_EVALUATE(function, text)                                                                        \
  static krino_status function(void *instance, const krino_call_context *ctx, const char *testcase_json,    \
                               size_t testcase_size, krino_sink *result, krino_sink *error) {               \
    (void)instance;                                                                                          \
    (void)ctx;                                                                                               \
    (void)testcase_json;                                                                                     \
    (void)testcase_size;                                                                                     \
    (void)error;                                                                                             \
    return write_fixed(result, text);                                                                        \
  }

#if defined(MALFORMED)
FIXED_EVALUATE(evaluate_truncated, "{\"name\": \"x\", \"score\": ")
static const krino_evaluator_vtable truncated = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                                 evaluate_truncated, NULL};
static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.malformed_json_evaluator", "malformed_json_evaluator",
     "1.0.0", "writes truncated JSON", KRINO_CAP_THREAD_SAFE, NULL, &truncated},
};
#define PLUGIN_ID "test.malformed_json_evaluator"
#elif defined(BAD_SCORE)
FIXED_EVALUATE(evaluate_high, "{\"name\":\"bad_score_high\",\"score\":1.7,\"success\":true,\"reason\":\"\"}")
FIXED_EVALUATE(evaluate_string, "{\"name\":\"bad_score_string\",\"score\":\"0.9\",\"success\":true,\"reason\":\"\"}")
static const krino_evaluator_vtable high = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                            evaluate_high, NULL};
static const krino_evaluator_vtable string = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                              evaluate_string, NULL};
static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.bad_score_high", "bad_score_high", "1.0.0",
     "writes score 1.7", KRINO_CAP_THREAD_SAFE, NULL, &high},
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.bad_score_string", "bad_score_string", "1.0.0",
     "writes a string score", KRINO_CAP_THREAD_SAFE, NULL, &string},
};
#define PLUGIN_ID "test.bad_score_evaluator"
#else
#error "define MALFORMED or BAD_SCORE"
#endif

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, PLUGIN_ID, PLUGIN_ID, "1.0.0",
    "krino tests", "Apache-2.0", "returns results the host must reject", sizeof components / sizeof components[0],
    components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
