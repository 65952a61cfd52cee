#include "krino/core/runner/eval_result_check.hpp"

#include "krino/core/common/json_scan.hpp"

#include <boost/json.hpp>
#include <krino/json_parse.hpp>
#include <boost/json/basic_parser_impl.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin/eval_result.hpp>
#include <krino/utf8.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace krino::core {
namespace {

using boost::json::error_code;
using boost::json::string_view;

enum class Seen { absent, null, number, string, boolean, object, array };

// Collects the top-level fields of an eval result. A key is recognised as it arrives, so no key is
// copied unless the parser hands it over in parts (an escape in it): the check runs once for every
// result of every item, and keeping each key in a string cost about a third of it.
class ResultFields {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  bool root_is_object = false;
  Seen name = Seen::absent, score = Seen::absent, success = Seen::absent, threshold = Seen::absent,
       reason = Seen::absent, metadata = Seen::absent;
  std::string name_text;
  double score_value = 0;
  double threshold_value = 0;
  bool success_value = false;
  bool skipped_value = false;  // metadata.skipped is true
  std::size_t top_level_members = 0;

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) {
    if (depth_ == 0) root_is_object = true;
    else if (depth_ == 1) {
      in_metadata_ = field_ == Field::metadata;
      top(Seen::object);
    }
    ++depth_;
    return true;
  }
  bool on_object_end(std::size_t, error_code&) {
    if (--depth_ == 1) in_metadata_ = false;
    skipped_key_ = false;
    return true;
  }
  bool on_array_begin(error_code&) {
    if (depth_ == 1) top(Seen::array);
    ++depth_;
    return true;
  }
  bool on_array_end(std::size_t, error_code&) {
    if (--depth_ == 2) skipped_key_ = false;
    return true;
  }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    if (depth_ == 1 || (depth_ == 2 && in_metadata_)) key_parts_.append(s.data(), s.size());
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code&) {
    if (depth_ != 1 && !(depth_ == 2 && in_metadata_)) return true;
    std::string_view key(s.data(), s.size());
    if (!key_parts_.empty()) {
      key_parts_.append(key);
      key = key_parts_;
    }
    if (depth_ == 1) {
      field_ = field_of(key);
      ++top_level_members;
    } else {
      skipped_key_ = key == "skipped";
    }
    key_parts_.clear();
    return true;
  }
  bool on_string_part(string_view s, std::size_t, error_code&) { return text_part(s); }
  bool on_string(string_view s, std::size_t, error_code&) {
    text_part(s);
    if (depth_ == 1) top(Seen::string);
    return true;
  }
  bool on_number_part(string_view s, error_code&) {
    number_text_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t v, string_view, error_code&) { return whole_number(static_cast<double>(v)); }
  bool on_uint64(std::uint64_t v, string_view, error_code&) { return whole_number(static_cast<double>(v)); }
  // Boost's own double may be one unit in the last place off; the score is read again from its
  // text, as krino::json::parse reads every number.
  bool on_double(double v, string_view s, error_code&) {
    number_text_.append(s.data(), s.size());
    const double exact = krino::json::exact_double(number_text_, v);
    number_text_.clear();
    return number(exact);
  }
  bool on_bool(bool v, error_code&) {
    if (depth_ == 1 && field_ == Field::success) success_value = v;
    if (depth_ == 2 && in_metadata_ && skipped_key_) skipped_value = v;
    if (depth_ == 2) skipped_key_ = false;
    if (depth_ == 1) top(Seen::boolean);
    return true;
  }
  bool on_null(error_code&) {
    if (depth_ == 2) skipped_key_ = false;
    if (depth_ == 1) top(Seen::null);
    return true;
  }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  enum class Field { other, name, score, success, threshold, reason, metadata };

  static Field field_of(std::string_view key) {
    if (key == "name") return Field::name;
    if (key == "score") return Field::score;
    if (key == "success") return Field::success;
    if (key == "threshold") return Field::threshold;
    if (key == "reason") return Field::reason;
    if (key == "metadata") return Field::metadata;
    return Field::other;
  }
  bool text_part(string_view s) {
    if (depth_ == 1 && field_ == Field::name) name_text.append(s.data(), s.size());
    else if (depth_ == 2) skipped_key_ = false;
    return true;
  }
  bool whole_number(double v) {
    number_text_.clear();
    return number(v);
  }
  bool number(double v) {
    if (depth_ == 1 && field_ == Field::score) score_value = v;
    if (depth_ == 1 && field_ == Field::threshold) threshold_value = v;
    if (depth_ == 2) skipped_key_ = false;
    if (depth_ == 1) top(Seen::number);
    return true;
  }
  // The value of the current top-level member has begun (or ended): says what kind it was.
  void top(Seen kind) {
    switch (field_) {
      case Field::name: name = kind; break;
      case Field::score: score = kind; break;
      case Field::success: success = kind; break;
      case Field::threshold: threshold = kind; break;
      case Field::reason: reason = kind; break;
      case Field::metadata: metadata = kind; break;
      case Field::other: break;
    }
    field_ = Field::other;
  }
  int depth_ = 0;
  std::string number_text_;  // the parts of a number split across writes
  std::string key_parts_;    // a key handed over in parts, until its last part
  Field field_ = Field::other;  // the top-level member whose value comes next
  bool in_metadata_ = false;    // inside the top-level "metadata" object
  bool skipped_key_ = false;    // the current member of metadata is "skipped"
};

}  // namespace

StatusOr<CheckedResult> check_eval_result(std::string_view text, const std::string& name) {
  auto invalid = [](std::string reason) { return error_status(KRINO_INVALID_ARGUMENT, std::move(reason)); };
  boost::json::basic_parser<ResultFields> parser(boost::json::parse_options{});
  error_code ec;
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && !parser.done()) ec = boost::json::error::incomplete;
  if (!ec && text.find_first_not_of(" \t\r\n", used) != std::string_view::npos) ec = boost::json::error::extra_data;
  // A plugin's reason may hold ill-formed UTF-8 (a quote cut inside a character): the result is
  // kept with U+FFFD in its place, since an event line must be valid UTF-8. Checked only on a
  // failed parse, so a valid result costs nothing more.
  if (ec && !utf8::is_valid(text)) return check_eval_result(utf8::repaired(text), name);
  if (ec) return invalid("not valid JSON (" + ec.message() + ")");
  const ResultFields& f = parser.handler();
  if (!f.root_is_object) return invalid(std::string("not a JSON object"));
  if (f.score == Seen::absent) return invalid("no \"score\"");
  if (f.score != Seen::null && f.score != Seen::number) return invalid("\"score\" is neither a number nor null");
  if (f.score == Seen::number && !(std::isfinite(f.score_value) && f.score_value >= 0.0 && f.score_value <= 1.0)) {
    std::string shown;
    krino::json::append_double(shown, f.score_value);
    return invalid("\"score\" " + shown + " is outside 0..1");
  }
  if (f.success != Seen::boolean) return invalid("\"success\" must be true or false");
  if (f.threshold != Seen::absent && f.threshold != Seen::null && f.threshold != Seen::number)
    return invalid("\"threshold\" must be a number or null");
  if (f.reason != Seen::absent && f.reason != Seen::null && f.reason != Seen::string)
    return invalid("\"reason\" must be a string");
  if (f.metadata != Seen::absent && f.metadata != Seen::null && f.metadata != Seen::object)
    return invalid("\"metadata\" must be an object");
  if (f.score == Seen::null && f.success_value) return invalid(std::string("a null score cannot be a success"));

  CheckedResult checked;
  checked.record.name = name;
  checked.record.success = f.success_value;
  if (f.score == Seen::number) checked.record.score = f.score_value;
  if (f.threshold == Seen::number) checked.record.threshold = f.threshold_value;
  checked.record.skipped = f.skipped_value;
  const std::string_view document = text.substr(text.find('{'), used - text.find('{'));
  // Kept as the plugin wrote it, numbers digit for digit (a parse and a rewrite would turn 1.50 into
  // 1.5 and an integer beyond 64 bits into a double). Only made a report line's worth: a raw line
  // break can only be white space between tokens, so it becomes a space; and a plugin that wrote
  // another name than the configured one (the aggregation key) has the value of its "name" replaced.
  checked.json.assign(document);
  // (Two memchr passes: string_view::find_first_of would call memchr once per byte.)
  if (document.find('\n') != std::string_view::npos || document.find('\r') != std::string_view::npos)
    std::replace_if(checked.json.begin(), checked.json.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  if (f.name != Seen::string || f.name_text != name) {
    bool repeated = false;
    const auto members = json_object_members(checked.json, boost::json::parse_options().max_depth, &repeated);
    std::string quoted;
    krino::json::append_json_string(quoted, name);
    const auto old_name = members ? member(*members, "name") : std::nullopt;
    if (members && !repeated && old_name) {
      checked.json.replace(static_cast<std::size_t>(old_name->data() - checked.json.data()), old_name->size(), quoted);
    } else if (members && !repeated) {
      checked.json.insert(checked.json.find('{') + 1, "\"name\":" + quoted + ",");  // never empty: "score" is there
    } else {
      // Repeated keys (which one a reader keeps is its own choice): one object, written anew.
      boost::json::object object = krino::json::parse(checked.json).as_object();
      object["name"] = name;
      checked.json = krino::json::to_compact_json(object);
    }
  }
  return checked;
}

std::optional<CheckedResult> check_eval_values(const krino_eval_result& values, std::string_view name) {
  if (values.struct_size < offsetof(krino_eval_result, metadata_size) + sizeof(values.metadata_size)) return std::nullopt;
  if (values.has_score != 0 && !(std::isfinite(values.score) && values.score >= 0.0 && values.score <= 1.0))
    return std::nullopt;
  if ((values.success != 0 && values.success != 1) || (values.has_score == 0 && values.success != 0)) return std::nullopt;
  if (values.has_threshold != 0 && !std::isfinite(values.threshold)) return std::nullopt;
  if (values.reason == nullptr && values.reason_size > 0) return std::nullopt;
  const std::string_view reason(values.reason_size > 0 ? values.reason : "", values.reason_size);
  if (!utf8::is_valid(reason)) return std::nullopt;
  bool skipped = false;
  if (values.metadata_size > 0) {
    if (values.metadata_json == nullptr) return std::nullopt;
    const std::string_view metadata(values.metadata_json, values.metadata_size);
    // Taken only without raw line breaks, as the helper writes it (the text check turns a line
    // break between tokens into a space, which would make the two ways differ).
    if (metadata.find('\n') != std::string_view::npos || metadata.find('\r') != std::string_view::npos)
      return std::nullopt;
    // Read by the text check's own handler, as the "metadata" member of an object around it: the
    // same syntax check and the same reading of "skipped", in one pass over the metadata's bytes.
    static constexpr std::string_view open = "{\"metadata\":";
    boost::json::basic_parser<ResultFields> parser(boost::json::parse_options{});
    error_code ec;
    // (write_some stops at the end of a document: each piece must be read whole.)
    bool whole = parser.write_some(true, open.data(), open.size(), ec) == open.size();
    whole = whole && !ec && parser.write_some(true, metadata.data(), metadata.size(), ec) == metadata.size();
    whole = whole && !ec && parser.write_some(false, "}", 1, ec) == 1;
    // One member: metadata that closes its object early and goes on ("{},\"score\":0") is refused.
    if (!whole || ec || !parser.done() || parser.handler().metadata != Seen::object ||
        parser.handler().top_level_members != 1)
      return std::nullopt;
    skipped = parser.handler().skipped_value;
  }

  CheckedResult checked;
  checked.record.name = name;
  checked.record.success = values.success != 0;
  if (values.has_score != 0) checked.record.score = values.score;
  if (values.has_threshold != 0) checked.record.threshold = values.threshold;
  checked.record.skipped = skipped;
  krino_eval_result renamed = values;  // the configured name, as the text check puts it in
  renamed.name = name.data();
  renamed.name_size = name.size();
  renamed.reason = reason.data();
  append_eval_result_json(checked.json, renamed);
  return checked;
}

}  // namespace krino::core
