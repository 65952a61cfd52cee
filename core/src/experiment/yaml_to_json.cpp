#include "yaml_to_json.hpp"

#include "yaml_plain_scalar.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <vector>

namespace krino::core {
namespace {

class YamlToJson {
 public:
  YamlToJson(const std::string& source, const YamlLimits& limits) : source_(source), limits_(limits) {}

  boost::json::value convert(const YAML::Node& node) {
    count_value(node);
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        return nullptr;
      case YAML::NodeType::Scalar:
        count_text(node, node.Scalar().size());
        // yaml-cpp tags quoted scalars "!", plain ones "?".
        if (node.Tag() == "!") return boost::json::string(node.Scalar());
        return resolve_plain_scalar(node.Scalar());
      case YAML::NodeType::Sequence: {
        enter(node);
        boost::json::array array;
        for (const auto& item : node) array.push_back(convert(item));
        ancestors_.pop_back();
        return array;
      }
      case YAML::NodeType::Map: {
        enter(node);
        boost::json::object object;
        for (const auto& entry : node) {
          if (!entry.first.IsScalar()) throw error_at(entry.first, "keys must be scalars");
          const std::string& key = entry.first.Scalar();
          count_text(entry.first, key.size());
          if (object.contains(key)) throw error_at(entry.first, "duplicate key '" + key + "'");
          object[key] = convert(entry.second);
        }
        ancestors_.pop_back();
        return object;
      }
    }
    return nullptr;
  }

 private:
  KrinoError error_at(const YAML::Node& node, const std::string& message) const {
    std::string text = source_;
    text.append(":").append(std::to_string(node.Mark().line + 1)).append(": ").append(message);
    return config_error(text);
  }

  // A collection reached again below itself can only come from an alias to an enclosing anchor:
  // expanding it would never end.
  void enter(const YAML::Node& collection) {
    for (const YAML::Node& ancestor : ancestors_) {
      if (ancestor.is(collection))
        throw error_at(collection, "an alias refers to a collection that contains it; the document would be infinite");
    }
    if (ancestors_.size() >= limits_.max_depth)
      throw error_at(collection, "nested more than " + std::to_string(limits_.max_depth) + " levels deep");
    ancestors_.push_back(collection);
  }

  void count_value(const YAML::Node& node) {
    if (++values_ > limits_.max_values)
      throw error_at(node, "the document holds more than " + std::to_string(limits_.max_values) +
                               " values once its aliases are expanded");
  }

  void count_text(const YAML::Node& node, std::size_t bytes) {
    text_bytes_ += bytes;
    if (text_bytes_ > limits_.max_text_bytes)
      throw error_at(node, "the document holds more than " + std::to_string(limits_.max_text_bytes >> 20) +
                               " MiB of text once its aliases are expanded");
  }

  const std::string& source_;
  const YamlLimits& limits_;
  std::vector<YAML::Node> ancestors_;
  std::size_t values_ = 0;
  std::size_t text_bytes_ = 0;
};

}  // namespace

boost::json::value yaml_to_json(const YAML::Node& root, const std::string& source, const YamlLimits& limits) {
  return YamlToJson(source, limits).convert(root);
}

}  // namespace krino::core
