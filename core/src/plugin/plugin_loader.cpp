#include "krino/core/plugin/plugin_loader.hpp"

#include "krino/core/common/string_sink.hpp"
#include "krino/core/plugin/abi_struct.hpp"
#include "krino/core/plugin/config_validator.hpp"

#include <boost/dll/shared_library.hpp>

#include <cstddef>
#include <set>

namespace krino::core {
namespace {

using EntryFunction = const krino_plugin_descriptor*(const krino_host_info*, krino_sink*);

// The fields every descriptor must have, whatever minor it was built against.
constexpr size_t kMinDescriptorSize = offsetof(krino_plugin_descriptor, components) + sizeof(void*);
constexpr size_t kMinComponentSize = offsetof(krino_component, vtable) + sizeof(void*);

std::string text(const char* s) { return s != nullptr ? std::string(s) : std::string(); }

std::string abi_text(unsigned major, unsigned minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// Every reason a library cannot serve as a plugin is a failed precondition of loading it.
Status refused(std::string reason) { return error_status(KRINO_FAILED_PRECONDITION, std::move(reason)); }

// Reads the kind-specific vtable: OK when it is usable, else why not.
Status read_vtable(const krino_component& raw, Component& component) {
  auto need = [&](bool ok, const char* what) { return ok ? Status::ok_status() : refused(std::string("has no ") + what); };
  Status problem;
  switch (raw.kind) {
    case KRINO_KIND_EVALUATOR: {
      krino_evaluator_vtable v;
      if (!read_abi_struct(raw.vtable, v)) return refused("has an invalid evaluator vtable");
      component.kind = ComponentKind::evaluator;
      if (problem = need(v.create != nullptr && v.destroy != nullptr && v.evaluate != nullptr,
                         "create/destroy/evaluate functions");
          !problem.ok())
        return problem;
      // BATCH is reserved (plugin.h): evaluate_batch is never called, only this claim checked.
      if ((raw.capabilities & KRINO_CAP_BATCH) != 0 && v.evaluate_batch == nullptr)
        return refused("declares KRINO_CAP_BATCH without evaluate_batch");
      component.vtable = v;
      return Status::ok_status();
    }
    case KRINO_KIND_DATASET_RESOLVER: {
      krino_dataset_resolver_vtable v;
      if (!read_abi_struct(raw.vtable, v)) return refused("has an invalid dataset resolver vtable");
      component.kind = ComponentKind::dataset_resolver;
      if (problem = need(v.open != nullptr && v.next != nullptr && v.close != nullptr, "open/next/close functions");
          !problem.ok())
        return problem;
      component.schemes = text(v.schemes);
      component.extensions = text(v.extensions);
      component.vtable = v;
      return Status::ok_status();
    }
    case KRINO_KIND_TRACE_EXTRACTOR: {
      krino_trace_extractor_vtable v;
      if (!read_abi_struct(raw.vtable, v)) return refused("has an invalid trace extractor vtable");
      component.kind = ComponentKind::trace_extractor;
      if (problem = need(v.detect != nullptr && v.extract != nullptr, "detect/extract functions"); !problem.ok())
        return problem;
      component.vtable = v;
      return Status::ok_status();
    }
    case KRINO_KIND_REPORTER: {
      krino_reporter_vtable v;
      if (!read_abi_struct(raw.vtable, v)) return refused("has an invalid reporter vtable");
      component.kind = ComponentKind::reporter;
      if (problem = need(v.create != nullptr && v.destroy != nullptr && v.on_event != nullptr,
                         "create/destroy/on_event functions");
          !problem.ok())
        return problem;
      component.vtable = v;
      return Status::ok_status();
    }
    default:
      return refused("has unknown kind " + std::to_string(raw.kind));
  }
}

// Copies and checks every component: OK, or the first problem.
Status read_components(const krino_plugin_descriptor& d, LoadedPlugin& plugin) {
  if (d.component_count > 0 && d.components == nullptr) return refused("invalid descriptor: components is NULL");
  if (d.component_count > 4096) return refused("invalid descriptor: implausible component count");
  // Walk the array with the plugin's element size: a newer header may have grown the struct.
  const auto* base = reinterpret_cast<const unsigned char*>(d.components);
  uint32_t stride = 0;
  std::set<std::string> ids;
  for (size_t i = 0; i < d.component_count; ++i) {
    const void* element = base + i * stride;
    uint32_t size = 0;
    std::memcpy(&size, element, sizeof(size));
    if (i == 0) stride = size;
    if (size < kMinComponentSize || size != stride)
      return refused("invalid descriptor: component " + std::to_string(i) + " has struct_size " + std::to_string(size));
    krino_component raw;
    read_abi_struct(element, raw);
    std::string where = "component " + std::to_string(i);
    if (raw.id == nullptr || *raw.id == '\0') return refused("invalid descriptor: " + where + " has no id");
    where = "component '" + text(raw.id) + "'";
    if (raw.name == nullptr || *raw.name == '\0') return refused("invalid descriptor: " + where + " has no name");
    if (raw.vtable == nullptr) return refused("invalid descriptor: " + where + " has no vtable");
    if (!ids.insert(raw.id).second) return refused("duplicate component id '" + text(raw.id) + "' within the plugin");

    Component c;
    c.id = raw.id;
    c.name = raw.name;
    c.version = text(raw.version);
    c.description = text(raw.description);
    c.capabilities = raw.capabilities;
    c.raw = static_cast<const krino_component*>(element);
    if (Status problem = read_vtable(raw, c); !problem.ok()) return refused("invalid descriptor: " + where + " " + problem.message);
    c.config_schema = raw.config_schema != nullptr ? raw.config_schema : R"({"type":"object"})";
    try {
      c.set_validator(std::make_shared<const ConfigValidator>(c.config_schema));
    } catch (const std::exception& e) {
      return refused("invalid descriptor: " + where + ": " + e.what());
    }
    plugin.components.push_back(std::move(c));
  }
  return Status::ok_status();
}

}  // namespace

LoadResult load_plugin(const std::filesystem::path& path, const krino_host_info& host_info) {
  auto plugin = std::make_unique<LoadedPlugin>();
  plugin->path = path;
  try {
    plugin->library.load(path,
                         boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    std::string message = e.what();
    // Boost.DLL wraps dlerror(); keep only dlerror's own words when present.
    if (auto at = message.find("dlerror system message: "); at != std::string::npos) {
      message = message.substr(at + 24);
      if (!message.empty() && message.back() == ')') message.pop_back();
    }
    return refused("cannot load library: " + message);
  }
  if (!plugin->library.has(KRINO_PLUGIN_ENTRY_SYMBOL))
    return refused(std::string("not a krino plugin: no '") + KRINO_PLUGIN_ENTRY_SYMBOL + "' symbol");

  auto& entry = plugin->library.get<EntryFunction>(KRINO_PLUGIN_ENTRY_SYMBOL);
  StringSink error;
  const krino_plugin_descriptor* raw_descriptor = entry(&host_info, error.sink());
  if (raw_descriptor == nullptr)
    return refused("plugin refused to load: " + (error.text().empty() ? std::string("no reason given") : error.message()));

  krino_plugin_descriptor d;
  read_abi_struct(raw_descriptor, d);
  auto reject = [&](std::string reason) -> LoadResult {
    if (d.struct_size >= offsetof(krino_plugin_descriptor, deinit) + sizeof(void*) && d.deinit != nullptr) d.deinit();
    return refused(std::move(reason));
  };
  if (d.struct_size < kMinDescriptorSize)
    return reject("invalid descriptor: struct_size " + std::to_string(d.struct_size) + " is too small");
  if (d.abi_major != KRINO_ABI_MAJOR)
    return reject("ABI major version mismatch: plugin is built for ABI " + abi_text(d.abi_major, d.abi_minor) +
                  ", this host speaks ABI " + abi_text(KRINO_ABI_MAJOR, KRINO_ABI_MINOR));
  if (d.min_host_abi_minor > host_info.abi_minor)
    return reject("plugin needs a host with ABI " + abi_text(d.abi_major, d.min_host_abi_minor) +
                  " or newer; this host speaks ABI " + abi_text(host_info.abi_major, host_info.abi_minor));
  if (d.id == nullptr || *d.id == '\0') return reject("invalid descriptor: no plugin id");

  plugin->id = d.id;
  plugin->name = text(d.name);
  plugin->version = text(d.version);
  plugin->vendor = text(d.vendor);
  plugin->license = text(d.license);
  plugin->description = text(d.description);
  plugin->abi_minor = d.abi_minor;
  plugin->deinit = d.deinit;
  plugin->get_extension = d.get_extension;
  if (Status problem = read_components(d, *plugin); !problem.ok()) return reject(std::move(problem.message));
  for (auto& c : plugin->components) c.plugin = plugin.get();
  return plugin;
}

}  // namespace krino::core
