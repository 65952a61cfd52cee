#pragma once
// Reads a task's options from the experiment file with errors that name the key ("task.timeout_ms:
// must be a positive integer"), and reports every key nobody read as unknown, listing the known
// ones: as everywhere in experiment files, a typo is an error, never a silent default.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

class TaskOptions {
 public:
  // `where` prefixes every message: "task" for the experiment's task, "task.application" for a
  // conversation's inner task.
  TaskOptions(const boost::json::object& options, std::string where);

  // Each getter marks `key` as known. Absent or null means the fallback (or nullopt); a value of the
  // wrong type throws a configuration error.
  std::string string(std::string_view key, std::string_view fallback = {});
  std::optional<std::string> optional_string(std::string_view key);
  std::string required_string(std::string_view key);
  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t minimum = INT64_MIN,
                       std::int64_t maximum = INT64_MAX);
  std::optional<std::int64_t> optional_integer(std::string_view key, std::int64_t minimum = INT64_MIN,
                                               std::int64_t maximum = INT64_MAX);
  double number(std::string_view key, double fallback, double minimum, double maximum);
  std::optional<double> optional_number(std::string_view key, double minimum, double maximum);
  bool boolean(std::string_view key, bool fallback);
  // One of `choices`, case-sensitive.
  std::string choice(std::string_view key, std::string_view fallback, const std::vector<std::string_view>& choices);
  std::vector<std::string> strings(std::string_view key);
  std::optional<boost::json::object> object(std::string_view key);
  // The raw value, whatever its type, for options with several accepted shapes.
  const boost::json::value* value(std::string_view key);
  // A string-to-string map ({Header: value}).
  std::vector<std::pair<std::string, std::string>> string_map(std::string_view key);

  // Throws for the first key that no getter asked for.
  void reject_unknown() const;

  // "task.timeout_ms": how messages name a key.
  std::string name(std::string_view key) const;
  [[noreturn]] void fail(std::string_view key, std::string_view problem) const;

 private:
  const boost::json::value* find(std::string_view key);

  const boost::json::object& options_;
  std::string where_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace krino::core
