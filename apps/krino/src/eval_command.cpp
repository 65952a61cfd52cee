// `krino eval`: a unix filter. Reads test cases as JSON lines, writes one JSON line per non-blank
// input line, in input order: the eval result, or {"line": n, "error": {...}} for that line.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/status_code.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/experiment/experiment_judges.hpp"
#include "krino/core/runner/component_factory.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>
#include <tbb/global_control.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace krino::cli {
namespace json = boost::json;

namespace {

// Accepts a krino.testcase/1 object and fills in missing sections, so every evaluator sees the
// same canonical shape as in `krino run`.
std::variant<std::string, std::string> canonical_testcase(const std::string& line) {
  json::error_code ec;
  json::value value = json::parse(line, ec);
  if (ec) return std::variant<std::string, std::string>(std::in_place_index<1>, "not valid JSON: " + ec.message());
  if (!value.is_object())
    return std::variant<std::string, std::string>(std::in_place_index<1>, "a test case must be a JSON object");
  auto& o = value.get_object();
  json::object testcase;
  for (const char* key : {"inputs", "actualOutputs", "expectedOutputs", "metadata"}) {
    auto it = o.find(key);
    if (it == o.end() || it->value().is_null()) {
      testcase[key] = json::object();
    } else if (!it->value().is_object()) {
      return std::variant<std::string, std::string>(std::in_place_index<1>, std::string("\"") + key + "\" must be an object");
    } else {
      testcase[key] = std::move(it->value());
    }
  }
  return std::variant<std::string, std::string>(std::in_place_index<0>, ::krino::json::to_compact_json(testcase));
}

std::string error_line(uint64_t line, const std::string& code, const std::string& message) {
  json::object o{{"line", line}, {"error", json::object{{"code", code}, {"message", message}}}};
  return ::krino::json::to_compact_json(o);
}

}  // namespace

int eval_command(const EvalArguments& args) {
  json::error_code ec;
  json::value config = json::parse(args.config, ec);
  if (ec || !config.is_object()) throw core::usage_error("--config must be a JSON object, e.g. '{\"ignore_case\":true}'");

  std::unique_ptr<tbb::global_control> threads;
  if (args.parallelism > 0)
    threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, args.parallelism);

  core::Cancellation cancellation;
  SignalWatcher watcher(cancellation);
  core::HostServices host(cancellation, stderr, args.plugins.verbosity > 0 ? KRINO_LOG_INFO : KRINO_LOG_WARNING);
  // Before the registry: it must outlive every plugin call.
  std::unique_ptr<core::JudgeService> judges;
  if (!args.judges.empty())
    judges = core::make_judge_service(core::load_judge_settings(args.judges),
                                      core::JudgeSetupOptions{args.no_cache, core::process_environment()});
  host.set_judge_service(judges.get());
  core::PluginRegistry registry;
  args.plugins.load(registry, host);

  std::ifstream file;
  std::istream* in = &std::cin;
  if (args.input != "-") {
    file.open(args.input, std::ios::binary);
    if (!file) throw core::usage_error("cannot read " + args.input);
    in = &file;
  }
  std::ios::sync_with_stdio(false);

  bool all_passed = true;
  {
    core::ComponentUse use{args.evaluator, config.get_object()};
    const size_t workers = static_cast<size_t>(tbb::this_task_arena::max_concurrency());
    auto evaluator = core::make_evaluator(registry, use, host.host(), workers);
    uint64_t line_number = 0;
    std::string out_buffer;

    struct Line {
      uint64_t number;
      std::string text;
      std::string output;
      bool passed = false;
    };
    using LinePtr = std::shared_ptr<Line>;
    // Lines waiting for a judge hold no thread: admit enough to keep the judges' concurrency busy.
    const size_t window = evaluator->component().has(KRINO_CAP_NEEDS_JUDGE)
                              ? std::max(4 * workers, host.judge_capacity())
                              : 4 * workers;
    tbb::parallel_pipeline(
        window,
        tbb::make_filter<void, LinePtr>(tbb::filter_mode::serial_in_order,
                                        [&](tbb::flow_control& fc) -> LinePtr {
                                          auto line = std::make_shared<Line>();
                                          while (!cancellation.requested() && std::getline(*in, line->text)) {
                                            line->number = ++line_number;
                                            if (line->text.find_first_not_of(" \t\r") != std::string::npos) return line;
                                          }
                                          fc.stop();
                                          return nullptr;
                                        }) &
            tbb::make_filter<LinePtr, LinePtr>(tbb::filter_mode::parallel,
                                               [&](LinePtr line) {
                                                 auto testcase = canonical_testcase(line->text);
                                                 if (testcase.index() == 1) {
                                                   line->output = error_line(line->number, "INVALID_ARGUMENT", std::get<1>(testcase));
                                                   return line;
                                                 }
                                                 krino_call_context ctx{};
                                                 ctx.struct_size = sizeof(ctx);
                                                 ctx.item_index = line->number - 1;
                                                 ctx.document_serial = host.next_document_serial();
                                                 auto result = evaluator->evaluate(ctx, std::get<0>(testcase));
                                                 if (auto* error = std::get_if<core::ItemError>(&result)) {
                                                   line->output = error_line(line->number, std::string(core::status_code_name(error->code)),
                                                                             error->message);
                                                 } else {
                                                   auto& r = std::get<core::CheckedResult>(result);
                                                   line->passed = r.record.success;
                                                   line->output = std::move(r.json);
                                                 }
                                                 line->text.clear();
                                                 return line;
                                               }) &
            tbb::make_filter<LinePtr, void>(tbb::filter_mode::serial_in_order, [&](LinePtr line) {
              all_passed = all_passed && line->passed;
              out_buffer += line->output;
              out_buffer += '\n';
              if (out_buffer.size() >= (1u << 16)) {
                std::fwrite(out_buffer.data(), 1, out_buffer.size(), stdout);
                out_buffer.clear();
              }
            }));
    std::fwrite(out_buffer.data(), 1, out_buffer.size(), stdout);
    std::fflush(stdout);
  }
  if (cancellation.requested()) return kInterrupted;
  return all_passed ? kSuccess : kEvaluationFailed;
}

}  // namespace krino::cli
