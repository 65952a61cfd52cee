// Broken evaluator: throws std::runtime_error("boom") from evaluate. The helper layer's trampoline
// must catch it (no exception crosses the C boundary), so the host sees KRINO_INTERNAL with the
// message "boom" and turns it into an item error. Creating the instance works.
#include <krino/plugin.hpp>

#include <stdexcept>

namespace {

class Throwing {
 public:
  explicit Throwing(const krino::Config&) {}
  krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&) const { throw std::runtime_error("boom"); }
};

}  // namespace

KRINO_EVALUATOR(Throwing, "test.throwing_evaluator", "throwing_evaluator", "1.0.0", "throws from evaluate",
                KRINO_CAP_THREAD_SAFE, nullptr);
KRINO_PLUGIN("test.throwing_evaluator", "throwing_evaluator", "1.0.0", "krino tests", "Apache-2.0",
             "an evaluator that throws")
