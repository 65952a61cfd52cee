#include "krino/core/plugin/plugin_discovery.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::core;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(plugin_discovery)

BOOST_AUTO_TEST_CASE(search_order_is_flag_env_exe_install_without_duplicates) {
  PluginSearch s;
  s.plugin_dirs = {"/a", "/b"};
  s.plugin_path_env = "/c:/a:/d";
  s.executable = fs::path("/opt/krino/bin/krino");
  s.include_install_dir = false;
  auto dirs = plugin_search_dirs(s);
  BOOST_REQUIRE(dirs.size() == 5u);
  BOOST_TEST(dirs[0] == "/a");
  BOOST_TEST(dirs[1] == "/b");
  BOOST_TEST(dirs[2] == "/c");
  BOOST_TEST(dirs[3] == "/d");
  BOOST_TEST(dirs[4] == fs::path("/opt/krino/lib/krino/plugins"));
}

BOOST_AUTO_TEST_CASE(finds_shared_libraries_sorted_and_once) {
  fs::path root = fs::temp_directory_path() / "krino-discovery-test";
  fs::remove_all(root);
  fs::create_directories(root / "one");
  fs::create_directories(root / "two");
  for (const char* f : {"one/krino-b.so", "one/krino-a.so", "one/readme.txt", "two/krino-c.so"}) std::ofstream(root / f) << "x";
  fs::create_symlink(root / "one/krino-a.so", root / "two/alias.so");
  auto files = find_plugin_files({root / "one", root / "two", root / "missing"});
  BOOST_REQUIRE(files.size() == 3u);  // the symlink to a.so is the same file
  BOOST_TEST(files[0].filename() == "krino-a.so");
  BOOST_TEST(files[1].filename() == "krino-b.so");
  BOOST_TEST(files[2].filename() == "krino-c.so");
  fs::remove_all(root);
}

BOOST_AUTO_TEST_CASE(selection_names_drop_the_krino_prefix) {
  BOOST_TEST(plugin_selection_name("/x/krino-text.so") == "text");
  BOOST_TEST(plugin_selection_name("word_count.so") == "word_count");
  BOOST_TEST(plugin_selection_name("krino-.so") == "krino-");
}

BOOST_AUTO_TEST_SUITE_END()
