// <krino/plugin.h> as C++20 (-std=c++20 -Wall -Wextra -Wpedantic -Werror): the layout checks, then
// a descriptor built with designated initializers, which C++20 accepts only in declaration order,
// so a reordered field in the header fails to compile here. main() calls the evaluator through the
// descriptor like a host would.
#include "abi_layout.h"

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace {

krino_status create(const krino_host*, const char*, size_t, void** out_instance, krino_sink*) {
  static int instance = 0;
  *out_instance = &instance;
  return KRINO_OK;
}

void destroy(void*) {}

krino_status evaluate(void*, const krino_call_context* ctx, const char*, size_t, krino_sink* result,
                      krino_sink* error) {
  if (ctx == nullptr || ctx->document_serial == 0) {
    constexpr std::string_view message = "no document serial";
    error->write(error, message.data(), message.size());
    return KRINO_FAILED_PRECONDITION;
  }
  constexpr std::string_view passed = R"({"name":"cxx20","score":1,"success":true})";
  result->write(result, passed.data(), passed.size());
  return KRINO_OK;
}

constexpr krino_evaluator_vtable kVtable{
    .struct_size = sizeof(krino_evaluator_vtable),
    .create = create,
    .destroy = destroy,
    .evaluate = evaluate,
    .evaluate_batch = nullptr,
};

constexpr krino_component kComponents[] = {{
    .struct_size = sizeof(krino_component),
    .kind = KRINO_KIND_EVALUATOR,
    .id = "test.cxx20.evaluator",
    .name = "cxx20",
    .version = "1.0.0",
    .description = "designated initializers",
    .capabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
    .config_schema = nullptr,
    .vtable = &kVtable,
}};

constexpr krino_plugin_descriptor kDescriptor{
    .struct_size = sizeof(krino_plugin_descriptor),
    .abi_major = KRINO_ABI_MAJOR,
    .abi_minor = KRINO_ABI_MINOR,
    .min_host_abi_minor = 0,
    .reserved = 0,
    .id = "test.cxx20",
    .name = "cxx20",
    .version = "1.0.0",
    .vendor = "krino",
    .license = "Apache-2.0",
    .description = "header test plugin",
    .component_count = std::size(kComponents),
    .components = kComponents,
    .deinit = nullptr,
    .get_extension = nullptr,
};
static_assert(kDescriptor.components[0].kind == KRINO_KIND_EVALUATOR);

}  // namespace

extern "C" KRINO_EXPORT const krino_plugin_descriptor* krino_plugin_entry(const krino_host_info* host,
                                                                          krino_sink* error) {
  if (host->abi_major != KRINO_ABI_MAJOR) {
    constexpr std::string_view message = "ABI major mismatch";
    error->write(error, message.data(), message.size());
    return nullptr;
  }
  return &kDescriptor;
}

int main() {
  struct Buffer {
    krino_sink sink{.struct_size = sizeof(krino_sink), .host_data = this, .write = append, .write_eval_result = nullptr};
    std::string text;
    static void append(krino_sink* sink, const char* data, size_t size) {
      static_cast<Buffer*>(sink->host_data)->text.append(data, size);
    }
  };
  const krino_host_info info{.struct_size = sizeof(krino_host_info), .abi_major = KRINO_ABI_MAJOR,
                             .abi_minor = KRINO_ABI_MINOR, .host_name = "krino", .host_version = "0.0.0-test",
                             .host = nullptr};
  Buffer error;
  krino_plugin_entry_fn entry = krino_plugin_entry;
  const krino_plugin_descriptor* d = entry(&info, &error.sink);
  if (d == nullptr || std::string_view(KRINO_PLUGIN_ENTRY_SYMBOL) != "krino_plugin_entry") return 1;

  int failures = 0;
  for (const krino_component& c : std::span(d->components, d->component_count)) {
    const auto* v = static_cast<const krino_evaluator_vtable*>(c.vtable);
    void* instance = nullptr;
    Buffer result;
    const krino_call_context ctx{.struct_size = sizeof(krino_call_context), .seed = 1, .deadline_unix_ms = 0,
                                 .run_index = 0, .item_index = 0, .document_serial = 1, .host_handle = nullptr, .testcase_sections = {}};
    if (v->create(nullptr, "{}", 2, &instance, &error.sink) != KRINO_OK) ++failures;
    if (v->evaluate(instance, &ctx, "{}", 2, &result.sink, &error.sink) != KRINO_OK) ++failures;
    if (v->evaluate(instance, nullptr, "{}", 2, &result.sink, &error.sink) != KRINO_FAILED_PRECONDITION) ++failures;
    if (result.text.find("\"success\":true") == std::string::npos || error.text != "no document serial") ++failures;
    v->destroy(instance);
  }
  if (failures == 0) std::puts("header_cxx20: ok");
  return failures == 0 ? 0 : 1;
}
