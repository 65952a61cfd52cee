#include "yaml_plain_scalar.hpp"

#include <boost/json/string.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <system_error>

namespace krino::core {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Index of the first non-digit at or after `at`.
std::size_t skip_digits(std::string_view text, std::size_t at) {
  while (at < text.size() && is_digit(text[at])) ++at;
  return at;
}

// [-+]?[0-9]+
bool is_decimal_integer(std::string_view text) {
  std::size_t at = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  const std::size_t digits_end = skip_digits(text, at);
  return digits_end > at && digits_end == text.size();
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_decimal_float(std::string_view text) {
  std::size_t at = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  const std::size_t integer_end = skip_digits(text, at);
  const bool has_integer = integer_end > at;
  at = integer_end;
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction_end = skip_digits(text, at + 1);
    if (!has_integer && fraction_end == at + 1) return false;  // "." or "-." alone
    at = fraction_end;
  } else if (!has_integer) {
    return false;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    const std::size_t exponent_end = skip_digits(text, at);
    if (exponent_end == at) return false;
    at = exponent_end;
  }
  return at == text.size();
}

// std::from_chars takes no leading '+'.
std::string_view without_plus(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  return text;
}

template <typename Number>
bool read_exactly(std::string_view text, Number& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

boost::json::value resolve_plain_scalar(std::string_view text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const std::string_view unsigned_text = without_plus(text);
  if (is_decimal_integer(text)) {
    if (int64_t whole = 0; read_exactly(unsigned_text, whole)) return whole;
    if (uint64_t whole = 0; text[0] != '-' && read_exactly(unsigned_text, whole)) return whole;
  }
  if (is_decimal_float(text)) {
    // A '-' sign stays for from_chars; a '+' is dropped above. Out of range leaves the text.
    if (double number = 0; read_exactly(unsigned_text, number) && std::isfinite(number)) return number;
  }
  return boost::json::string(text);
}

}  // namespace krino::core
