// `krino plugins list` and `krino plugins info`.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/plugin_discovery.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace krino::cli {
namespace json = boost::json;

namespace {

std::string capabilities_text(uint64_t caps) {
  std::string out;
  for (const std::string_view name : core::capability_names(caps)) {
    if (!out.empty()) out.append(", ");
    out.append(name);
  }
  return out.empty() ? "none" : out;
}

std::string type_text(const json::object& property) {
  auto it = property.find("type");
  if (it == property.end()) {
    if (property.contains("enum")) return "enum";
    return "any";
  }
  if (it->value().is_string()) return std::string(it->value().get_string());
  std::string out;
  if (it->value().is_array()) {
    for (const auto& t : it->value().get_array()) {
      if (t.is_string()) out += (out.empty() ? "" : "|") + std::string(t.get_string());
    }
  }
  return out;
}

void print_options(const std::string& schema_text) {
  json::error_code ec;
  json::value schema = krino::json::parse(schema_text, ec);
  if (ec || !schema.is_object()) return;
  const auto& root = schema.get_object();
  auto properties = root.find("properties");
  if (properties == root.end() || !properties->value().is_object() || properties->value().get_object().empty()) {
    std::printf("\nOptions: none\n");
    return;
  }
  std::vector<std::string> required;
  if (auto r = root.find("required"); r != root.end() && r->value().is_array()) {
    for (const auto& name : r->value().get_array()) {
      if (name.is_string()) required.emplace_back(name.get_string());
    }
  }
  std::printf("\nOptions:\n");
  for (const auto& [name, value] : properties->value().get_object()) {
    if (!value.is_object()) continue;
    const auto& p = value.get_object();
    std::string line = fmt::format("  {:<22} {}", std::string(name), type_text(p));
    if (auto e = p.find("enum"); e != p.end() && e->value().is_array()) {
      std::string values;
      for (const auto& v : e->value().get_array()) values += (values.empty() ? "" : "|") + (v.is_string() ? std::string(v.get_string()) : ::krino::json::to_compact_json(v));
      line += " (" + values + ")";
    }
    if (std::find(required.begin(), required.end(), std::string(name)) != required.end()) line += ", required";
    if (auto d = p.find("default"); d != p.end()) line += ", default " + ::krino::json::to_compact_json(d->value());
    std::printf("%s\n", line.c_str());
    if (auto d = p.find("description"); d != p.end() && d->value().is_string())
      std::printf("      %s\n", std::string(d->value().get_string()).c_str());
  }
}

// --names and --plugin-names: bare sorted names for scripts and the shell completion
// (packaging/krino-completion.bash); load problems go to stderr so they never become a name.
int print_names(const core::PluginRegistry& registry, const PluginsArguments& args) {
  std::set<std::string> names;
  for (const auto& plugin : registry.plugins()) {
    if (args.plugin_names) names.insert(core::plugin_selection_name(plugin->path));
    if (!args.names) continue;
    for (const auto& c : plugin->components) {
      if (args.kind.empty() || core::component_kind_name(c.kind) == args.kind) names.insert(c.name);
    }
  }
  for (const auto& name : names) std::printf("%s\n", name.c_str());
  for (const auto& problem : registry.problems())
    std::fprintf(stderr, "krino: warning: plugin not loaded: %s\n", problem.to_string().c_str());
  return registry.problems().empty() ? kSuccess : kRuntimeError;
}

}  // namespace

int plugins_list_command(const PluginsArguments& args) {
  core::Cancellation cancellation;
  core::HostServices host(cancellation);
  core::PluginRegistry registry;
  args.plugins.load(registry, host, false);
  if (args.names || args.plugin_names) return print_names(registry, args);

  std::printf("%-17s %-22s %-30s %-8s %s\n", "KIND", "NAME", "ID", "VERSION", "PLUGIN");
  for (const auto& plugin : registry.plugins()) {
    for (const auto& c : plugin->components) {
      if (!args.kind.empty() && core::component_kind_name(c.kind) != args.kind) continue;
      std::printf("%-17s %-22s %-30s %-8s %s\n", std::string(core::component_kind_name(c.kind)).c_str(), c.name.c_str(),
                  c.id.c_str(), c.version.c_str(), plugin->path.filename().string().c_str());
    }
  }
  if (registry.plugins().empty()) {
    std::printf("(no plugins found; searched:");
    for (const auto& dir : registry.searched_dirs()) std::printf(" %s", dir.string().c_str());
    std::printf(")\n");
  }
  for (const auto& problem : registry.problems()) std::printf("failed to load: %s\n", problem.to_string().c_str());
  return registry.problems().empty() ? kSuccess : kRuntimeError;
}

int plugins_info_command(const PluginsArguments& args) {
  core::Cancellation cancellation;
  core::HostServices host(cancellation);
  core::PluginRegistry registry;
  args.plugins.load(registry, host, false);

  std::vector<const core::Component*> matches;
  for (const core::Component* c : registry.all_components()) {
    if (c->id == args.name || c->name == args.name) matches.push_back(c);
  }
  if (matches.empty()) throw core::config_error("no component named '" + args.name + "' (see `krino plugins list`)");
  for (const core::Component* c : matches) {
    if (args.json) {
      std::printf("%s\n", c->config_schema.c_str());
      continue;
    }
    std::printf("%s (%s)\n", c->name.c_str(), c->id.c_str());
    std::printf("  kind:         %s\n", std::string(core::component_kind_name(c->kind)).c_str());
    std::printf("  version:      %s\n", c->version.c_str());
    std::printf("  plugin:       %s %s (%s)\n", c->plugin->id.c_str(), c->plugin->version.c_str(),
                c->plugin->path.string().c_str());
    std::printf("  capabilities: %s\n", capabilities_text(c->capabilities).c_str());
    if (!c->description.empty()) std::printf("\n%s\n", c->description.c_str());
    print_options(c->config_schema);
  }
  return kSuccess;
}

}  // namespace krino::cli
