// /metrics' text: counters by method and code, a cumulative histogram of durations, ingestion's
// counters and the handler queue.
#include "krino/core/server/server_metrics.hpp"

#include <boost/test/unit_test.hpp>

using krino::core::http_server::AccessRecord;
using krino::core::server::ServerMetrics;

BOOST_AUTO_TEST_SUITE(server_metrics)

BOOST_AUTO_TEST_CASE(counts_requests_and_accumulates_buckets) {
  ServerMetrics metrics;
  AccessRecord fast;
  fast.method = "GET";
  fast.status = 200;
  fast.duration = std::chrono::microseconds(300);
  AccessRecord slow = fast;
  slow.method = "POST";
  slow.status = 201;
  slow.duration = std::chrono::microseconds(30'000);
  metrics.record(fast);
  metrics.record(fast);
  metrics.record(slow);
  metrics.ingest.items_stored += 1500;
  ++metrics.ingest.batches_repeated;
  const std::string text = metrics.text(7);
  BOOST_TEST(text.find("# TYPE krino_ingest_items_total counter\nkrino_ingest_items_total 1500\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_ingest_batches_repeated_total 1\n") != std::string::npos, text);
  BOOST_TEST(text.find("# TYPE krino_http_handlers_pending gauge\nkrino_http_handlers_pending 7\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_requests_total{method=\"GET\",code=\"200\"} 2\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_requests_total{method=\"POST\",code=\"201\"} 1\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_request_duration_seconds_bucket{le=\"5e-04\"} 2\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_request_duration_seconds_bucket{le=\"0.025\"} 2\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_request_duration_seconds_bucket{le=\"0.05\"} 3\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_request_duration_seconds_bucket{le=\"+Inf\"} 3\n") != std::string::npos, text);
  BOOST_TEST(text.find("krino_http_request_duration_seconds_count 3\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_SUITE_END()
