// krino C++ helper: dataset resolvers. KRINO_DATASET_RESOLVER registers a class as a dataset
// resolver component: a stream over one dataset URI that yields one krino.example/1 at a time.
//
//   class Lines {
//    public:
//     Lines(const krino_host*, std::string uri, const krino::Config&, krino::DatasetInfo&);  // [main-thread]
//     krino::Next next(std::string& record, std::string& location, std::string& error);       // [serial]
//     boost::json::object decode(std::string_view record) const;            // optional, [thread-safe]
//       (or std::string decode(...): the example's JSON text, passed on as it is)
//     bool record_is_example(std::string_view record) const;                 // optional, [thread-safe]
//   };
//   KRINO_DATASET_RESOLVER(Lines, "com.acme.lines", "lines", "1.0.0", "One example per line",
//                          "file", ".txt", kSchema);
//
// Threads: as tagged above; decode must not touch what next changes. Ownership: the stream is the
// plugin's (created by open, deleted by close); the record views the host's bytes for the decode call
// only; what next and decode return is copied into the host's sinks.
#ifndef KRINO_PLUGIN_DATASET_RESOLVER_HPP
#define KRINO_PLUGIN_DATASET_RESOLVER_HPP

#include <krino/plugin.h>
#include <krino/plugin/config.hpp>
#include <krino/plugin/error.hpp>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/sink.hpp>

#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace krino {

// What open() tells the host about the dataset: the krino.datasetinfo/1 document.
struct DatasetInfo {
  std::string name;
  std::string description;
  std::optional<uint64_t> size_hint;  // expected number of examples, when cheap to know
};

// What a resolver stream's next() produced.
enum class Next { record, end, bad };

namespace detail {

template <class T, class = void>
struct has_decode : std::false_type {};
template <class T>
struct has_decode<T, std::void_t<decltype(std::declval<const T&>().decode(std::string_view()))>> : std::true_type {};

template <class T, class = void>
struct has_record_is_example : std::false_type {};
template <class T>
struct has_record_is_example<T, std::void_t<decltype(std::declval<const T&>().record_is_example(std::string_view()))>>
    : std::true_type {};

template <class T>
struct ResolverTrampolines {
  static krino_status open(const krino_host* host, const char* uri, const char* options, size_t size, void** out,
                           krino_sink* info, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg = configuration(options, size, "dataset options", registered_schema<T>().usable());
      DatasetInfo dataset_info;
      std::unique_ptr<T> stream(new T(host, std::string(uri), cfg, dataset_info));
      boost::json::object o;
      o["name"] = dataset_info.name;
      o["description"] = dataset_info.description;
      if (dataset_info.size_hint) o["sizeHint"] = *dataset_info.size_hint;
      write_json(info, o);
      *out = stream.release();
      return KRINO_OK;
    });
  }
  static krino_status next(void* stream, krino_sink* record, krino_sink* location, int32_t* outcome,
                           krino_sink* error) {
    return guarded(error, [&] {
      // Reused per thread: next() runs on the serial input stage, once per record, and the sinks
      // copy synchronously, so nothing outlives the call.
      thread_local std::string rec;
      thread_local std::string loc;
      thread_local std::string message;
      rec.clear();
      loc.clear();
      message.clear();
      Next n = static_cast<T*>(stream)->next(rec, loc, message);
      write(location, loc);
      switch (n) {
        case Next::record:
          write(record, rec);
          *outcome = KRINO_NEXT_RECORD;
          break;
        case Next::end:
          *outcome = KRINO_NEXT_END;
          break;
        case Next::bad:
          write(error, message);
          *outcome = KRINO_NEXT_BAD;
          break;
      }
      return KRINO_OK;
    });
  }
  static krino_status decode(void* stream, const char* data, size_t size, krino_sink* example, krino_sink* error) {
    return guarded(error, [&] {
      if constexpr (has_decode<T>::value) {
        const T* self = static_cast<const T*>(stream);
        const std::string_view record(data, size);
        if constexpr (has_record_is_example<T>::value) {
          if (self->record_is_example(record)) {
            write(example, record);
            return KRINO_OK;
          }
        }
        if constexpr (std::is_convertible_v<decltype(self->decode(record)), std::string_view>)
          write(example, self->decode(record));  // already the example's JSON text
        else
          write_json(example, self->decode(record));
      }
      return KRINO_OK;
    });
  }
  static void close(void* stream) { delete static_cast<T*>(stream); }
  static const krino_dataset_resolver_vtable* vtable(const char* schemes, const char* extensions) {
    static const krino_dataset_resolver_vtable table = {
        sizeof(krino_dataset_resolver_vtable), schemes, extensions, &open, &next,
        has_decode<T>::value ? &decode : nullptr, &close};
    return &table;
  }
};

}  // namespace detail
}  // namespace krino

// Registers class T as a dataset resolver. T needs
// T(const krino_host*, std::string uri, const krino::Config&, krino::DatasetInfo&),
// krino::Next next(std::string& record, std::string& location, std::string& error_message), and
// optionally boost::json::object decode(std::string_view record) const, which must be thread-safe
// (or std::string decode(...) returning the example as JSON text: values copied from the record's
// bytes then reach the host exactly as written, which a parsed and rewritten value cannot promise
// for an integer beyond 64 bits),
// and optionally bool record_is_example(std::string_view record) const (thread-safe too): true when
// the record already is a canonical krino.example/1 document, which is then passed on unchanged.
#define KRINO_DATASET_RESOLVER(T, id, name, version, description, schemes, extensions, schema)             \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component_of<T>( \
      KRINO_KIND_DATASET_RESOLVER, id, name, version, description,                                        \
      KRINO_CAP_DETERMINISTIC |                                                                            \
          (::krino::detail::has_record_is_example<T>::value && ::krino::detail::has_decode<T>::value       \
               ? KRINO_CAP_PASSES_EXAMPLES                                                                 \
               : uint64_t{0}),                                                                             \
      schema,                                                                                              \
      ::krino::detail::ResolverTrampolines<T>::vtable(schemes, extensions))

#endif  // KRINO_PLUGIN_DATASET_RESOLVER_HPP
