#include "server_dataset_resolver.hpp"

#include "dataset_cache.hpp"
#include "dataset_fetch.hpp"

#include <cstdlib>

namespace krino::server_datasets {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

[[noreturn]] void fail(krino_status code, std::string_view uri, const std::string& why) {
  std::string message(uri);
  message.append(": ").append(why);
  throw krino::Error(code, message);
}

}  // namespace

ResolverSettings settings_from_environment() {
  ResolverSettings settings;
  settings.server_url = environment("KRINO_SERVER_URL");
  settings.api_key = environment("KRINO_API_KEY");
  settings.cache_root = default_cache_root();
  return settings;
}

ResolvedDataset resolve_server_dataset(std::string_view uri, const ResolverSettings& settings, krino::server::Transport& transport,
                                       const std::function<void(const std::string&)>& warn, krino::server::Sleeper sleeper) {
  ResolvedDataset resolved;
  resolved.ref = parse_dataset_uri(uri);
  if (settings.server_url.empty())
    fail(KRINO_FAILED_PRECONDITION, uri, "no server to read it from: set KRINO_SERVER_URL (dataset:// URIs resolve nothing without one)");
  std::string base = settings.server_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  krino::server::ServerClient client(base, settings.api_key, settings.retry, transport, std::move(sleeper));
  FetchedVersion fetched = fetch_version(client, resolved.ref);
  const std::optional<DatasetCache> cache = settings.cache_root ? std::optional<DatasetCache>(DatasetCache(*settings.cache_root)) : std::nullopt;
  switch (fetched.kind) {
    case FetchedVersion::Kind::fetched:
      resolved.version = fetched.version;
      resolved.examples = std::move(fetched.examples);
      if (cache) {
        try {
          cache->store(resolved.ref.name, resolved.version, resolved.examples);
        } catch (const std::exception& error) {
          warn(std::string("not cached for offline use: ") + error.what());
        }
      }
      return resolved;
    case FetchedVersion::Kind::refused:
      fail(fetched.message.find("HTTP 404") != std::string::npos ? KRINO_NOT_FOUND : KRINO_INVALID_ARGUMENT, uri, fetched.message);
    case FetchedVersion::Kind::unreachable:
      break;
  }
  if (!resolved.ref.version)
    fail(KRINO_UNAVAILABLE, uri, "the server cannot be reached (" + fetched.message + "), and @latest is never read from the cache");
  auto cached = cache ? cache->load(resolved.ref.name, *resolved.ref.version) : std::nullopt;
  if (!cached) fail(KRINO_UNAVAILABLE, uri, "the server cannot be reached (" + fetched.message + ") and no copy of this version is cached");
  warn("the server cannot be reached (" + fetched.message + "); using the cached copy " + cache->file(resolved.ref.name, *resolved.ref.version).string());
  resolved.version = *resolved.ref.version;
  resolved.examples = std::move(*cached);
  resolved.from_cache = true;
  return resolved;
}

ServerDatasetResolver::ServerDatasetResolver(const krino_host* host, std::string uri, const krino::Config&, krino::DatasetInfo& info) {
  const ResolverSettings settings = settings_from_environment();
  krino::server::HostTransport transport(host);
  const auto warn = [host](const std::string& message) {
    if (host != nullptr && host->log != nullptr) host->log(host, KRINO_LOG_WARNING, "krino.server_datasets.dataset", message.data(), message.size());
  };
  dataset_ = resolve_server_dataset(uri, settings, transport, warn);
  // The name carries the concrete version: the server reporter sends it as the run's datasetVersion.
  info.name = dataset_.ref.name + "@" + std::to_string(dataset_.version);
  info.description = "version " + std::to_string(dataset_.version) + " of server dataset " + dataset_.ref.name +
                     (dataset_.from_cache ? " (cached copy)" : "");
  info.size_hint = dataset_.examples.size();
}

krino::Next ServerDatasetResolver::next(std::string& record, std::string& location, std::string&) {
  if (next_ >= dataset_.examples.size()) return krino::Next::end;
  record.swap(dataset_.examples[next_]);
  location = "dataset://" + dataset_.ref.name + "@" + std::to_string(dataset_.version) + "#" + std::to_string(next_);
  ++next_;
  return krino::Next::record;
}

}  // namespace krino::server_datasets
