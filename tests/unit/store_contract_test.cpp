// The results store's contract, on both backends: SQLite on a real file and PostgreSQL on a
// throwaway cluster (a fresh database per test). Whatever one backend does, the other does too.
#include "krino/core/store/postgres_store.hpp"
#include "krino/core/store/sqlite_store.hpp"

#include "../support/scratch_directory.hpp"
#include "postgres_cluster.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <functional>
#include <thread>
#include <string>
#include <vector>

using namespace krino::core::store;

namespace {

// One cluster for the whole executable, started on first use on the test's main thread.
krino::test::PostgresCluster& cluster() {
  static krino::test::PostgresCluster instance;
  return instance;
}

void on_each_backend(const std::function<void(Store&)>& test) {
  {
    BOOST_TEST_CONTEXT("on SQLite") {
      krino::test::ScratchDirectory scratch;
      SqliteStore store(scratch / "krino.db");
      test(store);
    }
  }
  {
    BOOST_TEST_CONTEXT("on PostgreSQL") {
      PostgresStore store(cluster().new_database());
      test(store);
    }
  }
}

// Open mode, a key without a tenant: every row.
const Scope kAll;

NewItem item(int n, bool success, std::optional<double> cost = std::nullopt) {
  NewItem made;
  made.document = "{\"inputs\":{\"n\":" + std::to_string(n) + "},\"score\":1e-320}";
  made.success = success;
  made.metrics.cost_usd = cost;
  if (cost) made.metrics.tokens_in = 10;
  made.results.push_back(NewResult{"exact", success ? 1.0 : 0.0, 1.0, success});
  return made;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(store_contract)

BOOST_AUTO_TEST_CASE(runs_share_their_project_and_experiment_by_name) {
  on_each_backend([&](Store& store) {
    const CreatedRun first = store.create_run(kAll, NewRun{"shop", "qa"});
    const CreatedRun second = store.create_run(kAll, NewRun{"shop", "qa"});
    const CreatedRun other = store.create_run(kAll, NewRun{"shop", "tone"});
    BOOST_TEST(first.project_id == second.project_id);
    BOOST_TEST(first.experiment_id == second.experiment_id);
    BOOST_TEST(first.run_id != second.run_id);
    BOOST_TEST(other.project_id == first.project_id);
    BOOST_TEST(other.experiment_id != first.experiment_id);
    const auto details = store.run(kAll, second.run_id);
    BOOST_REQUIRE(details);
    BOOST_TEST(details->project_name == "shop");
    BOOST_TEST(details->experiment_name == "qa");
    BOOST_TEST((details->status == RunStatus::running));
    BOOST_TEST(!store.run(kAll, "0190a0b0-c0d0-7000-8000-000000000000"));
  });
}

BOOST_AUTO_TEST_CASE(items_keep_their_bytes_and_order_and_a_retried_batch_is_stored_once) {
  on_each_backend([&](Store& store) {
    const std::string run = store.create_run(kAll, NewRun{"shop", "qa"}).run_id;
    const std::vector<NewItem> batch = {item(0, true), item(1, false), item(2, true)};
    BOOST_TEST((store.add_items(kAll, run, std::string_view("batch-1"), batch) == IngestOutcome::stored));
    BOOST_TEST((store.add_items(kAll, run, std::string_view("batch-1"), batch) == IngestOutcome::already_stored));
    BOOST_TEST((store.add_items(kAll, run, std::nullopt, std::vector<NewItem>{item(3, true)}) == IngestOutcome::stored));

    const ItemPage first = store.items(kAll, run, -1, 2);
    BOOST_REQUIRE(first.items.size() == 2u);
    BOOST_TEST(first.items[0].document == batch[0].document);  // 1e-320 as sent
    BOOST_TEST(first.items[1].seq == 1);
    BOOST_REQUIRE(first.next_after);
    const ItemPage second = store.items(kAll, run, *first.next_after, 2);
    BOOST_REQUIRE(second.items.size() == 2u);
    BOOST_TEST(second.items[1].document.find("\"n\":3") != std::string::npos);
    BOOST_TEST(!second.next_after);

    const auto details = store.run(kAll, run);
    BOOST_TEST(details->total_items == 4);
    BOOST_TEST(details->passed_items == 3);
  });
}

// Items and verdicts have no foreign keys: deleting a run, an experiment or a project must take
// them along itself. Counted in the tables, not through the store (which hides a deleted run's rows).
BOOST_AUTO_TEST_CASE(deletes_leave_no_items_or_verdicts_behind) {
  auto exercise = [](Store& store, const std::function<std::int64_t(std::string_view)>& count) {
    auto fill = [&](const std::string& project, const std::string& experiment) {
      const std::string run = store.create_run(kAll, NewRun{project, experiment}).run_id;
      store.add_items(kAll, run, std::nullopt, std::vector<NewItem>{item(0, true), item(1, false)});
      return run;
    };
    const std::string kept = fill("keep", "qa");
    const std::string run = fill("shop", "qa");
    fill("shop", "qa");
    fill("shop", "tone");
    BOOST_TEST(count("items") == 8);
    BOOST_TEST(store.delete_run(kAll, run));
    BOOST_TEST(count("items") == 6);
    BOOST_TEST(count("eval_results") == 6);
    BOOST_TEST(store.delete_experiment(kAll, store.create_run(kAll, NewRun{"shop", "qa"}).experiment_id));
    BOOST_TEST(count("items") == 4);
    BOOST_TEST(store.delete_project(kAll, "shop"));
    BOOST_TEST(count("items") == 2);
    BOOST_TEST(count("eval_results") == 2);
    BOOST_TEST(store.items(kAll, kept, -1, 10).items.size() == 2u);
  };
  {
    krino::test::ScratchDirectory scratch;
    SqliteStore store(scratch / "krino.db");
    SqliteConnection look(scratch / "krino.db");
    exercise(store, [&](std::string_view table) {
      SqliteStatement query = look.prepare("SELECT COUNT(*) FROM " + std::string(table));
      query.step();
      return query.integer(0);
    });
  }
  {
    const std::string database = cluster().new_database();
    PostgresStore store(database);
    PgConnection look(database);
    exercise(store, [&](std::string_view table) { return look.execute("SELECT COUNT(*) FROM " + std::string(table)).integer(0, 0); });
  }
}

BOOST_AUTO_TEST_CASE(text_with_escapes_quotes_and_sql_comes_back_byte_for_byte) {
  // What COPY's text format and SQL quoting must both leave alone: backslashes, escaped tabs and
  // newlines, quotes, statement separators, NUL as an escape, and non-ASCII text.
  const std::string document = R"({"q":"tab\t nl\n cr\r back\\ nul\u0000 it's \"quoted\"; DROP TABLE items; -- é 漢字 😀"})";
  const std::string name = "judge\\ 'quoted' \t;--";
  on_each_backend([&](Store& store) {
    const std::string run = store.create_run(kAll, NewRun{"it's; --", "qa\\"}).run_id;
    NewItem made;
    made.document = document;
    made.success = true;
    made.dataset_item_id = "id\twith\\escapes";
    made.results.push_back(NewResult{name, 0.1, std::nullopt, true});
    store.add_items(kAll, run, std::string_view("k\t'"), std::vector<NewItem>{made, made});
    const ItemPage page = store.items(kAll, run, -1, 10);
    BOOST_REQUIRE_EQUAL(page.items.size(), 2u);
    BOOST_TEST(page.items[1].document == document);
    std::vector<ScoredItem> scanned;
    store.scan_items(kAll, run, [&](const ScoredItem& item) { scanned.push_back(item); });
    BOOST_REQUIRE_EQUAL(scanned.size(), 2u);
    BOOST_TEST(*scanned[0].dataset_item_id == *made.dataset_item_id);
    BOOST_TEST(scanned[0].results.at(0).name == name);
    BOOST_TEST(*scanned[0].results.at(0).score == 0.1);
    BOOST_TEST(store.run(kAll, run)->project_name == "it's; --");
  });
}

BOOST_AUTO_TEST_CASE(ending_a_run_materialises_its_totals_and_closes_it) {
  on_each_backend([&](Store& store) {
    const std::string run = store.create_run(kAll, NewRun{"shop", "qa"}).run_id;
    store.add_items(kAll, run, std::nullopt, std::vector<NewItem>{item(0, true, 0.1), item(1, false, 0.2), item(2, true)});
    store.set_run_status(kAll, run, RunStatus::success);
    store.set_run_status(kAll, run, RunStatus::success);  // said twice: no change, no error
    const auto details = store.run(kAll, run);
    BOOST_TEST((details->status == RunStatus::success));
    BOOST_TEST(details->completed_at.has_value());
    BOOST_TEST(details->total_items == 3);
    BOOST_TEST(details->passed_items == 2);
    BOOST_TEST(*details->cost_usd == 0.1 + 0.2);  // the doubles' sum, bit for bit
    BOOST_TEST(details->priced_items == 2);
    BOOST_TEST(details->tokenized_items == 2);
    BOOST_TEST(*details->tokens_in == 20);

    BOOST_CHECK_THROW(store.set_run_status(kAll, run, RunStatus::failed), StoreError);
    try {
      store.add_items(kAll, run, std::string_view("late"), std::vector<NewItem>{item(9, true)});
      BOOST_FAIL("an ended run took items");
    } catch (const StoreError& error) {
      BOOST_TEST((error.kind() == StoreError::Kind::conflict));
    }
    BOOST_TEST(store.run(kAll, run)->total_items == 3);
    try {
      store.add_items(kAll, "0190a0b0-c0d0-7000-8000-000000000000", std::nullopt, std::vector<NewItem>{item(0, true)});
      BOOST_FAIL("an unknown run took items");
    } catch (const StoreError& error) {
      BOOST_TEST((error.kind() == StoreError::Kind::not_found));
    }
  });
}

BOOST_AUTO_TEST_CASE(a_run_without_measured_items_has_no_cost_total) {
  on_each_backend([&](Store& store) {
    const std::string run = store.create_run(kAll, NewRun{"shop", "qa"}).run_id;
    store.add_items(kAll, run, std::nullopt, std::vector<NewItem>{item(0, true)});
    BOOST_TEST(!store.run(kAll, run)->cost_usd);  // in progress: live
    store.set_run_status(kAll, run, RunStatus::failed);
    const auto details = store.run(kAll, run);
    BOOST_TEST(!details->cost_usd);  // ended: materialised NULL, not 0
    BOOST_TEST(details->priced_items == 0);
  });
}

BOOST_AUTO_TEST_CASE(lists_show_projects_experiments_and_runs_newest_first) {
  on_each_backend([&](Store& store) {
    const CreatedRun first = store.create_run(kAll, NewRun{"shop", "qa"});
    store.add_items(kAll, first.run_id, std::nullopt, std::vector<NewItem>{item(0, true), item(1, false)});
    store.set_run_status(kAll, first.run_id, RunStatus::success);
    const CreatedRun second = store.create_run(kAll, NewRun{"shop", "qa"});
    store.add_items(kAll, second.run_id, std::nullopt, std::vector<NewItem>{item(0, true)});
    store.create_run(kAll, NewRun{"shop", "tone"});
    store.create_run(kAll, NewRun{"blog", "qa"});

    const auto projects = store.projects(kAll);
    BOOST_REQUIRE(projects.size() == 2u);
    BOOST_TEST(projects[0].name == "blog");
    BOOST_TEST(projects[1].name == "shop");
    BOOST_TEST(projects[1].experiment_count == 2);
    BOOST_TEST(projects[1].latest_activity.has_value());

    const auto experiments = store.experiments(kAll, "shop");
    BOOST_REQUIRE(experiments);
    BOOST_REQUIRE(experiments->size() == 2u);
    BOOST_TEST(experiments->at(0).name == "qa");
    BOOST_REQUIRE(experiments->at(0).latest_run);
    BOOST_TEST(experiments->at(0).latest_run->id == second.run_id);  // the newest, still running
    BOOST_TEST(experiments->at(0).latest_run->item_count == 1);
    BOOST_TEST(!store.experiments(kAll, "nobody"));

    const auto runs = store.runs(kAll, first.experiment_id, 10);
    BOOST_REQUIRE(runs.size() == 2u);
    BOOST_TEST(runs[0].id == second.run_id);
    BOOST_TEST(runs[1].id == first.run_id);
    BOOST_TEST(runs[1].item_count == 2);
    BOOST_TEST(runs[1].passed_count == 1);
    BOOST_TEST(runs[1].completed_at.has_value());
    BOOST_TEST(store.runs(kAll, first.experiment_id, 1).size() == 1u);
    const auto info = store.experiment(kAll, first.experiment_id);
    BOOST_REQUIRE(info);
    BOOST_TEST(info->project_name == "shop");
  });
}

BOOST_AUTO_TEST_CASE(deleting_takes_everything_below_with_it) {
  on_each_backend([&](Store& store) {
    const CreatedRun run = store.create_run(kAll, NewRun{"shop", "qa"});
    store.add_items(kAll, run.run_id, std::string_view("k"), std::vector<NewItem>{item(0, true)});
    BOOST_TEST(store.delete_run(kAll, run.run_id));
    BOOST_TEST(!store.delete_run(kAll, run.run_id));
    BOOST_TEST(!store.run(kAll, run.run_id));
    BOOST_TEST(store.items(kAll, run.run_id, -1, 10).items.empty());
    BOOST_TEST(store.delete_experiment(kAll, run.experiment_id));
    BOOST_TEST(store.experiments(kAll, "shop")->empty());
    BOOST_TEST(store.delete_project(kAll, "shop"));
    BOOST_TEST(!store.delete_project(kAll, "shop"));
    BOOST_TEST(store.projects(kAll).empty());
  });
}

BOOST_AUTO_TEST_CASE(a_large_batch_keeps_every_item_and_result_in_order) {
  on_each_backend([&](Store& store) {
    const std::string run = store.create_run(kAll, NewRun{"shop", "qa"}).run_id;
    std::vector<NewItem> batch;
    for (int i = 0; i < 1234; ++i) {
      NewItem made = item(i, i % 3 != 0, 0.001 * i);
      made.results.push_back(NewResult{"second", 0.5, std::nullopt, true});
      made.results.push_back(NewResult{"third", std::nullopt, std::nullopt, false});
      batch.push_back(std::move(made));
    }
    BOOST_TEST((store.add_items(kAll, run, std::string_view("big"), batch) == IngestOutcome::stored));
    store.set_run_status(kAll, run, RunStatus::success);
    const auto details = store.run(kAll, run);
    BOOST_TEST(details->total_items == 1234);
    BOOST_TEST(details->passed_items == 1234 - 412);
    std::int64_t expected_seq = 0;
    for (std::int64_t after = -1;;) {
      const ItemPage page = store.items(kAll, run, after, 500);
      for (const StoredItem& stored : page.items) {
        BOOST_TEST(stored.seq == expected_seq);
        BOOST_TEST(stored.document == batch[static_cast<std::size_t>(expected_seq)].document);
        ++expected_seq;
      }
      if (!page.next_after) break;
      after = *page.next_after;
    }
    BOOST_TEST(expected_seq == 1234);
  });
}

// Two servers on one database (two connections, as two replicas have): batches of one run sent to
// both at once are all stored, numbered densely without a clash, and a retried batch stays single.
BOOST_AUTO_TEST_CASE(two_postgres_replicas_share_a_run_without_losing_or_doubling_items) {
  const std::string database = cluster().new_database();
  // Two connections each: two threads per replica share a replica's pool.
  PostgresStore first(database, 2);
  PostgresStore second(database, 2);
  const std::string run = first.create_run(kAll, NewRun{"shop", "qa"}).run_id;
  constexpr int kBatches = 40;
  constexpr int kPerBatch = 25;
  std::atomic<int> retries_refused{0};  // Boost.Test's checks are for the main thread: count here
  auto send = [&](PostgresStore& store, int start) {
    for (int b = start; b < kBatches; b += 4) {
      std::vector<NewItem> batch;
      for (int i = 0; i < kPerBatch; ++i) batch.push_back(item(b * kPerBatch + i, true));
      const std::string key = "batch-" + std::to_string(b);
      store.add_items(kAll, run, std::string_view(key), batch);
      // The same batch retried through the other replica's door is not stored again.
      if (store.add_items(kAll, run, std::string_view(key), batch) == IngestOutcome::already_stored) ++retries_refused;
    }
  };
  std::vector<std::thread> senders;
  for (int start = 0; start < 4; ++start) senders.emplace_back([&, start] { send(start % 2 == 0 ? first : second, start); });
  for (std::thread& sender : senders) sender.join();
  BOOST_TEST(retries_refused.load() == kBatches);
  second.set_run_status(kAll, run, RunStatus::success);
  BOOST_TEST(first.run(kAll, run)->total_items == kBatches * kPerBatch);
  std::int64_t expected = 0;
  for (std::int64_t after = -1;;) {
    const ItemPage page = first.items(kAll, run, after, 300);
    for (const StoredItem& stored : page.items) BOOST_TEST(stored.seq == expected++);
    if (!page.next_after) break;
    after = *page.next_after;
  }
  BOOST_TEST(expected == kBatches * kPerBatch);
}

BOOST_AUTO_TEST_CASE(postgres_migrations_apply_once_and_refuse_a_newer_schema) {
  const std::string database = cluster().new_database();
  { PostgresStore first(database); BOOST_TEST(first.schema_version() == migrations().back().version); }
  { PostgresStore again(database); BOOST_TEST(again.schema_version() == migrations().back().version); }
  {
    PgConnection connection(database);
    connection.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', now())");
  }
  try {
    PostgresStore store(database);
    BOOST_FAIL("a newer schema was accepted");
  } catch (const std::exception& error) {
    BOOST_TEST(std::string(error.what()).find("999") != std::string::npos, error.what());
  }
}

// A database written before migration 4 (what the web UI reads) keeps its items, and the migration
// finds the item errors already stored: the ERROR filter and the run's error count see them.
BOOST_AUTO_TEST_CASE(migration_4_finds_the_item_errors_already_stored) {
  const std::string schema_table = "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)";
  const std::string rows =
      "INSERT INTO projects (id, name, created_at) VALUES ('01a21d79-0000-7000-8000-000000000001', 'p', '2026-11-27T00:00:00Z');"
      "INSERT INTO experiments (id, project_id, name, created_at) VALUES ('01a21d79-0000-7000-8000-000000000002', "
      "'01a21d79-0000-7000-8000-000000000001', 'e', '2026-11-27T00:00:00Z');"
      "INSERT INTO runs (id, experiment_id, status, started_at, item_count) VALUES ('01a21d79-0000-7000-8000-000000000003', "
      "'01a21d79-0000-7000-8000-000000000002', 'SUCCESS', '2026-11-27T00:00:00Z', 3);"
      "INSERT INTO items (id, run_id, seq, success, document, created_at) VALUES "
      "('01a21d79-0000-7000-8000-000000000010', '01a21d79-0000-7000-8000-000000000003', 0, true, '{\"error\":null}', '2026-11-27T00:00:00Z'),"
      "('01a21d79-0000-7000-8000-000000000011', '01a21d79-0000-7000-8000-000000000003', 1, false, "
      "'{\"inputs\":{\"q\":\"\\u0000 \\\"\"},\"error\":{\"stage\":\"task\",\"code\":\"timeout\"}}', '2026-11-27T00:00:00Z'),"
      "('01a21d79-0000-7000-8000-000000000012', '01a21d79-0000-7000-8000-000000000003', 2, false, '{\"inputs\":{\"error\":{}}}', "
      "'2026-11-27T00:00:00Z');";
  const auto check = [](Store& store) {
    const auto run = store.run(Scope{}, "01a21d79-0000-7000-8000-000000000003");
    BOOST_REQUIRE(run);
    BOOST_TEST(run->error_items == 1);
    ItemFilter errors;
    errors.status = ItemStatusFilter::error;
    const auto page = store.filtered_items(Scope{}, run->id, errors);
    BOOST_REQUIRE(page);
    BOOST_REQUIRE_EQUAL(page->items.size(), 1u);
    BOOST_TEST(page->items[0].seq == 1);
  };
  {
    BOOST_TEST_CONTEXT("on SQLite") {
      krino::test::ScratchDirectory scratch;
      {
        SqliteConnection connection((scratch / "krino.db").string());
        connection.execute(schema_table);
        for (const Migration& migration : migrations().first(3)) connection.execute(migration.sqlite_sql);
        connection.execute("INSERT INTO schema_migrations VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x')");
        connection.execute("PRAGMA foreign_keys=OFF;" + rows);
      }
      SqliteStore store(scratch / "krino.db");
      BOOST_TEST(store.schema_version() == migrations().back().version);
      check(store);
    }
  }
  {
    BOOST_TEST_CONTEXT("on PostgreSQL") {
      const std::string database = cluster().new_database();
      {
        PgConnection connection(database);
        connection.execute(schema_table);
        for (const Migration& migration : migrations().first(3)) connection.execute(migration.postgres_sql);
        connection.execute("INSERT INTO schema_migrations VALUES (1, 'a', now()), (2, 'b', now()), (3, 'c', now())");
        connection.execute(rows);
      }
      PostgresStore store(database);
      check(store);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
