// Datasets read from a pipe or FIFO (/dev/stdin, <(...)): their bytes come once. A counting pass
// at open used to read them all, and the real read then found 0 items.
#include "csv_resolver.hpp"
#include "files_test_support.hpp"
#include "json_resolver.hpp"
#include "jsonl_resolver.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

// A FIFO in `dir` and a thread that writes `content` into it once a reader opens it.
class FifoFeed {
 public:
  FifoFeed(const TempDir& dir, const std::string& name, std::string content) : path_(dir.path(name)) {
    if (::mkfifo(path_.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
    writer_ = std::thread([path = path_, content = std::move(content)] {
      std::ofstream out(path, std::ios::binary);  // blocks until the resolver opens the FIFO
      out << content;
    });
  }
  ~FifoFeed() { writer_.join(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::thread writer_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(pipe_input)

BOOST_AUTO_TEST_CASE(jsonl_from_a_fifo_yields_every_line_once) {
  TempDir dir;
  FifoFeed feed(dir, "cases.jsonl", "{\"input\":\"1\"}\n{\"input\":\"2\"}\n{\"input\":\"3\"}\n");
  const Drained d = drain<JsonlResolver>(feed.path());
  BOOST_TEST(!d.info.size_hint.has_value());  // not counted: that would consume the pipe
  BOOST_TEST_REQUIRE(d.items.size() == 3u);
  BOOST_TEST(d.items[2].example.at("inputs").at("input") == "3");
  BOOST_TEST(d.items[2].location == feed.path() + ":3");
}

BOOST_AUTO_TEST_CASE(csv_from_a_fifo_yields_every_row_once) {
  TempDir dir;
  FifoFeed feed(dir, "cases.csv", "id,input\na,first\nb,second\n");
  const Drained d = drain<CsvResolver>(feed.path());
  BOOST_TEST(!d.info.size_hint.has_value());
  BOOST_TEST_REQUIRE(d.items.size() == 2u);
  BOOST_TEST(d.items[1].example.at("id") == "b");
}

BOOST_AUTO_TEST_CASE(json_from_a_fifo_yields_every_element_once) {
  TempDir dir;
  FifoFeed feed(dir, "cases.json", R"({"name": "piped", "examples": [{"input": "1"}, {"input": "2"}]})");
  const Drained d = drain<JsonResolver>(feed.path());
  BOOST_TEST(d.info.name == "piped");
  BOOST_TEST_REQUIRE(d.items.size() == 2u);
  BOOST_TEST(d.items[1].example.at("inputs").at("input") == "2");
}

BOOST_AUTO_TEST_CASE(json_from_a_fifo_with_its_name_after_the_examples_is_still_read_once) {
  // A regular file is read twice to find a name written after the examples; a pipe cannot be,
  // so the name comes from the file name (or the `name` option).
  TempDir dir;
  FifoFeed feed(dir, "late.json", R"({"examples": [{"input": "1"}], "name": "too late"})");
  const Drained d = drain<JsonResolver>(feed.path());
  BOOST_TEST(d.info.name == "late");
  BOOST_TEST_REQUIRE(d.items.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_regular_file_is_still_counted) {
  TempDir dir;
  const std::string path = dir.write("cases.jsonl", "{\"input\":\"1\"}\n{\"input\":\"2\"}\n");
  BOOST_TEST(*drain<JsonlResolver>(path).info.size_hint == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
