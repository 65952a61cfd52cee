// The console reporter through the C ABI: the trampolines the plugin registers, and the built
// krino-console.so itself.
#include "console_options.hpp"
#include "console_reporter.hpp"
#include "console_test_support.hpp"
#include "reporter_events.hpp"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstring>

using namespace krino::console;
namespace t = krino::console::testing;

namespace {

// A host-side sink, as the host would hand one to a plugin (the SDK helper's own).
using TestSink = krino::detail::StringSink;

// Sends one file descriptor's output to a temporary file for the life of the object.
class Redirect {
 public:
  explicit Redirect(int fd) : fd_(fd), file_(std::tmpfile()) {
    BOOST_REQUIRE(file_ != nullptr);
    std::fflush(nullptr);
    saved_ = dup(fd_);
    dup2(fileno(file_), fd_);
  }
  ~Redirect() { restore(); }
  std::string restore() {
    if (saved_ >= 0) {
      std::fflush(nullptr);
      dup2(saved_, fd_);
      close(saved_);
      saved_ = -1;
      std::rewind(file_);
      char buffer[4096];
      size_t n = 0;
      while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0) text_.append(buffer, n);
      std::fclose(file_);
    }
    return text_;
  }

 private:
  int fd_;
  std::FILE* file_;
  int saved_ = -1;
  std::string text_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(console_plugin)

BOOST_AUTO_TEST_CASE(trampolines_report_a_bad_option_as_invalid_argument) {
  using Trampolines = krino::detail::ReporterTrampolines<ConsoleReporter>;
  const krino_reporter_vtable* vtable = Trampolines::vtable();
  TestSink error;
  void* instance = nullptr;
  const std::string config = R"({"color": "sometimes"})";
  BOOST_TEST(vtable->create(nullptr, config.data(), config.size(), &instance, &error.sink) == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(instance == nullptr);
  BOOST_TEST(error.text == "option 'color' must be \"auto\", \"always\" or \"never\", not \"sometimes\"");
}

BOOST_AUTO_TEST_CASE(trampolines_drive_a_whole_experiment_to_stderr) {
  using Trampolines = krino::detail::ReporterTrampolines<ConsoleReporter>;
  const krino_reporter_vtable* vtable = Trampolines::vtable();
  Redirect captured_stderr(STDERR_FILENO);
  Redirect captured_stdout(STDOUT_FILENO);

  TestSink error;
  void* instance = nullptr;
  const std::string config = R"({"progress": "never", "color": "never", "stream": "stderr"})";
  BOOST_REQUIRE(vtable->create(nullptr, config.data(), config.size(), &instance, &error.sink) == KRINO_OK);
  for (const auto& event : t::single_run_events())
    BOOST_REQUIRE(vtable->on_event(instance, event.data(), event.size(), &error.sink) == KRINO_OK);
  const std::string broken = "{not json";
  BOOST_TEST(vtable->on_event(instance, broken.data(), broken.size(), &error.sink) == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(vtable->flush(instance, &error.sink) == KRINO_OK);
  vtable->destroy(instance);

  const std::string out = captured_stdout.restore();
  const std::string err = captured_stderr.restore();
  BOOST_TEST(out.empty());
  BOOST_TEST(err.rfind("ERROR #1 data.jsonl:2 dataset: line 2 is not valid JSON: expected a value\n", 0) == 0);
  BOOST_TEST(err.find("run 1/1 completed in 1.52 s") < err.find("Experiment \"qa-smoke\" completed in 1.60 s"));
  BOOST_TEST(err.find("  ERROR #1 data.jsonl:2 dataset") != std::string::npos);
  BOOST_TEST(error.text == "event is not a JSON object");
}

BOOST_AUTO_TEST_CASE(the_built_module_describes_one_reporter) {
  krino::testing::reports::ReporterModule module("krino-console.so");
  const krino_plugin_descriptor& descriptor = module.descriptor();
  BOOST_TEST(std::string(descriptor.id) == "krino.console");
  BOOST_TEST(std::string(descriptor.version) == "1.0.0");
  BOOST_REQUIRE(descriptor.component_count == 1u);
  const krino_component& component = module.component();
  BOOST_TEST(component.kind == KRINO_KIND_REPORTER);
  BOOST_TEST(std::string(component.id) == "krino.console");
  BOOST_TEST(std::string(component.name) == "console");
  BOOST_TEST(std::string(component.version) == "1.0.0");
  BOOST_TEST(std::string(component.config_schema) == kConsoleOptionsSchema);

  // An instance from the module itself, fed nothing, creates and goes quietly.
  BOOST_TEST(module.run(R"({"progress": "never"})", {}).empty());
}

BOOST_AUTO_TEST_SUITE_END()
