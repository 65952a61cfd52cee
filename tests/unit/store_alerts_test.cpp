// The store's part of regression alerts, on both backends: webhooks seen through scopes, the queue
// of runs to check (queued when a run ends, claimed by lease, taken over when a lease runs out),
// deliveries and their attempt log, and two PostgreSQL replicas claiming at once.
#include "krino/core/store/postgres_store.hpp"
#include "krino/core/store/sqlite_store.hpp"

#include "../support/scratch_directory.hpp"
#include "postgres_cluster.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace krino::core::store;

namespace {

krino::test::PostgresCluster& alerts_cluster() {
  static krino::test::PostgresCluster instance;
  return instance;
}

void on_both_backends(const std::function<void(Store&)>& test) {
  {
    BOOST_TEST_CONTEXT("on SQLite") {
      krino::test::ScratchDirectory scratch;
      SqliteStore store(scratch / "krino.db");
      test(store);
    }
  }
  {
    BOOST_TEST_CONTEXT("on PostgreSQL") {
      PostgresStore store(alerts_cluster().new_database());
      test(store);
    }
  }
}

const Scope kEveryone;
const Scope kTenantA{"team-a"};
const Scope kTenantB{"team-b"};

// A run of `project`/qa, ended.
std::string ended_run(Store& store, const Scope& scope, const std::string& project = "shop") {
  const std::string run = store.create_run(scope, NewRun{project, "qa"}).run_id;
  store.set_run_status(scope, run, RunStatus::success);
  return run;
}

std::string project_id_of(Store& store, const Scope& scope, const std::string& project = "shop") {
  return store.create_run(scope, NewRun{project, "qa"}).project_id;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(store_alerts)

BOOST_AUTO_TEST_CASE(webhooks_belong_to_a_project_and_are_seen_through_the_scope) {
  on_both_backends([&](Store& store) {
    const std::string shared = project_id_of(store, kEveryone);
    const std::string own_a = project_id_of(store, kTenantA, "a-only");
    BOOST_TEST(store.project_by_id(kTenantB, shared)->name == "shop");
    BOOST_TEST(!store.project_by_id(kTenantB, own_a));

    const AlertWebhook made = store.create_webhook(kEveryone, shared, NewWebhook{"http://127.0.0.1:9/hook", "s3cret", true});
    BOOST_TEST(made.has_secret);
    BOOST_TEST(made.enabled);
    const AlertWebhook of_a = store.create_webhook(kTenantA, shared, NewWebhook{"https://a.example/hook", std::nullopt, false});
    BOOST_TEST(!of_a.has_secret);
    BOOST_TEST(*of_a.tenant == "team-a");
    BOOST_CHECK_THROW(store.create_webhook(kTenantB, own_a, NewWebhook{"http://x/"}), StoreError);

    BOOST_TEST(store.webhooks(kEveryone, shared)->size() == 2u);
    BOOST_TEST(store.webhooks(kTenantA, shared)->size() == 2u);
    BOOST_TEST(store.webhooks(kTenantB, shared)->size() == 1u);  // the shared one only
    BOOST_TEST(!store.webhooks(kTenantB, own_a));
    BOOST_TEST(!store.webhook(kTenantB, shared, of_a.id));
    BOOST_TEST(!store.webhook(kEveryone, own_a, made.id));  // under another project
    BOOST_TEST(!store.update_webhook(kTenantB, shared, of_a.id, WebhookChange{"http://b/"}));
    BOOST_TEST(!store.delete_webhook(kTenantB, shared, of_a.id));

    WebhookChange keep{"http://127.0.0.1:9/moved", false};
    const auto kept = store.update_webhook(kEveryone, shared, made.id, keep);
    BOOST_REQUIRE(kept);
    BOOST_TEST(kept->url == "http://127.0.0.1:9/moved");
    BOOST_TEST(!kept->enabled);
    BOOST_TEST(kept->has_secret);  // not sent: kept
    WebhookChange clear{"http://127.0.0.1:9/moved", true, WebhookChange::Secret::clear};
    BOOST_TEST(!store.update_webhook(kEveryone, shared, made.id, clear)->has_secret);
    BOOST_TEST(store.delete_webhook(kTenantA, shared, of_a.id));
    BOOST_TEST(!store.webhook(kTenantA, shared, of_a.id));
  });
}

BOOST_AUTO_TEST_CASE(a_run_that_ends_is_queued_once_and_only_where_a_webhook_listens) {
  on_both_backends([&](Store& store) {
    ended_run(store, kEveryone, "quiet");  // no webhook: nothing to check
    const std::string project = project_id_of(store, kEveryone);
    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/off", std::nullopt, false});
    ended_run(store, kEveryone);  // only a disabled webhook
    BOOST_TEST(store.alert_queue_depth().checks == 0);

    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/on"});
    const std::string run = store.create_run(kEveryone, NewRun{"shop", "qa"}).run_id;
    BOOST_TEST(store.alert_queue_depth().checks == 0);  // still running
    store.set_run_status(kEveryone, run, RunStatus::failed);
    store.set_run_status(kEveryone, run, RunStatus::failed);  // repeated: not queued twice
    BOOST_TEST(store.alert_queue_depth().checks == 1);
    const auto claimed = store.claim_alert_checks("w1", 1000, 60000, 10);
    BOOST_REQUIRE_EQUAL(claimed.size(), 1u);
    BOOST_TEST(claimed[0].run_id == run);
    BOOST_TEST(claimed[0].claims == 1);
    BOOST_TEST(!claimed[0].tenant);
  });
}

BOOST_AUTO_TEST_CASE(a_lease_keeps_a_check_from_others_until_it_runs_out) {
  on_both_backends([&](Store& store) {
    const std::string project = project_id_of(store, kEveryone);
    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/one", "k"});
    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/two"});
    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/off", std::nullopt, false});
    store.create_webhook(kTenantA, project, NewWebhook{"http://127.0.0.1:9/team-a"});  // hears team-a's runs only
    const std::string run = ended_run(store, kEveryone);

    BOOST_TEST(store.claim_alert_checks("crashed", 1000, 500, 10).size() == 1u);
    BOOST_TEST(store.claim_alert_checks("other", 1400, 500, 10).empty());  // leased until 1500
    const auto taken = store.claim_alert_checks("other", 1500, 500, 10);
    BOOST_REQUIRE_EQUAL(taken.size(), 1u);
    BOOST_TEST(taken[0].claims == 2);
    // The first owner wakes up late: its lease is gone, so its result is dropped.
    BOOST_TEST(store.finish_alert_check(run, "crashed", std::string(R"({"runId":"x"})"), 1600) == 0u);
    BOOST_TEST(store.finish_alert_check(run, "other", std::string(R"({"runId":"y"})"), 1600) == 2u);
    BOOST_TEST(store.alert_queue_depth().checks == 0);
    BOOST_TEST(store.alert_queue_depth().pending_deliveries == 2);

    const auto deliveries = store.claim_deliveries("sender", 1600, 1000, 10);
    BOOST_REQUIRE_EQUAL(deliveries.size(), 2u);
    std::set<std::string> urls;
    for (const ClaimedDelivery& delivery : deliveries) {
      urls.insert(delivery.url);
      BOOST_TEST(delivery.payload == R"({"runId":"y"})");
      BOOST_TEST(delivery.attempts == 0);
      BOOST_TEST(delivery.secret.has_value() == (delivery.url == "http://127.0.0.1:9/one"));
    }
    BOOST_TEST((urls == std::set<std::string>{"http://127.0.0.1:9/one", "http://127.0.0.1:9/two"}));
    BOOST_TEST(store.claim_deliveries("sender", 1700, 1000, 10).empty());  // leased

    // A check that finds no regression queues nothing.
    ended_run(store, kEveryone);
    const auto next = store.claim_alert_checks("w", 2000, 500, 10);
    BOOST_REQUIRE_EQUAL(next.size(), 1u);
    BOOST_TEST(store.finish_alert_check(next[0].run_id, "w", std::nullopt, 2000) == 0u);
    BOOST_TEST(store.alert_queue_depth().checks == 0);
  });
}

BOOST_AUTO_TEST_CASE(a_tenants_run_alerts_the_shared_webhooks_and_its_own_only) {
  on_both_backends([&](Store& store) {
    const std::string project = project_id_of(store, kEveryone);
    store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/shared"});
    store.create_webhook(kTenantA, project, NewWebhook{"http://127.0.0.1:9/team-a"});
    store.create_webhook(kTenantB, project, NewWebhook{"http://127.0.0.1:9/team-b"});
    const std::string run = ended_run(store, kTenantA);  // goes into the shared project "shop"
    const auto claimed = store.claim_alert_checks("w", 1000, 500, 10);
    BOOST_REQUIRE_EQUAL(claimed.size(), 1u);
    BOOST_TEST(*claimed[0].tenant == "team-a");
    BOOST_TEST(store.finish_alert_check(run, "w", std::string("{}"), 1000) == 2u);
    std::set<std::string> urls;
    for (const ClaimedDelivery& delivery : store.claim_deliveries("s", 1000, 500, 10)) urls.insert(delivery.url);
    BOOST_TEST((urls == std::set<std::string>{"http://127.0.0.1:9/shared", "http://127.0.0.1:9/team-a"}));
  });
}

BOOST_AUTO_TEST_CASE(attempts_are_logged_retried_when_due_and_a_dead_delivery_can_be_sent_again) {
  on_both_backends([&](Store& store) {
    const std::string project = project_id_of(store, kEveryone);
    const AlertWebhook hook = store.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/hook"});
    const std::string run = ended_run(store, kEveryone);
    store.claim_alert_checks("w", 1000, 500, 10);
    store.finish_alert_check(run, "w", std::string("{}"), 1000);
    const std::string id = store.claim_deliveries("s", 1000, 500, 10).at(0).id;

    AttemptOutcome refused{1001, std::nullopt, std::string("connection refused"), AttemptOutcome::Next::retry, 1101};
    BOOST_TEST(!store.record_attempt(id, "not-the-owner", refused));
    BOOST_TEST(store.record_attempt(id, "s", refused));
    BOOST_TEST(!store.record_attempt(id, "s", refused));  // the lease was released
    BOOST_TEST(store.claim_deliveries("s", 1100, 500, 10).empty());  // not due yet
    auto again = store.claim_deliveries("s", 1101, 500, 10);
    BOOST_REQUIRE_EQUAL(again.size(), 1u);
    BOOST_TEST(again[0].attempts == 1);
    BOOST_TEST(store.record_attempt(id, "s", AttemptOutcome{1102, 503, std::string("HTTP 503"), AttemptOutcome::Next::dead}));
    BOOST_TEST(store.claim_deliveries("s", 99999, 500, 10).empty());
    BOOST_TEST(store.alert_queue_depth().dead_deliveries == 1);

    auto page = store.deliveries(kEveryone, project, hook.id, 0, 10);
    BOOST_REQUIRE(page);
    BOOST_TEST(page->total == 1);
    const AlertDelivery& dead = page->deliveries.at(0);
    BOOST_TEST((dead.status == DeliveryStatus::dead));
    BOOST_TEST(dead.attempts == 2);
    BOOST_TEST(dead.run_id == run);
    BOOST_REQUIRE_EQUAL(dead.attempt_log.size(), 2u);
    BOOST_TEST(dead.attempt_log[0].number == 1);
    BOOST_TEST(dead.attempt_log[0].at_ms == 1001);
    BOOST_TEST(!dead.attempt_log[0].status_code);
    BOOST_TEST(*dead.attempt_log[0].error == "connection refused");
    BOOST_TEST(*dead.attempt_log[1].status_code == 503);
    BOOST_TEST(!dead.next_attempt_ms);

    BOOST_TEST(!store.redeliver(kTenantB, project, hook.id, "0190a0b0-c0d0-7000-8000-000000000000", 2000));
    const auto revived = store.redeliver(kEveryone, project, hook.id, id, 2000);
    BOOST_REQUIRE(revived);
    BOOST_TEST((revived->status == DeliveryStatus::pending));
    BOOST_TEST(revived->attempts == 0);
    BOOST_TEST(*revived->next_attempt_ms == 2000);
    BOOST_TEST(revived->attempt_log.size() == 2u);  // the log stays
    BOOST_CHECK_THROW(store.redeliver(kEveryone, project, hook.id, id, 2000), StoreError);  // not DEAD
    BOOST_TEST(store.claim_deliveries("s", 2000, 500, 10).size() == 1u);
    BOOST_TEST(store.record_attempt(id, "s", AttemptOutcome{2001, 204, std::nullopt, AttemptOutcome::Next::delivered}));
    const AlertDelivery delivered = store.deliveries(kEveryone, project, hook.id, 0, 10)->deliveries.at(0);
    BOOST_TEST((delivered.status == DeliveryStatus::delivered));
    BOOST_TEST(*delivered.delivered_ms == 2001);
    BOOST_TEST(delivered.attempt_log.back().number == 3);

    // Deleting the webhook takes its log with it; deleting the project takes the webhook.
    BOOST_TEST(store.delete_project(kEveryone, "shop"));
    BOOST_TEST(!store.webhooks(kEveryone, project));
    BOOST_TEST(store.alert_queue_depth().pending_deliveries == 0);
  });
}

// Two servers on one database claiming the same queue at once: every delivery is claimed by
// exactly one of them.
BOOST_AUTO_TEST_CASE(two_postgres_replicas_never_claim_the_same_delivery) {
  const std::string database = alerts_cluster().new_database();
  PostgresStore first(database);
  PostgresStore second(database);
  const std::string project = project_id_of(first, kEveryone);
  constexpr int kWebhooks = 4;
  constexpr int kRuns = 40;
  for (int i = 0; i < kWebhooks; ++i) first.create_webhook(kEveryone, project, NewWebhook{"http://127.0.0.1:9/" + std::to_string(i)});
  for (int i = 0; i < kRuns; ++i) ended_run(first, kEveryone);
  for (const AlertCheck& check : first.claim_alert_checks("setup", 1000, 60000, kRuns))
    first.finish_alert_check(check.run_id, "setup", std::string("{}"), 1000);

  std::mutex mutex;
  std::multiset<std::string> sent;
  std::vector<std::string> failures;  // Boost.Test's checks are for the main thread
  auto drain = [&](PostgresStore& store, const std::string& owner) {
    for (;;) {
      const auto claimed = store.claim_deliveries(owner, 2000, 60000, 3);
      if (claimed.empty()) return;
      for (const ClaimedDelivery& delivery : claimed) {
        const bool recorded = store.record_attempt(delivery.id, owner, AttemptOutcome{2000, 200, std::nullopt, AttemptOutcome::Next::delivered});
        const std::lock_guard<std::mutex> lock(mutex);
        sent.insert(delivery.id);
        if (!recorded) failures.push_back(delivery.id);
      }
    }
  };
  std::thread a([&] { drain(first, "replica-a"); });
  std::thread b([&] { drain(second, "replica-b"); });
  a.join();
  b.join();
  BOOST_TEST(failures.empty());
  BOOST_TEST(sent.size() == static_cast<std::size_t>(kWebhooks * kRuns));
  BOOST_TEST(std::set<std::string>(sent.begin(), sent.end()).size() == sent.size());
  BOOST_TEST(first.alert_queue_depth().pending_deliveries == 0);
}

BOOST_AUTO_TEST_SUITE_END()
