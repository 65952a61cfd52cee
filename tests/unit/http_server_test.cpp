// The results server's HTTP listener over real loopback sockets: routing with path parameters and
// queries, JSON errors for unknown paths and methods, the body limit, a throwing handler, keep-alive,
// and a graceful stop that finishes the request in progress.
#include "krino/core/common/io_service.hpp"
#include "krino/core/http_server/http_server.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

using namespace krino::core;
using namespace krino::core::http_server;
namespace beast = boost::beast;
namespace http = beast::http;
using boost::asio::ip::tcp;

namespace {

// A blocking client on its own io_context: one connection, several requests.
class Client {
 public:
  explicit Client(unsigned short port) : socket_(io_) { socket_.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port)); }

  http::response<http::string_body> send(http::verb method, const std::string& target, const std::string& body = "") {
    http::request<http::string_body> request(method, target, 11);
    request.set(http::field::host, "127.0.0.1");
    request.body() = body;
    request.prepare_payload();
    http::write(socket_, request);
    http::response<http::string_body> response;
    http::read(socket_, buffer_, response);
    return response;
  }
  // Whether the server closed the connection (a read ends at once with end of stream).
  bool closed_by_server() {
    beast::error_code ec;
    char byte = 0;
    socket_.read_some(boost::asio::buffer(&byte, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
  }
  tcp::socket& socket() { return socket_; }

 private:
  boost::asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

struct Fixture {
  Fixture() {
    router.add(http::verb::get, "/api/v1/runs/{runId}", [](const Request& request) {
      return json_response(Status::ok, "{\"run\":\"" + request.param("runId") + "\",\"page\":\"" + request.query_value("page").value_or("") + "\"}");
    });
    router.add(http::verb::delete_, "/api/v1/runs/{runId}", [](const Request&) { return json_response(Status::no_content, ""); });
    router.add(http::verb::post, "/echo", [](const Request& request) { return json_response(Status::created, request.message.body()); });
    router.add(http::verb::get, "/boom", [](const Request&) -> Response { throw std::runtime_error("secret detail"); });
    router.add(http::verb::get, "/slow", [this](const Request&) {
      slow_started.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      return json_response(Status::ok, "{\"slow\":true}");
    });
    router.add(http::verb::get, "/stream", [this](const Request& request) {
      std::shared_ptr<ResponseStream> stream = request.stream_response();
      stream->write("first;");  // before the head is out: kept for the body
      stream_opened.set_value(stream);
      Response head(Status::ok, 11);
      head.set(http::field::content_type, "text/event-stream");
      return head;
    });
    HttpServerOptions options;
    options.port = 0;
    options.max_body_bytes = 1024;
    options.handler_threads = 1;  // so a test can tell that a streamed response holds none
    server = std::make_unique<HttpServer>(io.context(), options, router, [this](const AccessRecord& record) {
      const std::lock_guard<std::mutex> lock(log_mutex);
      log.push_back(record);
    });
    server->start();
  }

  // Stops the server first, so no connection or handler outlives the router and the log (a test
  // that stopped it already gets its answer at once).
  ~Fixture() {
    auto stopped = std::make_shared<std::promise<void>>();
    server->stop([stopped] { stopped->set_value(); });
    stopped->get_future().wait_for(std::chrono::seconds(10));
  }

  // Declared first, destroyed last: the server's threads may still write the log and run /slow while
  // the I/O service winds down.
  std::promise<void> slow_started;
  std::promise<std::shared_ptr<ResponseStream>> stream_opened;
  std::mutex log_mutex;
  std::vector<AccessRecord> log;
  IoService io{2};
  Router router;
  std::unique_ptr<HttpServer> server;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(http_server, Fixture)

BOOST_AUTO_TEST_CASE(routes_fill_path_parameters_and_decoded_queries) {
  Client client(server->port());
  const auto response = client.send(http::verb::get, "/api/v1/runs/r%2D1?page=2&size=50");
  BOOST_TEST(response.result_int() == 200u);
  BOOST_TEST(response.body() == R"({"run":"r-1","page":"2"})");
  BOOST_TEST(response[http::field::content_type] == "application/json");
  // Kept alive: a second request on the same connection.
  BOOST_TEST(client.send(http::verb::delete_, "/api/v1/runs/x").result_int() == 204u);
}

BOOST_AUTO_TEST_CASE(unknown_paths_and_methods_are_json_errors) {
  Client client(server->port());
  const auto missing = client.send(http::verb::get, "/api/v1/nothing");
  BOOST_TEST(missing.result_int() == 404u);
  BOOST_TEST(missing.body().find("\"error\":\"not_found\"") != std::string::npos, missing.body());
  const auto wrong = client.send(http::verb::put, "/api/v1/runs/x");
  BOOST_TEST(wrong.result_int() == 405u);
  BOOST_TEST(wrong[http::field::allow] == "DELETE, GET");
}

BOOST_AUTO_TEST_CASE(a_body_over_the_limit_is_refused_and_the_connection_closed) {
  Client client(server->port());
  const auto response = client.send(http::verb::post, "/echo", std::string(4096, 'x'));
  BOOST_TEST(response.result_int() == 413u);
  BOOST_TEST(response.body().find("1024") != std::string::npos, response.body());
  BOOST_TEST(client.closed_by_server());
  Client again(server->port());  // the server is still there
  BOOST_TEST(again.send(http::verb::post, "/echo", "{}").result_int() == 201u);
}

BOOST_AUTO_TEST_CASE(a_throwing_handler_is_a_500_that_keeps_its_detail_out_of_the_response) {
  Client client(server->port());
  const auto response = client.send(http::verb::get, "/boom");
  BOOST_TEST(response.result_int() == 500u);
  BOOST_TEST(response.body().find("secret") == std::string::npos, response.body());
  BOOST_TEST(client.send(http::verb::get, "/api/v1/runs/1").result_int() == 200u);
  const std::lock_guard<std::mutex> lock(log_mutex);
  BOOST_REQUIRE(log.size() >= 1u);
  BOOST_TEST(log.front().status == 500u);
  BOOST_TEST(log.front().path.find("secret detail") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_bad_escape_in_the_target_is_a_400) {
  Client client(server->port());
  BOOST_TEST(client.send(http::verb::get, "/api/v1/runs/%zz").result_int() == 400u);
  BOOST_TEST(client.send(http::verb::get, "/api/v1/runs/a%00b").result_int() == 400u);
}

BOOST_AUTO_TEST_CASE(stop_finishes_the_request_in_progress_and_closes_idle_connections) {
  const unsigned short port = server->port();
  Client idle(port);
  BOOST_TEST(idle.send(http::verb::get, "/api/v1/runs/1").result_int() == 200u);  // now idle, kept alive
  Client busy(server->port());
  auto slow = std::async(std::launch::async, [&] { return busy.send(http::verb::get, "/slow"); });
  slow_started.get_future().wait();
  std::promise<void> stopped;
  server->stop([&] { stopped.set_value(); });
  const auto response = slow.get();
  BOOST_TEST(response.result_int() == 200u);
  BOOST_TEST(response.body() == R"({"slow":true})");
  BOOST_TEST(!response.keep_alive());
  BOOST_TEST(idle.closed_by_server());
  BOOST_TEST((stopped.get_future().wait_for(std::chrono::seconds(5)) == std::future_status::ready));
  boost::asio::io_context client_io;
  tcp::socket late(client_io);
  beast::error_code ec;
  late.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port), ec);
  BOOST_TEST(ec.failed());  // no longer listening
}

BOOST_AUTO_TEST_CASE(a_streamed_body_is_written_as_it_comes_without_holding_a_handler_thread) {
  Client client(server->port());
  http::request<http::string_body> request(http::verb::get, "/stream", 11);
  request.set(http::field::host, "127.0.0.1");
  http::write(client.socket(), request);
  std::shared_ptr<ResponseStream> stream = stream_opened.get_future().get();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  http::read_header(client.socket(), buffer, parser);
  BOOST_TEST(parser.get().result_int() == 200u);
  BOOST_TEST(parser.get().chunked());
  BOOST_TEST(parser.get()[http::field::content_type] == "text/event-stream");

  // The only handler thread is free while the body is open: another connection is answered.
  Client other(server->port());
  BOOST_TEST(other.send(http::verb::get, "/api/v1/runs/1").result_int() == 200u);

  std::thread producer([stream] {
    stream->write("second;");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stream->write("third");
    stream->finish();
    stream->write("dropped");
  });
  beast::error_code read_error;
  http::read(client.socket(), buffer, parser, read_error);
  producer.join();
  BOOST_TEST(!read_error.failed(), read_error.message());
  BOOST_TEST(parser.get().body() == "first;second;third");
  BOOST_TEST(parser.get().keep_alive());
  BOOST_TEST(client.send(http::verb::get, "/api/v1/runs/2").result_int() == 200u);  // the connection goes on
  const std::lock_guard<std::mutex> lock(log_mutex);
  bool logged = false;
  for (const AccessRecord& record : log) logged = logged || (record.path == "/stream" && record.status == 200u && record.response_bytes == 18u);
  BOOST_TEST(logged);
}

BOOST_AUTO_TEST_CASE(a_streamed_body_to_an_http_1_0_client_is_plain_and_ends_with_the_connection) {
  Client client(server->port());
  http::request<http::string_body> request(http::verb::get, "/stream", 10);
  request.set(http::field::host, "127.0.0.1");
  http::write(client.socket(), request);
  std::shared_ptr<ResponseStream> stream = stream_opened.get_future().get();
  stream->write("second");
  stream->finish();
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(client.socket(), buffer, response);
  BOOST_TEST(response.version() == 10u);
  BOOST_TEST(!response.chunked());
  BOOST_TEST(response.body() == "first;second");
  BOOST_TEST(client.closed_by_server());
}

BOOST_AUTO_TEST_CASE(a_streamed_body_whose_client_left_drops_what_is_written) {
  {
    Client client(server->port());
    http::request<http::string_body> request(http::verb::get, "/stream", 11);
    request.set(http::field::host, "127.0.0.1");
    http::write(client.socket(), request);
    std::shared_ptr<ResponseStream> stream = stream_opened.get_future().get();
    client.socket().close();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!stream->closed() && std::chrono::steady_clock::now() < deadline) {
      stream->write(std::string(4096, 'x'));  // the kernel takes the first writes; a later one fails
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    BOOST_TEST(stream->closed());
    stream->finish();
  }
  Client again(server->port());
  BOOST_TEST(again.send(http::verb::get, "/api/v1/runs/1").result_int() == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
