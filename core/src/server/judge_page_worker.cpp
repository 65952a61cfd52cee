#include "krino/core/server/judge_page_worker.hpp"

#include "krino/core/common/content_digest.hpp"
#include "krino/core/common/secret_box.hpp"
#include "krino/core/common/status_code.hpp"
#include "krino/core/llm/llm_client.hpp"
#include "krino/core/net/url.hpp"
#include "krino/core/server_api/judge_evaluator.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

namespace krino::core::server {

namespace {

struct PagePayload {
  std::string judge_job_id;
  std::string run_id;
  std::int64_t from_seq = 0;
  std::int64_t to_seq = -1;
};

PagePayload read_payload(const std::string& payload) {
  const boost::json::value value = krino::json::parse(payload);
  const boost::json::object& object = value.as_object();
  return PagePayload{std::string(object.at("judgeJobId").as_string()), std::string(object.at("runId").as_string()),
                     object.at("fromSeq").to_number<std::int64_t>(), object.at("toSeq").to_number<std::int64_t>()};
}

ProviderKind provider_kind(const std::string& name) {
  if (name == "openai_responses") return ProviderKind::openai_responses;
  if (name == "anthropic") return ProviderKind::anthropic;
  return ProviderKind::openai;
}

std::vector<store::JudgeVerdict> all_failed(const std::vector<store::JudgeItem>& items, const std::string& cause) {
  std::vector<store::JudgeVerdict> verdicts;
  for (const store::JudgeItem& item : items) {
    store::JudgeVerdict verdict;
    verdict.item_id = item.id;
    verdict.seq = item.seq;
    verdict.error = cause;
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

// The connection's key, or why it cannot be had; never the key in a message.
struct ResolvedKey {
  std::string key;
  std::string problem;
};

ResolvedKey resolve_key(const store::LlmConnection& connection, const EnvironmentLookup& environment) {
  if (connection.credential_ref) {
    const auto value = environment(*connection.credential_ref);
    if (!value || value->empty())
      return {{}, "the environment variable " + *connection.credential_ref + " that LLM connection '" + connection.name +
                      "' names is not set on this server"};
    return {*value, {}};
  }
  if (connection.api_key_sealed) {
    try {
      const auto box = SecretBox::from_environment(environment);
      if (!box)
        return {{}, "LLM connection '" + connection.name + "' has an inline key, and KRINO_ENCRYPTION_KEY is not set on this server to open it"};
      return {box->open(*connection.api_key_sealed), {}};
    } catch (const SecretBoxError& error) {
      return {{}, "LLM connection '" + connection.name + "': " + error.what()};
    }
  }
  return {{}, {}};
}

}  // namespace

JudgePageWorker::JudgePageWorker(store::Store& store, IoService& io, JudgeWorkerOptions options)
    : store_(store), io_(io), options_(std::move(options)) {}

JudgePageWorker::~JudgePageWorker() = default;

std::shared_ptr<LlmClient> JudgePageWorker::client_for(const store::LlmConnection& connection, const std::string& key) {
  // The key's digest, not the key, names the client: a rotated key gets a new one.
  const std::string name = connection.id + "@" + connection.updated_at + "#" + sha256_hex(key);
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = clients_.find(name); found != clients_.end()) return found->second;
  LlmConfig config;
  config.name = connection.name;
  config.provider = provider_kind(connection.provider);
  config.base_url = parse_url(connection.base_url);
  config.model = connection.model;
  config.api_key = ApiKey(key);
  config.timeout_ms = connection.timeout_ms;
  config.max_concurrency = connection.max_concurrency;
  config.requests_per_minute = connection.requests_per_minute;
  config.max_retries = connection.max_retries;
  config.call_budget_ms = std::max<std::int64_t>(300000, connection.timeout_ms);
  LlmClientOptions options;
  options.models.push_back(std::move(config));
  options.extra_ca_pem = options_.extra_ca_pem;
  options.retry = options_.retry;
  auto client = std::make_shared<LlmClient>(io_, std::move(options));
  clients_[name] = client;
  return client;
}

void JudgePageWorker::operator()(const store::ClaimedJob& job, const Cancellation& lost) {
  const PagePayload page = read_payload(job.payload);
  const auto judge = store_.judge_job(page.judge_job_id);
  if (!judge) {  // the run was deleted with its judge jobs
    store_.complete_job(job.id, job.lease_token);
    return;
  }
  const std::vector<store::JudgeItem> items = store_.judge_items(page.run_id, page.from_seq, page.to_seq);
  auto write = [&](const std::vector<store::JudgeVerdict>& verdicts) {
    if (lost.requested() || !store_.record_judge_page(job.id, job.lease_token, judge->id, verdicts)) {
      ++pages_lost_;  // another replica has the page now; its judgments are the ones kept
      return;
    }
    ++pages_written_;
    for (const store::JudgeVerdict& verdict : verdicts) ++(verdict.error ? items_failed_ : items_scored_);
  };
  if (job.exhausted) {
    write(all_failed(items, "not judged: the page was given up after " + std::to_string(job.max_attempts) + " attempts (last: " +
                                job.last_error.value_or("no reason recorded") + ")"));
    return;
  }
  const server_api::JudgeEvaluator evaluator = server_api::judge_evaluator_from_json(judge->config);
  std::vector<std::string> documents;
  std::vector<std::uint64_t> seeds;  // the item's position: a run judged again asks the same
  for (const store::JudgeItem& item : items) {
    documents.push_back(item.document);
    seeds.push_back(static_cast<std::uint64_t>(item.seq));
  }
  Judgment judgment = this->judge(judge->tenant, judge->connection_id, evaluator, documents, seeds, lost);
  if (!judgment.unusable.empty()) {
    write(all_failed(items, "not judged: " + judgment.unusable));
    return;
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    judgment.verdicts[i].item_id = items[i].id;
    judgment.verdicts[i].seq = items[i].seq;
  }
  write(judgment.verdicts);
}

JudgePageWorker::Judgment JudgePageWorker::judge(const std::optional<std::string>& tenant, const std::string& connection_id,
                                                 const server_api::JudgeEvaluator& evaluator, const std::vector<std::string>& documents,
                                                 const std::vector<std::uint64_t>& seeds, const Cancellation& lost) {
  Judgment judgment;
  const auto connection = store_.llm_connection(store::Scope{tenant}, connection_id);
  if (!connection) {
    judgment.unusable = "LLM connection " + connection_id + " no longer exists";
    return judgment;
  }
  const ResolvedKey key = resolve_key(*connection, options_.environment);
  if (!key.problem.empty()) {
    judgment.unusable = key.problem;
    return judgment;
  }
  std::shared_ptr<LlmClient> client;
  try {
    client = client_for(*connection, key.key);
  } catch (const std::exception& error) {
    judgment.unusable = std::string("LLM connection '") + connection->name + "' is unusable: " + error.what();
    return judgment;
  }

  std::vector<store::JudgeVerdict>& verdicts = judgment.verdicts;
  verdicts.resize(documents.size());
  // Every call at once: each suspends its task while in flight (the client's concurrency window
  // and rate limits decide how many reach the model), so two threads carry them all.
  tbb::task_arena arena(2);
  arena.execute([&] {
    tbb::task_group group;
    for (std::size_t i = 0; i < documents.size(); ++i) {
      group.run([&, i] {
        store::JudgeVerdict& verdict = verdicts[i];
        verdict.threshold = evaluator.threshold;
        const auto prompt = server_api::judge_prompt(evaluator, documents[i]);
        if (!server_api::is_prompt(prompt)) {
          verdict.error = "not judged: " + std::get<1>(prompt);
          return;
        }
        boost::json::object request;
        request["messages"] = boost::json::array{boost::json::object{{"role", "user"}, {"content", std::get<0>(prompt)}}};
        request["response_format"] = "json";
        const LlmCallOutcome outcome = client->call(boost::json::serialize(request), i < seeds.size() ? seeds[i] : i, &lost);
        verdict.cost_usd = outcome.record.cost_usd;
        if (outcome.status != KRINO_OK) {
          verdict.error = "the judge call failed (" + std::string(status_code_name(outcome.status)) + "): " + outcome.text;
          return;
        }
        boost::json::error_code ec;
        const boost::json::value response = krino::json::parse(outcome.text, ec);
        const auto* content = !ec && response.is_object() ? response.get_object().if_contains("content") : nullptr;
        if (content == nullptr || !content->is_string()) {
          verdict.error = "the judge's response has no content";
          return;
        }
        const server_api::JudgeReading reading = server_api::read_judge_reply(evaluator, content->get_string());
        if (!reading.score) {
          verdict.error = reading.reason;
          return;
        }
        verdict.score = reading.score;
        verdict.success = *reading.score >= evaluator.threshold;
        verdict.reason = reading.reason;
      });
    }
    group.wait();
  });
  return judgment;
}

std::string JudgePageWorker::metrics_text() const {
  std::string out;
  out.append("# HELP krino_judge_items_total Run items the server judge wrote on this server, scored or as errors.\n");
  out.append("# TYPE krino_judge_items_total counter\n");
  out.append("krino_judge_items_total{outcome=\"scored\"} ").append(std::to_string(items_scored_.load())).append("\n");
  out.append("krino_judge_items_total{outcome=\"error\"} ").append(std::to_string(items_failed_.load())).append("\n");
  out.append("# HELP krino_judge_pages_total Judge pages this server judged, by whether it still held them to write.\n");
  out.append("# TYPE krino_judge_pages_total counter\n");
  out.append("krino_judge_pages_total{outcome=\"written\"} ").append(std::to_string(pages_written_.load())).append("\n");
  out.append("krino_judge_pages_total{outcome=\"lost\"} ").append(std::to_string(pages_lost_.load())).append("\n");
  return out;
}

}  // namespace krino::core::server
