#include "structural_operand.h"

#include "test_case_values.h"

#include <krino/plugin.hpp>
#include <krino/strict_json.hpp>

#include <cmath>
#include <string>

namespace krino::text {

namespace {

// The test case itself came through krino::json::parse, which turns 1e400 into infinity.
bool has_non_finite_number(const boost::json::value& value) {
  return any_double(value, [](double d) { return !std::isfinite(d); });
}

}  // namespace

StructuralOperand::StructuralOperand(const boost::json::value& raw, std::string_view side) : tree_(&raw) {
  if (raw.is_string()) {
    try {
      parsed_ = json::parse_strict_json(raw.get_string());
    } catch (const Error& e) {
      throw invalid_argument("the " + std::string(side) + " is a string but not valid JSON: " + e.what());
    }
    tree_ = &parsed_;
  }
  if (has_non_finite_number(*tree_))
    throw invalid_argument("the " + std::string(side) + " holds a number that is not finite (NaN or out of range)");
}

}  // namespace krino::text
