#include "run_reader.hpp"

#include <krino/support/trace/document_shape.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <map>

namespace krino::langsmith {
namespace {

void add_run(const boost::json::object& object, std::vector<boost::json::object>& out) {
  boost::json::object run = object;
  const boost::json::value* children = object.if_contains("child_runs");
  run.erase("child_runs");
  out.push_back(std::move(run));
  if (children != nullptr && children->is_array())
    for (const boost::json::value& child : children->get_array())
      if (child.is_object()) add_run(child.get_object(), out);
}

std::string key_of(const boost::json::object& run) {
  const boost::json::value* id = run.if_contains("id");
  if (id == nullptr) return {};
  return id->is_string() ? std::string(id->get_string()) : boost::json::serialize(*id);
}

Run finish(boost::json::object merged) {
  Run run;
  run.id = key_of(merged);
  run.parent_id = trace::string_member(merged, "parent_run_id");
  run.name = trace::string_member(merged, "name");
  run.run_type = trace::string_member(merged, "run_type");
  run.start_us = iso_time_us(trace::string_member(merged, "start_time"));
  run.end_us = iso_time_us(trace::string_member(merged, "end_time"));
  run.run = std::move(merged);
  return run;
}

}  // namespace

bool is_run(const boost::json::value& value) {
  if (!value.is_object()) return false;
  const boost::json::object& object = value.get_object();
  return object.contains("run_type") && (object.contains("inputs") || object.contains("outputs"));
}

namespace {

// `count` digits at `at` as a number, or -1 when any is not a digit.
int digits_at(const std::string& text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<int64_t> iso_time_us(const std::string& text) {
  // YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]; read by hand, every field checked, because
  // Boost's date parser overflows on long digit runs (found by fuzzing).
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != ' ') ||
      text[13] != ':' || text[16] != ':')
    return std::nullopt;
  const int year = digits_at(text, 0, 4), month = digits_at(text, 5, 2), day = digits_at(text, 8, 2);
  const int hour = digits_at(text, 11, 2), minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return std::nullopt;
  if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok()) return std::nullopt;
  std::size_t at = 19;
  int64_t micros = 0;
  if (at < text.size() && text[at] == '.') {
    ++at;
    std::size_t fraction_digits = 0;
    int64_t scale = 100000;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (++fraction_digits > 9) return std::nullopt;
      micros += (text[at] - '0') * scale;  // digits past the sixth add nothing: scale is 0 by then
      scale /= 10;
      ++at;
    }
    if (fraction_digits == 0) return std::nullopt;
  }
  int64_t offset_minutes = 0;
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const int sign = text[at] == '+' ? 1 : -1;
    const int hours = digits_at(text, at + 1, 2), minutes = digits_at(text, at + 4, 2);
    if (hours < 0 || minutes < 0 || at + 3 >= text.size() || text[at + 3] != ':' || hours > 23 || minutes > 59)
      return std::nullopt;
    offset_minutes = sign * (hours * 60 + minutes);
    at += 6;
  }
  if (at != text.size()) return std::nullopt;
  const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const int64_t seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offset_minutes * 60;
  return seconds * 1'000'000 + micros;
}

std::optional<std::vector<Run>> read_runs(const boost::json::value& document) {
  std::vector<boost::json::object> posted;
  std::vector<boost::json::object> patches;
  const auto add_all = [&](const boost::json::array& list, std::vector<boost::json::object>& out) {
    for (const boost::json::value& element : list)
      if (element.is_object()) add_run(element.get_object(), out);
  };
  if (document.is_array()) {
    if (document.get_array().empty()) return std::nullopt;
    for (const boost::json::value& element : document.get_array())
      if (!is_run(element)) return std::nullopt;
    add_all(document.get_array(), posted);
  } else if (document.is_object()) {
    const boost::json::object& object = document.get_object();
    const boost::json::array* post = trace::find_array(object, "post");
    const boost::json::array* patch = trace::find_array(object, "patch");
    const boost::json::array* runs = trace::find_array(object, "runs");
    if (post != nullptr || patch != nullptr) {
      if (post != nullptr) add_all(*post, posted);
      if (patch != nullptr) add_all(*patch, patches);
    } else if (runs != nullptr) {
      add_all(*runs, posted);
    } else if (is_run(document)) {
      add_run(object, posted);
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (posted.empty() && patches.empty()) return std::nullopt;

  // A patch completes the posted run with its id; its non-null fields win. A patch nobody posted
  // stands on its own.
  std::vector<boost::json::object> merged = std::move(posted);
  std::map<std::string, std::size_t> by_id;
  for (std::size_t i = 0; i < merged.size(); ++i) by_id.emplace(key_of(merged[i]), i);
  for (boost::json::object& patch : patches) {
    const auto found = by_id.find(key_of(patch));
    if (found == by_id.end() || found->first.empty()) {
      merged.push_back(std::move(patch));
      continue;
    }
    boost::json::object& run = merged[found->second];
    for (auto& member : patch)
      if (!member.value().is_null()) run[member.key()] = std::move(member.value());
  }

  std::vector<Run> runs;
  runs.reserve(merged.size());
  bool all_dotted = true;
  bool all_timed = true;
  for (boost::json::object& object : merged) {
    runs.push_back(finish(std::move(object)));
    all_dotted = all_dotted && !trace::string_member(runs.back().run, "dotted_order").empty();
    all_timed = all_timed && runs.back().start_us.has_value();
  }
  if (all_dotted) {
    std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
      return trace::string_member(a.run, "dotted_order") < trace::string_member(b.run, "dotted_order");
    });
  } else if (all_timed) {
    std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return *a.start_us < *b.start_us; });
  }
  return runs;
}

}  // namespace krino::langsmith
