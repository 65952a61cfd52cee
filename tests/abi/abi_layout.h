/*
 * Layout checks of <krino/plugin.h>, shared by the C11, C++17 and C++20 header tests so the three
 * languages see one layout. Version 1 of the ABI is frozen: on a 64-bit target every number below
 * is part of the contract, and a change here is an ABI break, not a test update.
 */
#ifndef KRINO_TESTS_ABI_LAYOUT_H
#define KRINO_TESTS_ABI_LAYOUT_H

#include <krino/plugin.h>

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <assert.h> /* static_assert */
#endif

#define KRINO_CHECK_FIRST(T) static_assert(offsetof(T, struct_size) == 0, #T ": struct_size must be the first member")
#define KRINO_CHECK_SIZE(T, n) static_assert(sizeof(T) == (n), #T ": size changed")
#define KRINO_CHECK_OFFSET(T, f, n) static_assert(offsetof(T, f) == (n), #T "." #f ": offset changed")

/* Every struct starts with struct_size, a uint32_t, so a reader can always find it. */
KRINO_CHECK_FIRST(krino_sink);
KRINO_CHECK_FIRST(krino_eval_result);
KRINO_CHECK_FIRST(krino_call_context);
KRINO_CHECK_FIRST(krino_host);
KRINO_CHECK_FIRST(krino_host_info);
KRINO_CHECK_FIRST(krino_evaluator_vtable);
KRINO_CHECK_FIRST(krino_dataset_resolver_vtable);
KRINO_CHECK_FIRST(krino_trace_extractor_vtable);
KRINO_CHECK_FIRST(krino_reporter_vtable);
KRINO_CHECK_FIRST(krino_component);
KRINO_CHECK_FIRST(krino_plugin_descriptor);
static_assert(sizeof(((krino_sink *)0)->struct_size) == 4, "struct_size is a uint32_t");
static_assert(sizeof(((krino_plugin_descriptor *)0)->abi_major) == 2, "abi_major is a uint16_t");

/* Status codes are numbered like absl::StatusCode and never renumbered. */
static_assert(KRINO_OK == 0 && KRINO_CANCELLED == 1 && KRINO_UNKNOWN == 2 && KRINO_INVALID_ARGUMENT == 3,
              "status codes");
static_assert(KRINO_DEADLINE_EXCEEDED == 4 && KRINO_NOT_FOUND == 5 && KRINO_ALREADY_EXISTS == 6 &&
                  KRINO_PERMISSION_DENIED == 7,
              "status codes");
static_assert(KRINO_RESOURCE_EXHAUSTED == 8 && KRINO_FAILED_PRECONDITION == 9 && KRINO_ABORTED == 10 &&
                  KRINO_OUT_OF_RANGE == 11,
              "status codes");
static_assert(KRINO_UNIMPLEMENTED == 12 && KRINO_INTERNAL == 13 && KRINO_UNAVAILABLE == 14 && KRINO_DATA_LOSS == 15,
              "status codes");
static_assert(sizeof(krino_status) == 4, "krino_status is an int32_t");

static_assert(KRINO_KIND_EVALUATOR == 1 && KRINO_KIND_DATASET_RESOLVER == 2 && KRINO_KIND_TRACE_EXTRACTOR == 3 &&
                  KRINO_KIND_REPORTER == 4,
              "component kinds");
static_assert(KRINO_NEXT_RECORD == 0 && KRINO_NEXT_END == 1 && KRINO_NEXT_BAD == 2, "next outcomes");
static_assert(KRINO_LOG_DEBUG == 0 && KRINO_LOG_INFO == 1 && KRINO_LOG_WARNING == 2 && KRINO_LOG_ERROR == 3,
              "log levels");
static_assert(KRINO_CAP_THREAD_SAFE == 1u && KRINO_CAP_NEEDS_JUDGE == 2u && KRINO_CAP_DETERMINISTIC == 4u &&
                  KRINO_CAP_CANCELLABLE == 8u && KRINO_CAP_BATCH == 16u && KRINO_CAP_NEEDS_NETWORK == 32u,
              "capability bits");
static_assert(KRINO_ABI_MAJOR == 1, "this test describes ABI major 1");

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
/* ABI 1.0 and 1.1 ended at 24 bytes; 1.2 appended write_eval_result there. */
KRINO_CHECK_SIZE(krino_sink, 32);
KRINO_CHECK_OFFSET(krino_sink, host_data, 8);
KRINO_CHECK_OFFSET(krino_sink, write, 16);
KRINO_CHECK_OFFSET(krino_sink, write_eval_result, 24);
KRINO_CHECK_SIZE(krino_eval_result, 88);
KRINO_CHECK_OFFSET(krino_eval_result, name, 8);
KRINO_CHECK_OFFSET(krino_eval_result, name_size, 16);
KRINO_CHECK_OFFSET(krino_eval_result, has_score, 24);
KRINO_CHECK_OFFSET(krino_eval_result, score, 32);
KRINO_CHECK_OFFSET(krino_eval_result, success, 40);
KRINO_CHECK_OFFSET(krino_eval_result, has_threshold, 44);
KRINO_CHECK_OFFSET(krino_eval_result, threshold, 48);
KRINO_CHECK_OFFSET(krino_eval_result, reason, 56);
KRINO_CHECK_OFFSET(krino_eval_result, reason_size, 64);
KRINO_CHECK_OFFSET(krino_eval_result, metadata_json, 72);
KRINO_CHECK_OFFSET(krino_eval_result, metadata_size, 80);
/* ABI 1.0 ended at 56 bytes; 1.1 appended testcase_sections there. A 1.0 host sends struct_size 56. */
KRINO_CHECK_SIZE(krino_call_context, 120);
KRINO_CHECK_OFFSET(krino_call_context, testcase_sections, 56);
KRINO_CHECK_SIZE(krino_span, 16);
KRINO_CHECK_OFFSET(krino_call_context, seed, 8);
KRINO_CHECK_OFFSET(krino_call_context, deadline_unix_ms, 16);
KRINO_CHECK_OFFSET(krino_call_context, run_index, 24);
KRINO_CHECK_OFFSET(krino_call_context, item_index, 32);
KRINO_CHECK_OFFSET(krino_call_context, document_serial, 40);
KRINO_CHECK_OFFSET(krino_call_context, host_handle, 48);
KRINO_CHECK_SIZE(krino_host, 48);
KRINO_CHECK_OFFSET(krino_host, host_data, 8);
KRINO_CHECK_OFFSET(krino_host, log, 16);
KRINO_CHECK_OFFSET(krino_host, is_cancelled, 24);
KRINO_CHECK_OFFSET(krino_host, judge, 32);
KRINO_CHECK_OFFSET(krino_host, get_extension, 40);
KRINO_CHECK_SIZE(krino_host_info, 32);
KRINO_CHECK_OFFSET(krino_host_info, abi_major, 4);
KRINO_CHECK_OFFSET(krino_host_info, abi_minor, 6);
KRINO_CHECK_OFFSET(krino_host_info, host_name, 8);
KRINO_CHECK_OFFSET(krino_host_info, host_version, 16);
KRINO_CHECK_OFFSET(krino_host_info, host, 24);
KRINO_CHECK_SIZE(krino_evaluator_vtable, 40);
KRINO_CHECK_OFFSET(krino_evaluator_vtable, create, 8);
KRINO_CHECK_OFFSET(krino_evaluator_vtable, destroy, 16);
KRINO_CHECK_OFFSET(krino_evaluator_vtable, evaluate, 24);
KRINO_CHECK_OFFSET(krino_evaluator_vtable, evaluate_batch, 32);
KRINO_CHECK_SIZE(krino_dataset_resolver_vtable, 56);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, schemes, 8);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, extensions, 16);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, open, 24);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, next, 32);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, decode, 40);
KRINO_CHECK_OFFSET(krino_dataset_resolver_vtable, close, 48);
KRINO_CHECK_SIZE(krino_trace_extractor_vtable, 24);
KRINO_CHECK_OFFSET(krino_trace_extractor_vtable, detect, 8);
KRINO_CHECK_OFFSET(krino_trace_extractor_vtable, extract, 16);
KRINO_CHECK_SIZE(krino_reporter_vtable, 40);
KRINO_CHECK_OFFSET(krino_reporter_vtable, create, 8);
KRINO_CHECK_OFFSET(krino_reporter_vtable, destroy, 16);
KRINO_CHECK_OFFSET(krino_reporter_vtable, on_event, 24);
KRINO_CHECK_OFFSET(krino_reporter_vtable, flush, 32);
KRINO_CHECK_SIZE(krino_component, 64);
KRINO_CHECK_OFFSET(krino_component, kind, 4);
KRINO_CHECK_OFFSET(krino_component, id, 8);
KRINO_CHECK_OFFSET(krino_component, name, 16);
KRINO_CHECK_OFFSET(krino_component, version, 24);
KRINO_CHECK_OFFSET(krino_component, description, 32);
KRINO_CHECK_OFFSET(krino_component, capabilities, 40);
KRINO_CHECK_OFFSET(krino_component, config_schema, 48);
KRINO_CHECK_OFFSET(krino_component, vtable, 56);
KRINO_CHECK_SIZE(krino_plugin_descriptor, 96);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, abi_major, 4);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, abi_minor, 6);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, min_host_abi_minor, 8);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, reserved, 10);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, id, 16);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, name, 24);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, version, 32);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, vendor, 40);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, license, 48);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, description, 56);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, component_count, 64);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, components, 72);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, deinit, 80);
KRINO_CHECK_OFFSET(krino_plugin_descriptor, get_extension, 88);
#endif

#endif /* KRINO_TESTS_ABI_LAYOUT_H */
