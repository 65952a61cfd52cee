#pragma once
// What the store keeps for reviewing run items: annotations, one per (item, principal), so several
// reviewers can judge one item; and the review queue they work from. An item is in the queue while
// it has no annotation, or while its most recent annotation (of any reviewer) is UNSURE.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::store {

enum class Verdict { correct, incorrect, unsure };
std::string_view verdict_name(Verdict verdict);  // "CORRECT", "INCORRECT", "UNSURE"
std::optional<Verdict> parse_verdict(std::string_view name);

struct NewAnnotation {
  Verdict verdict = Verdict::unsure;
  std::optional<std::string> overridden_expected_output = std::nullopt;  // JSON text, as sent
  std::optional<std::string> note = std::nullopt;
};

struct Annotation {
  std::string run_id;
  std::string item_id;  // the run item's id (itemResultId)
  std::string principal;  // the key id that wrote it; "anonymous" with auth off (or the KRINO_API_KEY key)
  Verdict verdict = Verdict::unsure;
  std::optional<std::string> overridden_expected_output = std::nullopt;
  std::optional<std::string> note = std::nullopt;
  std::string created_at;
  std::string updated_at;
  std::int64_t revision = 0;  // when it was last written, Unix ms: orders reviewers' annotations
};

// Which items the queue shows: all three unset is the global queue.
struct ReviewFilter {
  std::optional<std::string> project_name = std::nullopt;
  std::optional<std::string> experiment_id = std::nullopt;
  std::optional<std::string> run_id = std::nullopt;
  // Keyset paging: only items whose id sorts after this one. A reviewer's verdicts take items out of
  // the queue as they go, so a page number would skip the items that moved up into the next page.
  std::optional<std::string> after_item_id = std::nullopt;
};

// A run item in the queue: where it is, its document (inputs, outputs, eval results) and its
// annotations so far (UNSURE ones; oldest first).
struct ReviewEntry {
  std::string run_id;
  std::string experiment_id;
  std::string project_name;
  std::string item_id;
  std::int64_t seq = 0;
  std::string document;
  std::vector<Annotation> annotations;
};

struct ReviewPage {
  std::vector<ReviewEntry> entries;  // oldest item first
  std::int64_t total = 0;
};

// A run item as promotion reads it.
struct ItemForPromotion {
  std::string run_id;
  std::string item_id;
  std::string document;
  std::optional<std::string> dataset_item_id;
  std::optional<std::string> overridden_expected_output;  // the item's most recent annotation's, if any
};

}  // namespace krino::core::store
