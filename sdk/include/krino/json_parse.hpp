// The one JSON parser of krino: Boost.JSON's syntax, values and options, with every number read
// exactly. Header-only; needs Boost.JSON. Every place in the host, the SDK and the first-party
// plugins that turns JSON text into a value goes through krino::json::parse (or read_number for a
// lone number token), so a number means the same double wherever it is read.
//
// Why not boost::json::parse: Boost.JSON 1.81 builds a double from the digits with an approximate
// algorithm (it has no parse_options::numbers yet), so about one number in seven comes out one unit
// in the last place away from the nearest double: 3e+34 reads as 2.9999999999999997e+34. Here the
// basic_parser does the syntax and builds the value as boost::json::parser does, and each double is
// read again from its own text with std::from_chars, which is correctly rounded (GCC 12).
//
// What a number becomes:
//   - an integer token that fits int64 or uint64: that integer, exactly ("-0" is the integer 0, as
//     in Python; "-0.0" is the double -0.0);
//   - every other number: the nearest double (ties to even); beyond the range of a double, +-infinity
//     (rejected when ParseChecks::reject_non_finite), below the smallest subnormal, a signed zero.
// An integer of more than 64 bits is therefore a double here; code that must keep such a value
// exactly passes its bytes on instead of parsing them (docs/architecture.md, "Numbers").
#ifndef KRINO_JSON_PARSE_HPP
#define KRINO_JSON_PARSE_HPP

#include <krino/json_text.hpp>

#include <boost/config.hpp>
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>
#include <boost/system/system_error.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace krino::json {

// The number `text` (the complete token of a JSON number) denotes, correctly rounded. `fallback`
// is the approximation Boost.JSON made of the same token: out of the range of a double it tells
// overflow (its magnitude is large: +-infinity) from underflow (a signed zero).
inline double exact_double(std::string_view text, double fallback) {
  double value = 0.0;
  const char* const first = text.data();
  const char* const last = first + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc() && end == last) return value;
  const bool negative = !text.empty() && text.front() == '-';
  if (ec == std::errc::result_out_of_range && end == last) {
    if (std::fabs(fallback) > 1.0) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return negative ? -0.0 : 0.0;
  }
  return fallback;  // not a number token: leave Boost's reading alone
}

// Whether Boost.JSON's own reading of the number token `text` is already the correctly rounded
// double: a plain decimal (no exponent) of at most 15 significant digits, as most numbers in
// datasets are (105.4, 0.25, 2102650.0). Boost then divides an exact integer by an exact power of
// ten (at most 10^22), one correctly rounded operation (Clinger's fast path), and from_chars can
// be skipped.
inline bool boost_reads_exactly(std::string_view text) {
  std::size_t significant = 0;
  std::size_t decimals = 0;
  bool in_fraction = false;
  for (std::size_t i = !text.empty() && text.front() == '-' ? 1 : 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      in_fraction = true;
      continue;
    }
    if (c < '0' || c > '9') return false;  // an exponent, or not a number
    if (in_fraction) ++decimals;
    if (significant > 0 || c != '0') ++significant;
  }
  return significant <= 15 && decimals <= 22;
}

// Stricter rules for values that must mean exactly one thing (see strict_json.hpp).
struct ParseChecks {
  bool reject_duplicate_keys = false;  // {"a": 1, "a": 2}: Boost keeps the last "a" silently
  bool reject_non_finite = false;      // 1e400: a double can only hold it as infinity
};

namespace detail {

// basic_parser handler: builds the value exactly as boost::json::parser does (value_stack), except
// that doubles are read from their text (exact_double) and the ParseChecks
// are applied. On a failed check, `problem` says what was wrong.
class ExactValueBuilder {
 public:
  static constexpr std::size_t max_object_size = boost::json::object::max_size();
  static constexpr std::size_t max_array_size = boost::json::array::max_size();
  static constexpr std::size_t max_key_size = boost::json::string::max_size();
  static constexpr std::size_t max_string_size = boost::json::string::max_size();

  // `sp` holds the values; the builder's own working stack starts in `temp` (when given) and
  // moves to the heap only when it outgrows it, as boost::json::parse arranges it.
  ExactValueBuilder(boost::json::storage_ptr sp, ParseChecks checks, unsigned char* temp = nullptr, std::size_t temp_size = 0)
      : stack_(boost::json::storage_ptr(), temp, temp_size), checks_(checks) {
    stack_.reset(std::move(sp));
  }

  boost::json::value release() { return stack_.release(); }
  void reset(boost::json::storage_ptr sp) {
    stack_.reset(std::move(sp));
    number_.clear();
    key_.clear();
    open_object_keys_.clear();
    problem_.clear();
  }
  const std::string& problem() const { return problem_; }

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) {
    if (checks_.reject_duplicate_keys) open_object_keys_.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t n, boost::json::error_code&) {
    if (checks_.reject_duplicate_keys) open_object_keys_.pop_back();
    stack_.push_object(n);
    return true;
  }
  bool on_array_begin(boost::json::error_code&) { return true; }
  bool on_array_end(std::size_t n, boost::json::error_code&) {
    stack_.push_array(n);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    if (checks_.reject_duplicate_keys) key_.append(s.data(), s.size());
    stack_.push_chars(s);
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code& ec) {
    if (checks_.reject_duplicate_keys && !first_time_in_object(s, ec)) return false;
    stack_.push_key(s);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack_.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack_.push_string(s);
    return true;
  }
  // A number cut by the end of one write_some buffer arrives in parts; the last part comes with
  // on_int64/on_uint64/on_double.
  bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
    number_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::json::error_code&) {
    stack_.push_int64(i);
    number_.clear();
    return true;
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::json::error_code&) {
    stack_.push_uint64(u);
    number_.clear();
    return true;
  }
  bool on_double(double d, boost::json::string_view s, boost::json::error_code& ec) {
    double exact = 0.0;
    if (number_.empty()) {
      const std::string_view text(s.data(), s.size());
      exact = boost_reads_exactly(text) ? d : exact_double(text, d);
    } else {
      number_.append(s.data(), s.size());
      exact = exact_double(number_, d);
      number_.clear();
    }
    if (checks_.reject_non_finite && !std::isfinite(exact)) return fail(ec, "number out of the range of a double");
    stack_.push_double(exact);
    return true;
  }
  bool on_bool(bool b, boost::json::error_code&) {
    stack_.push_bool(b);
    return true;
  }
  bool on_null(boost::json::error_code&) {
    stack_.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

 private:
  // Out of line: the parse without checks keeps on_key small enough to inline.
  BOOST_NOINLINE bool first_time_in_object(boost::json::string_view s, boost::json::error_code& ec) {
    key_.append(s.data(), s.size());
    if (!open_object_keys_.back().insert(key_).second)
      return fail(ec, "duplicate object key " + boost::json::serialize(boost::json::string_view(key_)));
    key_.clear();
    return true;
  }
  bool fail(boost::json::error_code& ec, std::string message) {
    problem_ = std::move(message);
    // Any error code stops the parser; problem() is what gets reported.
    ec = boost::json::error::syntax;
    return false;
  }

  boost::json::value_stack stack_;
  ParseChecks checks_;
  std::string number_;  // the parts of a number cut by a buffer boundary
  std::string key_;     // the key being read, for the duplicate check
  std::vector<std::unordered_set<std::string>> open_object_keys_;
  std::string problem_;
};

}  // namespace detail

// An incremental parser for text that arrives in pieces (as boost::json::parser, whose interface
// it follows): write_some as often as needed, then release.
class ExactParser {
 public:
  explicit ExactParser(boost::json::storage_ptr sp = {}, const boost::json::parse_options& options = {},
                       ParseChecks checks = {}, unsigned char* temp = nullptr, std::size_t temp_size = 0)
      : parser_(options, std::move(sp), checks, temp, temp_size) {}

  // Parses up to `size` bytes and returns how many were used; stops after one complete value. On
  // failure ec is set; problem() then names a failed check, if that was the cause.
  std::size_t write_some(const char* data, std::size_t size, boost::json::error_code& ec, bool more = false) {
    return parser_.write_some(more, data, size, ec);
  }
  bool done() const noexcept { return parser_.done(); }
  const std::string& problem() const { return parser_.handler().problem(); }
  // The parsed value; the parser is then ready for the next one, into `sp`.
  boost::json::value release(boost::json::storage_ptr sp = {}) {
    boost::json::value v = parser_.handler().release();
    parser_.reset();
    parser_.handler().reset(std::move(sp));
    return v;
  }

 private:
  boost::json::basic_parser<detail::ExactValueBuilder> parser_;
};

// Parses one JSON value filling all of `text` (white space around it allowed), as
// boost::json::parse does, with numbers read exactly. On failure sets ec and returns null.
inline boost::json::value parse(std::string_view text, boost::json::error_code& ec, boost::json::storage_ptr sp = {},
                                const boost::json::parse_options& options = {}) {
  unsigned char temp[4096];  // the working stack of a typical document, without a heap allocation
  ExactParser parser(std::move(sp), options, {}, temp, sizeof temp);
  const std::size_t used = parser.write_some(text.data(), text.size(), ec);
  if (ec) return nullptr;
  if (used < text.size()) {
    // write_some stops after the value, before any white space that follows.
    for (std::size_t i = used; i < text.size(); ++i) {
      const char c = text[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        ec = boost::json::error::extra_data;
        return nullptr;
      }
    }
  }
  return parser.release();
}

// As above; throws boost::system::system_error on failure, as boost::json::parse does.
inline boost::json::value parse(std::string_view text, boost::json::storage_ptr sp = {},
                                const boost::json::parse_options& options = {}) {
  boost::json::error_code ec;
  boost::json::value v = parse(text, ec, std::move(sp), options);
  if (ec) throw boost::system::system_error(ec);
  return v;
}

namespace detail {

// basic_parser handler writing compact JSON as append_compact_json (json_text.hpp) writes a parsed
// value, except that an integer token is copied digit for digit, whatever its size.
class ExactCompactWriter {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  std::string out;

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) { return open('{'); }
  bool on_object_end(std::size_t, boost::json::error_code&) { return close('}'); }
  bool on_array_begin(boost::json::error_code&) { return open('['); }
  bool on_array_end(std::size_t, boost::json::error_code&) { return close(']'); }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    separate();
    append_json_string(out, text_);
    out += ':';
    text_.clear();
    after_key_ = true;
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    separate();
    append_json_string(out, text_);
    text_.clear();
    return true;
  }
  bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t, boost::json::string_view s, boost::json::error_code&) { return integer(s); }
  bool on_uint64(std::uint64_t, boost::json::string_view s, boost::json::error_code&) { return integer(s); }
  bool on_double(double d, boost::json::string_view s, boost::json::error_code&) {
    text_.append(s.data(), s.size());
    if (text_.find_first_of(".eE") == std::string::npos) return integer({});  // beyond 64 bits
    separate();
    append_double(out, exact_double(text_, d));
    text_.clear();
    return true;
  }
  bool on_bool(bool b, boost::json::error_code&) {
    separate();
    out += b ? "true" : "false";
    return true;
  }
  bool on_null(boost::json::error_code&) {
    separate();
    out += "null";
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

 private:
  void separate() {
    if (after_key_) after_key_ = false;
    else if (!first_.empty() && !first_.back()) out += ',';
    if (!first_.empty()) first_.back() = false;
  }
  bool open(char c) {
    separate();
    out += c;
    first_.push_back(true);
    return true;
  }
  bool close(char c) {
    out += c;
    first_.pop_back();
    return true;
  }
  bool integer(boost::json::string_view s) {
    text_.append(s.data(), s.size());
    separate();
    // "-0" is the integer 0, as parse reads it.
    out += text_ == "-0" ? std::string_view("0") : std::string_view(text_);
    text_.clear();
    return true;
  }

  std::string text_;         // the key, string or number being read
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;   // the next value follows a key, with no comma
};

}  // namespace detail

// The compact JSON of `text` exactly as to_compact_json(parse(text)) writes it (json_text.hpp:
// strings re-escaped, doubles shortest, members in order), except that every integer is copied
// digit for digit, so 123456789012345678901 keeps all its digits. For comparing values as text
// (exact_match) where an integer beyond 64 bits must not become a double. nullopt on invalid JSON.
inline std::optional<std::string> exact_compact_json(std::string_view text) {
  boost::json::parse_options options;
  options.max_depth = 512;
  boost::json::basic_parser<detail::ExactCompactWriter> parser(options);
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (ec || text.find_first_not_of(" \t\r\n", used) != std::string_view::npos) return std::nullopt;
  return std::move(parser.handler().out);
}

// The number one JSON number token denotes, read as parse reads it (a double, or an integer when
// the token is one that fits 64 bits); nullopt when `token` is not exactly one JSON number.
inline std::optional<boost::json::value> read_number_token(std::string_view token) {
  boost::json::error_code ec;
  boost::json::value v = parse(token, ec);
  if (ec || !v.is_number()) return std::nullopt;
  return v;
}

}  // namespace krino::json

#endif  // KRINO_JSON_PARSE_HPP
