#pragma once
// How items of two runs are matched: by dataset position or by the example's own id (docs/gate.md#pairing).
#include <string>
#include <string_view>

namespace krino::core {

enum class Pairing {
  automatic,        // by id when every item has one, else by position
  positional,       // key "item-<index>"
  dataset_item_id,  // key = the example's id; an item without one is an error
};

// "auto", "positional", "id" (also "dataset_item_id"); a configuration error names `where` otherwise.
Pairing parse_pairing(std::string_view text, const std::string& where);
// The name written in baseline and verdict files: "positional" or "dataset_item_id" ("auto" for automatic).
std::string pairing_name(Pairing pairing);

// "item-<index>", the positional key.
std::string positional_key(uint64_t index);

}  // namespace krino::core
