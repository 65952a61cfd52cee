#include "krino/core/mcp/mcp_server.hpp"

#include "krino/core/mcp/mcp_session.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <istream>
#include <ostream>

namespace krino::core::mcp {

struct McpServer::Workers {
  explicit Workers(std::size_t threads) : pool(threads) {}
  boost::asio::thread_pool pool;
};

McpServer::McpServer(ServerInfo info, ToolRegistry tools, std::size_t tool_workers)
    : info_(std::move(info)), tools_(std::move(tools)), workers_(std::make_unique<Workers>(std::max<std::size_t>(tool_workers, 1))) {}

McpServer::~McpServer() { workers_->pool.join(); }

void McpServer::post(std::function<void()> job) const { boost::asio::post(workers_->pool, std::move(job)); }

void McpServer::serve(std::istream& in, std::ostream& out) const {
  McpSession session(*this);
  const MessageSink write_line = [&out](std::string message) {
    message.push_back('\n');
    out.write(message.data(), static_cast<std::streamsize>(message.size()));
    out.flush();
  };
  std::string line;
  while (std::getline(in, line)) session.receive(line, write_line);
  session.wait_idle();
}

}  // namespace krino::core::mcp
