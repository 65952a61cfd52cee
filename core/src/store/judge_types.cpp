#include "krino/core/store/judge_types.hpp"

namespace krino::core::store {

std::string_view judge_job_status_name(JudgeJobStatus status) {
  switch (status) {
    case JudgeJobStatus::queued:
      return "QUEUED";
    case JudgeJobStatus::running:
      return "RUNNING";
    case JudgeJobStatus::succeeded:
      return "SUCCEEDED";
    case JudgeJobStatus::failed:
      return "FAILED";
  }
  return "QUEUED";
}

std::string judge_page_payload(const std::string& judge_job_id, const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq) {
  // Ids are UUIDs: no character to escape.
  std::string out = "{\"judgeJobId\":\"";
  out.append(judge_job_id).append("\",\"runId\":\"").append(run_id).append("\",\"fromSeq\":");
  out.append(std::to_string(from_seq)).append(",\"toSeq\":").append(std::to_string(to_seq)).append("}");
  return out;
}

}  // namespace krino::core::store
