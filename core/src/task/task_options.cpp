#include "krino/core/task/task_options.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>

#include <cmath>

namespace krino::core {
namespace json = boost::json;

TaskOptions::TaskOptions(const json::object& options, std::string where) : options_(options), where_(std::move(where)) {}

std::string TaskOptions::name(std::string_view key) const { return where_ + "." + std::string(key); }

void TaskOptions::fail(std::string_view key, std::string_view problem) const {
  throw config_error(name(key) + ": " + std::string(problem));
}

const json::value* TaskOptions::find(std::string_view key) {
  known_.emplace(key);
  const json::value* value = options_.if_contains(key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

const json::value* TaskOptions::value(std::string_view key) { return find(key); }

std::string TaskOptions::string(std::string_view key, std::string_view fallback) {
  return optional_string(key).value_or(std::string(fallback));
}

std::optional<std::string> TaskOptions::optional_string(std::string_view key) {
  const json::value* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) fail(key, "must be a string");
  return std::string(v->get_string());
}

std::string TaskOptions::required_string(std::string_view key) {
  auto v = optional_string(key);
  if (!v || v->empty()) fail(key, "is required");
  return *v;
}

std::optional<std::int64_t> TaskOptions::optional_integer(std::string_view key, std::int64_t minimum,
                                                          std::int64_t maximum) {
  const json::value* v = find(key);
  if (v == nullptr) return std::nullopt;
  std::int64_t n = 0;
  if (v->is_int64()) n = v->get_int64();
  else if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) n = static_cast<std::int64_t>(v->get_uint64());
  else if (v->is_double() && std::floor(v->get_double()) == v->get_double() && std::fabs(v->get_double()) < 9e15)
    n = static_cast<std::int64_t>(v->get_double());
  else fail(key, "must be an integer");
  if (n < minimum || n > maximum) {
    std::string range = maximum == INT64_MAX ? "at least " + std::to_string(minimum)
                                             : "between " + std::to_string(minimum) + " and " + std::to_string(maximum);
    fail(key, "must be " + range + ", not " + std::to_string(n));
  }
  return n;
}

std::int64_t TaskOptions::integer(std::string_view key, std::int64_t fallback, std::int64_t minimum,
                                  std::int64_t maximum) {
  return optional_integer(key, minimum, maximum).value_or(fallback);
}

std::optional<double> TaskOptions::optional_number(std::string_view key, double minimum, double maximum) {
  const json::value* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) fail(key, "must be a number");
  const double d = v->to_number<double>();
  if (!(d >= minimum && d <= maximum))
    fail(key, "must be between " + json::serialize(json::value(minimum)) + " and " + json::serialize(json::value(maximum)));
  return d;
}

double TaskOptions::number(std::string_view key, double fallback, double minimum, double maximum) {
  return optional_number(key, minimum, maximum).value_or(fallback);
}

bool TaskOptions::boolean(std::string_view key, bool fallback) {
  const json::value* v = find(key);
  if (v == nullptr) return fallback;
  if (!v->is_bool()) fail(key, "must be true or false");
  return v->get_bool();
}

std::string TaskOptions::choice(std::string_view key, std::string_view fallback,
                                const std::vector<std::string_view>& choices) {
  std::string v = string(key, fallback);
  for (std::string_view c : choices)
    if (v == c) return v;
  std::string listed;
  for (std::string_view c : choices) listed += (listed.empty() ? "" : ", ") + std::string(c);
  fail(key, "'" + v + "' is not one of " + listed);
}

std::vector<std::string> TaskOptions::strings(std::string_view key) {
  std::vector<std::string> out;
  const json::value* v = find(key);
  if (v == nullptr) return out;
  if (!v->is_array()) fail(key, "must be a list of strings");
  for (const auto& item : v->get_array()) {
    if (!item.is_string()) fail(key, "must be a list of strings");
    out.emplace_back(item.get_string());
  }
  return out;
}

std::optional<json::object> TaskOptions::object(std::string_view key) {
  const json::value* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_object()) fail(key, "must be a map");
  return v->get_object();
}

std::vector<std::pair<std::string, std::string>> TaskOptions::string_map(std::string_view key) {
  std::vector<std::pair<std::string, std::string>> out;
  auto map = object(key);
  if (!map) return out;
  for (const auto& [k, v] : *map) {
    if (!v.is_string()) fail(std::string(key) + "." + std::string(k), "must be a string");
    out.emplace_back(std::string(k), std::string(v.get_string()));
  }
  return out;
}

void TaskOptions::reject_unknown() const {
  for (const auto& [key, value] : options_) {
    if (known_.count(key) != 0) continue;
    std::string listed;
    for (const auto& k : known_) listed += (listed.empty() ? "" : ", ") + k;
    throw config_error(name(key) + ": unknown option (known: " + listed + ")");
  }
}

}  // namespace krino::core
