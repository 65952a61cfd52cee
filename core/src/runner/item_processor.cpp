#include "krino/core/runner/item_processor.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <chrono>
#include <cmath>
#include <optional>

namespace krino::core {
namespace json = boost::json;

uint64_t item_seed(uint64_t experiment_seed, uint32_t run_index, uint64_t item_index) {
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix(mix(experiment_seed) ^ run_index) ^ item_index);
}

ItemProcessor::ItemProcessor(const HostServices& host, const DatasetStream& dataset, const Task& task,
                             const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators, uint64_t seed)
    : host_(host),
      dataset_(dataset), task_(task), evaluators_(evaluators), seed_(seed) {}

namespace {

const json::value& section(const json::object& example, std::string_view key) {
  static const json::value empty_object = json::object();
  auto it = example.find(key);
  return it != example.end() && it->value().is_object() ? it->value() : empty_object;
}

}  // namespace

FinishedItem ItemProcessor::process(uint32_t run_index, uint64_t index, const DatasetRecord& record) const {
  const auto started = std::chrono::steady_clock::now();
  json::monotonic_resource arena;
  json::storage_ptr storage(&arena);

  json::object example(storage);
  std::optional<ItemError> error;
  std::optional<TaskOutput> output;
  json::array results(storage);

  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.run_index = run_index;
  ctx.item_index = index;
  ctx.seed = item_seed(seed_, run_index, index);

  // 1. The example.
  if (record.kind == DatasetRecord::Kind::bad) {
    error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, record.error};
  } else {
    std::string example_text;
    std::string decode_error;
    if (!dataset_.decode(record.bytes, example_text, decode_error)) {
      error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, decode_error};
    } else {
      json::error_code ec;
      json::value parsed = json::parse(example_text, ec, storage);
      if (ec || !parsed.is_object()) {
        error = ItemError{"dataset", "", KRINO_INTERNAL, "the resolver produced an example that is not a JSON object"};
      } else {
        example = std::move(parsed.get_object());
      }
    }
  }

  // 2. The task, then 3. every evaluator in order; the first error ends the item.
  if (!error) {
    try {
      auto ran = task_.run(example, ctx);
      if (auto* e = std::get_if<ItemError>(&ran)) error = std::move(*e);
      else output = std::move(std::get<TaskOutput>(ran));
    } catch (const std::exception& e) {
      error = ItemError{"task", task_.kind(), KRINO_INTERNAL, e.what()};
    }
  }
  if (!error) {
    json::object testcase(storage);
    testcase["inputs"] = section(example, "inputs");
    testcase["actualOutputs"] = output->actual_outputs;
    testcase["expectedOutputs"] = section(example, "expectedOutputs");
    testcase["metadata"] = section(example, "metadata");
    const std::string testcase_text = ::krino::json::to_compact_json(testcase);
    ctx.document_serial = host_.next_document_serial();
    for (const auto& evaluator : evaluators_) {
      auto evaluated = evaluator->evaluate(ctx, testcase_text);
      if (auto* e = std::get_if<ItemError>(&evaluated)) {
        error = std::move(*e);
        results.clear();  // one broken evaluator discards the item's other results (spec §17.1)
        break;
      }
      results.emplace_back(std::move(std::get<json::object>(evaluated)));
    }
  }

  bool success = !error;
  for (const auto& r : results) success = success && r.get_object().at("success").get_bool();

  // 4. The event.
  json::object event(storage);
  event["event"] = "item_finished";
  event["schema"] = "krino.event/1";
  event["run_index"] = run_index;
  event["index"] = index;
  if (auto id = example.find("id"); id != example.end() && id->value().is_string()) event["id"] = id->value();
  else event["id"] = nullptr;
  if (record.location.empty()) event["location"] = nullptr;
  else event["location"] = record.location;
  event["success"] = success;
  if (error) event["error"] = error->to_json();
  else event["error"] = nullptr;
  event["inputs"] = section(example, "inputs");
  event["expectedOutputs"] = section(example, "expectedOutputs");
  if (output) event["actualOutputs"] = output->actual_outputs;
  else event["actualOutputs"] = nullptr;
  event["metadata"] = section(example, "metadata");
  event["results"] = results;
  if (output && output->metrics) event["metrics"] = output->metrics->to_json();
  else event["metrics"] = nullptr;
  const double duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  event["durationMs"] = std::round(duration_ms * 1000.0) / 1000.0;

  FinishedItem item;
  item.event = ::krino::json::to_compact_json(event);
  item.success = success;
  item.error = error.has_value();
  item.results = json::array(results, json::storage_ptr());  // copy out of the arena
  return item;
}

}  // namespace krino::core
