#include "item_data.hpp"

#include <krino/json_text.hpp>
#include <krino/report/text.hpp>

namespace krino::html {
namespace {

void append_text(std::string& json, std::string_view text, std::size_t max_chars) {
  krino::json::append_json_string(json, report::excerpt(text, max_chars));
}

void append_number_or_null(std::string& json, const std::optional<double>& value) {
  if (value) krino::json::append_double(json, *value);
  else json += "null";
}

}  // namespace

void append_item_json(std::string& out, const report::ItemFinished& item, const std::vector<std::string>& evaluators,
                      std::size_t max_chars) {
  std::string json;
  json += "{\"r\":" + std::to_string(item.run_index) + ",\"i\":" + std::to_string(item.index) + ",\"id\":";
  if (const auto id = item.id_text()) append_text(json, *id, max_chars);
  else json += "null";
  json += ",\"loc\":";
  if (item.location) append_text(json, *item.location, max_chars);
  else json += "null";
  json += ",\"s\":\"";
  json += report::status_name(item.status());
  json += "\",\"in\":";
  append_text(json, report::section_text(item.inputs, "input"), max_chars);
  json += ",\"exp\":";
  append_text(json, report::section_text(item.expected_outputs, "output"), max_chars);
  json += ",\"act\":";
  append_text(json, report::section_text(item.actual_outputs, "output"), max_chars);
  json += ",\"res\":[";
  for (std::size_t k = 0; k < evaluators.size(); ++k) {
    if (k > 0) json += ',';
    const report::Result* result = nullptr;
    for (const auto& r : item.results) {
      if (r.name == evaluators[k]) {
        result = &r;
        break;
      }
    }
    if (result == nullptr) {
      json += "null";
      continue;
    }
    json += '[';
    append_number_or_null(json, result->score);
    json += result->success ? ",true," : ",false,";
    append_text(json, result->reason, max_chars);
    json += result->skipped ? ",true]" : ",false]";
  }
  json += "],\"err\":";
  if (item.error) {
    json += "{\"stage\":";
    krino::json::append_json_string(json, item.error->stage);
    json += ",\"component\":";
    krino::json::append_json_string(json, item.error->component);
    json += ",\"code\":";
    krino::json::append_json_string(json, item.error->code);
    json += ",\"message\":";
    append_text(json, item.error->message, max_chars);
    json += '}';
  } else {
    json += "null";
  }
  json += ",\"ms\":";
  append_number_or_null(json, item.duration_ms);
  json += '}';
  append_script_json(out, json);
}

void append_script_json(std::string& out, std::string_view json) {
  out.reserve(out.size() + json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
      out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
}

}  // namespace krino::html
