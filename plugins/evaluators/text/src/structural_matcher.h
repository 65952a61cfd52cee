// Leaf-by-leaf comparison of two JSON trees: the heart of structural_match.
#ifndef KRINO_TEXT_STRUCTURAL_MATCHER_H
#define KRINO_TEXT_STRUCTURAL_MATCHER_H

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace krino::text {

enum class StructuralMode {
  // Same field set, arrays in the same order; null and a missing field differ. Every leaf of
  // either side counts (extra actual fields lower the score).
  strict,
  // Extra actual fields allowed; arrays compared as multisets (order ignored, multiplicity kept);
  // null equals a missing field. Only the expected side's leaves count.
  lenient,
};

// Numbers compare by value (1 == 1.0 == 1.00), or when they differ by at most this much.
inline constexpr double kStructuralNumberTolerance = 1e-9;

// Differences beyond this many are counted but not described.
inline constexpr std::size_t kMaxRecordedDifferences = 100;

struct StructuralDifference {
  std::string path;    // $.a.b[2]
  std::string detail;  // expected 3, got 4
};

struct StructuralComparison {
  std::size_t matched_leaves = 0;
  std::size_t total_leaves = 0;  // never 0: an empty container is a leaf itself
  std::size_t difference_count = 0;
  std::vector<StructuralDifference> differences;  // the first kMaxRecordedDifferences

  bool all_match() const { return difference_count == 0; }
};

// Walks both trees together. A leaf is where the walk stops: a scalar or null, a type mismatch
// (including a value against a missing field), or an empty container. Objects recurse by key
// (strict: keys of both sides; lenient: expected keys only) and arrays by index up to the longer
// length (strict) or, lenient, by letting each expected element take the first unused actual
// element that matches it completely; a matched element counts all its leaves as matched, an
// unmatched one all as unmatched. Trees must hold finite numbers only (see StructuralOperand).
StructuralComparison compare_structures(const boost::json::value& expected, const boost::json::value& actual,
                                        StructuralMode mode);

// Leaves of one tree: scalars, nulls and empty containers.
std::size_t count_leaves(const boost::json::value& value);

}  // namespace krino::text

#endif  // KRINO_TEXT_STRUCTURAL_MATCHER_H
