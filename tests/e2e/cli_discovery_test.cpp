// Discovery that survives a broken library (issue 19): libraries are probed in krino-plugin-host
// (--probe) before krino opens them, what the probes found is cached by file identity, and a
// library is opened in krino's own process only when the command uses one of its components.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

bool discovery_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A cache folder of the test's own and a short probe time limit, for every command of one test.
struct DiscoveryScratch {
  explicit DiscoveryScratch(const std::string& name) : dir(temp_path("discovery-" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~DiscoveryScratch() { fs::remove_all(dir); }
  std::string cache_file() const { return dir + "/krino/plugin-probes.json"; }
  ProcessOptions options() const {
    ProcessOptions o;
    o.environment = {"XDG_CACHE_HOME=" + dir, "KRINO_PLUGIN_PROBE_TIMEOUT_MS=1500"};
    return o;
  }
  std::string dir;
};

const std::string kCrashing = std::string(KRINO_CRASHING_PLUGIN_DIR) + "/crashing_entry";

std::vector<std::string> list_command(std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {krino_binary(), "plugins", "list", "--plugin-dir", kCrashing, "--plugin-dir", KRINO_TESTKIT_DIR,
                                   "--plugins", "entry_segfault,entry_abort,entry_loop,testkit"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_discovery)

BOOST_AUTO_TEST_CASE(a_crashing_or_hanging_entry_point_is_named_and_skipped) {
  DiscoveryScratch scratch("crash");
  const ProcessResult r = run_process(list_command(), scratch.options());
  BOOST_TEST(r.exit_code == 3, r.err);  // plugins that failed to load: a runtime error, as before
  BOOST_TEST(discovery_has(r.out, "test.echo_score"), r.out);
  BOOST_TEST(discovery_has(r.out, "krino-entry_segfault.so: loading it was killed by signal 11 (SIGSEGV); skipped"), r.out);
  BOOST_TEST(discovery_has(r.out, "krino-entry_abort.so: loading it was killed by signal 6 (SIGABRT); skipped"), r.out);
  BOOST_TEST(discovery_has(r.out, "krino-entry_loop.so: its entry point did not return within 1500 ms (stopped); skipped"), r.out);
}

BOOST_AUTO_TEST_CASE(a_run_that_does_not_use_the_broken_library_works) {
  DiscoveryScratch scratch("run");
  write_file(scratch.dir + "/e.yaml", "dataset: seq:20\nevaluators: [echo_score]\n");
  const ProcessResult r = run_process({krino_binary(), "run", scratch.dir + "/e.yaml", "--plugin-dir", kCrashing,
                                       "--plugin-dir", KRINO_TESTKIT_DIR},
                                      scratch.options());
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(discovery_has(r.err, "warning: plugin not loaded: " + kCrashing + "/krino-entry_segfault.so: loading it was killed by signal 11"), r.err);
}

BOOST_AUTO_TEST_CASE(probes_are_cached_by_file_identity_and_a_corrupt_cache_is_rebuilt) {
  DiscoveryScratch scratch("cache");
  BOOST_TEST(run_process(list_command(), scratch.options()).exit_code == 3);
  const std::string cached = read_file(scratch.cache_file());
  BOOST_TEST(discovery_has(cached, "krino-entry_segfault.so"));
  BOOST_TEST(discovery_has(cached, "test.echo_score"));
  // A time-out may be the machine's load, not the library's: never cached.
  BOOST_TEST(!discovery_has(cached, "krino-entry_loop.so"));

  // The next command reads the cache instead of probing: an edit there shows.
  std::string edited = cached;
  edited.replace(edited.find("signal 11 (SIGSEGV)"), 19, "signal 11 (EDITED!)");
  write_file(scratch.cache_file(), edited);
  ProcessResult r = run_process(list_command(), scratch.options());
  BOOST_TEST(discovery_has(r.out, "krino-entry_segfault.so: loading it was killed by signal 11 (EDITED!)"), r.out);

  // A library whose modification time changed is probed again.
  const fs::path segfault = kCrashing + "/krino-entry_segfault.so";
  fs::last_write_time(segfault, fs::last_write_time(segfault) + std::chrono::seconds(1));
  r = run_process(list_command(), scratch.options());
  BOOST_TEST(discovery_has(r.out, "krino-entry_segfault.so: loading it was killed by signal 11 (SIGSEGV)"), r.out);

  // A cache that is not JSON (a disk that filled up under an older writer) is ignored and rewritten.
  write_file(scratch.cache_file(), "{\"format\":\"krino.pluginprobes/1\",\"entr");
  r = run_process(list_command(), scratch.options());
  BOOST_TEST(r.exit_code == 3, r.err);
  BOOST_TEST(discovery_has(r.out, "test.echo_score"), r.out);
  BOOST_TEST(boost::json::parse(read_file(scratch.cache_file())).is_object());
}

// With a warm cache, listing opens no library in krino's process, and a run opens only the library
// of what it uses: the dynamic loader's own log (LD_DEBUG=files, on krino's stderr) says which.
BOOST_AUTO_TEST_CASE(a_library_is_opened_in_process_only_when_a_component_is_used) {
  DiscoveryScratch scratch("lazy");
  const std::vector<std::string> dirs = {"--plugin-dir", KRINO_TESTKIT_DIR, "--plugin-dir", KRINO_PLUGIN_BUILD_DIR};
  std::vector<std::string> list = {krino_binary(), "plugins", "list"};
  list.insert(list.end(), dirs.begin(), dirs.end());
  BOOST_TEST_REQUIRE(run_process(list, scratch.options()).exit_code == 0);
  ProcessOptions traced = scratch.options();
  traced.environment.push_back("LD_DEBUG=files");
  ProcessResult r = run_process(list, traced);
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(discovery_has(r.out, "test.echo_score"), r.out);
  BOOST_TEST(!discovery_has(r.err, "krino-testkit.so"), r.err.substr(0, 4000));
  BOOST_TEST(!discovery_has(r.err, "krino-text.so"));

  write_file(scratch.dir + "/e.yaml", "dataset: seq:5\nevaluators: [echo_score]\n");
  std::vector<std::string> run = {krino_binary(), "run", scratch.dir + "/e.yaml"};
  run.insert(run.end(), dirs.begin(), dirs.end());
  r = run_process(run, traced);
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(discovery_has(r.err, "krino-testkit.so"));
  BOOST_TEST(!discovery_has(r.err, "krino-agent.so"));
}

// An install without krino-plugin-host (the SDK alone) loads every library in process, as before
// the probes: it works, without the protection, and writes no cache.
BOOST_AUTO_TEST_CASE(without_the_plugin_host_libraries_are_loaded_in_process) {
  DiscoveryScratch scratch("no-host");
  ProcessOptions options = scratch.options();
  options.environment.push_back("KRINO_PLUGIN_HOST=" + scratch.dir + "/no-such-krino-plugin-host");
  const ProcessResult r = run_process({krino_binary(), "plugins", "list", "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins",
                                       "testkit"},
                                      options);
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(discovery_has(r.out, "test.echo_score"), r.out);
  BOOST_TEST(!fs::exists(scratch.cache_file()));
}

BOOST_AUTO_TEST_SUITE_END()
