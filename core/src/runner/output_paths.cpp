#include "krino/core/runner/output_paths.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
#include <krino/plugin/schema_defaults.hpp>

#include <sys/stat.h>

#include <cctype>
#include <filesystem>
#include <optional>

namespace krino::core {
namespace {

namespace fs = std::filesystem;

// How two names are compared: by device and inode when the file exists (links and relative names
// then agree), by the normalised absolute name when it does not exist yet.
struct FileIdentity {
  std::optional<std::pair<dev_t, ino_t>> inode;
  bool regular = true;
  fs::path name;

  static FileIdentity of(const std::string& path) {
    FileIdentity identity;
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
      identity.inode = std::make_pair(info.st_dev, info.st_ino);
      identity.regular = S_ISREG(info.st_mode);
    }
    std::error_code ec;
    identity.name = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) identity.name = fs::path(path).lexically_normal();
    return identity;
  }

  bool same_file_as(const FileIdentity& other) const {
    if (inode && other.inode) return *inode == *other.inode;
    return name == other.name;
  }
};

bool has_scheme(const std::string& uri) {
  // RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"; one letter is a Windows drive, not a scheme.
  const auto colon = uri.find(':');
  if (colon == std::string::npos || colon < 2) return false;
  if (!std::isalpha(static_cast<unsigned char>(uri[0]))) return false;
  for (std::size_t i = 1; i < colon; ++i) {
    const unsigned char c = static_cast<unsigned char>(uri[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

}  // namespace

std::string local_dataset_path(const std::string& uri) {
  if (uri.rfind("file://", 0) == 0) {
    std::string rest = uri.substr(7);
    if (rest.rfind("localhost/", 0) == 0) rest.erase(0, 9);
    return !rest.empty() && rest.front() == '/' ? rest : std::string();
  }
  if (uri.rfind("file:", 0) == 0) return uri.substr(5);
  return has_scheme(uri) ? std::string() : uri;
}

std::vector<NamedFile> reporter_outputs(const PluginRegistry& registry, const std::vector<ComponentUse>& reporters) {
  std::vector<NamedFile> outputs;
  for (const auto& use : reporters) {
    const Component* component = registry.try_find(ComponentKind::reporter, use.component);
    if (component == nullptr) continue;  // reported by the runner, with the list of reporters
    const boost::json::value* path = use.options.if_contains("path");
    boost::json::object defaults;
    if (path == nullptr) {
      defaults = krino::schema_defaults(component->config_schema);
      path = defaults.if_contains("path");
    }
    if (path == nullptr || !path->is_string()) continue;
    const std::string file(path->get_string());
    if (file.empty() || file == "-") continue;
    outputs.push_back({"the report of reporter '" + component->name + "'", file});
  }
  return outputs;
}

void refuse_clashing_paths(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs) {
  std::vector<FileIdentity> input_ids;
  for (const auto& input : inputs) input_ids.push_back(FileIdentity::of(input.path));
  std::vector<FileIdentity> output_ids;
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    FileIdentity id = FileIdentity::of(outputs[o].path);
    if (!id.regular) {
      output_ids.push_back(std::move(id));
      continue;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].path.empty() || !input_ids[i].same_file_as(id)) continue;
      throw config_error(outputs[o].role + " would be written to '" + outputs[o].path + "', which is " +
                         inputs[i].role + " ('" + inputs[i].path + "'); give the reporter another `path`");
    }
    for (std::size_t p = 0; p < o; ++p) {
      if (!output_ids[p].regular || !output_ids[p].same_file_as(id)) continue;
      throw config_error(outputs[o].role + " and " + outputs[p].role + " would both be written to '" +
                         outputs[o].path + "', and one would lose the other; give one of them another `path`");
    }
    output_ids.push_back(std::move(id));
  }
}

}  // namespace krino::core
