// The generic job queue on both backends: claims take the oldest due job of the asked kinds and
// never one job twice; the lease token fences every later call; a lease that runs out hands the job
// to the next claim, counted as an attempt; used-up attempts are flagged; a retried job waits.
#include "server_api_fixture.hpp"

using namespace krino::test;

namespace {

const std::vector<std::string> kPageKinds = {"judge_page"};

template <class Backend>
struct QueueFixture {
  Backend backend;
  std::unique_ptr<store::Store> store = backend.open();

  void enqueue(const std::string& payload, std::int64_t max_attempts = 3, const std::string& kind = "judge_page") {
    store::NewJob job;
    job.kind = kind;
    job.payload = payload;
    job.max_attempts = max_attempts;
    store->enqueue_jobs(std::span<const store::NewJob>(&job, 1));
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(store_jobs)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(claims_hand_each_job_to_one_worker_oldest_first, Backend, Backends, QueueFixture<Backend>) {
  this->enqueue(R"({"n":1})");
  this->enqueue(R"({"n":2})");
  this->enqueue(R"({"n":3})", 3, "online_eval");
  const auto first = this->store->claim_job("w1", kPageKinds, 1000, 60000);
  const auto second = this->store->claim_job("w2", kPageKinds, 1000, 60000);
  BOOST_REQUIRE(first && second);
  BOOST_TEST(first->payload == R"({"n":1})");
  BOOST_TEST(second->payload == R"({"n":2})");
  BOOST_TEST(first->attempts == 1);
  BOOST_TEST(first->lease_token != second->lease_token);
  BOOST_TEST(!this->store->claim_job("w3", kPageKinds, 1000, 60000).has_value());  // the other kind is not asked for
  const std::vector<std::string> other = {"online_eval"};
  BOOST_TEST(this->store->claim_job("w3", other, 1000, 60000)->payload == R"({"n":3})");
  const auto depth = this->store->job_queue_depth();
  BOOST_TEST(depth.running == 3);
  BOOST_TEST(depth.queued == 0);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(only_the_lease_holder_renews_and_completes, Backend, Backends, QueueFixture<Backend>) {
  this->enqueue("{}");
  const auto job = this->store->claim_job("w1", kPageKinds, 1000, 60000);
  BOOST_REQUIRE(job);
  BOOST_TEST(!this->store->renew_job_lease(job->id, "not-the-token", 2000, 60000));
  BOOST_TEST(this->store->renew_job_lease(job->id, job->lease_token, 2000, 60000));
  BOOST_TEST(!this->store->complete_job(job->id, "not-the-token"));
  BOOST_TEST(this->store->complete_job(job->id, job->lease_token));
  BOOST_TEST(!this->store->complete_job(job->id, job->lease_token));  // once
  BOOST_TEST(!this->store->claim_job("w2", kPageKinds, 999999999, 60000).has_value());
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_lease_that_runs_out_requeues_the_job_and_fences_out_its_old_holder, Backend, Backends, QueueFixture<Backend>) {
  this->enqueue("{}");
  const auto first = this->store->claim_job("w1", kPageKinds, 1000, 100);
  BOOST_REQUIRE(first);
  BOOST_TEST(!this->store->claim_job("w2", kPageKinds, 1099, 100).has_value());  // still leased
  const auto second = this->store->claim_job("w2", kPageKinds, 1100, 100);
  BOOST_REQUIRE(second);
  BOOST_TEST(second->id == first->id);
  BOOST_TEST(second->attempts == 2);
  BOOST_TEST(*second->last_error == "the lease of w1 ran out");
  // The first worker comes back from a long pause: nothing it does counts.
  BOOST_TEST(!this->store->renew_job_lease(first->id, first->lease_token, 1150, 100));
  BOOST_TEST(!this->store->complete_job(first->id, first->lease_token));
  BOOST_TEST(!this->store->fail_job(first->id, first->lease_token, "late"));
  BOOST_TEST(this->store->complete_job(second->id, second->lease_token));
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(attempts_are_bounded_and_a_retried_job_waits, Backend, Backends, QueueFixture<Backend>) {
  this->enqueue("{}", 2);
  auto job = this->store->claim_job("w1", kPageKinds, 1000, 60000);
  BOOST_REQUIRE(job);
  BOOST_TEST(this->store->retry_job(job->id, job->lease_token, "HTTP 503", 5000));
  BOOST_TEST(!this->store->claim_job("w1", kPageKinds, 4999, 60000).has_value());
  job = this->store->claim_job("w1", kPageKinds, 5000, 10);
  BOOST_REQUIRE(job);
  BOOST_TEST(job->attempts == 2);
  BOOST_TEST(!job->exhausted);
  BOOST_TEST(*job->last_error == "HTTP 503");
  job = this->store->claim_job("w2", kPageKinds, 6000, 60000);  // w1 died holding it
  BOOST_REQUIRE(job);
  BOOST_TEST(job->attempts == 3);
  BOOST_TEST(job->exhausted);  // its handler records the failure instead of working
  BOOST_TEST(this->store->fail_job(job->id, job->lease_token, "given up"));
  BOOST_TEST(this->store->job_queue_depth().failed == 1);
}

BOOST_AUTO_TEST_CASE(replicas_on_one_postgresql_never_claim_one_job_twice) {
  const std::string database = cluster().new_database();
  store::PostgresStore writer(database);
  std::vector<store::NewJob> jobs(200);
  for (auto& job : jobs) job.kind = "judge_page";
  writer.enqueue_jobs(jobs);
  // Two stores (as two replicas), two threads each, claiming until the queue is empty.
  store::PostgresStore a(database);
  store::PostgresStore b(database);
  std::mutex mutex;
  std::vector<std::string> claimed;
  std::vector<std::thread> threads;
  for (store::Store* replica : {static_cast<store::Store*>(&a), static_cast<store::Store*>(&b)})
    for (int t = 0; t < 2; ++t)
      threads.emplace_back([&, replica, t] {
        while (auto job = replica->claim_job("w" + std::to_string(t), kPageKinds, 1000, 600000)) {
          const std::lock_guard<std::mutex> lock(mutex);
          claimed.push_back(job->id);
        }
      });
  for (auto& thread : threads) thread.join();
  std::sort(claimed.begin(), claimed.end());
  BOOST_TEST(claimed.size() == 200u);
  BOOST_TEST((std::adjacent_find(claimed.begin(), claimed.end()) == claimed.end()));
}

BOOST_AUTO_TEST_SUITE_END()
