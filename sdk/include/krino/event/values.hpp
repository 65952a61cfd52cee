// The scalar pieces of the krino.event/1 codec (docs/payloads.md): how a member's bytes are read
// back into a value, and how a value is appended as bytes. Header-only.
//
// Readers take the exact bytes of one member's value (krino::json::for_each_member hands them
// out) and are strict about type: a member that is present, not null and of the wrong type throws
// DecodeError naming it, because every event is written by krino and a mistyped member means the
// file is not what it claims to be. A missing or null member reads as "not there".
#ifndef KRINO_EVENT_VALUES_HPP
#define KRINO_EVENT_VALUES_HPP

#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace krino::event {

// The one schema name every event carries.
inline constexpr std::string_view kSchema = "krino.event/1";

// An event that does not read as its schema says it should; what() names the member.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// round(x * 1e6) / 1e6, halves rounded up: how every reported aggregate and cost is rounded.
inline double round6(double x) { return std::floor(x * 1e6 + 0.5) / 1e6; }

namespace detail {

[[noreturn]] inline void wrong_type(std::string_view member, const char* expected) {
  throw DecodeError("\"" + std::string(member) + "\" is not " + expected);
}

inline bool is_null(std::string_view token) { return token.empty() || token == "null"; }

// A scalar token as Boost.JSON reads it (the runner read evaluators' scores with this parser, so
// a number read back here is the double the runner held).
inline boost::json::value scalar(std::string_view token, std::string_view member, const char* expected) {
  boost::system::error_code ec;
  boost::json::value v = krino::json::parse(token, ec);
  if (ec) wrong_type(member, expected);
  return v;
}

// The double of a number written as a whole (`1`, `0.0`, `12.000`): most scores and thresholds.
// Only forms whose double no parser can round differently: no sign (so no negative zero), up to
// 15 digits (exact in a double), no leading zero, no exponent, a fraction of zeros only.
// nullopt for every other token, which Boost.JSON reads.
inline std::optional<double> whole_number_token(std::string_view token) {
  std::size_t digits = 0;
  while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15 || (digits > 1 && token[0] == '0')) return std::nullopt;
  if (digits < token.size()) {
    if (token[digits] != '.' || digits + 1 == token.size()) return std::nullopt;
    for (std::size_t i = digits + 1; i < token.size(); ++i)
      if (token[i] != '0') return std::nullopt;
  }
  uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) value = value * 10 + static_cast<uint64_t>(token[i] - '0');
  return static_cast<double>(value);
}

}  // namespace detail

// A number member, or nullopt when it is missing or null.
inline std::optional<double> read_number(std::string_view token, std::string_view member) {
  if (detail::is_null(token)) return std::nullopt;
  if (const auto whole = detail::whole_number_token(token)) return whole;
  const boost::json::value v = detail::scalar(token, member, "a number");
  if (!v.is_number()) detail::wrong_type(member, "a number");
  return v.to_number<double>();
}

// A whole-number member of type T, or nullopt when it is missing or null. A double is accepted
// only when it is whole and in range (an older writer may have written 3.0).
template <class T>
std::optional<T> read_whole(std::string_view token, std::string_view member) {
  static_assert(std::is_integral_v<T>);
  if (detail::is_null(token)) return std::nullopt;
  T value{};
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc() && end == token.data() + token.size()) return value;
  const boost::json::value v = detail::scalar(token, member, "a whole number");
  if (v.is_double()) {
    const double d = v.get_double();
    if (std::floor(d) == d && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
        d <= static_cast<double>(std::numeric_limits<T>::max()))
      return static_cast<T>(d);
  }
  detail::wrong_type(member, "a whole number in range");
}

inline std::optional<bool> read_bool(std::string_view token, std::string_view member) {
  if (detail::is_null(token)) return std::nullopt;
  if (token == "true") return true;
  if (token == "false") return false;
  detail::wrong_type(member, "true or false");
}

// A string member, unescaped, or nullopt when it is missing or null.
inline std::optional<std::string> read_string(std::string_view token, std::string_view member) {
  if (detail::is_null(token)) return std::nullopt;
  if (token.size() < 2 || token.front() != '"') detail::wrong_type(member, "a string");
  if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
  const boost::json::value v = detail::scalar(token, member, "a string");
  if (!v.is_string()) detail::wrong_type(member, "a string");
  return std::string(v.get_string());
}

// An object or array member as a parsed value (for the small, rarely read parts of an event).
inline boost::json::value read_document(std::string_view token, std::string_view member) {
  if (detail::is_null(token)) return nullptr;
  boost::system::error_code ec;
  boost::json::value v = krino::json::parse(token, ec);
  if (ec) throw DecodeError("\"" + std::string(member) + "\" is not valid JSON: " + ec.message());
  return v;
}

// Calls visit(element_bytes) for each element of the array whose bytes are `token`.
template <class Visit>
void for_each_element(std::string_view token, std::string_view member, Visit&& visit) {
  if (detail::is_null(token)) return;
  if (token.front() != '[') detail::wrong_type(member, "an array");
  std::size_t i = 1;
  while (i < token.size()) {
    while (i < token.size() && (krino::json::detail::is_space(token[i]) || token[i] == ',')) ++i;
    if (i >= token.size() || token[i] == ']') return;
    const std::size_t end = krino::json::detail::skip_value(token, i);
    visit(token.substr(i, end - i));
    i = end;
  }
}

// Runs `read` (which reads members of an object named `member`) and names errors by their path:
// a DecodeError about "calls" becomes one about "judge.calls". The path is built only on error.
template <class Read>
auto within(std::string_view member, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const DecodeError& e) {
    std::string what = e.what();
    if (!what.empty() && what.front() == '"') what.insert(1, std::string(member) + ".");
    throw DecodeError(what);
  }
}

// Writing: ",\"key\":" and the scalar forms every writer uses.
// `key` is one of the codec's own member names, which need no escaping.
inline void append_key(std::string& out, std::string_view key) {
  out += ",\"";
  out += key;
  out += "\":";
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

template <class T>
void append_optional(std::string& out, const std::optional<T>& value) {
  if (!value) out += "null";
  else if constexpr (std::is_floating_point_v<T>) krino::json::append_double(out, *value);
  else append_integer(out, *value);
}

inline void append_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

}  // namespace krino::event

#endif  // KRINO_EVENT_VALUES_HPP
