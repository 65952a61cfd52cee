#include <krino/support/retrieval_operands.hpp>

#include <krino/support/retrieval_scoring.hpp>

namespace krino {

RetrievalOperands read_retrieval_operands(const TestCase& test_case, const std::string& retrieved_key,
                                          const std::string& expected_key) {
  const boost::json::value* expected = test_case.find(Section::expected_outputs, expected_key);
  if (expected == nullptr)
    throw invalid_argument("the test case has no expected output '" + expected_key + "' (expectedOutputs." +
                           expected_key + ")");
  if (expected->is_null())
    throw invalid_argument("the expected output '" + expected_key + "' is null; give a list of relevant items");
  RetrievalOperands operands;
  const boost::json::value* retrieved = test_case.find(Section::actual_outputs, retrieved_key);
  if (retrieved == nullptr || retrieved->is_null()) {
    operands.missing = retrieved != nullptr
                           ? "the actual output '" + retrieved_key + "' is null"
                           : "the actual output '" + retrieved_key + "' is missing (actualOutputs has no such key)";
    return operands;
  }
  operands.has_retrieved = true;
  operands.retrieved = as_item_list(*retrieved);
  operands.relevant = as_item_list(*expected);
  return operands;
}

}  // namespace krino
