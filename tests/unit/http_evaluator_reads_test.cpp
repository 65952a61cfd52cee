// use: http_evaluator honours the handshake's "reads" as a worker process does: each POST carries
// only the declared sections of a test case, their bytes unchanged (numbers exactly as written).
// The server is a one-connection Beast loop on a thread of the test, which records every POST body.
#include "krino/core/runner/http_evaluator.hpp"
#include "krino/core/runner/http_evaluator_options.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace krino::core;
namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

// Answers GET with `handshake` and every POST with a result for request id 1, keeping the bodies.
class RecordingEvaluatorServer {
 public:
  explicit RecordingEvaluatorServer(std::string handshake)
      : handshake_(std::move(handshake)), acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    url = "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/score";
    thread_ = std::thread([this] { serve(); });
  }
  // The evaluator (and its connections) must be gone first: a blocking accept is woken by a
  // connection of our own, as closing the acceptor from another thread would not wake it.
  ~RecordingEvaluatorServer() {
    stopping_ = true;
    asio::io_context waker;
    asio::ip::tcp::socket knock(waker);
    boost::system::error_code ignored;
    knock.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  RecordingEvaluatorServer(const RecordingEvaluatorServer&) = delete;
  RecordingEvaluatorServer& operator=(const RecordingEvaluatorServer&) = delete;

  std::vector<std::string> posted() const {
    std::lock_guard lock(mutex_);
    return posted_;
  }

  std::string url;

 private:
  void serve() {
    boost::system::error_code ec;
    for (;;) {
      asio::ip::tcp::socket socket(io_);
      acceptor_.accept(socket, ec);
      if (ec || stopping_) return;
      boost::beast::flat_buffer buffer;
      for (;;) {
        http::request<http::string_body> request;
        http::read(socket, buffer, request, ec);
        if (ec) break;
        http::response<http::string_body> response(http::status::ok, request.version());
        response.set(http::field::content_type, "application/json");
        if (request.method() == http::verb::get) {
          response.body() = handshake_;
        } else {
          std::lock_guard lock(mutex_);
          posted_.push_back(request.body());
          response.body() = R"({"answers":[{"id":1,"result":{"name":"x","score":1,"success":true}}]})";
        }
        response.keep_alive(request.keep_alive());
        response.prepare_payload();
        http::write(socket, response, ec);
        if (ec || !request.keep_alive()) break;
      }
    }
  }

  std::string handshake_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> posted_;
};

// The client's io_context, run on a thread of its own while the evaluator waits on it.
struct ClientLoop {
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
  std::thread thread{[this] { io.run(); }};
  ~ClientLoop() {
    work.reset();
    io.stop();
    thread.join();
  }
};

HttpEvaluatorSettings settings_for(const std::string& url) {
  boost::json::object keys;
  keys["url"] = url;
  keys["max_retries"] = 0;
  return read_http_evaluator_settings(keys, {});
}

constexpr const char* kTestCase =
    R"({"inputs":{"prompt":"left out"},"actualOutputs":{"x":0.1000000000000000055511151231257827,"big":1e400},)"
    R"("expectedOutputs":{"y":"left out"},"metadata":{"tools":["t"],"n":-0.0}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(http_evaluator_reads)

BOOST_AUTO_TEST_CASE(the_post_body_holds_only_the_declared_sections_as_their_bytes) {
  RecordingEvaluatorServer server(
      R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"t.x","name":"x"},"reads":["actualOutputs","metadata"]})");
  ClientLoop loop;
  HttpEvaluator evaluator(loop.io, settings_for(server.url), [](const WorkerHandshake&) { return boost::json::object(); },
                          nullptr);
  const krino_call_context ctx{};
  const auto result = evaluator.evaluate(ctx, kTestCase);
  BOOST_TEST_REQUIRE(result.ok());
  const std::vector<std::string> posted = server.posted();
  BOOST_TEST_REQUIRE(posted.size() == 1u);
  const std::string expected =
      R"("testCase":{"actualOutputs":{"x":0.1000000000000000055511151231257827,"big":1e400},"metadata":{"tools":["t"],"n":-0.0}},)";
  BOOST_TEST(posted[0].find(expected) != std::string::npos, posted[0]);
  BOOST_TEST(posted[0].find("left out") == std::string::npos, posted[0]);
}

BOOST_AUTO_TEST_CASE(without_reads_the_post_body_holds_the_whole_test_case) {
  RecordingEvaluatorServer server(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"t.x","name":"x"}})");
  ClientLoop loop;
  HttpEvaluator evaluator(loop.io, settings_for(server.url), [](const WorkerHandshake&) { return boost::json::object(); },
                          nullptr);
  const krino_call_context ctx{};
  BOOST_TEST_REQUIRE(evaluator.evaluate(ctx, kTestCase).ok());
  const std::vector<std::string> posted = server.posted();
  BOOST_TEST_REQUIRE(posted.size() == 1u);
  BOOST_TEST(posted[0].find(std::string("\"testCase\":") + kTestCase + ",") != std::string::npos, posted[0]);
}

BOOST_AUTO_TEST_SUITE_END()
