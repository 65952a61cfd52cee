// One side of a structural comparison, normalized to a JSON tree.
#ifndef KRINO_TEXT_STRUCTURAL_OPERAND_H
#define KRINO_TEXT_STRUCTURAL_OPERAND_H

#include <boost/json/value.hpp>

#include <string_view>

namespace krino::text {

// A string operand is parsed as JSON, so an output delivered as JSON text compares against an
// object, not against a quoted string; only the operand itself, not strings nested inside it.
// The parse is strict (krino/strict_json.hpp): invalid JSON and duplicate keys are errors.
// Every number of the tree must be finite. Violations throw krino::Error(KRINO_INVALID_ARGUMENT)
// naming `side` ("expected output 'output'").
class StructuralOperand {
 public:
  StructuralOperand(const boost::json::value& raw, std::string_view side);
  StructuralOperand(const StructuralOperand&) = delete;
  StructuralOperand& operator=(const StructuralOperand&) = delete;

  const boost::json::value& tree() const { return *tree_; }

 private:
  boost::json::value parsed_;
  const boost::json::value* tree_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_STRUCTURAL_OPERAND_H
