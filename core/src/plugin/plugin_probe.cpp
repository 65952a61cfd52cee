#include "krino/core/plugin/plugin_probe.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <stdexcept>

namespace krino::core {
namespace {

namespace json = boost::json;

constexpr std::pair<ComponentKind, std::string_view> kProbeKinds[] = {
    {ComponentKind::evaluator, "evaluator"},
    {ComponentKind::dataset_resolver, "dataset-resolver"},
    {ComponentKind::trace_extractor, "trace-extractor"},
    {ComponentKind::reporter, "reporter"}};

std::string probe_text(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || !value->is_string()) throw std::runtime_error("probe document: '" + std::string(key) + "' is not a string");
  return std::string(value->get_string());
}

uint64_t probe_number(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value != nullptr && value->is_uint64()) return value->get_uint64();
  if (value != nullptr && value->is_int64() && value->get_int64() >= 0) return static_cast<uint64_t>(value->get_int64());
  throw std::runtime_error("probe document: '" + std::string(key) + "' is not a count");
}

// The vtable alternative of `kind`, empty until the library is opened.
decltype(Component::vtable) empty_vtable(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::evaluator: return krino_evaluator_vtable{};
    case ComponentKind::dataset_resolver: return krino_dataset_resolver_vtable{};
    case ComponentKind::trace_extractor: return krino_trace_extractor_vtable{};
    case ComponentKind::reporter: return krino_reporter_vtable{};
  }
  return krino_evaluator_vtable{};
}

}  // namespace

std::string probe_document(const LoadResult& loaded) {
  json::object document;
  document["format"] = kPluginProbeFormat;
  if (!loaded.ok()) {
    document["refused"] = loaded.error().message;
    return krino::json::to_compact_json(document);
  }
  const LoadedPlugin& plugin = *loaded.value();
  json::object described;
  described["id"] = plugin.id;
  described["name"] = plugin.name;
  described["version"] = plugin.version;
  described["vendor"] = plugin.vendor;
  described["license"] = plugin.license;
  described["description"] = plugin.description;
  described["abiMinor"] = plugin.abi_minor;
  json::array components;
  for (const Component& c : plugin.components) {
    json::object component;
    component["kind"] = component_kind_name(c.kind);
    component["id"] = c.id;
    component["name"] = c.name;
    component["version"] = c.version;
    component["description"] = c.description;
    component["capabilities"] = c.capabilities;
    component["configSchema"] = c.config_schema;
    if (c.kind == ComponentKind::dataset_resolver) {
      component["schemes"] = c.schemes;
      component["extensions"] = c.extensions;
    }
    components.push_back(std::move(component));
  }
  described["components"] = std::move(components);
  document["plugin"] = std::move(described);
  return krino::json::to_compact_json(document);
}

LoadResult plugin_from_probe(std::string_view document, const std::filesystem::path& path,
                             const krino_host_info& host_info) {
  json::error_code ec;
  const json::value parsed = krino::json::parse(document, ec);
  if (ec) throw std::runtime_error("probe document: not JSON");
  return plugin_from_probe(parsed, path, host_info);
}

LoadResult plugin_from_probe(const json::value& document, const std::filesystem::path& path,
                             const krino_host_info& host_info) {
  if (!document.is_object()) throw std::runtime_error("probe document: not a JSON object");
  const json::object& root = document.get_object();
  if (probe_text(root, "format") != kPluginProbeFormat) throw std::runtime_error("probe document: another format");
  if (root.contains("refused")) return error_status(KRINO_FAILED_PRECONDITION, probe_text(root, "refused"));
  const json::value* described = root.if_contains("plugin");
  if (described == nullptr || !described->is_object()) throw std::runtime_error("probe document: no 'plugin'");
  const json::object& p = described->get_object();

  auto plugin = std::make_unique<LoadedPlugin>();
  plugin->path = path;
  plugin->id = probe_text(p, "id");
  plugin->name = probe_text(p, "name");
  plugin->version = probe_text(p, "version");
  plugin->vendor = probe_text(p, "vendor");
  plugin->license = probe_text(p, "license");
  plugin->description = probe_text(p, "description");
  plugin->abi_minor = static_cast<uint16_t>(probe_number(p, "abiMinor"));
  const json::value* components = p.if_contains("components");
  if (components == nullptr || !components->is_array()) throw std::runtime_error("probe document: no 'components'");
  for (const json::value& entry : components->get_array()) {
    if (!entry.is_object()) throw std::runtime_error("probe document: a component is not an object");
    const json::object& c = entry.get_object();
    Component component;
    const std::string kind = probe_text(c, "kind");
    bool known = false;
    for (const auto& [value, name] : kProbeKinds) {
      if (name != kind) continue;
      component.kind = value;
      known = true;
    }
    if (!known) throw std::runtime_error("probe document: unknown kind '" + kind + "'");
    component.vtable = empty_vtable(component.kind);
    component.id = probe_text(c, "id");
    component.name = probe_text(c, "name");
    component.version = probe_text(c, "version");
    component.description = probe_text(c, "description");
    component.capabilities = probe_number(c, "capabilities");
    component.config_schema = probe_text(c, "configSchema");
    if (component.kind == ComponentKind::dataset_resolver) {
      component.schemes = probe_text(c, "schemes");
      component.extensions = probe_text(c, "extensions");
    }
    component.plugin = plugin.get();
    plugin->components.push_back(std::move(component));
  }
  plugin->deferred = std::make_unique<DeferredLoad>();
  plugin->deferred->owner = plugin.get();
  plugin->deferred->host_info = host_info;
  return plugin;
}

}  // namespace krino::core
