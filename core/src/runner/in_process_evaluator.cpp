#include "krino/core/runner/in_process_evaluator.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"
#include "krino/core/host/call_handle.hpp"
#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/runner/result_sink.hpp"

#include <krino/json_text.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace krino::core {
namespace {

// One call on a thread of its own: shared by the waiting worker and that thread.
struct TimedCall {
  explicit TimedCall(std::string evaluator_name) : name(std::move(evaluator_name)), result(name) {}
  std::string name;  // the thread may outlive the evaluator
  std::string testcase;
  krino_call_context ctx{};
  CallHandle handle;  // the item's judge attribution, without the item's parse (another thread)
  ResultSink result;
  StringSink error;
  krino_status status = KRINO_OK;
  std::mutex mutex;
  std::condition_variable finished_signal;
  bool finished = false;
  bool abandoned = false;
};

// A thread may still run the plugin's code at exit: the library must never be unmapped.
void keep_library_loaded(const Component& component) {
  if (component.plugin == nullptr) return;
  if (void* handle = ::dlopen(component.plugin->path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
    ::dlclose(handle);  // drops the reference just taken; RTLD_NODELETE stays
}

}  // namespace

void* InProcessEvaluator::Instances::acquire() {
  if (shared) return all.front();
  void* instance = nullptr;
  idle.pop(instance);  // blocks only if more workers than instances, which the runner avoids
  return instance;
}

void InProcessEvaluator::Instances::release(void* instance) {
  if (!shared) idle.push(instance);
}

InProcessEvaluator::InProcessEvaluator(const Component& component, const krino_host* host, std::string name,
                                       const boost::json::object& options, size_t workers,
                                       std::optional<std::chrono::milliseconds> timeout)
    : component_(component), name_(std::move(name)), instances_(std::make_shared<Instances>()), timeout_(timeout) {
  instances_->vtable = component.evaluator();
  instances_->shared = component.has(KRINO_CAP_THREAD_SAFE);
  const size_t count = instances_->shared ? 1 : std::max<size_t>(1, workers);
  const std::string config = ::krino::json::to_compact_json(options);
  for (size_t i = 0; i < count; ++i) {
    StringSink error;
    void* instance = nullptr;
    krino_status status = component.evaluator().create(host, config.data(), config.size(), &instance, error.sink());
    if (status != KRINO_OK || instance == nullptr) {
      for (void* created : instances_->all) component.evaluator().destroy(created);
      instances_->all.clear();
      throw config_error("evaluator '" + name_ + "' (" + component.id + ") rejected its options: " +
                         (error.text().empty() ? "no reason given" : error.message()));
    }
    instances_->all.push_back(instance);
    instances_->idle.push(instance);
  }
}

InProcessEvaluator::~InProcessEvaluator() {
  // An abandoned call may still be using an instance: those are left alone (the process is ending).
  if (instances_->abandoned.load() > 0) return;
  for (void* instance : instances_->all) component_.evaluator().destroy(instance);
}

ItemError InProcessEvaluator::failure(krino_status status, const std::string& message) const {
  return ItemError{"evaluator", name_, status, message.empty() ? "evaluator failed without a message" : message};
}

StatusOr<WrittenResult, ItemError> InProcessEvaluator::evaluate(const krino_call_context& ctx,
                                                              std::string_view testcase) const {
  if (timeout_ && timeout_->count() > 0) return evaluate_with_timeout(ctx, testcase);
  ResultSink result(name_);
  StringSink error;
  void* instance = instances_->acquire();
  krino_status status =
      component_.evaluator().evaluate(instance, &ctx, testcase.data(), testcase.size(), result.sink(), error.sink());
  instances_->release(instance);
  if (status != KRINO_OK) return failure(status, error.text().empty() ? std::string() : error.message());
  return result.take();
}

StatusOr<WrittenResult, ItemError> InProcessEvaluator::evaluate_with_timeout(const krino_call_context& ctx,
                                                                           std::string_view testcase) const {
  const size_t capacity = instances_->shared ? std::max<size_t>(1, std::thread::hardware_concurrency()) : instances_->all.size();
  if (instances_->abandoned.load() >= capacity)
    return failure(KRINO_UNAVAILABLE, std::to_string(instances_->abandoned.load()) +
                                          " earlier calls ran past timeout_ms and are still running in this process; "
                                          "the evaluator takes no more (isolation: process would have stopped them)");
  auto call = std::make_shared<TimedCall>(name_);
  call->testcase.assign(testcase);
  call->ctx = ctx;
  if (ctx.host_handle != nullptr) {
    call->handle.attribution = static_cast<const CallHandle*>(ctx.host_handle)->attribution;
    call->ctx.host_handle = &call->handle;
  }
  const auto deadline = std::chrono::steady_clock::now() + *timeout_;
  if (call->ctx.deadline_unix_ms == 0) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    call->ctx.deadline_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now + *timeout_).count();
  }
  // The span offsets stay right: the copy has the same bytes.
  std::thread([call, instances = instances_] {
    void* instance = instances->acquire();
    krino_status status = instances->vtable.evaluate(instance, &call->ctx, call->testcase.data(), call->testcase.size(),
                                                     call->result.sink(), call->error.sink());
    instances->release(instance);
    std::lock_guard lock(call->mutex);
    call->status = status;
    call->finished = true;
    if (call->abandoned) instances->abandoned.fetch_sub(1);
    call->finished_signal.notify_all();
  }).detach();

  std::unique_lock lock(call->mutex);
  if (!call->finished_signal.wait_until(lock, deadline, [&] { return call->finished; })) {
    call->abandoned = true;
    instances_->abandoned.fetch_add(1);
    lock.unlock();
    keep_library_loaded(component_);
    return failure(KRINO_DEADLINE_EXCEEDED,
                   "did not finish within " + std::to_string(timeout_->count()) +
                       " ms (timeout_ms); krino stopped waiting, but the call goes on in its thread (code in this "
                       "process cannot be stopped; isolation: process runs the evaluator where it can be killed)");
  }
  if (call->status != KRINO_OK)
    return failure(call->status, call->error.text().empty() ? std::string() : call->error.message());
  return call->result.take();
}

}  // namespace krino::core
