#include "item_line.hpp"

#include "format.hpp"

#include <cmath>

namespace krino::console {
namespace {

// Item ids and locations come from user data; keep them to a readable size.
constexpr std::size_t kMaxIdChars = 120;

std::string describe_check(const ItemResult& check) {
  std::string text = single_line(check.name, kMaxIdChars);
  text += ' ';
  if (check.score) {
    text += fixed(*check.score, 2);
    if (check.threshold) {
      // Compare what is printed, so "0.80 < 0.80" never appears.
      const double score = std::round(*check.score * 100.0);
      const double threshold = std::round(*check.threshold * 100.0);
      text += score < threshold ? " < " : score > threshold ? " > " : " = ";
      text += fixed(*check.threshold, 2);
    }
  } else {
    text += "null";
  }
  const std::string reason = single_line(check.reason, kMaxReasonChars);
  if (!reason.empty()) {
    text += ": ";
    text += reason;
  }
  return text;
}

std::string describe_error(const ItemError& error) {
  std::string text = error.stage.empty() ? std::string("error") : single_line(error.stage, kMaxIdChars);
  // A dataset error is already placed by its file:line; for the other stages the component
  // (task kind, evaluator name) says which part broke.
  if (error.stage != "dataset" && !error.component.empty()) {
    text += ' ';
    text += single_line(error.component, kMaxIdChars);
  }
  text += ": ";
  std::string message = single_line(error.message, kMaxReasonChars);
  if (message.empty()) message = error.code.empty() ? std::string("no reason given") : error.code;
  text += message;
  return text;
}

}  // namespace

std::string describe_item(const ItemFinished& item, uint32_t runs) {
  std::string text = "#" + std::to_string(item.index);
  if (const auto id = item.id_text()) {
    text += " (id " + single_line(*id, kMaxIdChars) + ")";
  } else if (item.location) {
    text += " " + single_line(*item.location, kMaxIdChars);
  }
  if (runs > 1) text += " [run " + std::to_string(item.run_index + 1) + "/" + std::to_string(runs) + "]";
  text += ' ';
  const Verdict verdict = verdict_of(item);
  if (verdict == Verdict::error) {
    text += describe_error(*item.error);
    return text;
  }
  // A passing item lists every result; a failing one only those that failed.
  bool described = false;
  for (const auto& result : item.results) {
    if (verdict == Verdict::fail && result.success) continue;
    if (described) text += "; ";
    text += describe_check(result);
    described = true;
  }
  if (!described) text += verdict == Verdict::pass ? "passed" : "failed without a failing evaluator result";
  return text;
}

std::string tagged_line(Verdict verdict, std::string_view description, const Style& style) {
  std::string line = verdict == Verdict::error  ? style.yellow("ERROR")
                     : verdict == Verdict::fail ? style.red("FAIL")
                                                : style.green("PASS");
  line += ' ';
  line += description;
  return line;
}

}  // namespace krino::console
