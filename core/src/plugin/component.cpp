// Component's members that are not plain data: the lazily opened library and the lazily built validator.
#include "krino/core/plugin/component.hpp"

#include "krino/core/plugin/config_validator.hpp"
#include "krino/core/plugin/loaded_plugin.hpp"

namespace krino::core {

void Component::require_code() const {
  if (plugin != nullptr) plugin->require_code();
}

const ConfigValidator& Component::validator() const {
  ValidatorSlot& slot = *validator_slot_;
  std::call_once(slot.once, [&] {
    if (slot.built == nullptr) slot.built = std::make_shared<const ConfigValidator>(config_schema);
  });
  return *slot.built;
}

void Component::set_validator(std::shared_ptr<const ConfigValidator> built) {
  validator_slot_ = std::make_shared<ValidatorSlot>();
  validator_slot_->built = std::move(built);
}

}  // namespace krino::core
