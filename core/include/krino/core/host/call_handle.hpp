#pragma once
// What krino_call_context::host_handle points at during an item's evaluator calls: where the
// item's judge calls are counted, and the item's test case as the host parsed it.
#include "krino/core/usage/judge_usage.hpp"

namespace krino::core {

class HostTestCase;

struct CallHandle {
  CallAttribution* attribution = nullptr;
  // Lent to plugins as krino.host.document/1; nullptr when the host keeps no parse for the call
  // (and for a call moved to a thread of its own, which must not share the item's parse).
  HostTestCase* testcase = nullptr;
};

}  // namespace krino::core
