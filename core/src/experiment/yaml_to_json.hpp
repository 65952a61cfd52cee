#pragma once
// Turning a parsed YAML document into JSON, within limits a hostile file cannot get past.
#include <boost/json/value.hpp>

#include <cstddef>
#include <string>

namespace YAML {
class Node;
}

namespace krino::core {

// What one experiment document (a file, or one --set value) may grow to once its aliases are
// expanded. Each alias is a copy of its anchor, so a few lines of aliases to aliases ("billion
// laughs") can stand for gigabytes; real experiment files stay far below these.
struct YamlLimits {
  std::size_t max_depth = 100;                    // collections nested in collections
  // A hand-written experiment file is far below both; an alias bomb reaches them in a fraction of a
  // second (a million values took seconds under the fuzzer's sanitizers).
  std::size_t max_values = 100'000;               // every scalar, list and map counted once per copy
  std::size_t max_text_bytes = std::size_t{16} << 20;  // 16 MiB of scalars and keys
};

// Converts `root` (see resolve_plain_scalar for plain scalars; quoted ones stay strings). Throws a
// configuration error naming `source` and a line on a key that is not a scalar, a duplicate key,
// an alias to a collection inside itself (a cycle), and a document past `limits`.
boost::json::value yaml_to_json(const YAML::Node& root, const std::string& source, const YamlLimits& limits = {});

}  // namespace krino::core
