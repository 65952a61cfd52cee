#include "signal_watcher.hpp"

#include "exit_codes.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace krino::cli {
namespace {

sigset_t watched_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void SignalWatcher::block_signals() {
  sigset_t set = watched_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

SignalWatcher::SignalWatcher(core::Cancellation& cancellation, const char* notice) : cancellation_(cancellation) {
  std::thread([&cancellation = cancellation_, notice] {
    sigset_t set = watched_signals();
    int signal = 0;
    if (sigwait(&set, &signal) != 0) return;
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, notice, std::strlen(notice));
    cancellation.request();
    if (sigwait(&set, &signal) != 0) return;
    std::_Exit(kInterrupted);
  }).detach();
}

bool SignalWatcher::interrupted() const { return cancellation_.requested(); }

}  // namespace krino::cli
