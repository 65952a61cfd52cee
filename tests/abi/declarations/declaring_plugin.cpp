// Not broken: a C++ plugin that declares, with KRINO_PLUGIN's companion lines, everything a
// descriptor carries beyond its metadata (plugin_declarations_test.cpp checks each from the host):
//   KRINO_PLUGIN_MIN_HOST_ABI_MINOR(KRINO_ABI_MINOR)    a host of an older minor must refuse it;
//   KRINO_PLUGIN_EXTENSION(TEST_DEINIT_PROBE_ID, ...)    a table the host looks up (deinit_probe.h);
//   KRINO_PLUGIN_DEINIT, twice                          digits 1 then 2 declared, so the counter the
//                                                       probe watches reads 21 once the host has
//                                                       unloaded the plugin (last declared, first run).
// Built with DECLARATION_PROBLEM it declares the extension's id a second time, which the entry
// must refuse with the reason. One evaluator, PLUGIN_NAME, that passes every test case.
#include "deinit_probe.h"

#include <krino/plugin.hpp>

namespace {

int* watched_counter = nullptr;

void watch(int* counter) { watched_counter = counter; }

const test_deinit_probe kDeinitProbe = {sizeof(test_deinit_probe), &watch};

void append_digit(int digit) {
  if (watched_counter != nullptr) *watched_counter = *watched_counter * 10 + digit;
}

void release_first() {
  append_digit(1);
  watched_counter = nullptr;  // runs last: the counter is the test's, not ours to keep
}

void release_second() { append_digit(2); }

class Passing {
 public:
  explicit Passing(const krino::Config&) {}
  krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&) const {
    return krino::EvalResult::scored(PLUGIN_NAME, 1.0, 1.0);
  }
};

}  // namespace

KRINO_EVALUATOR(Passing, "test." PLUGIN_NAME, PLUGIN_NAME, "1.0.0", "passes every test case",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("test." PLUGIN_NAME, PLUGIN_NAME, "1.0.0", "krino tests", "Apache-2.0",
             "declares a deinit, a minimum host ABI minor and an extension")
KRINO_PLUGIN_DEINIT(release_first);
KRINO_PLUGIN_DEINIT(release_second);
KRINO_PLUGIN_MIN_HOST_ABI_MINOR(KRINO_ABI_MINOR);
KRINO_PLUGIN_EXTENSION(TEST_DEINIT_PROBE_ID, &kDeinitProbe);
#ifdef DECLARATION_PROBLEM
KRINO_PLUGIN_EXTENSION(TEST_DEINIT_PROBE_ID, &kDeinitProbe);
#endif
