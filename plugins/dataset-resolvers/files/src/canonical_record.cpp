#include "canonical_record.hpp"

#include "json_record_parser.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <cstdint>
#include <string>

namespace krino::files {
namespace {

using boost::json::error_code;
using boost::json::string_view;

// The kinds a top-level value may have, as far as the canonical shape cares.
enum class Kind { object, array, string, empty_string, number, boolean, null };

class CanonicalShapeHandler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  bool canonical() const { return canonical_ && root_is_object_ && (seen_ & kMapsMask) == kMapsMask; }

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code& ec) {
    if (depth_ == 0) root_is_object_ = true;
    else if (depth_ == 1 && !top_value(Kind::object, ec)) return false;
    ++depth_;
    return true;
  }
  bool on_object_end(std::size_t, error_code&) {
    --depth_;
    return true;
  }
  bool on_array_begin(error_code& ec) {
    if (depth_ == 1 && !top_value(Kind::array, ec)) return false;
    ++depth_;
    return true;
  }
  bool on_array_end(std::size_t, error_code&) {
    --depth_;
    return true;
  }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    if (depth_ == 1) key_.append(s.data(), s.size());
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code&) {
    if (depth_ == 1) key_.append(s.data(), s.size());
    return true;
  }
  bool on_string_part(string_view, std::size_t, error_code&) { return true; }
  bool on_string(string_view, std::size_t n, error_code& ec) {
    return depth_ != 1 || top_value(n == 0 ? Kind::empty_string : Kind::string, ec);
  }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, string_view, error_code& ec) { return depth_ != 1 || top_value(Kind::number, ec); }
  bool on_uint64(std::uint64_t, string_view, error_code& ec) { return depth_ != 1 || top_value(Kind::number, ec); }
  bool on_double(double, string_view, error_code& ec) { return depth_ != 1 || top_value(Kind::number, ec); }
  bool on_bool(bool, error_code& ec) { return depth_ != 1 || top_value(Kind::boolean, ec); }
  bool on_null(error_code& ec) { return depth_ != 1 || top_value(Kind::null, ec); }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  static constexpr unsigned kId = 1, kInputs = 2, kExpected = 4, kMetadata = 8, kActual = 16, kTrace = 32;
  static constexpr unsigned kMapsMask = kInputs | kExpected | kMetadata;

  // Checks the value of the top-level key just read. Returning false stops the parse early: the
  // record is then not canonical, and the normalising path takes it from there.
  bool top_value(Kind kind, error_code& ec) {
    unsigned bit = 0;
    bool ok = false;
    if (key_ == "inputs") bit = kInputs, ok = kind == Kind::object;
    else if (key_ == "expectedOutputs") bit = kExpected, ok = kind == Kind::object;
    else if (key_ == "metadata") bit = kMetadata, ok = kind == Kind::object;
    else if (key_ == "actualOutputs") bit = kActual, ok = kind == Kind::object;
    else if (key_ == "id") bit = kId, ok = kind == Kind::string;
    else if (key_ == "trace") bit = kTrace, ok = kind != Kind::null;
    key_.clear();
    if (!ok || (seen_ & bit) != 0) {
      canonical_ = false;
      ec = boost::json::error::extra_data;  // any error: it only ends the scan
      return false;
    }
    seen_ |= bit;
    return true;
  }

  int depth_ = 0;
  bool root_is_object_ = false;
  bool canonical_ = true;
  unsigned seen_ = 0;
  std::string key_;
};

}  // namespace

bool is_canonical_record(std::string_view record) {
  boost::json::parse_options options;
  options.max_depth = kMaxRecordDepth;
  boost::json::basic_parser<CanonicalShapeHandler> parser(options);
  error_code ec;
  const std::size_t used = parser.write_some(false, record.data(), record.size(), ec);
  if (ec || !parser.done() || !parser.handler().canonical()) return false;
  // write_some stops after the value; anything but white space after it is trailing garbage.
  return record.find_first_not_of(" \t\r\n", used) == std::string_view::npos;
}

}  // namespace krino::files
