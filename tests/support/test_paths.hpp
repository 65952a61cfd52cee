#pragma once
// Where the tests find the source tree, the build tree and the fixtures.
//
// The paths are compiled into one generated file (test_paths.cpp.in) instead of every test's
// command line, so a test translation unit's compile command is the same in every clone: a second
// clone in another folder (what CI is) then hits the compiler cache of the first. The macros keep
// the spelling the tests have always used; each expands to a `const char*`.
namespace krino::test::paths {
const char* source_dir();        // the repository
const char* binary_dir();        // the build tree (the preset's folder)
const char* plugin_build_dir();  // first-party plugins as built: <binary_dir>/lib/krino/plugins
const char* shared_data_dir();   // tests/fixtures/shared-data
const char* testkit_dir();       // the test-only testkit plugin
const char* trace_testkit_dir(); // the test-only trace extractor plugin
const char* example_plugin_dir();  // the SDK examples built in-tree
const char* broken_plugin_dir();   // the deliberately broken plugins of tests/abi
const char* crashing_plugin_dir(); // tests/abi's plugins whose entry point crashes or hangs
const char* fake_llm_binary();     // krino-fake-llm
}  // namespace krino::test::paths

#define KRINO_SOURCE_DIR (::krino::test::paths::source_dir())
#define KRINO_BINARY_DIR (::krino::test::paths::binary_dir())
#define KRINO_PLUGIN_BUILD_DIR (::krino::test::paths::plugin_build_dir())
#define KRINO_SHARED_DATA_DIR (::krino::test::paths::shared_data_dir())
#define KRINO_TESTKIT_DIR (::krino::test::paths::testkit_dir())
#define KRINO_TRACE_TESTKIT_DIR (::krino::test::paths::trace_testkit_dir())
#define KRINO_EXAMPLE_PLUGIN_DIR (::krino::test::paths::example_plugin_dir())
#define KRINO_BROKEN_PLUGIN_DIR (::krino::test::paths::broken_plugin_dir())
#define KRINO_CRASHING_PLUGIN_DIR (::krino::test::paths::crashing_plugin_dir())
#define KRINO_FAKE_LLM_BINARY (::krino::test::paths::fake_llm_binary())
