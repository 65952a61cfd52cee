#pragma once
// What the store keeps for the server judge: LLM connections (a tenant's named model endpoints) and
// judge jobs (one run scored by one evaluator through one connection, split into pages that are
// jobs of the generic queue, job_types.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store {

// A connection as written. Exactly one of credential_ref (an environment variable's name, read
// when a call is made) and api_key_sealed (an inline key, sealed by server::SecretBox: never the
// key) is set, or neither for a local server that wants no key.
struct NewLlmConnection {
  std::string name;
  std::string provider = "openai";  // ProviderKind's names: openai, openai_responses, anthropic
  std::string base_url;
  std::string model;
  std::optional<std::string> credential_ref = std::nullopt;
  std::optional<std::string> api_key_sealed = std::nullopt;
  std::int64_t max_concurrency = 8;
  std::int64_t timeout_ms = 60000;
  std::int64_t max_retries = 2;
  std::optional<std::int64_t> requests_per_minute = std::nullopt;
};

struct LlmConnection : NewLlmConnection {
  std::string id;
  std::optional<std::string> tenant;
  std::string created_at;
  std::string updated_at;
};

enum class JudgeJobStatus { queued, running, succeeded, failed };
std::string_view judge_job_status_name(JudgeJobStatus status);  // "QUEUED", "RUNNING", "SUCCEEDED", "FAILED"

struct NewJudgeJob {
  std::string connection_id;
  std::string evaluator_name;
  std::string config;           // the evaluator's settings, JSON text as the API validated it
  std::int64_t page_size = 50;  // items a page job scores and writes in one transaction
  std::int64_t max_attempts = 3;  // claims of one page before it is given up (its items become errors)
};

struct JudgeJob {
  std::string id;
  std::string run_id;
  std::optional<std::string> tenant;
  std::string connection_id;
  std::string evaluator_name;
  std::string config;
  std::string status;           // QUEUED, RUNNING, SUCCEEDED (every item judged, some maybe as errors), FAILED
  std::string previous_status;  // the run's status before EVALUATING, which it returns to
  std::int64_t items_total = 0;
  std::int64_t items_scored = 0;
  std::int64_t items_failed = 0;  // items whose judgment is an error
  std::int64_t pages_total = 0;
  std::int64_t pages_done = 0;
  std::string created_at;
  std::optional<std::string> finished_at;
};

// A judge job's page in the job queue: kind "judge_page", payload
// {"judgeJobId", "runId", "fromSeq", "toSeq"} (the items at positions fromSeq..toSeq, inclusive).
inline constexpr std::string_view kJudgePageKind = "judge_page";
std::string judge_page_payload(const std::string& judge_job_id, const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq);

// One item's judgment: a score on 0..1 with its pass/fail and reason, or an error with its cause.
struct JudgeVerdict {
  std::string item_id;
  std::int64_t seq = 0;
  std::optional<double> score = std::nullopt;
  bool success = false;
  std::optional<double> threshold = std::nullopt;
  std::optional<std::string> reason = std::nullopt;
  std::optional<std::string> error = std::nullopt;  // set: no score, the item's judgment failed for this cause
  std::optional<double> cost_usd = std::nullopt;    // what the model call cost, when its price is known
};

// A run item as the judge reads it.
struct JudgeItem {
  std::string id;
  std::int64_t seq = 0;
  std::string document;
};

// For agreement: one item's judge verdict by one evaluator, and one reviewer's annotation.
struct ItemVerdict {
  std::string item_id;
  std::string evaluator;
  bool success = false;
};
struct ItemAnnotation {
  std::string item_id;
  std::string principal;
  std::string verdict;  // CORRECT, INCORRECT, UNSURE
  std::int64_t revision = 0;
};
struct AgreementInput {
  std::vector<ItemVerdict> verdicts;       // of annotated items only
  std::vector<ItemAnnotation> annotations;  // every annotation of the run
};

}  // namespace krino::core::store
