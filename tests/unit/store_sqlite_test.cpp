// The results server's SQLite store: migrations applied once and in order on a real file, a file
// from a newer krino refused, the journal in WAL mode; UUIDv7 ids ordered, well-formed and parsed back.
#include "krino/core/common/error.hpp"
#include "krino/core/store/migrations.hpp"
#include "krino/core/store/sqlite_connection.hpp"
#include "krino/core/store/sqlite_store.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include "../support/scratch_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <cctype>
#include <fstream>
#include <set>
#include <string>

using namespace krino::core::store;

namespace {

std::string single_text(SqliteConnection& connection, const std::string& sql) {
  SqliteStatement statement = connection.prepare(sql);
  BOOST_REQUIRE(statement.step());
  return std::string(statement.text(0));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(store_sqlite)

BOOST_AUTO_TEST_CASE(a_new_file_gets_every_migration_once) {
  krino::test::ScratchDirectory scratch;
  const auto path = scratch.path() / "krino.db";
  const int latest = migrations().back().version;
  {
    SqliteStore store(path);
    BOOST_TEST(store.schema_version() == latest);
    BOOST_TEST(store.backend() == "sqlite");
  }
  {
    SqliteStore reopened(path);  // nothing left to apply, nothing applied twice
    BOOST_TEST(reopened.schema_version() == latest);
  }
  SqliteConnection connection(path.string());
  BOOST_TEST(single_text(connection, "SELECT COUNT(*) FROM schema_migrations") == std::to_string(migrations().size()));
  BOOST_TEST(single_text(connection, "PRAGMA journal_mode") == "wal");
  BOOST_TEST(single_text(connection, "SELECT name FROM sqlite_master WHERE name = 'items'") == "items");
}

BOOST_AUTO_TEST_CASE(migrations_are_numbered_from_one_without_gaps) {
  int expected = 1;
  for (const Migration& migration : migrations()) {
    BOOST_TEST(migration.version == expected++);
    BOOST_TEST(!migration.sqlite_sql.empty());
    BOOST_TEST(!migration.postgres_sql.empty());
  }
}

BOOST_AUTO_TEST_CASE(a_database_from_a_newer_krino_is_refused_naming_the_file) {
  krino::test::ScratchDirectory scratch;
  const auto path = scratch.path() / "krino.db";
  { SqliteStore store(path); }
  {
    SqliteConnection connection(path.string());
    connection.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', '2030-01-01T00:00:00Z')");
  }
  try {
    SqliteStore store(path);
    BOOST_FAIL("a newer schema was accepted");
  } catch (const krino::core::KrinoError& error) {
    const std::string message = error.what();
    BOOST_TEST(message.find(path.string()) != std::string::npos, message);
    BOOST_TEST(message.find("999") != std::string::npos, message);
  }
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_a_database_is_an_error_naming_it) {
  krino::test::ScratchDirectory scratch;
  const auto path = scratch.path() / "notes.txt";
  std::ofstream(path) << std::string(4096, 'x');
  try {
    SqliteStore store(path);
    BOOST_FAIL("a text file was opened as a database");
  } catch (const krino::core::KrinoError& error) {
    BOOST_TEST(std::string(error.what()).find(path.string()) != std::string::npos, error.what());
  }
}

BOOST_AUTO_TEST_CASE(uuid_v7_ids_increase_and_carry_version_and_variant) {
  UuidV7Generator generator;
  std::set<std::string> seen;
  std::string previous;
  // Many ids in one millisecond, then the clock stepping back: the order still never goes back.
  for (int i = 0; i < 5000; ++i) {
    const std::string id = to_text(generator.next_at(i < 4000 ? 1'700'000'000'000 : 1'699'999'999'000));
    BOOST_TEST(id > previous);
    BOOST_TEST(id[14] == '7');
    BOOST_TEST((id[19] == '8' || id[19] == '9' || id[19] == 'a' || id[19] == 'b'));
    seen.insert(id);
    previous = id;
  }
  BOOST_TEST(seen.size() == 5000u);
  // 1,700,000,000,000 ms is 0x018bcfe56800.
  BOOST_TEST(to_text(generator.next_at(1'800'000'000'000)).substr(0, 13) == "01a3185c-5000");
}

BOOST_AUTO_TEST_CASE(uuid_text_round_trips_and_rejects_malformed_text) {
  UuidV7Generator generator;
  const Uuid id = generator.next();
  BOOST_TEST((parse_uuid(to_text(id)) == id));
  std::string upper = to_text(id);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  BOOST_TEST((parse_uuid(upper) == id));
  BOOST_TEST(!parse_uuid("not-a-uuid"));
  BOOST_TEST(!parse_uuid("0190a0b0c0d07000800000000000000000000"));   // no hyphens, 37 characters
  BOOST_TEST(!parse_uuid("0190a0b0-c0d0-7000-8000-00000000000g"));    // not hex
  BOOST_TEST(!parse_uuid("0190a0b0c-0d0-7000-8000-000000000000"));    // hyphen misplaced
}

BOOST_AUTO_TEST_CASE(statuses_have_the_wire_names) {
  for (RunStatus status : {RunStatus::running, RunStatus::success, RunStatus::failed, RunStatus::cancelled})
    BOOST_TEST((parse_status(status_name(status)) == status));
  BOOST_TEST(!parse_status("running"));  // the wire is upper case
  BOOST_TEST(!is_terminal(RunStatus::running));
  BOOST_TEST(is_terminal(RunStatus::cancelled));
}

BOOST_AUTO_TEST_SUITE_END()
