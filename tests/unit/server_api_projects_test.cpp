// The results server's lists and deletes over loopback HTTP, on SQLite and on PostgreSQL: projects,
// a project's experiments with their newest run, an experiment's runs and trend, and deletes that
// take everything below with them.
#include "server_api_fixture.hpp"

using namespace krino::test;

namespace {

boost::json::value json_of(const HttpResult& result) { return krino::json::parse(result.body()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_projects)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(lists_show_what_was_reported, Backend, Backends, ServerFixture<Backend>) {
  const std::string first = this->new_run();
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + first + "/items", R"({"items":[{"success":true},{"success":false}]})").status() == 201u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + first, R"({"status":"SUCCESS"})").status() == 200u);
  const std::string second = this->new_run();

  const auto projects = json_of(this->call("GET", "/api/v1/projects")).as_array();
  BOOST_REQUIRE(projects.size() == 1u);
  BOOST_TEST(projects[0].at("name").as_string() == "shop");
  BOOST_TEST(projects[0].at("experimentCount").as_int64() == 1);

  const auto experiments = json_of(this->call("GET", "/api/v1/projects/shop/experiments")).as_array();
  BOOST_REQUIRE(experiments.size() == 1u);
  BOOST_TEST(experiments[0].at("latestRun").at("runId").as_string() == second);
  BOOST_TEST(experiments[0].at("latestRun").at("passRate").is_null());  // no items yet
  const std::string experiment(experiments[0].at("id").as_string());
  BOOST_TEST(this->call("GET", "/api/v1/projects/nobody/experiments").status() == 404u);

  const auto runs = json_of(this->call("GET", "/api/v1/experiments/" + experiment + "/runs")).as_array();
  BOOST_REQUIRE(runs.size() == 2u);
  BOOST_TEST(runs[0].at("id").as_string() == second);
  BOOST_TEST(runs[1].at("itemCount").as_int64() == 2);
  BOOST_TEST(runs[1].at("passRate").as_double() == 0.5);
  BOOST_TEST(runs[1].at("status").as_string() == "SUCCESS");
  BOOST_TEST(json_of(this->call("GET", "/api/v1/experiments/" + experiment + "/runs?limit=1")).as_array().size() == 1u);
  BOOST_TEST(this->call("GET", "/api/v1/experiments/" + experiment + "/runs?limit=0").status() == 400u);
  BOOST_TEST(this->call("GET", "/api/v1/experiments/0190a0b0-c0d0-7000-8000-000000000000/runs").status() == 404u);

  const auto trend = json_of(this->call("GET", "/api/v1/experiments/" + experiment + "/trends?limit=20")).as_object();
  BOOST_TEST(trend.at("experimentName").as_string() == "qa");
  BOOST_TEST(trend.at("projectName").as_string() == "shop");
  const auto& points = trend.at("runs").as_array();
  BOOST_REQUIRE(points.size() == 2u);
  BOOST_TEST(points[0].at("runId").as_string() == first);  // oldest first
  BOOST_TEST(points[0].at("totalItems").as_int64() == 2);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(deletes_answer_204_then_404, Backend, Backends, ServerFixture<Backend>) {
  const std::string run = this->new_run();
  const auto experiments = json_of(this->call("GET", "/api/v1/projects/shop/experiments")).as_array();
  const std::string experiment(experiments[0].at("id").as_string());
  BOOST_TEST(this->call("DELETE", "/api/v1/runs/" + run).status() == 204u);
  BOOST_TEST(this->call("DELETE", "/api/v1/runs/" + run).status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + run).status() == 404u);
  BOOST_TEST(this->call("DELETE", "/api/v1/experiments/" + experiment).status() == 204u);
  BOOST_TEST(this->call("DELETE", "/api/v1/experiments/not-an-id").status() == 404u);
  BOOST_TEST(this->call("DELETE", "/api/v1/projects/shop").status() == 204u);
  BOOST_TEST(this->call("DELETE", "/api/v1/projects/shop").status() == 404u);
  BOOST_TEST(json_of(this->call("GET", "/api/v1/projects")).as_array().empty());
}

BOOST_AUTO_TEST_SUITE_END()
