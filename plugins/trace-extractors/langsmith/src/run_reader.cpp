#include "run_reader.hpp"

#include <krino/support/trace/document_shape.hpp>

#include <boost/date_time/posix_time/posix_time.hpp>

#include <algorithm>
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

std::optional<int64_t> iso_time_us(const std::string& text) {
  if (text.size() < 19 || text[10] != 'T') return std::nullopt;
  std::string local = text;
  int64_t offset_minutes = 0;
  if (local.back() == 'Z') {
    local.pop_back();
  } else if (local.size() >= 25 && (local[local.size() - 6] == '+' || local[local.size() - 6] == '-') &&
             local[local.size() - 3] == ':') {
    const int sign = local[local.size() - 6] == '+' ? 1 : -1;
    try {
      offset_minutes = sign * (std::stoi(local.substr(local.size() - 5, 2)) * 60 + std::stoi(local.substr(local.size() - 2, 2)));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    local.resize(local.size() - 6);
  }
  try {
    const boost::posix_time::ptime time = boost::posix_time::from_iso_extended_string(local);
    if (time.is_not_a_date_time()) return std::nullopt;
    const boost::posix_time::ptime epoch(boost::gregorian::date(1970, 1, 1));
    return static_cast<int64_t>((time - epoch).total_microseconds()) - offset_minutes * 60'000'000;
  } catch (const std::exception&) {
    return std::nullopt;
  }
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
