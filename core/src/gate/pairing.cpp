#include "krino/core/gate/pairing.hpp"

#include "krino/core/common/error.hpp"

namespace krino::core {

Pairing parse_pairing(std::string_view text, const std::string& where) {
  if (text == "auto") return Pairing::automatic;
  if (text == "positional") return Pairing::positional;
  if (text == "id" || text == "dataset_item_id") return Pairing::dataset_item_id;
  throw config_error(where + ": expected auto, positional or id, got '" + std::string(text) + "'");
}

std::string pairing_name(Pairing pairing) {
  switch (pairing) {
    case Pairing::positional: return "positional";
    case Pairing::dataset_item_id: return "dataset_item_id";
    case Pairing::automatic: break;
  }
  return "auto";
}

std::string positional_key(uint64_t index) { return "item-" + std::to_string(index); }

}  // namespace krino::core
