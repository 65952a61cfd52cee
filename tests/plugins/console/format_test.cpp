#include "format.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::console;

BOOST_AUTO_TEST_SUITE(console_format)

BOOST_AUTO_TEST_CASE(fixed_rounds_and_never_prints_negative_zero) {
  BOOST_TEST(fixed(0.5, 2) == "0.50");
  BOOST_TEST(fixed(0.125, 1) == "0.1");
  BOOST_TEST(fixed(1.0, 0) == "1");
  BOOST_TEST(fixed(-0.0001, 2) == "0.00");
  BOOST_TEST(fixed(-0.5, 2) == "-0.50");
}

BOOST_AUTO_TEST_CASE(percent_has_one_decimal) {
  BOOST_TEST(percent(0.4) == "40.0%");
  BOOST_TEST(percent(0.666667) == "66.7%");
  BOOST_TEST(percent(1.0) == "100.0%");
  BOOST_TEST(percent(0.0) == "0.0%");
}

BOOST_AUTO_TEST_CASE(counts_are_whole_unless_they_are_means) {
  BOOST_TEST(count(3.0) == "3");
  BOOST_TEST(count(90.333333) == "90.33");
  BOOST_TEST(count(2.0000001) == "2");
  BOOST_TEST(counted(1, "error", "errors") == "1 error");
  BOOST_TEST(counted(0, "error", "errors") == "0 errors");
  BOOST_TEST(counted(0.333333, "error", "errors") == "0.33 errors");
  BOOST_TEST(counted(1.0000001, "item", "items") == "1 item");
}

BOOST_AUTO_TEST_CASE(durations_read_like_a_person_would_say_them) {
  BOOST_TEST(duration(0.4) == "0 ms");
  BOOST_TEST(duration(850) == "850 ms");
  BOOST_TEST(duration(999.6) == "1.00 s");
  BOOST_TEST(duration(1520.5) == "1.52 s");
  BOOST_TEST(duration(59'999) == "1 min 00 s");
  BOOST_TEST(duration(123'000) == "2 min 03 s");
  BOOST_TEST(duration(3'720'000) == "1 h 02 min");
  BOOST_TEST(duration(-5) == "0 ms");
}

BOOST_AUTO_TEST_CASE(clock_times_round_up_and_grow_an_hour_field) {
  BOOST_TEST(clock_time(0) == "0:00");
  BOOST_TEST(clock_time(0.18) == "0:01");
  BOOST_TEST(clock_time(65) == "1:05");
  BOOST_TEST(clock_time(3723) == "1:02:03");
  BOOST_TEST(clock_time(1e12) == "999:59:59");
}

BOOST_AUTO_TEST_CASE(single_line_turns_control_characters_into_single_spaces) {
  BOOST_TEST(single_line("the judge reply\nhad no score", 100) == "the judge reply had no score");
  BOOST_TEST(single_line("  a\r\n\tb  ", 100) == "a b");
  BOOST_TEST(single_line("red \x1b[31mtext", 100) == "red [31mtext");
  BOOST_TEST(single_line("", 10) == "");
}

BOOST_AUTO_TEST_CASE(single_line_cuts_long_text_at_a_code_point_with_an_ellipsis) {
  BOOST_TEST(single_line("abcdefghij", 10) == "abcdefghij");
  BOOST_TEST(single_line("abcdefghijk", 10) == "abcdefg...");
  BOOST_TEST(single_line("abc def ghij", 9) == "abc de...");
  // "é" is two bytes: the cut never splits it.
  const std::string cut = single_line("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4);
  BOOST_TEST(cut == "\xc3\xa9...");
  BOOST_TEST(display_width(cut) == 4u);
  // A megabyte of reason is not copied whole.
  const std::string huge(1 << 20, 'x');
  BOOST_TEST(single_line(huge, 300).size() == 300u);
}

// Text that is already one line comes back as it is; anything else still goes through the rules.
BOOST_AUTO_TEST_CASE(single_line_keeps_text_that_is_already_one_line) {
  BOOST_TEST(single_line("5 of 6 calls match (in_order)", 100) == "5 of 6 calls match (in_order)");
  BOOST_TEST(single_line("\xc3\xa9t\xc3\xa9 \xc3\xa9", 5) == "\xc3\xa9t\xc3\xa9 \xc3\xa9");
  BOOST_TEST(single_line("a  b", 100) == "a b");
  BOOST_TEST(single_line(" a", 100) == "a");
  BOOST_TEST(single_line("a ", 100) == "a");
  BOOST_TEST(single_line("a\x7f" "b", 100) == "a b");
  BOOST_TEST(single_line("a \x80" "b", 100) == "a\x80 b");  // the space waits for the next code point
  BOOST_TEST(single_line("abcdefghij", 9) == "abcdef...");
}

BOOST_AUTO_TEST_SUITE_END()
