#include "krino/core/runner/reporter_handle.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>

namespace krino::core {

ReporterHandle::ReporterHandle(const Component& component, const krino_host* host, const boost::json::object& options)
    : component_(component) {
  const std::string config = ::krino::json::to_compact_json(options);
  StringSink error;
  krino_status status = component.reporter().create(host, config.data(), config.size(), &instance_, error.sink());
  if (status != KRINO_OK || instance_ == nullptr) {
    instance_ = nullptr;
    throw config_error("reporter '" + component.name + "' rejected its options: " +
                       (error.text().empty() ? "no reason given" : error.message()));
  }
}

ReporterHandle::~ReporterHandle() {
  if (instance_ != nullptr) component_.reporter().destroy(instance_);
}

void ReporterHandle::on_event(std::string_view event) {
  StringSink error;
  krino_status status = component_.reporter().on_event(instance_, event.data(), event.size(), error.sink());
  if (status != KRINO_OK) throw runtime_error("reporter '" + component_.name + "' failed: " + error.message());
}

void ReporterHandle::flush() {
  if (component_.reporter().flush == nullptr) return;
  StringSink error;
  krino_status status = component_.reporter().flush(instance_, error.sink());
  if (status != KRINO_OK) throw runtime_error("reporter '" + component_.name + "' could not flush: " + error.message());
}

}  // namespace krino::core
