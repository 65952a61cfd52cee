#pragma once
// Drives an evaluator class through its C ABI trampolines exactly as the host would: create with a
// configuration, evaluate one test case, destroy. For plugin tests that check statuses and bytes.
#include <krino/plugin.hpp>

#include <string>

namespace krino::test {

struct AbiOutcome {
  krino_status status;
  std::string result;
  std::string error;
};

// Create, evaluate one test case, destroy: through any evaluator vtable (one from a class's
// trampolines, or one a loaded module registered).
// `host` is what create() receives (nullptr: no host services, so no judge).
inline AbiOutcome evaluate_with_vtable(const krino_evaluator_vtable* vtable, const krino_host* host,
                                       const std::string& config, const std::string& test_case) {
  krino::detail::StringSink create_error;
  void* instance = nullptr;
  const krino_status created = vtable->create(host, config.data(), config.size(), &instance, &create_error.sink);
  if (created != KRINO_OK) return {created, "", create_error.text};
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  krino::detail::StringSink result;
  krino::detail::StringSink error;
  const krino_status status =
      vtable->evaluate(instance, &ctx, test_case.data(), test_case.size(), &result.sink, &error.sink);
  vtable->destroy(instance);
  return {status, result.text, error.text};
}

inline AbiOutcome evaluate_with_vtable(const krino_evaluator_vtable* vtable, const std::string& config,
                                       const std::string& test_case) {
  return evaluate_with_vtable(vtable, nullptr, config, test_case);
}

template <class T>
AbiOutcome evaluate_through_abi(const std::string& config, const std::string& test_case) {
  return evaluate_with_vtable(krino::detail::EvaluatorTrampolines<T>::vtable(), config, test_case);
}

}  // namespace krino::test
