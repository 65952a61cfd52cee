#pragma once
// Why an item could not be scored: a status and where it arose (the stage and component).
// Reported apart from scores (docs/payloads.md, "error").
#include "krino/core/common/status.hpp"

#include <krino/plugin.h>

#include <krino/event/item_finished.hpp>

#include <string>

namespace krino::core {

struct ItemError {
  std::string stage;      // "dataset", "task" or "evaluator"
  std::string component;  // the evaluator's name, the task kind, or the resolver
  krino_status code = KRINO_UNKNOWN;
  std::string message;

  // As the item_finished event reports it: the code by its status name.
  krino::event::ItemError to_event() const;
};

}  // namespace krino::core
