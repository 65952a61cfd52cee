#pragma once
// One configured reporter instance. Events are delivered serially, in order.
#include "krino/core/plugin/component.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace krino::core {

class ReporterHandle {
 public:
  // Throws a configuration error when the plugin refuses its options.
  ReporterHandle(const Component& component, const krino_host* host, const boost::json::object& options);
  ~ReporterHandle();
  ReporterHandle(const ReporterHandle&) = delete;
  ReporterHandle& operator=(const ReporterHandle&) = delete;

  // Throw a runtime error naming the reporter when it fails: a report that silently loses events
  // is worse than a stopped run.
  void on_event(std::string_view event);
  void flush();

  const Component& component() const { return component_; }

 private:
  const Component& component_;
  void* instance_ = nullptr;
};

}  // namespace krino::core
