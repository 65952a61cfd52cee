#pragma once
// A built plugin module loaded the way the host loads it (dlopen, entry point, descriptor), for
// tests that check what the shipped .so registers. Unloaded when the object goes.
#include "evaluator_abi_call.hpp"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace krino::test {

class LoadedModule {
 public:
  explicit LoadedModule(const std::string& path) {
    library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) throw std::runtime_error("dlopen " + path + " failed: " + dlerror());
    auto entry = reinterpret_cast<krino_plugin_entry_fn>(dlsym(library_, KRINO_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) throw std::runtime_error(path + " has no entry point");
    host_.struct_size = sizeof(host_);
    info_.struct_size = sizeof(info_);
    info_.abi_major = KRINO_ABI_MAJOR;
    info_.abi_minor = KRINO_ABI_MINOR;
    info_.host_name = "test";
    info_.host_version = "0";
    info_.host = &host_;
    krino::detail::StringSink error;
    descriptor_ = entry(&info_, &error.sink);
    if (descriptor_ == nullptr) throw std::runtime_error(path + " refused to load: " + error.text);
  }
  ~LoadedModule() {
    if (descriptor_ != nullptr && descriptor_->deinit != nullptr) descriptor_->deinit();
    if (library_ != nullptr) dlclose(library_);
  }
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;

  // The component with this short name, stepping by the module's own element size; nullptr if none.
  const krino_component* component(const std::string& name) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(descriptor_->components);
    const std::size_t stride = descriptor_->components[0].struct_size;
    for (std::size_t i = 0; i < descriptor_->component_count; ++i) {
      const auto* c = reinterpret_cast<const krino_component*>(bytes + i * stride);
      if (name == c->name) return c;
    }
    return nullptr;
  }

  // Runs the evaluator registered as `name` on one test case.
  AbiOutcome evaluate(const std::string& name, const std::string& config, const std::string& test_case) const {
    const krino_component* c = component(name);
    if (c == nullptr || c->kind != KRINO_KIND_EVALUATOR) throw std::runtime_error("no evaluator " + name);
    return evaluate_with_vtable(static_cast<const krino_evaluator_vtable*>(c->vtable), config, test_case);
  }

 private:
  void* library_ = nullptr;
  krino_host host_{};
  krino_host_info info_{};
  const krino_plugin_descriptor* descriptor_ = nullptr;
};

}  // namespace krino::test
