#include "structural_matcher.h"

#include "json_path.h"
#include "reason_text.h"

#include <krino/json_equality.hpp>

#include <algorithm>
#include <utility>

namespace krino::text {

namespace {

// Values inside a difference are cut shorter than elsewhere: a reason lists several of them.
constexpr std::size_t kShownValueLimit = 60;

class StructuralWalk {
 public:
  // `describe` is off for the trial comparisons of lenient array matching, which only need to
  // know whether anything differs.
  StructuralWalk(StructuralMode mode, bool describe) : mode_(mode), describe_(describe) {}

  // `expected` / `actual` are nullptr for a missing field or array slot.
  void compare(const boost::json::value* expected, const boost::json::value* actual) {
    if (expected != nullptr && actual != nullptr) {
      if (expected->is_object() && actual->is_object()) return compare_objects(expected->get_object(), actual->get_object());
      if (expected->is_array() && actual->is_array()) return compare_arrays(expected->get_array(), actual->get_array());
    }
    compare_leaf(expected, actual);
  }

  StructuralComparison result() && { return std::move(result_); }

 private:
  void compare_leaf(const boost::json::value* expected, const boost::json::value* actual) {
    ++result_.total_leaves;
    if (leaf_matches(expected, actual)) {
      ++result_.matched_leaves;
      return;
    }
    record([&] {
      if (expected == nullptr) return "unexpected (got " + shown(*actual, kShownValueLimit) + ")";
      if (actual == nullptr) return "missing (expected " + shown(*expected, kShownValueLimit) + ")";
      return "expected " + shown(*expected, kShownValueLimit) + ", got " + shown(*actual, kShownValueLimit);
    });
  }

  bool leaf_matches(const boost::json::value* expected, const boost::json::value* actual) const {
    const bool expected_null = expected != nullptr && expected->is_null();
    const bool actual_null = actual != nullptr && actual->is_null();
    const bool expected_absent = expected == nullptr || expected_null;
    const bool actual_absent = actual == nullptr || actual_null;
    if (expected_absent || actual_absent) {
      if (mode_ == StructuralMode::lenient) return expected_absent && actual_absent;
      return (expected_null && actual_null) || (expected == nullptr && actual == nullptr);
    }
    if (json::is_number(*expected) || json::is_number(*actual))
      return json::same_number(*expected, *actual, kStructuralNumberTolerance);
    if (expected->is_string() && actual->is_string()) return expected->get_string() == actual->get_string();
    if (expected->is_bool() && actual->is_bool()) return expected->get_bool() == actual->get_bool();
    // Type mismatch, or an object against an array.
    return false;
  }

  void compare_objects(const boost::json::object& expected, const boost::json::object& actual) {
    bool any_key = false;
    for (const auto& member : expected) {
      any_key = true;
      JsonPath::Scope scope(path_, member.key());
      compare(&member.value(), actual.if_contains(member.key()));
    }
    if (mode_ == StructuralMode::strict) {
      for (const auto& member : actual) {
        if (expected.contains(member.key())) continue;
        any_key = true;
        JsonPath::Scope scope(path_, member.key());
        compare(nullptr, &member.value());
      }
    }
    if (!any_key) empty_container_leaf();
  }

  void compare_arrays(const boost::json::array& expected, const boost::json::array& actual) {
    if (mode_ == StructuralMode::strict) {
      const std::size_t length = std::max(expected.size(), actual.size());
      if (length == 0) return empty_container_leaf();
      for (std::size_t i = 0; i < length; ++i) {
        JsonPath::Scope scope(path_, i);
        compare(i < expected.size() ? &expected[i] : nullptr, i < actual.size() ? &actual[i] : nullptr);
      }
      return;
    }
    if (expected.empty()) return empty_container_leaf();
    std::vector<bool> taken(actual.size(), false);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const std::size_t leaves = count_leaves(expected[i]);
      result_.total_leaves += leaves;
      bool matched = false;
      for (std::size_t j = 0; j < actual.size() && !matched; ++j) {
        if (taken[j] || !matches_completely(expected[i], actual[j])) continue;
        taken[j] = true;
        matched = true;
      }
      if (matched) {
        result_.matched_leaves += leaves;
      } else {
        JsonPath::Scope scope(path_, i);
        record([&] { return "no unused element of the actual array matches " + shown(expected[i], kShownValueLimit); });
      }
    }
  }

  bool matches_completely(const boost::json::value& expected, const boost::json::value& actual) const {
    StructuralWalk trial(mode_, false);
    trial.compare(&expected, &actual);
    return trial.result_.difference_count == 0;
  }

  // Two empty objects (or arrays), or in lenient mode an empty expected one: one matching leaf.
  void empty_container_leaf() {
    ++result_.total_leaves;
    ++result_.matched_leaves;
  }

  // `detail` builds the description only when one will be kept.
  template <class Detail>
  void record(Detail&& detail) {
    ++result_.difference_count;
    if (describe_ && result_.differences.size() < kMaxRecordedDifferences)
      result_.differences.push_back({path_.str(), detail()});
  }

  StructuralMode mode_;
  bool describe_;
  JsonPath path_;
  StructuralComparison result_;
};

}  // namespace

StructuralComparison compare_structures(const boost::json::value& expected, const boost::json::value& actual,
                                        StructuralMode mode) {
  StructuralWalk walk(mode, true);
  walk.compare(&expected, &actual);
  return std::move(walk).result();
}

std::size_t count_leaves(const boost::json::value& value) {
  std::size_t leaves = 0;
  if (value.is_object()) {
    for (const auto& member : value.get_object()) leaves += count_leaves(member.value());
  } else if (value.is_array()) {
    for (const auto& item : value.get_array()) leaves += count_leaves(item);
  }
  return leaves == 0 ? 1 : leaves;
}

}  // namespace krino::text
