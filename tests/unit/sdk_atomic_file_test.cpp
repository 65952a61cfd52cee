// The SDK's atomic file writer (<krino/io/atomic_file.hpp>): the target changes only on commit, and
// only to the whole new content; nothing is left behind; new files follow the umask; errors name
// the path.
#include <krino/io/atomic_file.hpp>

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using krino::io::AtomicFile;

namespace {

struct AtomicFileDir {
  std::filesystem::path path;
  AtomicFileDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "krino-atomic-file-XXXXXX").string();
    BOOST_REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~AtomicFileDir() {
    std::error_code ec;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path, ec);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path)) names.push_back(e.path().filename().string());
    return names;
  }
};

std::string content_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

unsigned mode_of(const std::filesystem::path& path) {
  struct stat info {};
  BOOST_REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

// Sets the umask for the life of the object.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }

 private:
  mode_t previous_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_atomic_file)

BOOST_AUTO_TEST_CASE(the_target_changes_only_on_commit_and_to_the_whole_content) {
  AtomicFileDir dir;
  const auto target = dir.path / "out.json";
  put_file(target, "old");
  // Small pieces, a piece larger than the buffer, and pieces again.
  const std::string big(AtomicFile::kBufferSize + 12345, 'b');
  std::string expected;
  {
    AtomicFile file(target);
    for (int i = 0; i < 1000; ++i) {
      const std::string piece = "line " + std::to_string(i) + "\n";
      file.write(piece);
      expected += piece;
    }
    file.write(big);
    expected += big;
    file.write("end");
    expected += "end";
    BOOST_TEST(content_of(target) == "old");
    BOOST_TEST(dir.entries().size() == 2u);  // the target and the temporary file beside it
    file.commit();
    BOOST_TEST(content_of(target) == expected);
    BOOST_CHECK_THROW(file.write("more"), krino::Error);  // committed: closed
  }
  BOOST_TEST(content_of(target) == expected);
  BOOST_TEST(dir.entries() == std::vector<std::string>{"out.json"});
}

BOOST_AUTO_TEST_CASE(an_uncommitted_file_leaves_the_target_and_no_temporary) {
  AtomicFileDir dir;
  const auto existing = dir.path / "existing.txt";
  put_file(existing, "old");
  {
    AtomicFile file(existing);
    file.write(std::string(AtomicFile::kBufferSize * 2, 'x'));  // some of it on disk already
  }
  BOOST_TEST(content_of(existing) == "old");
  {
    AtomicFile file(dir.path / "absent.txt");
    file.write("new");
  }
  BOOST_TEST(dir.entries() == std::vector<std::string>{"existing.txt"});
}

BOOST_AUTO_TEST_CASE(a_new_file_gets_the_mode_the_umask_gives) {
  AtomicFileDir dir;
  const auto target = dir.path / "report.txt";
  put_file(target, "old");
  std::filesystem::permissions(target, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  for (const mode_t mask : {mode_t{022}, mode_t{027}, mode_t{077}}) {
    const ScopedUmask umask(mask);
    AtomicFile file(target);
    file.write("new");
    file.commit();
    BOOST_TEST(mode_of(target) == (0666u & ~static_cast<unsigned>(mask)));
  }
}

BOOST_AUTO_TEST_CASE(an_unwritable_directory_fails_with_the_path) {
  AtomicFileDir dir;
  const auto target = dir.path / "verdict.json";
  put_file(target, "old");
  std::filesystem::permissions(dir.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                                             std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                                             std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  // root writes anywhere: the check runs in a child that gives up root first.
  int message_pipe[2];
  BOOST_REQUIRE(::pipe(message_pipe) == 0);
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    ::close(message_pipe[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(2);
    try {
      AtomicFile file(target);
      ::_exit(1);
    } catch (const krino::Error& e) {
      const std::string text = std::to_string(static_cast<int>(e.code())) + " " + e.what();
      if (::write(message_pipe[1], text.data(), text.size()) < 0) ::_exit(3);
      ::_exit(0);
    } catch (...) {
      ::_exit(4);
    }
  }
  ::close(message_pipe[1]);
  std::string message;
  char chunk[512];
  for (ssize_t n; (n = ::read(message_pipe[0], chunk, sizeof chunk)) > 0;) message.append(chunk, static_cast<size_t>(n));
  ::close(message_pipe[0]);
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 2) {
    BOOST_TEST_MESSAGE("cannot give up root here; the permission check was not run");
    return;
  }
  BOOST_TEST(WEXITSTATUS(status) == 0);  // 1: the file was created
  BOOST_TEST(message.find(std::to_string(static_cast<int>(KRINO_PERMISSION_DENIED)) + " ") == 0u);
  BOOST_TEST(message.find(target.string()) != std::string::npos);
  BOOST_TEST(message.find("Permission denied") != std::string::npos);
  BOOST_TEST(content_of(target) == "old");
}

BOOST_AUTO_TEST_CASE(a_missing_directory_or_a_directory_target_fails_with_the_path) {
  AtomicFileDir dir;
  const auto missing = dir.path / "absent" / "file.txt";
  BOOST_CHECK_EXCEPTION(AtomicFile{missing}, krino::Error, [&](const krino::Error& e) {
    return e.code() == KRINO_NOT_FOUND && std::string(e.what()).find(missing.string()) != std::string::npos;
  });
  // A directory in the target's place: the rename fails, the directory stays, no temporary is left.
  const auto directory = dir.path / "taken";
  std::filesystem::create_directory(directory);
  AtomicFile file(directory);
  file.write("text");
  BOOST_CHECK_EXCEPTION(file.commit(), krino::Error, [&](const krino::Error& e) {
    return e.code() == KRINO_FAILED_PRECONDITION && std::string(e.what()).find(directory.string()) != std::string::npos;
  });
  BOOST_TEST(std::filesystem::is_directory(directory));
}

BOOST_AUTO_TEST_CASE(a_crash_before_commit_leaves_the_old_file) {
  AtomicFileDir dir;
  const auto target = dir.path / "baseline.json";
  put_file(target, "old baseline");
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    // Dies mid-write: no destructor, no commit.
    try {
      AtomicFile file(target);
      file.write(std::string(AtomicFile::kBufferSize * 3, 'n'));
      ::_exit(0);
    } catch (...) {
      ::_exit(1);
    }
  }
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  BOOST_TEST(content_of(target) == "old baseline");
  // What a crash can leave: one hidden temporary beside the target, never a changed target.
  for (const auto& name : dir.entries())
    BOOST_TEST((name == "baseline.json" || name.rfind(".baseline.json.krino-", 0) == 0), name);
}

BOOST_AUTO_TEST_CASE(a_symbolic_link_stays_a_link_and_its_file_is_replaced) {
  AtomicFileDir dir;
  std::filesystem::create_directory(dir.path / "real");
  const auto real = dir.path / "real" / "report.xml";
  put_file(real, "old");
  const auto link = dir.path / "report.xml";
  std::filesystem::create_symlink("real/report.xml", link);
  {
    AtomicFile file(link);
    file.write("new");
    file.commit();
  }
  BOOST_TEST(std::filesystem::is_symlink(link));
  BOOST_TEST(content_of(real) == "new");
  // The temporary file was made beside the real file, and nothing is left of it.
  BOOST_TEST(dir.entries().size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_device_is_written_in_place_not_replaced_by_a_regular_file) {
  AtomicFileDir dir;
  // A link to /dev/null stands for the device itself (replacing /dev/null needs root).
  const auto link = dir.path / "sink";
  std::filesystem::create_symlink("/dev/null", link);
  {
    AtomicFile file(link);
    file.write("discarded");
    file.commit();
  }
  BOOST_TEST(std::filesystem::is_symlink(link));
  BOOST_TEST(std::filesystem::is_character_file("/dev/null"));
  BOOST_TEST(dir.entries().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_fifo_is_written_in_place) {
  AtomicFileDir dir;
  const auto fifo = dir.path / "pipe";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = content_of(fifo); });
  {
    AtomicFile file(fifo);
    file.write("through the pipe");
    file.commit();
  }
  reader.join();
  BOOST_TEST(received == "through the pipe");
  BOOST_TEST(std::filesystem::is_fifo(fifo));
}

BOOST_AUTO_TEST_CASE(concurrent_writers_each_replace_the_whole_file) {
  AtomicFileDir dir;
  const auto target = dir.path / "entry.json";
  std::vector<pid_t> children;
  for (char c = 'a'; c < 'e'; ++c) {
    const pid_t child = ::fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
      try {
        for (int i = 0; i < 10; ++i) {
          AtomicFile file(target);
          file.write(std::string(100'000, c));
          file.commit();
        }
        ::_exit(0);
      } catch (...) {
        ::_exit(1);
      }
    }
    children.push_back(child);
  }
  for (const pid_t child : children) {
    int status = 0;
    BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
    BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  const std::string content = content_of(target);
  BOOST_TEST(content.size() == 100'000u);
  BOOST_TEST(content.find_first_not_of(content[0]) == std::string::npos);
  BOOST_TEST(dir.entries() == std::vector<std::string>{"entry.json"});
}

BOOST_AUTO_TEST_SUITE_END()
