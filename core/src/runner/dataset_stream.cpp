#include "krino/core/runner/dataset_stream.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <boost/json.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <cctype>

namespace krino::core {
namespace {

bool list_contains(const char* comma_separated, std::string_view item) {
  if (comma_separated == nullptr) return false;
  std::string_view rest = comma_separated;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry.size() == item.size() &&
        std::equal(entry.begin(), entry.end(), item.begin(),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); }))
      return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

std::string uri_scheme(const std::string& uri) {
  size_t colon = uri.find(':');
  if (colon == std::string::npos || colon < 2) return "file";
  for (size_t i = 0; i < colon; ++i) {
    char c = uri[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return "file";
  }
  return uri.substr(0, colon);
}

std::string uri_extension(const std::string& uri) {
  std::string path = uri;
  if (size_t q = path.find_first_of("?#"); q != std::string::npos) path.resize(q);
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

}  // namespace

const Component& choose_resolver(const PluginRegistry& registry, const std::string& uri, const std::string& named) {
  if (!named.empty()) return registry.find(ComponentKind::dataset_resolver, named);
  const std::string scheme = uri_scheme(uri);
  const std::string extension = uri_extension(uri);
  const Component* by_scheme = nullptr;
  size_t scheme_matches = 0;
  for (const Component* c : registry.components(ComponentKind::dataset_resolver)) {
    if (!list_contains(c->schemes.c_str(), scheme)) continue;
    if (!extension.empty() && list_contains(c->extensions.c_str(), extension)) return *c;
    by_scheme = c;
    ++scheme_matches;
  }
  // A resolver that owns a scheme without caring about extensions (e.g. dataset://) is fine alone.
  if (scheme_matches == 1 && by_scheme->extensions.empty())
    return *by_scheme;
  std::string message = "no dataset resolver handles '" + uri + "' (scheme '" + scheme + "'";
  if (!extension.empty()) message += ", extension '" + extension + "'";
  message += ")";
  auto resolvers = registry.components(ComponentKind::dataset_resolver);
  if (resolvers.empty()) message += "; no dataset resolver plugin is loaded";
  for (const Component* c : resolvers) {
    message += "\n  " + c->name + ": schemes " + c->schemes + ", extensions " + c->extensions;
  }
  throw config_error(message);
}

DatasetStream::DatasetStream(const Component& resolver, const krino_host* host, const std::string& uri,
                             const boost::json::object& options)
    : resolver_(resolver), uri_(uri) {
  const std::string options_text = ::krino::json::to_compact_json(options);
  StringSink info;
  StringSink error;
  krino_status status = resolver.resolver().open(host, uri.c_str(), options_text.data(), options_text.size(), &stream_,
                                                 info.sink(), error.sink());
  if (status != KRINO_OK || stream_ == nullptr) {
    stream_ = nullptr;
    throw runtime_error("cannot open dataset " + uri + ": " + (error.text().empty() ? "no reason given" : error.message()));
  }
  boost::system::error_code ec;
  boost::json::value parsed = krino::json::parse(info.text(), ec);
  if (!ec && parsed.is_object()) {
    const auto& o = parsed.get_object();
    if (auto it = o.find("name"); it != o.end() && it->value().is_string()) info_.name = it->value().get_string();
    if (auto it = o.find("description"); it != o.end() && it->value().is_string())
      info_.description = it->value().get_string();
    if (auto it = o.find("sizeHint"); it != o.end() && it->value().is_number())
      info_.size_hint = it->value().to_number<uint64_t>();
  }
}

DatasetStream::~DatasetStream() {
  if (stream_ != nullptr) resolver_.resolver().close(stream_);
}

DatasetRecord DatasetStream::next() {
  StringSink record;
  StringSink location;
  StringSink error;
  int32_t outcome = KRINO_NEXT_END;
  krino_status status = resolver_.resolver().next(stream_, record.sink(), location.sink(), &outcome, error.sink());
  if (status != KRINO_OK) {
    throw runtime_error("reading dataset " + uri_ + " failed" +
                        (location.text().empty() ? std::string() : " at " + location.text()) + ": " +
                        (error.text().empty() ? "no reason given" : error.message()));
  }
  DatasetRecord r;
  r.location = std::move(location.text());
  switch (outcome) {
    case KRINO_NEXT_RECORD:
      r.kind = DatasetRecord::Kind::record;
      r.bytes = std::move(record.text());
      break;
    case KRINO_NEXT_BAD:
      r.kind = DatasetRecord::Kind::bad;
      r.error = error.text().empty() ? "malformed record" : error.message();
      break;
    default:
      r.kind = DatasetRecord::Kind::end;
      break;
  }
  return r;
}

bool DatasetStream::passes_examples() const { return resolver_.has(KRINO_CAP_PASSES_EXAMPLES); }

StatusOr<std::string> DatasetStream::decode(const std::string& record) const {
  if (resolver_.resolver().decode == nullptr) return record;
  StringSink out;
  StringSink err;
  krino_status status = resolver_.resolver().decode(stream_, record.data(), record.size(), out.sink(), err.sink());
  // Whatever the resolver's code, the record is what is wrong: the item reports INVALID_ARGUMENT.
  if (status != KRINO_OK)
    return error_status(KRINO_INVALID_ARGUMENT, err.text().empty() ? "malformed record" : err.message());
  return std::move(out.text());
}

}  // namespace krino::core
