// A scripted LLM judge for plugin tests: a krino_host whose judge() records each request and
// answers from a script (a reply text wrapped in a krino.judgeresponse/1 document, or a failure
// status). Shared by the judge and agent plugin tests; no network, no host.
#ifndef KRINO_TESTS_SUPPORT_SCRIPTED_JUDGE_HOST_HPP
#define KRINO_TESTS_SUPPORT_SCRIPTED_JUDGE_HOST_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace krino::test {

class ScriptedJudge {
 public:
  ScriptedJudge() {
    host_.struct_size = sizeof(krino_host);
    host_.host_data = this;
    host_.judge = &ScriptedJudge::judge;
  }
  ScriptedJudge(const ScriptedJudge&) = delete;
  ScriptedJudge& operator=(const ScriptedJudge&) = delete;

  // The next call answers with `content` as the reply text.
  ScriptedJudge& reply(std::string content) {
    script_.push_back({KRINO_OK, std::move(content)});
    return *this;
  }
  // The next call fails with `status` and `message`.
  ScriptedJudge& fail(krino_status status, std::string message) {
    script_.push_back({status, std::move(message)});
    return *this;
  }

  const krino_host* host() const { return &host_; }
  std::size_t calls() const { return requests_.size(); }
  boost::json::object request(std::size_t i = 0) const { return boost::json::parse(requests_.at(i)).as_object(); }
  // The one user message of request i.
  std::string prompt(std::size_t i = 0) const {
    const boost::json::object whole = request(i);
    const boost::json::array& messages = whole.at("messages").as_array();
    BOOST_TEST_REQUIRE(messages.size() == 1u);
    BOOST_TEST(messages[0].at("role").as_string() == "user");
    return std::string(messages[0].at("content").as_string());
  }

 private:
  struct Step {
    krino_status status;
    std::string text;
  };

  static krino_status judge(const krino_host* host, const krino_call_context*, const char* request, size_t size,
                            krino_sink* response, krino_sink* error) {
    auto* self = static_cast<ScriptedJudge*>(host->host_data);
    self->requests_.emplace_back(request, size);
    if (self->script_.empty()) {
      krino::write(error, "the scripted judge has no reply left");
      return KRINO_INTERNAL;
    }
    Step step = std::move(self->script_.front());
    self->script_.pop_front();
    if (step.status != KRINO_OK) {
      krino::write(error, step.text);
      return step.status;
    }
    const boost::json::object document{{"content", step.text},
                                       {"model", "scripted-judge"},
                                       {"usage", {{"tokensIn", 10}, {"tokensOut", 5}}},
                                       {"costUsd", nullptr},
                                       {"cached", false}};
    krino::write(response, boost::json::serialize(document));
    return KRINO_OK;
  }

  krino_host host_{};
  std::deque<Step> script_;
  std::vector<std::string> requests_;
};

}  // namespace krino::test

#endif  // KRINO_TESTS_SUPPORT_SCRIPTED_JUDGE_HOST_HPP
