// krino C++ helper: evaluators. KRINO_EVALUATOR registers a class as an evaluator component and
// gives the host its krino_evaluator_vtable.
//
//   class WordCount {
//    public:
//     explicit WordCount(const krino::Config& config);                                  // [main-thread]
//     krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&) const;    // [worker]
//   };
//   KRINO_EVALUATOR(WordCount, "com.acme.word_count", "word_count", "1.0.0", "Counts words",
//                   KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, kSchema);
//
// Threads: the constructor and destructor run on the main thread (create, destroy). evaluate runs on
// a worker; with KRINO_CAP_THREAD_SAFE the host shares one instance between threads, without it each
// instance is called from one thread at a time. Ownership: the plugin creates and destroys its
// instances; the test case and call context are the host's, valid for the call only.
//
// BATCH: the helper does not implement evaluate_batch (it leaves the slot NULL), and the host never
// calls it (plugin.h, KRINO_CAP_BATCH: reserved). Do not declare KRINO_CAP_BATCH here.
#ifndef KRINO_PLUGIN_EVALUATOR_HPP
#define KRINO_PLUGIN_EVALUATOR_HPP

#include <krino/plugin.h>
#include <krino/plugin/call_context.hpp>
#include <krino/plugin/config.hpp>
#include <krino/plugin/error.hpp>
#include <krino/plugin/eval_result.hpp>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/sink.hpp>
#include <krino/plugin/test_case.hpp>
#include <krino/plugin/test_case_document.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace krino {
namespace detail {

template <class T>
struct EvaluatorInstance {
  const krino_host* host;
  T evaluator;
};

template <class T>
struct EvaluatorTrampolines {
  static krino_status create(const krino_host* host, const char* config, size_t size, void** out, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg = configuration(config, size, "configuration", registered_schema<T>().usable());
      *out = new EvaluatorInstance<T>{host, T(cfg)};
      return KRINO_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<EvaluatorInstance<T>*>(instance); }
  static krino_status evaluate(void* instance, const krino_call_context* ctx, const char* data, size_t size,
                               krino_sink* result, krino_sink* error) {
    return guarded(error, [&] {
      auto* self = static_cast<EvaluatorInstance<T>*>(instance);
      const std::shared_ptr<TestCaseDocument> document = testcase_document(ctx, data, size, self->host);
      TestCase test_case(*document);
      CallContext call(self->host, ctx);
      self->evaluator.evaluate(test_case, call).write_to(result);
      return KRINO_OK;
    });
  }
  static const krino_evaluator_vtable* vtable() {
    static const krino_evaluator_vtable table = {sizeof(krino_evaluator_vtable), &create, &destroy, &evaluate, nullptr};
    return &table;
  }
};

}  // namespace detail
}  // namespace krino

// Registers class T as an evaluator component. T needs T(const krino::Config&) and
// krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&).
#define KRINO_EVALUATOR(T, id, name, version, description, capabilities, schema)                          \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component_of<T>( \
      KRINO_KIND_EVALUATOR, id, name, version, description, capabilities, schema,                          \
      ::krino::detail::EvaluatorTrampolines<T>::vtable())

#endif  // KRINO_PLUGIN_EVALUATOR_HPP
