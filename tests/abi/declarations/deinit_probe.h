/*
 * The extension the declaring test plugin (declaring_plugin.cpp) offers under TEST_DEINIT_PROBE_ID:
 * how plugin_declarations_test.cpp watches the plugin's deinit functions run.
 */
#ifndef KRINO_TESTS_DEINIT_PROBE_H
#define KRINO_TESTS_DEINIT_PROBE_H

#include <stdint.h>

#define TEST_DEINIT_PROBE_ID "test.deinit_probe/1"

typedef struct test_deinit_probe {
  uint32_t struct_size;
  /* Hands the plugin a counter of the caller's, which must outlive the plugin. Each deinit function
   * then appends its digit: counter = counter * 10 + digit. [main-thread] */
  void (*watch)(int *counter);
} test_deinit_probe;

#endif /* KRINO_TESTS_DEINIT_PROBE_H */
