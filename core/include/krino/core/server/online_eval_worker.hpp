#pragma once
// The handler of "online_eval" jobs (store/online_eval_types.hpp): scores one match of a trace eval
// rule with the server judge's call path (JudgePageWorker::judge: the same connection resolution,
// sealed keys included, the same LLM client, retries and error causes), then writes the evaluation
// and completes the job in one transaction fenced by its lease (Store::record_online_evaluation).
//   - TRACE rule: the trace's root input and output (the fields derived at ingestion);
//   - SPAN rule: that span's.
// The judge sees them as a run item's `inputs.input` and `actualOutputs.output`: evaluationParams
// INPUT and ACTUAL_OUTPUT (the default) apply; a field the trace or span lacks makes the
// evaluation an error saying which. A rule deleted before its job runs is not evaluated; a job
// whose attempts are spent (its workers kept dying) is written as an error naming the last cause.
#include "krino/core/server/judge_page_worker.hpp"
#include "krino/core/server_api/trace_eval_matcher.hpp"
#include "krino/core/store/store.hpp"

#include <functional>

namespace krino::core::server {

class OnlineEvalWorker {
 public:
  // `store`, `judge` and `counters` must outlive the worker. `now_ms` stamps judgedAtMs (empty:
  // the system clock).
  OnlineEvalWorker(store::Store& store, JudgePageWorker& judge, server_api::OnlineEvalCounters& counters,
                   std::function<std::int64_t()> now_ms = {});

  // The JobHandler of kOnlineEvalKind.
  void operator()(const store::ClaimedJob& job, const Cancellation& lost);

 private:
  store::Store& store_;
  JudgePageWorker& judge_;
  server_api::OnlineEvalCounters& counters_;
  std::function<std::int64_t()> now_ms_;
};

}  // namespace krino::core::server
