// API keys over loopback HTTP on both backends: open until the first key, then 401 without a valid
// key for writes (reads stay open), 403 for a role too small, keys shown once and never listed,
// disabled and deleted keys refused; and the Authenticator's KRINO_API_KEY and --require-read-key.
#include "server_api_fixture.hpp"

using namespace krino::test;

namespace {

std::vector<std::pair<std::string, std::string>> bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

// Makes a key with `role` (the caller must be allowed to) and returns {id, key text}.
template <class Fixture>
std::pair<std::string, std::string> make_key(Fixture& f, const std::string& role, const std::string& admin_key = "") {
  const HttpResult made = f.call("POST", "/api/v1/api-keys", R"({"name":"ci )" + role + R"(","role":")" + role + R"("})",
                                 admin_key.empty() ? std::vector<std::pair<std::string, std::string>>{} : bearer(admin_key));
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  const auto object = krino::json::parse(made.body()).as_object();
  return {std::string(object.at("id").as_string()), std::string(object.at("key").as_string())};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_auth)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(keys_gate_writes_by_role_and_never_leak, Backend, Backends, ServerFixture<Backend>) {
  // Open: no key needed, and the first key can be made.
  const std::string open_run = this->new_run();
  const auto [admin_id, admin] = make_key(*this, "ADMIN");
  BOOST_TEST(admin.rfind("krino_", 0) == 0u);
  BOOST_TEST(admin.size() == 6u + 43u);
  const auto [viewer_id, viewer] = make_key(*this, "VIEWER", admin);
  const auto [editor_id, editor] = make_key(*this, "EDITOR", admin);

  // Now keys are in use.
  const std::string create = R"({"experimentName":"qa"})";
  const HttpResult anonymous = this->call("POST", "/api/v1/projects/shop/runs", create);
  BOOST_TEST(anonymous.status() == 401u);
  BOOST_TEST(anonymous.body().find("\"error\":\"unauthorized\"") != std::string::npos);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + open_run).status() == 200u);  // reads stay open
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + open_run, "", bearer("krino_wrong")).status() == 401u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/shop/runs", create, bearer(viewer)).status() == 403u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/shop/runs", create, bearer(editor)).status() == 201u);
  BOOST_TEST(this->call("GET", "/api/v1/api-keys", "", bearer(editor)).status() == 403u);
  BOOST_TEST(this->call("GET", "/api/v1/api-keys").status() == 401u);

  const HttpResult listed = this->call("GET", "/api/v1/api-keys", "", bearer(admin));
  BOOST_TEST(listed.status() == 200u);
  BOOST_TEST(krino::json::parse(listed.body()).as_array().size() == 3u);
  for (const std::string& secret : {admin, viewer, editor, server_api::key_hash(admin), server_api::key_hash(editor)})
    BOOST_TEST(listed.body().find(secret) == std::string::npos, "a key or its hash is listed");

  BOOST_TEST(this->call("POST", "/api/v1/api-keys/" + editor_id + "/disable", "", bearer(admin)).status() == 200u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/shop/runs", create, bearer(editor)).status() == 401u);
  BOOST_TEST(this->call("DELETE", "/api/v1/api-keys/" + viewer_id, "", bearer(admin)).status() == 204u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + open_run, "", bearer(viewer)).status() == 401u);
  BOOST_TEST(this->call("DELETE", "/api/v1/api-keys/" + viewer_id, "", bearer(admin)).status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"OWNER"})", bearer(admin)).status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"VIEWER","tenantId":"t1"})", bearer(admin)).status() == 400u);
}

BOOST_AUTO_TEST_CASE(the_environment_key_is_an_admin_and_turns_keys_on) {
  krino::test::ScratchDirectory scratch;
  store::SqliteStore store(scratch / "krino.db");
  server_api::AuthOptions options;
  options.legacy_key = "s3cret-from-the-environment";
  const server_api::Authenticator auth(store, options);
  http_server::BeastRequest message(boost::beast::http::verb::post, "/api/v1/projects/p/runs", 11);
  const http_server::Request anonymous{message, "/api/v1/projects/p/runs", {}, {}};
  BOOST_TEST(std::holds_alternative<http_server::Response>(auth.check(anonymous, server_api::Access::write)));
  message.set(boost::beast::http::field::authorization, "Bearer s3cret-from-the-environment");
  const http_server::Request with_key{message, "/api/v1/projects/p/runs", {}, {}};
  const auto checked = auth.check(with_key, server_api::Access::admin);
  BOOST_REQUIRE(std::holds_alternative<server_api::Principal>(checked));
  BOOST_TEST((std::get<server_api::Principal>(checked).role == store::Role::admin));
  BOOST_TEST(!std::get<server_api::Principal>(checked).tenant);
}

BOOST_AUTO_TEST_CASE(require_read_key_closes_reads_once_keys_are_in_use) {
  krino::test::ScratchDirectory scratch;
  store::SqliteStore store(scratch / "krino.db");
  server_api::AuthOptions options;
  options.require_read_key = true;
  const server_api::Authenticator auth(store, options);
  http_server::BeastRequest message(boost::beast::http::verb::get, "/api/v1/projects", 11);
  const http_server::Request read{message, "/api/v1/projects", {}, {}};
  BOOST_TEST(std::holds_alternative<server_api::Principal>(auth.check(read, server_api::Access::read)));  // no key yet: open
  store.create_key("k", store::Role::viewer, std::nullopt, server_api::key_hash("krino_x"));
  BOOST_TEST(std::holds_alternative<http_server::Response>(auth.check(read, server_api::Access::read)));
}

BOOST_AUTO_TEST_CASE(new_keys_are_distinct_base64url) {
  const std::string a = server_api::new_key_text();
  const std::string b = server_api::new_key_text();
  BOOST_TEST(a != b);
  BOOST_TEST(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 6) == std::string::npos);
  BOOST_TEST(server_api::key_hash(a).size() == 64u);
}

BOOST_AUTO_TEST_SUITE_END()
