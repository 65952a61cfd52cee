// krino-fake-llm: the fake LLM server as a command, for offline dry runs of an experiment.
// Thin: parses options, starts FakeLlmServer, waits for SIGINT or SIGTERM.
#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <exception>
#include <iostream>
#include <sys/resource.h>

#include "fake_llm_server.hpp"

namespace {

// A benchmark holds a thousand connections or more; the default soft limit is often 1024.
void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace krino::fake_llm;
  CLI::App app{"Fake OpenAI- and Anthropic-compatible LLM server for tests and offline dry runs"};
  ServerOptions options;
  std::string script_path;
  std::string required_key;
  app.add_option("--host", options.host, "Address to listen on")->capture_default_str();
  app.add_option("--port", options.port, "Port; 0 picks a free one (printed on stdout)")->capture_default_str();
  app.add_option("--script", script_path, "JSON script of rules and replies (see docs/fake-llm-server.md)")
      ->check(CLI::ExistingFile);
  app.add_option("--latency-ms", options.latency_ms, "Latency added to every LLM reply")->capture_default_str();
  app.add_option("--threads", options.threads, "I/O threads")->capture_default_str()->check(CLI::Range(1, 256));
  app.add_option("--require-key", required_key, "Answer 401 unless requests carry this API key");
  app.add_option("--record", options.keep_last_requests, "Request bodies kept for GET /_requests")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    if (!script_path.empty()) options.script = load_script_file(script_path);
    if (!required_key.empty()) options.required_key = required_key;
    raise_file_limit();

    // Signals are waited for on their own io_context so the server's threads never see them.
    boost::asio::io_context signals_io;
    boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
    FakeLlmServer server(std::move(options));
    std::cout << "listening on " << server.base_url().substr(7) << std::endl;  // endl flushes: drivers wait for this line
    signals.async_wait([&server](const boost::system::error_code&, int) { server.stop(); });
    signals_io.run();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "krino-fake-llm: " << e.what() << '\n';
    return 1;
  }
}
