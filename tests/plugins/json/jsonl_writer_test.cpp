#include "json_test_support.hpp"
#include "jsonl_writer.hpp"

#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

using krino::jsonl::JsonlWriter;
namespace t = krino::jsonl::testing;

namespace {

bool error_is(const krino::Error& e, krino_status code, const std::string& needle) {
  BOOST_TEST_MESSAGE(e.what());
  return e.code() == code && std::string(e.what()).find(needle) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jsonl_writer)

BOOST_AUTO_TEST_CASE(lines_are_the_documents_byte_for_byte) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  {
    JsonlWriter writer(path.string(), false);
    for (const auto& document : t::two_item_run()) writer.write_line(document);
    writer.flush();
    BOOST_TEST(t::read_file(path) == t::as_lines(t::two_item_run()));
  }
  BOOST_TEST(t::read_file(path) == t::as_lines(t::two_item_run()));
}

BOOST_AUTO_TEST_CASE(text_is_buffered_until_flush_or_destruction) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  {
    JsonlWriter writer(path.string(), false);
    writer.write_line(R"({"event":"run_started"})");
    BOOST_TEST(t::read_file(path).empty());
    BOOST_TEST(writer.buffered() == 24u);
    writer.flush();
    BOOST_TEST(t::read_file(path) == "{\"event\":\"run_started\"}\n");
    BOOST_TEST(writer.buffered() == 0u);
    writer.flush();  // nothing to do
    writer.write_line(R"({"event":"run_finished"})");
  }
  BOOST_TEST(t::read_file(path) == "{\"event\":\"run_started\"}\n{\"event\":\"run_finished\"}\n");
}

BOOST_AUTO_TEST_CASE(a_full_buffer_goes_out_in_whole_lines_only) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  JsonlWriter writer(path.string(), false, 100);
  std::string expected;
  for (int i = 0; i < 40; ++i) {
    const std::string document = R"({"event":"item_finished","index":)" + std::to_string(i) + "}";
    writer.write_line(document);
    expected += document + "\n";
    const std::string on_disk = t::read_file(path);
    BOOST_TEST((on_disk.empty() || on_disk.back() == '\n'));
    BOOST_TEST(expected.compare(0, on_disk.size(), on_disk) == 0);
    BOOST_TEST(writer.buffered() <= 100u);
  }
  writer.flush();
  BOOST_TEST(t::read_file(path) == expected);
}

BOOST_AUTO_TEST_CASE(a_line_larger_than_the_buffer_is_written_whole) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  JsonlWriter writer(path.string(), false, 64);
  const std::string small = R"({"event":"run_started"})";
  const std::string large = R"({"event":"item_finished","reason":")" + std::string(1000, 'x') + "\"}";
  writer.write_line(small);
  writer.write_line(large);
  BOOST_TEST(t::read_file(path) == small + "\n" + large + "\n");
  BOOST_TEST(writer.buffered() == 0u);
  writer.write_line(small);
  writer.flush();
  BOOST_TEST(t::read_file(path) == small + "\n" + large + "\n" + small + "\n");
}

BOOST_AUTO_TEST_CASE(line_breaks_between_tokens_become_spaces_and_ends_are_trimmed) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  {
    JsonlWriter writer(path.string(), false);
    writer.write_line("\n  {\"event\":\r\n \"run_started\",\n\"note\":\"a\\nb\"}\n\n");
    BOOST_CHECK_EXCEPTION(writer.write_line(" \n\t"), krino::Error,
                          [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  }
  BOOST_TEST(t::read_file(path) == "{\"event\":   \"run_started\", \"note\":\"a\\nb\"}\n");
}

BOOST_AUTO_TEST_CASE(the_file_is_replaced_unless_appending) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  t::write_file(path, "{\"event\":\"older\"}\n");
  {
    JsonlWriter writer(path.string(), true);
    writer.write_line(R"({"event":"newer"})");
  }
  BOOST_TEST(t::read_file(path) == "{\"event\":\"older\"}\n{\"event\":\"newer\"}\n");
  {
    JsonlWriter writer(path.string(), false);
    // Replaced on open, before anything is written.
    BOOST_TEST(t::read_file(path).empty());
    writer.write_line(R"({"event":"newest"})");
  }
  BOOST_TEST(t::read_file(path) == "{\"event\":\"newest\"}\n");
}

BOOST_AUTO_TEST_CASE(missing_parent_directories_are_created) {
  t::ScratchDirectory dir;
  const auto path = dir / "results/2026/11/run.jsonl";
  {
    JsonlWriter writer(path.string(), false);
    writer.write_line("{}");
  }
  BOOST_TEST(t::read_file(path) == "{}\n");
}

BOOST_AUTO_TEST_CASE(dash_writes_to_stdout_after_what_stdio_already_holds) {
  std::FILE* capture = std::tmpfile();
  BOOST_REQUIRE(capture != nullptr);
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  dup2(fileno(capture), STDOUT_FILENO);
  {
    JsonlWriter writer("-", false);
    std::fputs("printed first;", stdout);  // still in stdio's buffer
    writer.write_line(R"({"event":"run_started"})");
    writer.flush();
    writer.write_line(R"({"event":"run_finished"})");
  }
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::rewind(capture);
  char buffer[256] = {};
  const size_t n = std::fread(buffer, 1, sizeof buffer - 1, capture);
  std::fclose(capture);
  BOOST_TEST(std::string(buffer, n) == "printed first;{\"event\":\"run_started\"}\n{\"event\":\"run_finished\"}\n");
}

BOOST_AUTO_TEST_CASE(an_unopenable_path_is_an_error_naming_path_and_reason) {
  t::ScratchDirectory dir;
  const auto file = dir / "plain-file";
  t::write_file(file, "x");
  const std::string below_a_file = (file / "out.jsonl").string();
  BOOST_CHECK_EXCEPTION(JsonlWriter(below_a_file, false), krino::Error, [&](const krino::Error& e) {
    return error_is(e, KRINO_FAILED_PRECONDITION,
                    "cannot create directory '" + file.string() + "' for '" + below_a_file + "': Not a directory");
  });
  BOOST_CHECK_EXCEPTION(JsonlWriter(dir.path().string(), false), krino::Error, [&](const krino::Error& e) {
    return error_is(e, KRINO_FAILED_PRECONDITION, "cannot open '" + dir.path().string() + "' for writing: Is a directory");
  });
  BOOST_CHECK_EXCEPTION(JsonlWriter("", false), krino::Error,
                        [](const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; });
  if (geteuid() != 0) {  // root writes anywhere
    const auto locked = dir / "locked";
    std::filesystem::create_directory(locked);
    std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const std::string path = (locked / "out.jsonl").string();
    BOOST_CHECK_EXCEPTION(JsonlWriter(path, false), krino::Error, [&](const krino::Error& e) {
      return error_is(e, KRINO_PERMISSION_DENIED, "cannot open '" + path + "' for writing: Permission denied");
    });
    std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  }
}

BOOST_AUTO_TEST_CASE(a_failed_write_is_reported_and_keeps_the_text) {
  JsonlWriter writer("/dev/full", false);
  writer.write_line(R"({"event":"run_started"})");
  BOOST_CHECK_EXCEPTION(writer.flush(), krino::Error, [](const krino::Error& e) {
    return error_is(e, KRINO_RESOURCE_EXHAUSTED, "cannot write to '/dev/full': No space left on device");
  });
  BOOST_TEST(writer.buffered() == 24u);
}

BOOST_AUTO_TEST_CASE(flushed_lines_survive_a_killed_process) {
  t::ScratchDirectory dir;
  const auto path = dir / "out.jsonl";
  const std::vector<std::string> documents = t::two_item_run();
  std::fflush(nullptr);
  const pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    // The child writes three events, flushes (as the host does on Ctrl-C), writes one more and
    // is killed before it can flush again or run any destructor.
    JsonlWriter writer(path.string(), false);
    for (int i = 0; i < 3; ++i) writer.write_line(documents[i]);
    writer.flush();
    writer.write_line(documents[3]);
    raise(SIGKILL);
    _exit(1);
  }
  int status = 0;
  BOOST_REQUIRE(waitpid(child, &status, 0) == child);
  BOOST_TEST(WIFSIGNALED(status));
  BOOST_TEST(t::read_file(path) == t::as_lines({documents[0], documents[1], documents[2]}));
}

BOOST_AUTO_TEST_SUITE_END()
