#pragma once
// A dataset resolver's stream, opened for one run: records are cut serially and decoded into
// examples in parallel (see krino_dataset_resolver_vtable).
#include "krino/core/common/status.hpp"
#include "krino/core/plugin/component.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <krino/event/run_started.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace krino::core {

// One record cut from the source, with where it came from.
struct DatasetRecord {
  enum class Kind { record, bad, end };
  Kind kind = Kind::end;
  std::string bytes;     // the record (or, without decode, the example itself)
  std::string location;  // "path:line", may be empty
  std::string error;     // for Kind::bad
  // The item's index when the source numbers its items itself (a test case line: its zero-based
  // line number, blank lines counted); otherwise the runner counts records from 0.
  std::optional<uint64_t> index;
};

// What the resolver said of the dataset, as run_started reports it.
using DatasetInfo = krino::event::DatasetInfo;

class DatasetStream {
 public:
  // Throws a runtime error naming the URI when the resolver cannot open it.
  DatasetStream(const Component& resolver, const krino_host* host, const std::string& uri,
                const boost::json::object& options);
  ~DatasetStream();
  DatasetStream(const DatasetStream&) = delete;
  DatasetStream& operator=(const DatasetStream&) = delete;

  const DatasetInfo& info() const { return info_; }

  // [serial] The next record. Throws a runtime error when the source itself fails.
  DatasetRecord next();

  // [thread-safe] The example JSON for a record, or INVALID_ARGUMENT with the reason it is malformed.
  StatusOr<std::string> decode(const std::string& record) const;

  // Whether records may already be examples the host can pass through (KRINO_CAP_PASSES_EXAMPLES).
  bool passes_examples() const;

 private:
  const Component& resolver_;
  void* stream_ = nullptr;
  std::string uri_;
  DatasetInfo info_;
};

// The resolver for a URI: the one named, else the one whose scheme and extension match.
const Component& choose_resolver(const class PluginRegistry& registry, const std::string& uri,
                                 const std::string& named);

}  // namespace krino::core
