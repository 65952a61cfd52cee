// krino C++ helper: reporters. KRINO_REPORTER registers a class as a reporter component; the class
// receives each krino.event/1 document as a krino::Event, in order.
//
//   class Failures {
//    public:
//     explicit Failures(const krino::Config& config);   // [main-thread]
//     void on_event(const krino::Event& event);          // [serial]: in order, never concurrently
//     void flush();                                       // [serial]: end of every run, and Ctrl-C
//   };
//   KRINO_REPORTER(Failures, "com.acme.failures", "failures", "1.0.0", "Prints failing items", kSchema);
//
// Threads: as tagged above; a reporter needs no locks. Ownership: an Event views the host's bytes,
// valid for the on_event call only, and the values json() parses live in the Event: copy what you
// keep. The plugin creates and destroys its instances.
#ifndef KRINO_PLUGIN_REPORTER_HPP
#define KRINO_PLUGIN_REPORTER_HPP

#include <krino/plugin.h>
#include <krino/plugin/config.hpp>
#include <krino/plugin/error.hpp>
#include <krino/plugin/registry.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <string_view>

namespace krino {

// One krino.event/1 document handed to a reporter; parsed only if the reporter asks.
class Event {
 public:
  explicit Event(std::string_view raw) : raw_(raw) {}
  std::string_view raw() const { return raw_; }
  const boost::json::object& json() const {
    if (!parsed_) {
      boost::system::error_code ec;
      value_ = krino::json::parse(raw_, ec, &arena_);
      if (ec || !value_.is_object()) throw invalid_argument("event is not a JSON object");
      parsed_ = true;
    }
    return value_.get_object();
  }
  // The "event" field: run_started, item_finished, run_finished, experiment_finished.
  std::string_view type() const {
    auto it = json().find("event");
    return it != json().end() && it->value().is_string() ? std::string_view(it->value().get_string()) : std::string_view();
  }

 private:
  std::string_view raw_;
  mutable bool parsed_ = false;
  mutable boost::json::monotonic_resource arena_;
  mutable boost::json::value value_;
};

namespace detail {

template <class T>
struct ReporterTrampolines {
  static krino_status create(const krino_host*, const char* config, size_t size, void** out, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg = configuration(config, size, "configuration", registered_schema<T>().usable());
      *out = new T(cfg);
      return KRINO_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<T*>(instance); }
  static krino_status on_event(void* instance, const char* data, size_t size, krino_sink* error) {
    return guarded(error, [&] {
      Event event(std::string_view(data, size));
      static_cast<T*>(instance)->on_event(event);
      return KRINO_OK;
    });
  }
  static krino_status flush(void* instance, krino_sink* error) {
    return guarded(error, [&] {
      static_cast<T*>(instance)->flush();
      return KRINO_OK;
    });
  }
  static const krino_reporter_vtable* vtable() {
    static const krino_reporter_vtable table = {sizeof(krino_reporter_vtable), &create, &destroy, &on_event, &flush};
    return &table;
  }
};

}  // namespace detail
}  // namespace krino

// Registers class T as a reporter. T needs T(const krino::Config&),
// void on_event(const krino::Event& event) and void flush().
#define KRINO_REPORTER(T, id, name, version, description, schema)                                          \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component_of<T>( \
      KRINO_KIND_REPORTER, id, name, version, description, 0, schema,                                      \
      ::krino::detail::ReporterTrampolines<T>::vtable())

#endif  // KRINO_PLUGIN_REPORTER_HPP
