#include "buffered_file.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

using namespace krino::files;
using namespace krino::files::testing;

BOOST_AUTO_TEST_SUITE(buffered_file)

BOOST_AUTO_TEST_CASE(reads_the_whole_file_in_small_chunks_and_keeps_what_is_not_consumed) {
  TempDir dir;
  std::string content;
  for (int i = 0; i < 1000; ++i) content += "line " + std::to_string(i) + "\n";
  BufferedFile file(dir.write("a.txt", content), 16);
  BOOST_TEST(file.size_on_open() == content.size());
  std::string seen;
  while (file.read_more()) {
    // Consume half of what is loaded: the rest must survive compaction and growth.
    const std::string_view window = file.window();
    seen.append(window.substr(0, window.size() / 2));
    file.consume(window.size() / 2);
  }
  seen.append(file.window());
  BOOST_TEST(seen == content);
}

BOOST_AUTO_TEST_CASE(grows_to_hold_a_window_longer_than_the_buffer) {
  TempDir dir;
  const std::string content(5000, 'x');
  BufferedFile file(dir.write("a.txt", content), 64);
  while (file.read_more()) {
  }
  BOOST_TEST(file.window() == content);
  BOOST_TEST(!file.read_more());
}

BOOST_AUTO_TEST_CASE(open_errors_name_the_path_and_the_os_reason) {
  TempDir dir;
  const std::string missing = dir.path("missing.jsonl");
  const std::string message = error_of([&] { BufferedFile file(missing); });
  BOOST_TEST(message == "cannot open '" + missing + "': No such file or directory");
  BOOST_TEST(status_of([&] { BufferedFile file(missing); }) == KRINO_NOT_FOUND);

  const std::string directory_message = error_of([&] { BufferedFile file(dir.path("")); });
  BOOST_TEST(directory_message.find("Is a directory") != std::string::npos);
}

namespace {
// Root reads every file whatever its permissions, so the test only means something for others.
boost::test_tools::assertion_result not_root(boost::unit_test::test_unit_id) { return ::geteuid() != 0; }
}  // namespace

BOOST_AUTO_TEST_CASE(permission_denied_is_reported_as_such, *boost::unit_test::precondition(not_root)) {
  TempDir dir;
  const std::string path = dir.write("secret.jsonl", "{}\n");
  std::filesystem::permissions(path, std::filesystem::perms::none);
  BOOST_TEST(status_of([&] { BufferedFile file(path); }) == KRINO_PERMISSION_DENIED);
  BOOST_TEST(error_of([&] { BufferedFile file(path); }).find("Permission denied") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
