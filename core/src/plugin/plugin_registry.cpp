#include "krino/core/plugin/plugin_registry.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/plugin_loader.hpp"
#include "krino/core/plugin/plugin_probe.hpp"
#include "krino/core/plugin/plugin_probe_cache.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

namespace krino::core {

std::string_view component_kind_name(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::evaluator: return "evaluator";
    case ComponentKind::dataset_resolver: return "dataset-resolver";
    case ComponentKind::trace_extractor: return "trace-extractor";
    case ComponentKind::reporter: return "reporter";
  }
  return "unknown";
}

namespace {
constexpr std::pair<uint64_t, std::string_view> kCapabilityNames[] = {
    {KRINO_CAP_THREAD_SAFE, "thread-safe"}, {KRINO_CAP_DETERMINISTIC, "deterministic"},
    {KRINO_CAP_NEEDS_JUDGE, "needs-judge"}, {KRINO_CAP_CANCELLABLE, "cancellable"},
    {KRINO_CAP_BATCH, "batch"},             {KRINO_CAP_NEEDS_NETWORK, "needs-network"}};
}  // namespace

uint64_t capability_from_name(std::string_view name) {
  for (const auto& [bit, known] : kCapabilityNames)
    if (known == name) return bit;
  return 0;
}

std::vector<std::string_view> capability_names(uint64_t capabilities) {
  const auto& kNames = kCapabilityNames;
  std::vector<std::string_view> names;
  for (const auto& [bit, name] : kNames) {
    if ((capabilities & bit) != 0) names.push_back(name);
  }
  return names;
}

PluginRegistry::~PluginRegistry() {
  // Plugins are released in reverse load order; each deinit runs before its library is closed.
  for (auto it = plugins_.rbegin(); it != plugins_.rend(); ++it) {
    if ((*it)->deinit != nullptr) (*it)->deinit();
  }
  while (!plugins_.empty()) plugins_.pop_back();
}

void PluginRegistry::load(const PluginSearch& search, const krino_host_info& host_info) {
  searched_dirs_ = plugin_search_dirs(search);
  std::vector<std::filesystem::path> files = find_plugin_files(searched_dirs_);

  std::set<std::string> wanted(search.allow_list.begin(), search.allow_list.end());
  std::set<std::string> matched;
  std::vector<std::filesystem::path> selected;
  for (const auto& file : files) {
    std::string selection = plugin_selection_name(file);
    if (!wanted.empty()) {
      if (wanted.count(selection) == 0) continue;
      // The first directory that has a plugin of that name wins, as with PATH.
      if (!matched.insert(selection).second) continue;
    }
    selected.push_back(file);
  }
  if (search.probe_program.empty()) {
    for (const auto& file : selected) load_file(file, host_info);
  } else {
    probe_and_add(selected, search, host_info);
  }
  std::vector<std::string> missing;
  for (const auto& name : wanted) {
    if (matched.count(name) == 0) missing.push_back(name);
  }
  if (!missing.empty()) {
    std::string message = "--plugins names no plugin found: ";
    for (size_t i = 0; i < missing.size(); ++i) message += (i ? ", " : "") + missing[i];
    message += " (searched:";
    for (const auto& dir : searched_dirs_) message += " " + dir.string();
    throw config_error(message + ")");
  }
}

void PluginRegistry::probe_and_add(const std::vector<std::filesystem::path>& files, const PluginSearch& search,
                                   const krino_host_info& host_info) {
  std::optional<PluginProbeCache> cache;
  if (search.probe_cache) cache.emplace(*search.probe_cache, search.probe_cache_generation);
  // What is known of each file: from the cache, or from a probe now.
  std::vector<PluginProbeCache::Entry> known(files.size());
  std::vector<std::filesystem::path> unknown;
  std::vector<size_t> unknown_at;
  for (size_t i = 0; i < files.size(); ++i) {
    std::optional<PluginProbeCache::Entry> cached = cache ? cache->lookup(files[i]) : std::nullopt;
    if (cached) {
      known[i] = std::move(*cached);
    } else {
      unknown.push_back(files[i]);
      unknown_at.push_back(i);
    }
  }
  std::vector<ProbeOutcome> probed = probe_libraries(unknown, search.probe_program, search.probe_timeout);
  for (size_t i = 0; i < probed.size(); ++i) {
    PluginProbeCache::Entry& entry = known[unknown_at[i]];
    entry.failure = std::move(probed[i].failure);
    if (probed[i].described) {
      boost::json::error_code ec;
      entry.probe = krino::json::parse(probed[i].document, ec);
      entry.described = !ec;
      if (ec) entry.failure = "its probe printed something that is not JSON";
    }
    // A time-out may be the machine's load rather than the library: it is probed again next time.
    if (cache && !probed[i].timed_out) cache->store(probed[i].path, entry);
  }
  // The cache is a convenience: a read-only or full disk costs the next command a probe, no more.
  if (cache) (void)cache->save();

  for (size_t i = 0; i < files.size(); ++i) {
    if (!known[i].described) {
      problems_.push_back({files[i], known[i].failure + "; skipped"});
      continue;
    }
    try {
      LoadResult result = plugin_from_probe(known[i].probe, files[i], host_info);
      if (!result.ok()) {
        problems_.push_back({files[i], result.error().message});
        continue;
      }
      add(std::move(result).value());
    } catch (const std::exception& e) {
      problems_.push_back({files[i], std::string("unusable probe result: ") + e.what()});
    }
  }
}

bool PluginRegistry::load_file(const std::filesystem::path& path, const krino_host_info& host_info) {
  LoadResult result = load_plugin(path, host_info);
  if (!result.ok()) {
    problems_.push_back({path, result.error().message});
    return false;
  }
  return add(std::move(result).value());
}

bool PluginRegistry::add(std::unique_ptr<LoadedPlugin> plugin) {
  const std::filesystem::path path = plugin->path;
  for (const auto& existing : plugins_) {
    if (existing->id != plugin->id) continue;
    // The same plugin found again further down the search path is shadowed, like PATH. Within
    // one directory two libraries claiming one id are an error.
    if (existing->path.parent_path() != path.parent_path()) {
      if (plugin->deinit != nullptr) plugin->deinit();
      return false;
    }
    problems_.push_back({path, "duplicate plugin id '" + plugin->id + "', already loaded from " + existing->path.string()});
    if (plugin->deinit != nullptr) plugin->deinit();
    return false;
  }
  for (const auto& c : plugin->components) {
    if (const Component* other = find_by_id(c.id)) {
      problems_.push_back({path, "duplicate component id '" + c.id + "', already provided by " +
                                     other->plugin->path.string()});
      if (plugin->deinit != nullptr) plugin->deinit();
      return false;
    }
  }
  plugins_.push_back(std::move(plugin));
  return true;
}

const Component* PluginRegistry::find_by_id(std::string_view id) const {
  for (const auto& p : plugins_) {
    for (const auto& c : p->components) {
      if (c.id == id) return &c;
    }
  }
  return nullptr;
}

const Component* PluginRegistry::try_find(ComponentKind kind, std::string_view key) const {
  const Component* by_name = nullptr;
  for (const auto& p : plugins_) {
    for (const auto& c : p->components) {
      if (c.kind != kind) continue;
      if (c.id == key) return &c;
      if (c.name == key) {
        if (by_name != nullptr) return nullptr;  // ambiguous; find() explains
        by_name = &c;
      }
    }
  }
  return by_name;
}

const Component& PluginRegistry::find(ComponentKind kind, std::string_view key) const {
  if (const Component* c = try_find(kind, key)) return *c;
  std::vector<const Component*> same_name;
  std::vector<std::string> known;
  for (const Component* c : components(kind)) {
    if (c->name == key) same_name.push_back(c);
    known.push_back(c->name);
  }
  std::string kind_name(component_kind_name(kind));
  if (same_name.size() > 1) {
    std::string message = "the " + kind_name + " name '" + std::string(key) + "' is ambiguous; use one of the ids:";
    for (const Component* c : same_name) message += " " + c->id + " (" + c->plugin->path.string() + ")";
    throw config_error(message);
  }
  std::string message = "no " + kind_name + " named '" + std::string(key) + "'";
  if (!known.empty()) {
    std::sort(known.begin(), known.end());
    message += "; available:";
    for (const auto& name : known) message += " " + name;
  } else {
    message += "; no " + kind_name + " plugin is loaded";
  }
  for (const auto& problem : problems_) message += "\n  (plugin not loaded: " + problem.to_string() + ")";
  throw config_error(message);
}

std::vector<const Component*> PluginRegistry::components(ComponentKind kind) const {
  std::vector<const Component*> out;
  for (const auto& p : plugins_) {
    for (const auto& c : p->components) {
      if (c.kind == kind) out.push_back(&c);
    }
  }
  return out;
}

std::vector<const Component*> PluginRegistry::all_components() const {
  std::vector<const Component*> out;
  for (const auto& p : plugins_) {
    for (const auto& c : p->components) out.push_back(&c);
  }
  return out;
}

}  // namespace krino::core
