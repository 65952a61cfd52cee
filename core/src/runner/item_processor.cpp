#include "krino/core/runner/item_processor.hpp"

#include "krino/core/usage/judge_usage.hpp"

#include <boost/json.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <chrono>
#include <charconv>
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
                             const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators, uint64_t seed,
                             std::optional<ShardSpec> shard)
    : host_(host), dataset_(dataset), task_(task), evaluators_(evaluators), seed_(seed), shard_(shard) {}

namespace {

void append_key(std::string& out, std::string_view key) {
  out += ',';
  krino::json::append_json_string(out, key);
  out += ':';
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  char buffer[24];
  auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
  out.append(buffer, static_cast<size_t>(end - buffer));
}

}  // namespace

FinishedItem ItemProcessor::process(uint32_t run_index, uint64_t index, const DatasetRecord& record) const {
  const auto started = std::chrono::steady_clock::now();
  std::optional<ItemError> error;
  std::optional<TaskOutput> output;
  std::vector<CheckedResult> results;
  results.reserve(evaluators_.size());
  FinishedItem item;

  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.run_index = run_index;
  ctx.item_index = index;
  ctx.seed = item_seed(seed_, run_index, index);
  // Judge calls made for this item are counted here (HostServices::judge_entry).
  CallAttribution attribution;
  ctx.host_handle = &attribution;
  json::object judge_by_evaluator;

  // 1. The example: validated once, then read through spans (no document is built).
  std::string example_text;
  ExampleView example = ExampleView::empty();
  std::optional<ExampleView> view_of_record;
  if (record.kind == DatasetRecord::Kind::bad) {
    error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, record.error};
  } else if (dataset_.passes_examples() && (view_of_record = ExampleView::from_text(record.bytes)) &&
             view_of_record->is_canonical()) {
    // Already an example: validated and scanned once, here, and used as it is.
    example_text = record.bytes;
    example = view_of_record->rebased(record.bytes, example_text);
  } else {
    std::string decode_error;
    if (!dataset_.decode(record.bytes, example_text, decode_error)) {
      error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, decode_error};
    } else if (auto view = ExampleView::from_text(example_text)) {
      example = std::move(*view);
    } else {
      // Resolvers may pass records through without parsing them; this validation is the one
      // that counts, so it says what is wrong with the record.
      boost::system::error_code ec;
      const json::value parsed = json::parse(example_text, ec);
      error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT,
                        ec ? "the record is not valid JSON: " + ec.message() : "the record is not a JSON object"};
    }
  }
  // A sharded run decides here, once the id is known, and leaves other shards' items alone. An
  // unreadable record has no id, so it goes by its index.
  if (shard_) {
    std::optional<std::string> id;
    if (!error) {
      if (auto token = example.id_token()) id = krino::json::key_text(*token);
    }
    if (!shard_->owns(id ? std::optional<std::string_view>(*id) : std::nullopt, index)) {
      item.skipped = true;
      return item;
    }
  }
  const std::string_view inputs = example.section("inputs");
  const std::string_view expected = example.section("expectedOutputs");
  const std::string_view metadata = example.section("metadata");

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
    // Assembled once from the example's own bytes; every evaluator gets these bytes.
    std::string testcase;
    testcase.reserve(inputs.size() + output->actual_outputs.size() + expected.size() + metadata.size() + 80);
    // Each section's place is recorded as it is appended, so plugins need not look for it.
    auto append_section = [&](const char* key, std::string_view value, krino_span& span) {
      testcase += key;
      span.offset = testcase.size();
      span.size = value.size();
      testcase += value;
    };
    append_section("{\"inputs\":", inputs, ctx.testcase_sections[0]);
    append_section(",\"actualOutputs\":", output->actual_outputs, ctx.testcase_sections[1]);
    append_section(",\"expectedOutputs\":", expected, ctx.testcase_sections[2]);
    append_section(",\"metadata\":", metadata, ctx.testcase_sections[3]);
    testcase += '}';
    ctx.document_serial = host_.next_document_serial();
    for (const auto& evaluator : evaluators_) {
      const JudgeUsage before = attribution.usage();
      auto evaluated = evaluator->evaluate(ctx, testcase);
      const JudgeUsage spent = attribution.usage().minus(before);
      if (!spent.empty()) {
        item.judge_by_evaluator.emplace_back(evaluator->name(), spent);
        judge_by_evaluator[evaluator->name()] = spent.to_item_json();
      }
      if (auto* e = std::get_if<ItemError>(&evaluated)) {
        error = std::move(*e);
        results.clear();  // one broken evaluator discards the item's other results (spec §17.1)
        break;
      }
      results.push_back(std::move(std::get<CheckedResult>(evaluated)));
    }
  }

  item.error = error.has_value();
  item.success = !error;
  item.scores.reserve(results.size());
  for (auto& r : results) {
    item.success = item.success && r.record.success;
    item.scores.push_back(std::move(r.record));
  }

  // 4. The event, written field by field (docs/payloads.md, item_finished).
  std::string& e = item.event;
  e.reserve(example_text.size() + (output ? output->actual_outputs.size() : 0) + 512 * (results.size() + 1));
  e += R"({"event":"item_finished","schema":"krino.event/1","run_index":)";
  append_integer(e, run_index);
  append_key(e, "index");
  append_integer(e, index);
  append_key(e, "id");
  if (auto id = example.id_token()) e += *id;
  else e += "null";
  append_key(e, "location");
  if (record.location.empty()) e += "null";
  else krino::json::append_json_string(e, record.location);
  append_key(e, "success");
  e += item.success ? "true" : "false";
  append_key(e, "error");
  if (error) krino::json::append_compact_json(e, error->to_json());
  else e += "null";
  // What a reporter reads first (verdict, results, timing) comes before the example's own
  // sections, which are most of the bytes, so a reader can stop early.
  append_key(e, "results");
  e += '[';
  for (size_t i = 0; i < results.size(); ++i) {
    if (i > 0) e += ',';
    e += results[i].json;
  }
  e += ']';
  append_key(e, "metrics");
  if (output && output->metrics) krino::json::append_compact_json(e, output->metrics->to_json());
  else e += "null";
  item.judge = attribution.usage();
  if (!item.judge.empty()) {
    // Present only when the item asked a judge: what it cost, in all and per evaluator.
    json::object judge = item.judge.to_item_json();
    judge["byEvaluator"] = std::move(judge_by_evaluator);
    append_key(e, "judge");
    krino::json::append_compact_json(e, judge);
  }
  append_key(e, "durationMs");
  const double duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  krino::json::append_double(e, std::round(duration_ms * 1000.0) / 1000.0);
  append_key(e, "inputs");
  e += inputs;
  append_key(e, "expectedOutputs");
  e += expected;
  append_key(e, "actualOutputs");
  if (output) e += output->actual_outputs;
  else e += "null";
  append_key(e, "metadata");
  e += metadata;
  e += '}';
  return item;
}

}  // namespace krino::core
