#include "junit_testcase.hpp"

#include <krino/report/markup.hpp>
#include <krino/report/text.hpp>

#include <algorithm>
#include <cmath>

namespace krino::junit {
namespace {

// How much of the input a test case name carries: enough to recognise the item in a CI list.
constexpr std::size_t kNameInputChars = 60;
// Ids are short in practice; one that is not must not swamp the name.
constexpr std::size_t kNameLabelChars = 100;
// Reasons and messages in attributes stay short; the element's text has the whole of them.
constexpr std::size_t kMessageChars = 300;

std::string score_text(const std::optional<double>& value) {
  return value ? report::fixed(*value, 2) : std::string("none");
}

// "exact_match: score 0.00, threshold 1.00: expected ..." (one line).
std::string failure_message(const report::Result& result) {
  std::string message = result.name + ": ";
  if (result.score) {
    message += "score " + report::fixed(*result.score, 2);
    if (result.threshold) message += ", threshold " + report::fixed(*result.threshold, 2);
  } else {
    message += "no score";
  }
  if (!result.reason.empty()) message += ": " + report::short_line(result.reason, kMessageChars);
  return message;
}

// "evaluator exact_match: <message>", the same form as the console's error lines.
std::string error_message(const report::ItemError& error) {
  std::string where = error.stage.empty() ? std::string("item") : error.stage;
  if (!error.component.empty() && error.stage != "dataset") where += " " + error.component;
  const std::string& text = error.message.empty() ? error.code : error.message;
  return where + ": " + report::short_line(text, kMessageChars);
}

// "data.jsonl:13" -> file "data.jsonl", line "13"; a location without a line number is a file.
void append_location(std::string& out, const std::optional<std::string>& location) {
  if (!location || location->empty()) return;
  const std::size_t colon = location->rfind(':');
  const bool has_line = colon != std::string::npos && colon + 1 < location->size() && colon > 0 &&
                        location->find_first_not_of("0123456789", colon + 1) == std::string::npos;
  if (has_line) {
    report::append_attribute(out, "file", std::string_view(*location).substr(0, colon));
    report::append_attribute(out, "line", std::string_view(*location).substr(colon + 1));
  } else {
    report::append_attribute(out, "file", *location);
  }
}

void append_element(std::string& out, std::string_view element, std::string_view type, std::string_view message,
                    std::string_view body) {
  out += "      <";
  out += element;
  if (!type.empty()) report::append_attribute(out, "type", type);
  report::append_attribute(out, "message", message);
  if (body.empty()) {
    out += "/>\n";
    return;
  }
  out += '>';
  report::append_markup_text(out, body);
  out += "</";
  out += element;
  out += ">\n";
}

std::string result_line(const report::Result& r) {
  std::string line = r.name + ": " + score_text(r.score);
  if (r.threshold) line += " (threshold " + report::fixed(*r.threshold, 2) + ")";
  line += r.skipped ? " skipped" : r.success ? " passed" : " FAILED";
  if (!r.reason.empty()) line += ": " + report::one_line(r.reason);
  return line;
}

std::string system_out(const report::ItemFinished& item, const CaseContext& context) {
  const std::size_t max = context.max_text_chars;
  std::string text;
  if (item.location) text += "location: " + *item.location + "\n";
  const std::string input = report::section_text(item.inputs, "input");
  const std::string expected = report::section_text(item.expected_outputs, "output");
  const std::string actual = report::section_text(item.actual_outputs, "output");
  if (!input.empty()) text += "input: " + report::excerpt(input, max) + "\n";
  if (!expected.empty()) text += "expected: " + report::excerpt(expected, max) + "\n";
  if (!actual.empty()) text += "actual: " + report::excerpt(actual, max) + "\n";
  for (const auto& r : item.results) text += report::excerpt(result_line(r), max) + "\n";
  return text;
}

}  // namespace

std::string seconds(double milliseconds) {
  if (!std::isfinite(milliseconds) || milliseconds < 0) milliseconds = 0;
  return report::fixed(milliseconds / 1000.0, 3);
}

std::string testcase_name(const report::ItemFinished& item, const CaseContext& context) {
  std::string name = report::short_line(item.label(), kNameLabelChars);
  const std::string input = report::short_line(report::section_text(item.inputs, "input"), kNameInputChars);
  if (!input.empty()) name += ": " + input;
  if (context.runs > 1) name += " [run " + std::to_string(item.run_index + 1) + "/" + std::to_string(context.runs) + "]";
  return name;
}

report::ItemStatus append_testcase(std::string& out, const report::ItemFinished& item, const CaseContext& context) {
  const report::ItemStatus status = item.status();
  out += "    <testcase";
  report::append_attribute(out, "name", testcase_name(item, context));
  report::append_attribute(out, "classname", context.classname);
  report::append_attribute(out, "time", seconds(item.duration_ms.value_or(0)));
  append_location(out, item.location);
  out += ">\n";

  const std::size_t max = context.max_text_chars;
  switch (status) {
    case report::ItemStatus::errored: {
      const report::ItemError& e = *item.error;
      std::string body = "stage: " + e.stage + "\n";
      if (!e.component.empty()) body += "component: " + e.component + "\n";
      body += "code: " + e.code + "\n";
      body += "message: " + report::excerpt(e.message, max) + "\n";
      append_element(out, "error", e.code, error_message(e), body);
      break;
    }
    case report::ItemStatus::failed: {
      std::string merged_types, merged_messages, merged_bodies;
      for (const auto& r : item.results) {
        if (r.success) continue;
        std::string body = r.score ? "Evaluation '" + r.name + "' failed: score=" + report::fixed(*r.score, 2)
                                   : "Evaluation '" + r.name + "' could not compute a score";
        if (r.score && r.threshold) body += " (threshold=" + report::fixed(*r.threshold, 2) + ")";
        body += "\n";
        if (!r.reason.empty()) body += "Reason: " + report::excerpt(r.reason, max) + "\n";
        if (!context.merge_failures) {
          append_element(out, "failure", r.name, failure_message(r), body);
          continue;
        }
        const bool first = merged_types.empty();
        merged_types += (first ? "" : ",") + r.name;
        merged_messages += (first ? "" : "; ") + failure_message(r);
        merged_bodies += (first ? "" : "\n") + body;
      }
      if (!merged_types.empty()) append_element(out, "failure", merged_types, merged_messages, merged_bodies);
      // success false with every result passing: krino's verdict stands, said plainly.
      if (merged_types.empty() && std::none_of(item.results.begin(), item.results.end(),
                                               [](const report::Result& r) { return !r.success; }))
        append_element(out, "failure", "", "the item did not pass", "");
      break;
    }
    case report::ItemStatus::skipped: {
      std::string message = item.results.empty() ? "no evaluator checked this item" : "every evaluator skipped this item";
      for (const auto& r : item.results) {
        if (!r.reason.empty()) message += "; " + r.name + ": " + report::short_line(r.reason, kMessageChars);
      }
      append_element(out, "skipped", "", message, "");
      break;
    }
    case report::ItemStatus::passed:
      break;
  }
  if (context.system_out) {
    out += "      <system-out>";
    report::append_markup_text(out, system_out(item, context));
    out += "</system-out>\n";
  }
  out += "    </testcase>\n";
  return status;
}

void append_error_case(std::string& out, std::string_view classname, std::string_view name, std::string_view type,
                       std::string_view message) {
  out += "    <testcase";
  report::append_attribute(out, "name", name);
  report::append_attribute(out, "classname", classname);
  report::append_attribute(out, "time", "0.000");
  out += ">\n";
  append_element(out, "error", type, message, message);
  out += "    </testcase>\n";
}

}  // namespace krino::junit
