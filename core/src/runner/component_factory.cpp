#include "krino/core/runner/component_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/config_validator.hpp"

namespace krino::core {

void validate_options(const Component& component, const boost::json::object& options, const std::string& what) {
  std::vector<std::string> problems = component.validator->validate(boost::json::value(options));
  if (problems.empty()) return;
  std::string message = what + " '" + component.name + "' has invalid options:";
  for (const auto& p : problems) message += "\n  " + p;
  message += "\n(see `krino plugins info " + component.name + "`)";
  throw config_error(message);
}

std::string evaluator_display_name(const Component& component, const boost::json::object& options) {
  if (auto it = options.find("name"); it != options.end() && it->value().is_string() &&
                                      !it->value().get_string().empty())
    return std::string(it->value().get_string());
  return component.name;
}

std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const krino_host* host, size_t workers) {
  const Component& component = registry.find(ComponentKind::evaluator, use.component);
  validate_options(component, use.options, "evaluator");
  return std::make_unique<EvaluatorHandle>(component, host, evaluator_display_name(component, use.options),
                                           use.options, workers);
}

std::unique_ptr<ReporterHandle> make_reporter(const PluginRegistry& registry, const ComponentUse& use,
                                              const krino_host* host) {
  const Component& component = registry.find(ComponentKind::reporter, use.component);
  validate_options(component, use.options, "reporter");
  return std::make_unique<ReporterHandle>(component, host, use.options);
}

}  // namespace krino::core
