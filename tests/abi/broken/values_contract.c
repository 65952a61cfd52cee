/*
 * Evaluators that break the contract of krino_sink::write_eval_result (ABI 1.2), which only a host
 * that offers it sees; `krino plugins check` calls each evaluator both ways to catch them:
 *   values_differ      hands score 1 as values, writes score 0 as text (the two ways disagree)
 *   text_after_values  writes the text after the host answered KRINO_OK to its values
 *   silent_on_refusal  hands score 1.7 as values (refused: outside 0..1) and writes no text
 * Each writes a valid result as text when the sink takes no values, so a text-only check passes.
 */
#include "broken_common.h"

#include <stddef.h>

static const char kPassText[] =
    "{\"name\":\"x\",\"score\":1,\"success\":true,\"threshold\":null,\"reason\":\"\",\"metadata\":{}}";
static const char kFailText[] =
    "{\"name\":\"x\",\"score\":0,\"success\":false,\"threshold\":null,\"reason\":\"\",\"metadata\":{}}";

static int offers_values(const krino_sink *sink) {
  return sink != NULL && sink->struct_size >= offsetof(krino_sink, write_eval_result) + sizeof sink->write_eval_result &&
         sink->write_eval_result != NULL;
}

static krino_status hand_values(krino_sink *sink, double score) {
  krino_eval_result values;
  memset(&values, 0, sizeof values);
  values.struct_size = sizeof values;
  values.name = "x";
  values.name_size = 1;
  values.has_score = 1;
  values.score = score;
  values.success = score >= 0.5;
  return sink->write_eval_result(sink, &values);
}

#define EVALUATE(function)                                                                                     \
  static krino_status function(void *instance, const krino_call_context *ctx, const char *testcase_json,     \
                               size_t testcase_size, krino_sink *result, krino_sink *error)

EVALUATE(values_differ) {
  (void)instance, (void)ctx, (void)testcase_json, (void)testcase_size, (void)error;
  if (offers_values(result) && hand_values(result, 1.0) == KRINO_OK) return KRINO_OK;
  broken_write(result, kFailText);
  return KRINO_OK;
}

EVALUATE(text_after_values) {
  (void)instance, (void)ctx, (void)testcase_json, (void)testcase_size, (void)error;
  if (offers_values(result)) (void)hand_values(result, 1.0);
  broken_write(result, kPassText);
  return KRINO_OK;
}

EVALUATE(silent_on_refusal) {
  (void)instance, (void)ctx, (void)testcase_json, (void)testcase_size, (void)error;
  if (offers_values(result)) {
    (void)hand_values(result, 1.7);
    return KRINO_OK;
  }
  broken_write(result, kPassText);
  return KRINO_OK;
}

static const krino_evaluator_vtable differ = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                              values_differ, NULL};
static const krino_evaluator_vtable after = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                             text_after_values, NULL};
static const krino_evaluator_vtable silent = {sizeof(krino_evaluator_vtable), broken_create, broken_destroy,
                                              silent_on_refusal, NULL};
static const krino_component components[] = {
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.values_differ", "values_differ", "1.0.0",
     "scores differently as values and as text", KRINO_CAP_THREAD_SAFE, NULL, &differ},
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.text_after_values", "text_after_values", "1.0.0",
     "writes text after its values were taken", KRINO_CAP_THREAD_SAFE, NULL, &after},
    {sizeof(krino_component), KRINO_KIND_EVALUATOR, "test.silent_on_refusal", "silent_on_refusal", "1.0.0",
     "writes nothing when its values are refused", KRINO_CAP_THREAD_SAFE, NULL, &silent},
};

static const krino_plugin_descriptor descriptor = {
    sizeof(krino_plugin_descriptor), KRINO_ABI_MAJOR, KRINO_ABI_MINOR, 0, 0, "test.values_contract", "values_contract",
    "1.0.0", "krino tests", "Apache-2.0", "breaks the contract of write_eval_result", sizeof components / sizeof components[0],
    components, NULL, NULL};

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
  return &descriptor;
}
