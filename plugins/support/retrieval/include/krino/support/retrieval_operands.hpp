// Reading the two lists a retrieval evaluator compares (precision, recall, llm_precision,
// llm_recall): actualOutputs[retrieved_key] and expectedOutputs[expected_key], with the same errors
// and reasons in every plugin.
#ifndef KRINO_SUPPORT_RETRIEVAL_OPERANDS_HPP
#define KRINO_SUPPORT_RETRIEVAL_OPERANDS_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <string>

namespace krino {

struct RetrievalOperands {
  bool has_retrieved = false;  // false: no retrieved list; the evaluator scores 0.0 with `missing`
  std::string missing;         // why there is no retrieved list
  boost::json::array retrieved;
  boost::json::array relevant;
};

// Throws invalid_argument when the expected list is missing or null: the test case is wrong. A
// missing or null retrieved list is the system's failure, not the test case's, so it is returned.
RetrievalOperands read_retrieval_operands(const TestCase& test_case, const std::string& retrieved_key,
                                          const std::string& expected_key);

// Option schema text both retrieval evaluators' schemas splice in after "name": threshold,
// retrieved_key and expected_key, each on a line of its own and the last followed by a comma.
#define KRINO_RETRIEVAL_KEY_OPTIONS \
  "\n" R"json(    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,)json" \
  "\n" R"json(                  "description": "The result succeeds when score >= threshold. The default 1.0 accepts only a perfect score; lower it to allow some misses."},)json" \
  "\n" R"json(    "retrieved_key": {"type": "string", "minLength": 1, "default": "retrieved",)json" \
  "\n" R"json(                      "description": "Key of actualOutputs holding the retrieved items (a list; any other value counts as a list of one)."},)json" \
  "\n" R"json(    "expected_key": {"type": "string", "minLength": 1, "default": "relevant",)json" \
  "\n" R"json(                     "description": "Key of expectedOutputs holding the relevant items (a list; any other value counts as a list of one)."},)json"

}  // namespace krino

#endif  // KRINO_SUPPORT_RETRIEVAL_OPERANDS_HPP
