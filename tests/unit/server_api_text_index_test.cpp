// The text search index of an ended run, over loopback HTTP on both backends: searches answer the
// same items with and without it (hostile text included: multi-byte UTF-8, LIKE's and FTS5's
// syntax characters, quotes, backslashes, a very long word, case only ASCII letters fold); with
// it, a search reads no window; a build cut off (a restart) is done again by the next indexer;
// deleting a run, or its project, drops its index; pages and the store's writes answer while a
// build is paused with its transaction open.
#include "server_api_fixture.hpp"

#include "krino/core/server/ended_run_indexer.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

using namespace krino::core;
using namespace krino::test;
using krino::fake_llm::test::HttpResult;

namespace {

// What the items say (one text each, as the input "question"), between fillers that say nothing.
const std::vector<std::string>& hostile_texts() {
  static const std::vector<std::string> texts = {
      "Die Größe von Straße",     "GRÖSSE in capitals",     "日本語のテキストです",    "emoji 😀 and 😃 faces",
      "a 100% sure thing",        "snake_case_name here",   "a \"quoted\" needle",     "back\\slash and more",
      "it's O'Brien's",           "École normale",          "école primaire",         "NEEDLE in caps",
      std::string(300, 'x') + "needle" + std::string(200, 'y'), "AND OR NOT NEAR(a b) * ^start col:umn",
      "tab\tand\nnewline", "İstanbul and ıstanbul", "ab", "the word needle at last"};
  return texts;
}

std::string hostile_items() {
  std::string body = R"({"items":[)";
  const auto& texts = hostile_texts();
  for (std::size_t n = 0; n < texts.size() * 3; ++n) {
    if (n > 0) body += ',';
    // Every third item holds a text; the others a filler. Items with an odd position fail.
    const std::string text = n % 3 == 1 ? texts[n / 3] : "filler " + std::to_string(n);
    body += R"({"inputs":{"question":)";
    krino::json::append_json_string(body, text);
    body += R"(},"success":)";
    body += n % 2 == 0 ? "true" : "false";
    body += R"(,"evalResults":[{"name":"judge","score":1,"success":)";
    body += n % 4 == 0 ? "true" : "false";
    body += "}]}";
  }
  return body + "]}";
}

// The searches compared, as the UI sends them (words separated by spaces).
const std::vector<std::string>& searches() {
  static const std::vector<std::string> words = {
      "needle", "NEEDLE", "NeEdLe", "größe", "GRÖSSE", "Größe", "straße", "日本語", "本語のテ", "😀", "faces", "100%", "%", "_",
      "snake_case", "e_c", "\"quoted\"", "\"", "\\", "back\\slash", "it's", "O'Brien", "école", "École", "ÉCOLE", "cole",
      std::string(250, 'x'), std::string(250, 'x') + "needle", "needle" + std::string(200, 'y'), "xneedley", "AND", "OR",
      "NEAR(a", "*", "^start", "col:umn", "tab", "\\t", "\\n", "İstanbul", "istanbul", "ab", "ab needle", "filler 1", "fil needle",
      "zzz-nothing", "the word needle", "question", "\"question\":"};
  return words;
}

std::string percent_encoded(std::string_view text) {
  static const char* const hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || byte == '-' || byte == '.') {
      out += c;
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  return out;
}

// Every index the query matches, page after page until nextAfter is null.
template <class Fixture>
std::vector<std::int64_t> all_matches(Fixture& f, const std::string& run, const std::string& query, std::size_t size) {
  std::vector<std::int64_t> all;
  std::string after;
  for (int pages = 0; pages < 200; ++pages) {
    const HttpResult result = f.call("GET", "/api/v1/runs/" + run + "/items?" + query + "&size=" + std::to_string(size) + after);
    BOOST_REQUIRE_MESSAGE(result.status() == 200u, query + " -> " + result.body());
    const boost::json::object body = krino::json::parse(result.body()).as_object();
    for (const auto& item : body.at("content").as_array()) all.push_back(item.at("index").as_int64());
    if (body.at("nextAfter").is_null()) return all;
    after = "&after=" + std::to_string(body.at("nextAfter").as_int64());
  }
  BOOST_FAIL("paging never ended: " + query);
  return all;
}

// The answers to every search, alone and with each other filter, by query.
template <class Fixture>
std::map<std::string, std::vector<std::int64_t>> answers(Fixture& f, const std::string& run) {
  std::map<std::string, std::vector<std::int64_t>> out;
  for (const std::string& words : searches()) {
    const std::string q = "q=" + percent_encoded(words);
    for (const std::string& also : {std::string(), std::string("&status=FAILED"), std::string("&status=PASSED"),
                                    std::string("&evaluator=judge&evaluatorStatus=PASSED")}) {
      out[q + also] = all_matches(f, run, q + also, 50);
    }
    out[q + " (pages of 2)"] = all_matches(f, run, q, 2);
  }
  return out;
}

template <class Fixture>
std::string text_index_of(Fixture& f, const std::string& run) {
  const HttpResult result = f.call("GET", "/api/v1/runs/" + run + "?size=1");
  BOOST_REQUIRE_EQUAL(result.status(), 200u);
  return std::string(krino::json::parse(result.body()).at("textIndex").as_string());
}

template <class Fixture>
void end_run(Fixture& f, const std::string& run) {
  BOOST_REQUIRE_EQUAL(f.call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status(), 200u);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_text_index)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(indexed_searches_answer_exactly_what_unindexed_ones_do, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
  server::EndedRunIndexer indexer(*this->store);
  BOOST_TEST(indexer.build_awaiting() == 0u);  // a running run's items still change: no index
  BOOST_TEST(text_index_of(*this, run) == "NONE");
  const auto unindexed = answers(*this, run);
  // The searches find what they should (a sample, so that "identical" is not "identically empty").
  BOOST_TEST(unindexed.at("q=needle") == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
  BOOST_TEST(unindexed.at("q=" + percent_encoded("école")) == (std::vector<std::int64_t>{31}), boost::test_tools::per_element());

  end_run(*this, run);
  BOOST_TEST(text_index_of(*this, run) == "NONE");
  BOOST_TEST(indexer.build_awaiting() == 1u);
  BOOST_TEST(text_index_of(*this, run) == "READY");
  BOOST_TEST(indexer.build_awaiting() == 0u);
  const auto indexed = answers(*this, run);
  for (const auto& [query, matches] : unindexed) BOOST_TEST(indexed.at(query) == matches, query);

  // The index leads: a search reads no window (unindexed, a window of one position ends the page
  // at position 0 with where to go on).
  store::ItemFilter filter;
  filter.words = {"needle"};
  filter.window = 1;
  const auto page = this->store->filtered_items(store::Scope{}, run, filter);
  BOOST_REQUIRE(page);
  BOOST_TEST(page->items.size() == 4u);
  BOOST_TEST(!page->next_after.has_value());
  filter.words = {"ab"};  // too short for trigrams: windows, as before
  BOOST_TEST(this->store->filtered_items(store::Scope{}, run, filter)->next_after.value_or(-1) == 0);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_build_cut_off_by_a_restart_is_done_again_at_the_next_start, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
  end_run(*this, run);
  // Stopped after its first chunk of 10 items: the run says BUILDING, and searches still answer.
  int chunks = 0;
  BOOST_TEST(!this->store->build_text_index(run, 10, [&chunks] { return chunks++ < 1; }));
  BOOST_TEST(text_index_of(*this, run) == "BUILDING");
  BOOST_TEST(all_matches(*this, run, "q=needle", 50) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());

  // The next server on the same database finds the run awaiting and builds it whole.
  const std::unique_ptr<store::Store> restarted = this->backend.reopen();
  BOOST_TEST(restarted->runs_awaiting_text_index(10) == std::vector<std::string>{run}, boost::test_tools::per_element());
  server::EndedRunIndexer indexer(*restarted, server::EndedRunIndexOptions{std::chrono::milliseconds(10), std::chrono::milliseconds(60'000), 7});
  indexer.start();
  for (int waited = 0; waited < 3000 && text_index_of(*this, run) != "READY"; waited += 10) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  indexer.stop();
  BOOST_TEST(text_index_of(*this, run) == "READY");
  BOOST_TEST(restarted->runs_awaiting_text_index(10).empty());
  store::ItemFilter filter;
  filter.words = {"needle"};
  filter.window = 1;
  BOOST_TEST(this->store->filtered_items(store::Scope{}, run, filter)->items.size() == 4u);  // every chunk indexed
  BOOST_TEST(all_matches(*this, run, "q=needle", 2) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(deleting_a_run_or_its_project_drops_its_index, Backend, Backends, ServerFixture<Backend>) {
  const std::string first = this->new_run();
  const std::string second = this->new_run();
  for (const std::string& run : {first, second}) {
    BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
    end_run(*this, run);
  }
  BOOST_TEST(this->backend.text_index_tables() == 0);
  server::EndedRunIndexer indexer(*this->store);
  BOOST_TEST(indexer.build_awaiting() == 2u);
  const std::int64_t per_run = this->backend.text_index_tables() / 2;
  BOOST_TEST(per_run >= 1);
  BOOST_TEST(this->call("DELETE", "/api/v1/runs/" + first).status() == 204u);
  BOOST_TEST(this->backend.text_index_tables() == per_run);
  BOOST_TEST(this->call("DELETE", "/api/v1/projects/shop").status() == 204u);
  BOOST_TEST(this->backend.text_index_tables() == 0);
  // A run deleted while its index is being built: the build stops, leaving nothing.
  const std::string third = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + third + "/items", hostile_items()).status(), 201u);
  end_run(*this, third);
  int chunks = 0;
  BOOST_TEST(!this->store->build_text_index(third, 10, [&] {
    if (chunks++ == 1) BOOST_TEST(this->call("DELETE", "/api/v1/runs/" + third).status() == 204u);
    return true;
  }));
  BOOST_TEST(this->backend.text_index_tables() == 0);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(pages_and_writes_answer_while_a_build_holds_its_transaction_open, Backend, Backends, ServerFixture<Backend>) {
  const std::string indexed = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + indexed + "/items", hostile_items()).status(), 201u);
  end_run(*this, indexed);
  const std::string running = this->new_run();
  // Paused in its second chunk, its transaction open (keep_going is asked before each commit):
  // the pages of both runs answer, and so does a write of the store's own (another run's batch),
  // which on SQLite once waited for the builder's write lock inside the store's lock, every page
  // behind it.
  int chunks = 0;
  bool answered = false;
  BOOST_TEST(this->store->build_text_index(indexed, 10, [&] {
    if (chunks++ != 1) return true;
    BOOST_TEST(text_index_of(*this, indexed) == "BUILDING");
    const HttpResult failed = this->call("GET", "/api/v1/runs/" + indexed + "/items?status=FAILED&size=50");
    BOOST_TEST(failed.status() == 200u);
    BOOST_TEST(krino::json::parse(failed.body()).at("content").as_array().size() == 27u);
    BOOST_TEST(all_matches(*this, indexed, "q=needle", 50) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
    BOOST_TEST(this->call("POST", "/api/v1/runs/" + running + "/items", hostile_items()).status() == 201u);
    BOOST_TEST(all_matches(*this, running, "q=needle", 50) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
    answered = true;
    return true;
  }));
  BOOST_TEST(answered);
  BOOST_TEST(text_index_of(*this, indexed) == "READY");
  BOOST_TEST(all_matches(*this, indexed, "q=needle", 2) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// SQLite keeps each run's index in a file of its own, <data dir>/text-index/<run id>.db.
BOOST_AUTO_TEST_SUITE(sqlite_text_index_files)

BOOST_FIXTURE_TEST_CASE(each_index_is_a_file_of_its_own_that_a_restart_puts_in_order, ServerFixture<OnSqlite>) {
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
  end_run(*this, run);
  server::EndedRunIndexer indexer(*this->store);
  BOOST_TEST(indexer.build_awaiting() == 1u);
  const std::filesystem::path file = this->backend.scratch / "text-index" / (run + ".db");
  BOOST_TEST(std::filesystem::exists(file));
  {
    store::SqliteConnection main((this->backend.scratch / "krino.db").string());
    store::SqliteStatement tables = main.prepare("SELECT count(*) FROM sqlite_schema WHERE name GLOB 'item_text*'");
    tables.step();
    BOOST_TEST(tables.integer(0) == 0);  // nothing of the index in the main file
  }

  // A build cut off by a crash leaves its unfinished file, and the index of a run deleted while
  // the server was down may be left: a restart removes both, and keeps the ready index.
  const std::filesystem::path unfinished = this->backend.scratch / "text-index" / "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.db.building";
  const std::filesystem::path orphan = this->backend.scratch / "text-index" / "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c.db";
  std::filesystem::copy_file(file, unfinished);
  std::filesystem::copy_file(file, orphan);
  this->backend.reopen();
  BOOST_TEST(!std::filesystem::exists(unfinished));
  BOOST_TEST(!std::filesystem::exists(orphan));
  BOOST_TEST(std::filesystem::exists(file));
  BOOST_TEST(text_index_of(*this, run) == "READY");

  // The file removed by hand: searches read windows at once, and the next start builds it again.
  std::filesystem::remove(file);
  BOOST_TEST(all_matches(*this, run, "q=needle", 50) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
  const std::unique_ptr<store::Store> restarted = this->backend.reopen();
  BOOST_TEST(text_index_of(*this, run) == "NONE");
  server::EndedRunIndexer again(*restarted);
  BOOST_TEST(again.build_awaiting() == 1u);
  BOOST_TEST(std::filesystem::exists(file));
  BOOST_TEST(all_matches(*this, run, "q=needle", 2) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
}

// Another store opened on the same files while a build runs (krino mcp beside krino serve, a second
// server): its start-up leaves the unfinished file alone, since that build holds its lock, and it
// does not start a second build of the same run. A file left by a crash has no lock, and goes.
BOOST_FIXTURE_TEST_CASE(a_store_opened_during_a_build_leaves_the_build_alone, ServerFixture<OnSqlite>) {
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
  end_run(*this, run);
  const std::filesystem::path unfinished = this->backend.scratch / "text-index" / (run + ".db.building");
  int chunks = 0;
  bool checked = false;
  BOOST_TEST(this->store->build_text_index(run, 10, [&] {
    if (chunks++ != 1) return true;
    BOOST_TEST(std::filesystem::exists(unfinished));
    const std::unique_ptr<store::Store> second = this->backend.reopen();
    BOOST_TEST(std::filesystem::exists(unfinished));
    BOOST_TEST(!second->build_text_index(run, 10, [] { return true; }));
    BOOST_TEST(std::filesystem::exists(unfinished));
    checked = true;
    return true;
  }));
  BOOST_TEST(checked);
  BOOST_TEST(!std::filesystem::exists(unfinished));
  BOOST_TEST(text_index_of(*this, run) == "READY");
  BOOST_TEST(all_matches(*this, run, "q=needle", 2) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
  // An unfinished file nobody holds: the leftover of a crash.
  std::filesystem::copy_file(this->backend.scratch / "text-index" / (run + ".db"), unfinished);
  this->backend.reopen();
  BOOST_TEST(!std::filesystem::exists(unfinished));
}

BOOST_FIXTURE_TEST_CASE(an_index_an_older_krino_kept_in_the_main_file_is_dropped_and_built_again, ServerFixture<OnSqlite>) {
  const std::string run = this->new_run();
  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", hostile_items()).status(), 201u);
  end_run(*this, run);
  std::string table = "item_text_" + run;
  table.erase(std::remove(table.begin(), table.end(), '-'), table.end());
  {
    store::SqliteConnection main((this->backend.scratch / "krino.db").string());
    main.execute("CREATE VIRTUAL TABLE " + table + " USING fts5(document, content='', columnsize=0, detail=none, tokenize='trigram')");
    main.execute("UPDATE runs SET text_index = 'ready'");
  }
  const std::unique_ptr<store::Store> restarted = this->backend.reopen();
  BOOST_TEST(this->backend.text_index_tables() == 0);
  BOOST_TEST(text_index_of(*this, run) == "NONE");
  BOOST_TEST(server::EndedRunIndexer(*restarted).build_awaiting() == 1u);
  BOOST_TEST(this->backend.text_index_tables() == 1);
  BOOST_TEST(all_matches(*this, run, "q=needle", 2) == (std::vector<std::int64_t>{19, 34, 37, 52}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
