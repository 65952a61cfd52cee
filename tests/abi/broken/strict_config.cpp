// Not broken itself: an evaluator with a strict config schema, for the invalid-user-config tests.
// "limit" is a required integer >= 1 and no other option than limit, name and threshold is
// allowed. The host must reject {}, {"limit": 0}, {"limit": "3"} and {"limit": 3, "lmit": 1} at
// configuration time, naming the option, and accept {"limit": 3}. It scores 1 when the actual
// output (a string) has at most `limit` characters.
#include <krino/plugin.hpp>

namespace {

class StrictConfig {
 public:
  explicit StrictConfig(const krino::Config& config)
      : limit_(config.get_int("limit", 1)), threshold_(config.get_double("threshold", 1.0)) {}

  krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext&) const {
    const auto* output = test_case.actual_output();
    if (output == nullptr || !output->is_string()) throw krino::invalid_argument("actualOutputs.output must be a string");
    const auto length = static_cast<int64_t>(output->get_string().size());
    return krino::EvalResult::scored("strict_config", length <= limit_ ? 1.0 : 0.0, threshold_,
                                     std::to_string(length) + " of at most " + std::to_string(limit_) + " characters");
  }

 private:
  int64_t limit_;
  double threshold_;
};

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "limit": {"type": "integer", "minimum": 1, "description": "Most characters allowed."},
    "name": {"type": "string"},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1}
  },
  "required": ["limit"],
  "additionalProperties": false
})";

}  // namespace

KRINO_EVALUATOR(StrictConfig, "test.strict_config", "strict_config", "1.0.0", "a strict config schema",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, kSchema);
KRINO_PLUGIN("test.strict_config", "strict_config", "1.0.0", "krino tests", "Apache-2.0",
             "an evaluator with a strict config schema")
