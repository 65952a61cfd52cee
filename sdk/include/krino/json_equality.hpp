// JSON value equality by value: 1 == 1.0 == 1.00, at any depth. Header-only; needs Boost.JSON.
//
// Boost.JSON keeps the integer/floating distinction of the source text (int64, uint64, double).
// Evaluators that compare "by value" must not let that distinction leak, and must not round either:
// 9007199254740993 (an integer) is not 9007199254740992.0 (a double), although both convert to the
// same double. So integers are compared as integers, and a double against an integer only when the
// double is integral; otherwise the mathematical difference decides.
#ifndef KRINO_JSON_EQUALITY_HPP
#define KRINO_JSON_EQUALITY_HPP

#include <boost/json/value.hpp>

#include <cmath>
#include <cstdint>

namespace krino::json {

inline bool is_number(const boost::json::value& v) noexcept { return v.is_int64() || v.is_uint64() || v.is_double(); }

namespace detail {

// Exact comparison of two integers of either signedness.
inline bool same_integer(const boost::json::value& a, const boost::json::value& b) noexcept {
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  const std::int64_t s = a.is_int64() ? a.get_int64() : b.get_int64();
  const std::uint64_t u = a.is_uint64() ? a.get_uint64() : b.get_uint64();
  return s >= 0 && static_cast<std::uint64_t>(s) == u;
}

// Exact comparison of an integral, finite double with an integer.
inline bool same_integral(double d, const boost::json::value& integer) noexcept {
  // 2^63 and 2^64 are exact doubles; anything at or beyond them cannot equal the integer.
  constexpr double two_pow_63 = 9223372036854775808.0;
  constexpr double two_pow_64 = 18446744073709551616.0;
  if (integer.is_int64()) {
    if (d < -two_pow_63 || d >= two_pow_63) return false;
    return static_cast<std::int64_t>(d) == integer.get_int64();
  }
  if (d < 0.0 || d >= two_pow_64) return false;
  return static_cast<std::uint64_t>(d) == integer.get_uint64();
}

inline double as_double(const boost::json::value& v) noexcept {
  if (v.is_double()) return v.get_double();
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  return static_cast<double>(v.get_uint64());
}

}  // namespace detail

// Whether two JSON numbers have the same mathematical value, or differ by at most
// `absolute_tolerance`. False when either operand is not a number, or is NaN or infinite.
inline bool same_number(const boost::json::value& a, const boost::json::value& b,
                        double absolute_tolerance = 0.0) noexcept {
  if (!is_number(a) || !is_number(b)) return false;
  const bool a_double = a.is_double();
  const bool b_double = b.is_double();
  if ((a_double && !std::isfinite(a.get_double())) || (b_double && !std::isfinite(b.get_double()))) return false;

  bool exact = false;
  if (!a_double && !b_double) {
    exact = detail::same_integer(a, b);
  } else if (a_double && b_double) {
    exact = a.get_double() == b.get_double();
  } else {
    const double d = a_double ? a.get_double() : b.get_double();
    const boost::json::value& integer = a_double ? b : a;
    exact = std::trunc(d) == d && detail::same_integral(d, integer);
  }
  if (exact) return true;
  // Two distinct integers differ by at least 1; the double subtraction below could round that
  // away for huge values, so decide it here.
  const bool both_integral = (!a_double || std::trunc(a.get_double()) == a.get_double()) &&
                             (!b_double || std::trunc(b.get_double()) == b.get_double());
  if (both_integral && absolute_tolerance < 1.0) return false;
  return std::fabs(detail::as_double(a) - detail::as_double(b)) <= absolute_tolerance;
}

// Deep equality: numbers by value (see same_number), strings byte for byte, arrays element by
// element in order, objects by key set and per-key value regardless of key order.
inline bool same_value(const boost::json::value& a, const boost::json::value& b,
                       double absolute_tolerance = 0.0) noexcept {
  if (is_number(a) || is_number(b)) return same_number(a, b, absolute_tolerance);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case boost::json::kind::null:
      return true;
    case boost::json::kind::bool_:
      return a.get_bool() == b.get_bool();
    case boost::json::kind::string:
      return a.get_string() == b.get_string();
    case boost::json::kind::array: {
      const auto& x = a.get_array();
      const auto& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!same_value(x[i], y[i], absolute_tolerance)) return false;
      return true;
    }
    case boost::json::kind::object: {
      const auto& x = a.get_object();
      const auto& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& member : x) {
        const auto it = y.find(member.key());
        if (it == y.end() || !same_value(member.value(), it->value(), absolute_tolerance)) return false;
      }
      return true;
    }
    default:
      return false;  // numbers were handled above
  }
}

}  // namespace krino::json

#endif  // KRINO_JSON_EQUALITY_HPP
