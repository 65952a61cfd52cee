#include "fake_llm_server.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <system_error>
#include <thread>

#include "http_session.hpp"
#include "server_state.hpp"

namespace krino::fake_llm {
namespace net = boost::asio;
using net::ip::tcp;

// Members in destruction order that matters: the acceptor and timer go before the io_context.
struct FakeLlmServer::Runtime {
  explicit Runtime(unsigned thread_count) : io(static_cast<int>(thread_count)), acceptor(io), retry(io) {}

  void accept(const std::shared_ptr<ServerState>& state) {
    acceptor.async_accept(net::make_strand(io), [this, state](boost::system::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
      if (ec) {
        // Most likely out of file descriptors: pause instead of spinning, then accept again.
        retry.expires_after(std::chrono::milliseconds(20));
        retry.async_wait([this, state](boost::system::error_code) { accept(state); });
        return;
      }
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<HttpSession>(std::move(socket), state)->start();
      accept(state);
    });
  }

  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work{io.get_executor()};
  tcp::acceptor acceptor;
  net::steady_timer retry;
  std::vector<std::thread> threads;
};

FakeLlmServer::FakeLlmServer(ServerOptions options)
    : state_(std::make_shared<ServerState>(std::move(options.script), options.latency_ms,
                                           std::move(options.required_key), options.keep_last_requests)),
      host_(options.host) {
  unsigned threads = options.threads == 0 ? 1 : options.threads;
  runtime_ = std::make_unique<Runtime>(threads);
  tcp::endpoint endpoint(net::ip::make_address(options.host), options.port);
  tcp::acceptor& acceptor = runtime_->acceptor;
  acceptor.open(endpoint.protocol());
  acceptor.set_option(net::socket_base::reuse_address(true));
  acceptor.bind(endpoint);
  // Benchmarks open a thousand connections at once; a short backlog would make clients retry.
  acceptor.listen(net::socket_base::max_listen_connections);
  port_ = acceptor.local_endpoint().port();
  runtime_->accept(state_);
  for (unsigned i = 0; i < threads; ++i) runtime_->threads.emplace_back([io = &runtime_->io] { io->run(); });
}

FakeLlmServer::~FakeLlmServer() { stop(); }

std::string FakeLlmServer::base_url() const { return "http://" + host_ + ":" + std::to_string(port_); }

void FakeLlmServer::stop() {
  if (!runtime_) return;
  runtime_->io.stop();
  for (auto& thread : runtime_->threads) thread.join();
  // Destroying the io_context destroys every pending handler and with it every session and socket.
  runtime_.reset();
}

void FakeLlmServer::set_script(Script script) { state_->rules.replace(std::move(script)); }

void FakeLlmServer::reset() {
  state_->log.clear();
  state_->rules.reset_uses();
}

std::uint64_t FakeLlmServer::request_count(Endpoint endpoint) const { return state_->log.count(endpoint); }
std::uint64_t FakeLlmServer::request_count() const { return state_->log.total(); }
std::vector<RecordedRequest> FakeLlmServer::recent_requests() const { return state_->log.recent(); }

}  // namespace krino::fake_llm
