#include "item_scanner.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace krino::console {
namespace {

// Reasons longer than this are cut later anyway (kMaxReasonChars); bounding what is collected
// keeps a pathological multi-megabyte reason from being copied.
constexpr std::size_t kMaxCollectedText = 64 * 1024;

enum class TopField { other, event, run_index, index, id, location, success, error, results };
enum class ErrorField { other, stage, component, code, message };
enum class ResultField { other, name, score, success, threshold, reason };

TopField top_field(std::string_view key) {
  if (key == "event") return TopField::event;
  if (key == "run_index") return TopField::run_index;
  if (key == "index") return TopField::index;
  if (key == "id") return TopField::id;
  if (key == "location") return TopField::location;
  if (key == "success") return TopField::success;
  if (key == "error") return TopField::error;
  if (key == "results") return TopField::results;
  return TopField::other;
}

ErrorField error_field(std::string_view key) {
  if (key == "stage") return ErrorField::stage;
  if (key == "component") return ErrorField::component;
  if (key == "code") return ErrorField::code;
  if (key == "message") return ErrorField::message;
  return ErrorField::other;
}

ResultField result_field(std::string_view key) {
  if (key == "name") return ResultField::name;
  if (key == "score") return ResultField::score;
  if (key == "success") return ResultField::success;
  if (key == "threshold") return ResultField::threshold;
  if (key == "reason") return ResultField::reason;
  return ResultField::other;
}

// Handler for boost::json::basic_parser. Depth 1 is the event object, depth 2 the error object or
// the results array, depth 3 one result; everything else is skipped.
class ItemHandler {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

  // Set when parsing stopped on purpose: the event is not an item, a pass is certain, or every
  // field the report needs has been read (the host writes results before the example's sections).
  enum class Stop { no, not_an_item, passed, complete };
  Stop stop = Stop::no;

  ItemReport item;
  bool is_item = false;
  bool success_seen = false;
  bool success = false;
  bool has_error = false;
  bool error_seen = false;
  bool index_seen = false;
  bool run_index_seen = false;
  bool any_result = false;
  bool all_results_pass = true;
  bool every_result = false;  // keep passing results, and read a passing item's results

  bool on_document_begin(boost::system::error_code&) { return true; }
  bool on_document_end(boost::system::error_code&) { return true; }

  bool on_object_begin(boost::system::error_code&) {
    ++depth_;
    if (depth_ == 2 && top_ == TopField::error) {
      has_error = true;
      in_error_ = true;
    } else if (depth_ == 3 && in_results_) {
      in_result_ = true;
      check_ = CheckResult{};
      result_success_ = false;
    }
    return true;
  }
  bool on_object_end(std::size_t, boost::system::error_code& ec) {
    bool error_closed = false;
    if (depth_ == 3 && in_result_) {
      in_result_ = false;
      any_result = true;
      if (!result_success_) {
        all_results_pass = false;
        item.failed_checks.push_back(std::move(check_));
      } else if (every_result) {
        item.passed_checks.push_back(std::move(check_));
      }
    } else if (depth_ == 2 && in_error_) {
      in_error_ = false;
      error_seen = true;
      error_closed = true;
    }
    --depth_;
    return error_closed ? value_done(ec) : true;
  }
  bool on_array_begin(boost::system::error_code&) {
    ++depth_;
    if (depth_ == 2 && top_ == TopField::results) in_results_ = true;
    return true;
  }
  bool on_array_end(std::size_t, boost::system::error_code& ec) {
    const bool results_closed = depth_ == 2 && in_results_;
    if (depth_ == 2) in_results_ = false;
    --depth_;
    if (results_closed && is_item && success_seen && error_seen && index_seen && run_index_seen)
      return halt(Stop::complete, ec);
    return true;
  }

  bool on_key_part(boost::json::string_view part, std::size_t, boost::system::error_code&) {
    key_.append(part.data(), part.size());
    return true;
  }
  bool on_key(boost::json::string_view part, std::size_t, boost::system::error_code&) {
    key_.append(part.data(), part.size());
    if (depth_ == 1) {
      top_ = top_field(key_);
    } else if (depth_ == 2 && in_error_) {
      error_key_ = error_field(key_);
    } else if (depth_ == 3 && in_result_) {
      result_key_ = result_field(key_);
    }
    key_.clear();
    return true;
  }

  bool on_string_part(boost::json::string_view part, std::size_t, boost::system::error_code&) {
    if (std::string* target = string_target()) append_bounded(*target, part);
    return true;
  }
  bool on_string(boost::json::string_view part, std::size_t, boost::system::error_code& ec) {
    if (std::string* target = string_target()) append_bounded(*target, part);
    if (depth_ == 1) {
      switch (top_) {
        case TopField::event:
          if (event_ != "item_finished") return halt(Stop::not_an_item, ec);
          is_item = true;
          break;
        case TopField::id:
          item.id = std::move(text_);
          break;
        case TopField::location:
          item.location = std::move(text_);
          break;
        default:
          break;
      }
      text_.clear();
      return value_done(ec);
    }
    return true;
  }

  bool on_number_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_int64(int64_t value, boost::json::string_view, boost::system::error_code& ec) {
    return on_number(static_cast<double>(value), value >= 0 ? static_cast<uint64_t>(value) : 0, ec);
  }
  bool on_uint64(uint64_t value, boost::json::string_view, boost::system::error_code& ec) {
    return on_number(static_cast<double>(value), value, ec);
  }
  bool on_double(double value, boost::json::string_view, boost::system::error_code& ec) {
    return on_number(value, value >= 0 && value < 1.8e19 ? static_cast<uint64_t>(value) : 0, ec);
  }
  bool on_bool(bool value, boost::system::error_code& ec) {
    if (depth_ == 1 && top_ == TopField::success) {
      success_seen = true;
      success = value;
      return value_done(ec);
    }
    if (depth_ == 3 && in_result_ && result_key_ == ResultField::success) result_success_ = value;
    return true;
  }
  bool on_null(boost::system::error_code& ec) {
    if (depth_ == 1) {
      if (top_ == TopField::error) error_seen = true;
      return value_done(ec);
    }
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }

 private:
  bool on_number(double value, uint64_t whole, boost::system::error_code& ec) {
    if (depth_ == 1) {
      if (top_ == TopField::run_index) {
        item.run_index = whole > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(whole);
        run_index_seen = true;
      } else if (top_ == TopField::index) {
        item.index = whole;
        index_seen = true;
      }
      return value_done(ec);
    }
    if (depth_ == 3 && in_result_) {
      if (result_key_ == ResultField::score) check_.score = value;
      if (result_key_ == ResultField::threshold) check_.threshold = value;
    }
    return true;
  }

  // Where the string being read goes, if anywhere.
  std::string* string_target() {
    if (depth_ == 1) {
      if (top_ == TopField::event) return &event_;
      if (top_ == TopField::id || top_ == TopField::location) return &text_;
      return nullptr;
    }
    if (depth_ == 2 && in_error_) {
      switch (error_key_) {
        case ErrorField::stage:
          return &item.error.stage;
        case ErrorField::component:
          return &item.error.component;
        case ErrorField::code:
          return &item.error.code;
        case ErrorField::message:
          return &item.error.message;
        case ErrorField::other:
          return nullptr;
      }
    }
    if (depth_ == 3 && in_result_) {
      if (result_key_ == ResultField::name) return &check_.name;
      if (result_key_ == ResultField::reason) return &check_.reason;
    }
    return nullptr;
  }

  static void append_bounded(std::string& target, boost::json::string_view part) {
    if (target.size() >= kMaxCollectedText) return;
    target.append(part.data(), std::min(part.size(), kMaxCollectedText - target.size()));
  }

  // A top-level value is complete. A passing item needs nothing more once its verdict, error and
  // position are known, so parsing stops there and the item's bulk (inputs, outputs) is skipped.
  bool value_done(boost::system::error_code& ec) {
    if (!every_result && is_item && success_seen && success && error_seen && !has_error && index_seen && run_index_seen)
      return halt(Stop::passed, ec);
    return true;
  }

  bool halt(Stop reason, boost::system::error_code& ec) {
    stop = reason;
    ec = boost::json::error::extra_data;  // any error code: it only makes the parser return
    return false;
  }

  int depth_ = 0;
  TopField top_ = TopField::other;
  ErrorField error_key_ = ErrorField::other;
  ResultField result_key_ = ResultField::other;
  bool in_error_ = false;
  bool in_results_ = false;
  bool in_result_ = false;
  bool result_success_ = false;
  CheckResult check_;
  std::string key_;
  std::string event_;
  std::string text_;
};

}  // namespace

std::optional<ItemReport> scan_item_finished(std::string_view event, bool every_result) {
  boost::json::basic_parser<ItemHandler> parser(boost::json::parse_options{});
  parser.handler().every_result = every_result;
  boost::system::error_code ec;
  parser.write_some(false, event.data(), event.size(), ec);
  ItemHandler& h = parser.handler();
  if (h.stop == ItemHandler::Stop::not_an_item) return std::nullopt;
  if (ec && h.stop != ItemHandler::Stop::passed && h.stop != ItemHandler::Stop::complete) return std::nullopt;
  if (!h.is_item) return std::nullopt;

  ItemReport item = std::move(h.item);
  if (h.has_error) {
    item.verdict = Verdict::error;
    item.failed_checks.clear();
  } else if (h.success_seen ? h.success : (h.any_result && h.all_results_pass)) {
    item.verdict = Verdict::pass;
    item.failed_checks.clear();
  } else {
    item.verdict = Verdict::fail;
  }
  return item;
}

}  // namespace krino::console
