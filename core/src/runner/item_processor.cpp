#include "krino/core/runner/item_processor.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/json_scan.hpp"
#include "krino/core/host/call_handle.hpp"
#include "krino/core/host/host_document.hpp"
#include "krino/core/usage/judge_usage.hpp"

#include <boost/json.hpp>
#include <krino/json_parse.hpp>
#include <krino/event/item_finished.hpp>
#include <krino/json_spans.hpp>

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

namespace krino::core {
namespace json = boost::json;

namespace {

// Why a test case given directly cannot be scored, in the words `krino eval` has always used; none
// when it can, and `view` then reads it. A test case is a JSON object (within Boost.JSON's default
// nesting limit, which its parser has always applied) whose four sections are objects, null or absent.
std::optional<std::string> test_case_problem(std::string_view text, ExampleView& view) {
  auto read = ExampleView::from_text(text, json::parse_options().max_depth);
  if (!read) {
    boost::system::error_code ec;
    const json::value parsed = krino::json::parse(text, ec);
    if (ec) return "not valid JSON: " + ec.message();
    return std::string("a test case must be a JSON object");
  }
  view = std::move(*read);
  for (const char* key : {"inputs", "actualOutputs", "expectedOutputs", "metadata"}) {
    const auto value = view.raw(key);
    if (value && *value != "null" && !is_object_span(*value))
      return std::string("\"") + key + "\" must be an object";
  }
  return std::nullopt;
}

// Whether a section of the report's line and the dataset's are the same JSON: the same bytes, as a
// rule, or the same value (a line break inside a value becomes a space in a JSON Lines file).
bool same_section(std::string_view reported, std::string_view read) {
  auto absent = [](std::string_view s) { return s.empty() || s == "null"; };
  if (reported == read || (absent(reported) && absent(read))) return true;
  boost::system::error_code reported_error, read_error;
  const json::value a = krino::json::parse(reported, reported_error);
  const json::value b = krino::json::parse(read, read_error);
  return !reported_error && !read_error && a == b;
}

}  // namespace

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
    : host_(host), dataset_(&dataset), task_(&task), evaluators_(evaluators), seed_(seed), shard_(shard) {}

ItemProcessor::ItemProcessor(const HostServices& host, const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators,
                             uint64_t seed)
    : host_(host), evaluators_(evaluators), seed_(seed) {}

std::optional<ItemError> ItemProcessor::read_example(const DatasetRecord& record, FinishedItem& item,
                                                    ExampleView& example) const {
  std::optional<ItemError> error;
  std::string& example_text = item.example_text_;
  std::optional<ExampleView> view_of_record;
  if (task_ == nullptr) {
    example_text = record.bytes;
    if (auto problem = test_case_problem(example_text, example))
      error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, std::move(*problem)};
  } else if (record.kind == DatasetRecord::Kind::bad) {
    error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT, record.error};
  } else if (dataset_->passes_examples() && (view_of_record = ExampleView::from_text(record.bytes)) &&
             view_of_record->is_canonical()) {
    // Already an example: validated and scanned once, here, and used as it is.
    example_text = record.bytes;
    example = view_of_record->rebased(record.bytes, example_text);
  } else {
    auto decoded = dataset_->decode(record.bytes);
    if (!decoded.ok()) {
      error = ItemError{"dataset", "", decoded.error().code, decoded.error().message};
    } else {
      example_text = std::move(decoded).value();
      if (auto view = ExampleView::from_text(example_text)) {
        example = std::move(*view);
      } else {
        // Resolvers may pass records through without parsing them; this validation is the one
        // that counts, so it says what is wrong with the record.
        boost::system::error_code ec;
        const json::value parsed = krino::json::parse(example_text, ec);
        error = ItemError{"dataset", "", KRINO_INVALID_ARGUMENT,
                          ec ? "the record is not valid JSON: " + ec.message() : "the record is not a JSON object"};
      }
    }
  }
  return error;
}

bool ItemProcessor::owns(const ExampleView& example, bool unreadable, uint64_t index) const {
  if (!shard_) return true;
  // An unreadable record has no id, so it goes by its index.
  std::optional<std::string> id;
  if (!unreadable) {
    if (auto token = example.id_token()) id = krino::json::key_text(*token);
  }
  return shard_->owns(id ? std::optional<std::string_view>(*id) : std::nullopt, index);
}

void ItemProcessor::replay(uint64_t index, const DatasetRecord& record, std::string reported_line,
                           FinishedItem& item) const {
  ExampleView example = ExampleView::empty();
  const std::optional<ItemError> error = read_example(record, item, example);
  if (!owns(example, error.has_value(), index)) {
    item.skipped = true;
    return;
  }
  item.line = std::move(reported_line);
  try {
    item.event = krino::event::read_item_finished(item.line);
  } catch (const krino::event::DecodeError& e) {
    throw runtime_error("the report being resumed has a malformed line for item " + std::to_string(index) + ": " +
                        e.what());
  }
  if (error) return;  // an unreadable record: the report says what it said then
  const krino::event::ItemFinished& reported = item.event;
  const char* differs = nullptr;
  if (!same_section(reported.inputs, example.section("inputs"))) differs = "inputs";
  else if (!same_section(reported.expected_outputs, example.section("expectedOutputs"))) differs = "expectedOutputs";
  else if (!same_section(reported.metadata, example.section("metadata"))) differs = "metadata";
  else if (!same_section(reported.id, example.id_token().value_or(std::string_view()))) differs = "id";
  if (differs != nullptr)
    throw config_error("the dataset changed since the run being resumed: item " + std::to_string(index) +
                       (record.location.empty() ? std::string() : " (" + record.location + ")") + " has another '" +
                       differs + "' than the report says; resume only over the dataset that run read");
}

// One item on its way through process(): what its steps share. Never moved (the context's host
// handle points at its attribution and parse).
struct ItemProcessor::ItemInProgress {
  ItemInProgress() = default;
  ItemInProgress(const ItemInProgress&) = delete;
  ItemInProgress& operator=(const ItemInProgress&) = delete;

  const ItemToProcess* place = nullptr;
  bool skipped = false;  // another shard's: no evaluator, no event
  std::chrono::steady_clock::time_point started;
  std::optional<ItemError> error;
  std::optional<TaskOutput> output;
  krino_call_context ctx{};
  // Judge calls made for this item are counted here (HostServices::judge_entry).
  CallAttribution attribution;
  CallHandle handle{&attribution, nullptr};
  ExampleView example = ExampleView::empty();
  std::string_view inputs, expected, metadata, actual;
  std::string testcase;  // what every evaluator gets
  std::optional<HostTestCase> parsed;
};

void ItemProcessor::process(uint32_t run_index, uint64_t index, const DatasetRecord& record, FinishedItem& item) const {
  ItemInProgress one;
  const ItemToProcess place{index, &record, &item};
  one.place = &place;
  score(run_index, std::span<ItemInProgress>(&one, 1));
}

void ItemProcessor::process(uint32_t run_index, std::span<const ItemToProcess> group) const {
  if (group.size() == 1) return process(run_index, group[0].index, *group[0].record, *group[0].item);
  const auto items = std::make_unique<ItemInProgress[]>(group.size());
  for (std::size_t k = 0; k < group.size(); ++k) items[k].place = &group[k];
  score(run_index, std::span<ItemInProgress>(items.get(), group.size()));
}

void ItemProcessor::score(uint32_t run_index, std::span<ItemInProgress> items) const {
  for (ItemInProgress& item : items) item.skipped = !begin(run_index, item);
  auto live = [](const ItemInProgress& item) { return !item.skipped && !item.error; };
  // 3. Every evaluator in order; the first error ends the item. An evaluator that batches gets the
  // group's live items at once: the same calls, in one exchange with its workers.
  std::vector<ItemInProgress*> batch;
  std::vector<EvaluatorCall> calls;
  // Each evaluator's share of an item's judge calls starts empty (what the task spent, or the
  // evaluator before, is not its share).
  for (const auto& evaluator : evaluators_) {
    if (!evaluator->batches() || items.size() == 1) {
      for (ItemInProgress& item : items) {
        if (!live(item)) continue;
        item.attribution.take_share();
        record(*evaluator, item, evaluator->evaluate(item.ctx, item.testcase));
      }
      continue;
    }
    batch.clear();
    calls.clear();
    for (ItemInProgress& item : items) {
      if (!live(item)) continue;
      batch.push_back(&item);
      calls.push_back({&item.ctx, item.testcase});
      item.attribution.take_share();
    }
    if (batch.empty()) break;
    std::vector<StatusOr<CheckedResult, ItemError>> evaluated = evaluator->evaluate_batch(calls);
    for (std::size_t k = 0; k < batch.size(); ++k) record(*evaluator, *batch[k], std::move(evaluated[k]));
  }
  for (ItemInProgress& item : items)
    if (!item.skipped) finish(run_index, item);
}

void ItemProcessor::record(const EvaluatorHandle& evaluator, ItemInProgress& item,
                           StatusOr<CheckedResult, ItemError> evaluated) const {
  FinishedItem& finished = *item.place->item;
  const JudgeUsage spent = item.attribution.take_share();
  if (!spent.empty()) finished.event.judge_by_evaluator.emplace_back(evaluator.name(), spent);
  if (auto* e = std::get_if<ItemError>(&evaluated)) {
    item.error = std::move(*e);
    finished.results_.clear();  // one broken evaluator discards the item's other results
    return;
  }
  finished.results_.push_back(std::move(std::get<CheckedResult>(evaluated)));
}

bool ItemProcessor::begin(uint32_t run_index, ItemInProgress& state) const {
  state.started = std::chrono::steady_clock::now();
  const uint64_t index = state.place->index;
  const DatasetRecord& record = *state.place->record;
  FinishedItem& item = *state.place->item;
  item.results_.reserve(evaluators_.size());

  krino_call_context& ctx = state.ctx;
  ctx.struct_size = sizeof(ctx);
  ctx.run_index = run_index;
  ctx.item_index = index;
  ctx.seed = item_seed(seed_, run_index, index);
  ctx.host_handle = &state.handle;

  // 1. The example: validated once, then read through spans (no document is built). A test case
  // given directly is read the same way, its actual outputs among its sections.
  std::optional<ItemError>& error = state.error;
  error = read_example(record, item, state.example);
  // A sharded run decides here, once the id is known, and leaves other shards' items alone.
  if (!owns(state.example, error.has_value(), index)) {
    item.skipped = true;
    return false;
  }
  state.inputs = state.example.section("inputs");
  state.expected = state.example.section("expectedOutputs");
  state.metadata = state.example.section("metadata");

  // 2. The task (a test case given directly has its actual outputs already).
  if (!error && task_ == nullptr) {
    state.actual = state.example.section("actualOutputs");
  } else if (!error) {
    try {
      auto ran = task_->run(state.example, ctx);
      if (auto* e = std::get_if<ItemError>(&ran)) error = std::move(*e);
      else state.output = std::move(std::get<TaskOutput>(ran));
    } catch (const std::exception& e) {
      error = ItemError{"task", task_->kind(), KRINO_INTERNAL, e.what()};
    }
    if (state.output) state.actual = state.output->actual_outputs;
  }
  if (error) return true;
  // Assembled once from the example's own bytes; every evaluator gets these bytes.
  std::string& testcase = state.testcase;
  testcase.reserve(state.inputs.size() + state.actual.size() + state.expected.size() + state.metadata.size() + 80);
  // Each section's place is recorded as it is appended, so plugins need not look for it.
  auto append_section = [&](const char* key, std::string_view value, krino_span& span) {
    testcase += key;
    span.offset = testcase.size();
    span.size = value.size();
    testcase += value;
  };
  append_section("{\"inputs\":", state.inputs, ctx.testcase_sections[0]);
  append_section(",\"actualOutputs\":", state.actual, ctx.testcase_sections[1]);
  append_section(",\"expectedOutputs\":", state.expected, ctx.testcase_sections[2]);
  append_section(",\"metadata\":", state.metadata, ctx.testcase_sections[3]);
  testcase += '}';
  ctx.document_serial = host_.next_document_serial();
  // Parsed by section on first use, once for every evaluator of the item (krino.host.document/1).
  if (host_.lends_documents()) state.handle.testcase = &state.parsed.emplace(testcase, ctx.testcase_sections);
  return true;
}

void ItemProcessor::finish(uint32_t run_index, ItemInProgress& state) const {
  // 4. The event: its model, then its line.
  FinishedItem& item = *state.place->item;
  const DatasetRecord& record = *state.place->record;
  krino::event::ItemFinished& event = item.event;
  std::vector<CheckedResult>& results = item.results_;
  const std::optional<ItemError>& error = state.error;
  event.run_index = run_index;
  event.index = state.place->index;
  if (auto id = state.example.id_token()) event.id = *id;
  if (auto own_id = state.example.raw("datasetItemId"); own_id && !own_id->empty() && own_id->front() == '"')
    event.dataset_item_id = *own_id;
  if (!record.location.empty()) event.location = record.location;
  event.success = !error;
  if (error) event.error = error->to_event();
  event.results.reserve(results.size());
  for (auto& r : results) {
    r.record.json = r.json;
    event.success = event.success && r.record.success;
    event.results.push_back(std::move(r.record));
  }
  if (state.output) {
    item.actual_outputs_ = std::move(state.output->actual_outputs);
    event.actual_outputs = item.actual_outputs_;
    if (state.output->metrics) event.metrics = *state.output->metrics;
  } else if (task_ == nullptr && !error) {
    event.actual_outputs = state.actual;  // in the test case's own bytes
  }
  if (const JudgeUsage spent = state.attribution.usage(); !spent.empty()) event.judge = spent;
  const double duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - state.started).count();
  event.duration_ms = std::round(duration_ms * 1000.0) / 1000.0;
  event.inputs = state.inputs;
  event.expected_outputs = state.expected;
  event.metadata = state.metadata;

  if (!writes_line_) return;
  item.line.reserve(item.example_text_.size() + item.actual_outputs_.size() + 512 * (results.size() + 1));
  krino::event::append_item_finished(item.line, event);
}

}  // namespace krino::core
