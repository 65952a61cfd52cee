#include "csv_resolver.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using namespace krino::files::testing;
using krino::DatasetInfo;

BOOST_AUTO_TEST_SUITE(csv_resolver)

BOOST_AUTO_TEST_CASE(reads_a_full_featured_file) {
  TempDir dir;
  const std::string path = dir.write("support.csv",
                                     "\xEF\xBB\xBF Id , Input ,expected_output,Output,topic\r\n"
                                     "t1,  How do I reset?  ,\"  Click \"\"Reset\"\".  \",ignored alias,account\r\n"
                                     "\r\n"
                                     "t2,\"Line one\r\nline two, with comma\",ok,,billing\r\n"
                                     ",short row\r\n"
                                     "t4,too,many,fields,here,extra\r\n"
                                     "t5,last,done,,\r\n");
  const Drained d = drain<CsvResolver>(path);
  BOOST_TEST(d.info.name == "support");
  BOOST_TEST(*d.info.size_hint == 5u);
  BOOST_TEST_REQUIRE(d.items.size() == 5u);

  BOOST_TEST(d.items[0].location == path + ":2");
  BOOST_TEST(boost::json::value(d.items[0].example) ==
             json(R"({"id":"t1","inputs":{"input":"How do I reset?"},"expectedOutputs":{"output":"  Click \"Reset\".  "},
                      "metadata":{"Output":"ignored alias","topic":"account"}})"));

  BOOST_TEST(d.items[1].location == path + ":4");
  BOOST_TEST(d.items[1].example.at("inputs").at("input") == "Line one\r\nline two, with comma");
  BOOST_TEST(d.items[1].example.at("metadata").at("Output") == "");

  BOOST_TEST(d.items[2].location == path + ":6");
  BOOST_TEST(boost::json::value(d.items[2].example) ==
             json(R"({"inputs":{"input":"short row"},"expectedOutputs":{},"metadata":{}})"));

  BOOST_TEST(!d.items[3].ok);
  BOOST_TEST(d.items[3].location == path + ":7");
  BOOST_TEST(d.items[3].error == "the row has 6 fields but the header has 5 columns");

  BOOST_TEST(d.items[4].ok);
  BOOST_TEST(d.items[4].location == path + ":8");
  BOOST_TEST(d.items[4].example.at("id") == "t5");
}

BOOST_AUTO_TEST_CASE(recorded_outputs_for_replay) {
  TempDir dir;
  const std::string path = dir.write("r.csv", "input,expectedOutput,actual_output\nq,Paris,paris\n");
  const Drained d = drain<CsvResolver>(path);
  BOOST_TEST_REQUIRE(d.items.size() == 1u);
  BOOST_TEST(boost::json::value(d.items[0].example) ==
             json(R"({"inputs":{"input":"q"},"expectedOutputs":{"output":"Paris"},"metadata":{},
                      "actualOutputs":{"output":"paris"}})"));
}

BOOST_AUTO_TEST_CASE(delimiter_option) {
  TempDir dir;
  const std::string semicolons = dir.write("s.csv", "input;output\n\"a;b\";c\n");
  const Drained d = drain<CsvResolver>(semicolons, R"({"delimiter":";"})");
  BOOST_TEST_REQUIRE(d.items.size() == 1u);
  BOOST_TEST(d.items[0].example.at("inputs").at("input") == "a;b");
  BOOST_TEST(d.items[0].example.at("expectedOutputs").at("output") == "c");

  const std::string tabs = dir.write("t.tsv", "input\toutput\n a b \t c \n");
  const Drained t = drain<CsvResolver>(tabs, R"({"delimiter":"\t"})");
  BOOST_TEST_REQUIRE(t.items.size() == 1u);
  BOOST_TEST(t.items[0].example.at("inputs").at("input") == "a b");

  BOOST_TEST(error_of([&] { drain<CsvResolver>(semicolons, R"({"delimiter":";;"})"); }) ==
             "option 'delimiter' must be one ASCII character, not ';;'");
  BOOST_TEST(error_of([&] { drain<CsvResolver>(semicolons, R"({"delimiter":"\""})"); }) ==
             "option 'delimiter' cannot be a quote or a line break");
}

BOOST_AUTO_TEST_CASE(an_unclosed_quote_is_a_bad_row_at_the_quote_and_ends_the_stream) {
  TempDir dir;
  const std::string path = dir.write("u.csv", "input\nfine\n\"broken\nrest\nof file\n");
  DatasetInfo info;
  CsvResolver resolver(nullptr, path, krino::Config(), info);
  std::string record, location, error;
  BOOST_TEST(resolver.next(record, location, error) == krino::Next::record);
  BOOST_TEST(resolver.next(record, location, error) == krino::Next::bad);
  BOOST_TEST(location == path + ":3");
  BOOST_TEST(error == "a quoted field opened on this line never closes; it runs to the end of the file");
  BOOST_TEST(resolver.next(record, location, error) == krino::Next::end);
}

BOOST_AUTO_TEST_CASE(a_doubled_byte_order_mark_is_an_error_naming_the_line) {
  // Was read as a column named "\uFEFFid": the id became metadata, silently.
  TempDir dir;
  const std::string path = dir.write("twice.csv", "\xEF\xBB\xBF\xEF\xBB\xBFid,input\na,q\n");
  const std::string message = error_of([&] { drain<CsvResolver>(path); });
  BOOST_TEST(message.find(path + ":1: the header's first column starts with a second byte order mark") == 0, message);
  // One mark is the usual UTF-8 signature and is dropped.
  const std::string once = dir.write("once.csv", "\xEF\xBB\xBFid,input\na,q\n");
  BOOST_TEST(drain<CsvResolver>(once).items.at(0).example.at("id") == "a");
}

BOOST_AUTO_TEST_CASE(open_errors) {
  TempDir dir;
  DatasetInfo info;
  const auto open = [&](const std::string& path) { CsvResolver r(nullptr, path, krino::Config(), info); };
  const std::string empty = dir.write("empty.csv", "\n\n");
  BOOST_TEST(error_of([&] { open(empty); }) ==
             "'" + empty + "' is empty; a CSV dataset needs a header row with an 'input' column");
  const std::string no_input = dir.write("noinput.csv", "question,answer\nq,a\n");
  BOOST_TEST(error_of([&] { open(no_input); }) == "'" + no_input + "' has no 'input' column (header: question, answer)");
  const std::string header_only = dir.write("header.csv", "input,output\n");
  BOOST_TEST(error_of([&] { open(header_only); }) == "'" + header_only + "' holds no examples");
  const std::string bad_header = dir.write("badheader.csv", "\n\"input\"x,output\nq,a\n");
  BOOST_TEST(error_of([&] { open(bad_header); }) == bad_header + ":2: header row: field 1 has text after its closing quote");
  const std::string missing = dir.path("missing.csv");
  BOOST_TEST(error_of([&] { open("file://" + missing); }) == "cannot open '" + missing + "': No such file or directory");
}

BOOST_AUTO_TEST_SUITE_END()
