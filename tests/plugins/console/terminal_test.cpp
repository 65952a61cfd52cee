#include "terminal.hpp"
#include "text_output.hpp"

#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <pty.h>
#include <unistd.h>

#include <cstdio>

using namespace krino::console;

BOOST_AUTO_TEST_SUITE(console_terminal)

BOOST_AUTO_TEST_CASE(when_values_parse_and_others_are_rejected) {
  BOOST_TEST((parse_when("color", "auto") == When::automatic));
  BOOST_TEST((parse_when("color", "always") == When::always));
  BOOST_TEST((parse_when("color", "never") == When::never));
  try {
    parse_when("color", "sometimes");
    BOOST_FAIL("expected an error");
  } catch (const krino::Error& e) {
    BOOST_TEST(e.code() == KRINO_INVALID_ARGUMENT);
    BOOST_TEST(std::string(e.what()).find("'color'") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(auto_colour_follows_the_terminal_and_no_color) {
  const Environment plain{};
  BOOST_TEST(color_enabled(When::automatic, true, plain));
  BOOST_TEST(!color_enabled(When::automatic, false, plain));
  // https://no-color.org: any non-empty value disables colour; an empty one does not.
  BOOST_TEST(!color_enabled(When::automatic, true, Environment{"1", ""}));
  BOOST_TEST(!color_enabled(When::automatic, true, Environment{"false", ""}));
  BOOST_TEST(color_enabled(When::automatic, true, Environment{"", ""}));
  BOOST_TEST(!color_enabled(When::automatic, true, Environment{"", "dumb"}));
  BOOST_TEST(color_enabled(When::automatic, true, Environment{"", "xterm-256color"}));
}

BOOST_AUTO_TEST_CASE(explicit_colour_choices_override_the_environment) {
  BOOST_TEST(color_enabled(When::always, false, Environment{"1", "dumb"}));
  BOOST_TEST(!color_enabled(When::never, true, Environment{}));
}

BOOST_AUTO_TEST_CASE(progress_is_drawn_on_terminals_unless_told_otherwise) {
  BOOST_TEST(progress_enabled(When::automatic, true));
  BOOST_TEST(!progress_enabled(When::automatic, false));
  BOOST_TEST(progress_enabled(When::always, false));
  BOOST_TEST(!progress_enabled(When::never, true));
}

BOOST_AUTO_TEST_CASE(a_file_is_not_a_terminal_and_a_pseudo_terminal_is) {
  std::FILE* file = std::tmpfile();
  BOOST_REQUIRE(file != nullptr);
  FileOutput to_file(file);
  BOOST_TEST(!to_file.is_terminal());
  BOOST_TEST(to_file.columns() == 0u);
  to_file.write("abc");
  to_file.flush();
  BOOST_TEST(std::ftell(file) == 3);
  std::fclose(file);

  int master = -1;
  int slave = -1;
  winsize size{};
  size.ws_col = 97;
  size.ws_row = 20;
  BOOST_REQUIRE(openpty(&master, &slave, nullptr, nullptr, &size) == 0);
  std::FILE* tty = fdopen(slave, "w");
  BOOST_REQUIRE(tty != nullptr);
  {
    FileOutput to_tty(tty);
    BOOST_TEST(to_tty.is_terminal());
    BOOST_TEST(to_tty.columns() == 97u);
  }
  std::fclose(tty);
  close(master);
}

BOOST_AUTO_TEST_SUITE_END()
