#pragma once
// Which files a run reads and writes, checked before anything is written: a report must never
// replace a file the user named as input (the experiment file, the dataset, a report being resumed)
// and two reports must never share a file (one would silently lose the other).
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <string>
#include <vector>

namespace krino::core {

// A file and what it is to the run, in the words an error message uses ("the dataset").
struct NamedFile {
  std::string role;
  std::string path;
};

// The dataset's file when its URI names a local file (a plain path or a file: URI); empty otherwise.
std::string local_dataset_path(const std::string& uri);

// The file each reporter writes: its `path` option, as given or as its option schema's default, for
// every reporter whose schema declares a string `path`. Standard output ("-") is left out.
std::vector<NamedFile> reporter_outputs(const PluginRegistry& registry, const std::vector<ComponentUse>& reporters);

// Throws a configuration error naming both roles and the file when an output is the same file as
// an input or as another output (the same name, a symbolic link to it, a hard link: anything that
// reaches the same file). Files that are not regular files (devices such as /dev/null) may be shared.
void refuse_clashing_paths(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs);

}  // namespace krino::core
