#pragma once
// The host as a library: krino's plugins loaded into a test binary, evaluators made from their
// options, and test cases scored in-process, as `krino eval` scores them.
//
//   krino::testing::Evaluators ev = krino::testing::load_evaluators();
//   krino::testing::Evaluator exact = ev.make("exact_match", R"({"ignore_case":true})");
//   krino::testing::EvalOutcome r = exact.score(test_case_json);
//
// Plugins are found as `krino` finds them: LoadOptions::plugin_dirs first, then KRINO_PLUGIN_PATH,
// then the plugins installed beside this library (<prefix>/lib/krino/plugins, in the build tree too).
//
// Threads: an Evaluators and every Evaluator made from it may be used from any thread; a component
// that is not thread-safe is called by one thread at a time. Lifetime: each Evaluator keeps the
// plugins it needs loaded, so it may outlive the Evaluators it came from.
#include "krino/testing/error.hpp"
#include "krino/testing/eval_outcome.hpp"
#include "krino/testing/example.hpp"
#include "krino/testing/export.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace krino::testing {

namespace detail {
struct HostContext;
struct EvaluatorState;
}  // namespace detail

struct LoadOptions {
  std::vector<std::string> plugin_dirs;  // looked in first, in order (krino's --plugin-dir)
  std::vector<std::string> plugins;      // load only these, by name, e.g. "text" (krino's --plugins); empty: all
  bool use_plugin_path_env = true;       // whether KRINO_PLUGIN_PATH is searched
  // A file declaring LLM judges (`krino eval --judges`), for judge evaluators; empty: none.
  std::string judges_file;
  bool no_cache = false;                 // judges: neither read nor write the reply cache
};

class KRINO_TESTING_API Evaluator {
 public:
  // The name results report under: the "name" option, else the component's short name.
  const std::string& name() const;
  // Scores a krino.testcase/1 document ({"inputs", "actualOutputs", "expectedOutputs", "metadata"},
  // each an object or absent). Never throws for a bad test case or a failing plugin: the outcome
  // then has an error and does not pass.
  EvalOutcome score(std::string_view test_case_json) const;

 private:
  friend class Evaluators;
  explicit Evaluator(std::shared_ptr<const detail::EvaluatorState> state);
  std::shared_ptr<const detail::EvaluatorState> state_;
};

class KRINO_TESTING_API Evaluators {
 public:
  // An evaluator by component id or short name ("exact_match", "krino.text.exact_match"), with its
  // options as a JSON object (checked against the component's schema, as an experiment file's are).
  // Throws Error naming the problem: an unknown evaluator (listing those loaded), invalid options.
  Evaluator make(std::string_view evaluator, std::string_view options_json = "{}") const;

  // Every example of a dataset (a file: JSON, JSON Lines, CSV, ...), read by the dataset resolver
  // plugin that handles its URI, as `krino run` reads it. Throws Error naming the file and record.
  std::vector<Example> dataset(const std::string& uri, std::string_view resolver_options_json = "{}") const;

  // Why plugins that were found could not be loaded ("path: message"), one a line; empty when none.
  std::string problems() const;

 private:
  friend KRINO_TESTING_API Evaluators load_evaluators(const LoadOptions& options);
  friend class TestRun;
  explicit Evaluators(std::shared_ptr<detail::HostContext> host);
  std::shared_ptr<detail::HostContext> host_;
};

// Loads the plugins. Throws Error when a plugin named in `plugins` is not found or the judges file
// cannot be used; a plugin that fails to load is skipped and listed in problems().
KRINO_TESTING_API Evaluators load_evaluators(const LoadOptions& options = {});

// Every example of a dataset, with plugins loaded for the purpose and unloaded again (the examples
// are plain data). For test generators that run before any test: a dataset that cannot be read
// yields one example that carries the error, so the test made from it fails with the message
// instead of the binary dying while tests are registered.
KRINO_TESTING_API std::vector<Example> read_dataset(const std::string& uri, const LoadOptions& options = {});

}  // namespace krino::testing
