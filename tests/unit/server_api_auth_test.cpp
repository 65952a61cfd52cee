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
  BOOST_TEST(this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"VIEWER","tenantId":"  "})", bearer(admin)).status() == 400u);
  BOOST_TEST(this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"VIEWER","tenantId":7})", bearer(admin)).status() == 400u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(tenants_see_their_own_rows_and_shared_ones_only, Backend, Backends, ServerFixture<Backend>) {
  const auto [root_id, root] = make_key(*this, "ADMIN");  // no tenant: sees everything
  auto tenant_key = [&](const std::string& tenant, const std::string& role) {
    const HttpResult made = this->call("POST", "/api/v1/api-keys", R"({"name":"k","role":")" + role + R"(","tenantId":")" + tenant + R"("})", bearer(root));
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    const auto object = krino::json::parse(made.body()).as_object();
    BOOST_TEST(object.at("tenantId").as_string() == tenant);
    return std::pair{std::string(object.at("id").as_string()), std::string(object.at("key").as_string())};
  };
  const auto [a_admin_id, a_admin] = tenant_key("tenant-a", "ADMIN");
  const auto [a_editor_id, a_editor] = tenant_key("tenant-a", "EDITOR");
  const auto [b_editor_id, b_editor] = tenant_key("tenant-b", "EDITOR");
  const auto [b_viewer_id, b_viewer] = tenant_key("tenant-b", "VIEWER");

  auto start = [&](const std::string& key, const std::string& project) {
    const HttpResult created = this->call("POST", "/api/v1/projects/" + project + "/runs", R"({"experimentName":"qa"})", bearer(key));
    BOOST_REQUIRE_EQUAL(created.status(), 201u);
    const auto object = krino::json::parse(created.body()).as_object();
    return std::pair{std::string(object.at("runId").as_string()), std::string(object.at("experimentId").as_string())};
  };
  const std::string items = R"({"items":[{"inputs":{"q":"1"},"success":true,"evalResults":[]}]})";
  const auto [a_run, a_experiment] = start(a_editor, "shop");
  const auto [b_run, b_experiment] = start(b_editor, "shop");
  const auto [shared_run, shared_experiment] = start(root, "shop");
  // Each tenant got its own "shop", and the unscoped key a shared one; a tenant writing into a
  // project that only exists shared joins it.
  BOOST_TEST(a_experiment != shared_experiment);
  BOOST_TEST(a_experiment != b_experiment);
  const auto [root_blog_run, root_blog_experiment] = start(root, "blog");
  const auto [a_blog_run, a_blog_experiment] = start(a_editor, "blog");
  BOOST_TEST(a_blog_experiment == root_blog_experiment);

  // Tenant B, with each of its keys, meets none of A's rows: every route answers as if they did not exist.
  for (const std::string& b_key : {b_editor, b_viewer}) {
    BOOST_TEST_CONTEXT("tenant B's " << (b_key == b_editor ? "EDITOR" : "VIEWER")) {
      BOOST_TEST(this->call("GET", "/api/v1/runs/" + a_run, "", bearer(b_key)).status() == 404u);
      BOOST_TEST(this->call("GET", "/api/v1/runs/" + a_blog_run, "", bearer(b_key)).status() == 404u);
      BOOST_TEST(this->call("GET", "/api/v1/experiments/" + a_experiment + "/runs", "", bearer(b_key)).status() == 404u);
      BOOST_TEST(this->call("GET", "/api/v1/experiments/" + a_experiment + "/trends", "", bearer(b_key)).status() == 404u);
      BOOST_TEST(this->call("GET", "/api/v1/runs/" + shared_run, "", bearer(b_key)).status() == 200u);
      BOOST_TEST(this->call("GET", "/api/v1/runs/" + b_run, "", bearer(b_key)).status() == 200u);
      const HttpResult blog_runs = this->call("GET", "/api/v1/experiments/" + root_blog_experiment + "/runs", "", bearer(b_key));
      BOOST_TEST(blog_runs.status() == 200u);
      BOOST_TEST(krino::json::parse(blog_runs.body()).as_array().size() == 1u);  // the shared run, not A's
      const std::string lists = this->call("GET", "/api/v1/projects", "", bearer(b_key)).body() +
                                this->call("GET", "/api/v1/projects/shop/experiments", "", bearer(b_key)).body() +
                                this->call("GET", "/api/v1/projects/blog/experiments", "", bearer(b_key)).body() +
                                this->call("GET", "/api/v1/experiments/" + root_blog_experiment + "/trends", "", bearer(b_key)).body();
      for (const std::string& hidden : {a_run, a_experiment, a_blog_run, std::string("tenant-a")})
        BOOST_TEST(lists.find(hidden) == std::string::npos, "tenant B's lists show " << hidden);
    }
  }
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + a_run + "/items", items, bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("PATCH", "/api/v1/runs/" + a_run, R"({"status":"FAILED"})", bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("DELETE", "/api/v1/runs/" + a_run, "", bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("DELETE", "/api/v1/experiments/" + a_experiment, "", bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + b_run + "/items", items, bearer(b_viewer)).status() == 403u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + b_run + "/items", items, bearer(b_editor)).status() == 201u);
  // B deleting "shop" deletes its own shop; A's is still there.
  BOOST_TEST(this->call("DELETE", "/api/v1/projects/shop", "", bearer(b_editor)).status() == 204u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + a_run, "", bearer(a_editor)).status() == 200u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + shared_run, "", bearer(a_editor)).status() == 200u);

  // The unscoped admin sees every tenant's rows; the tenant's own key sees its own.
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + a_run, "", bearer(root)).status() == 200u);
  BOOST_TEST(this->call("POST", "/api/v1/runs/" + a_run + "/items", items, bearer(a_editor)).status() == 201u);
  BOOST_TEST(krino::json::parse(this->call("GET", "/api/v1/projects", "", bearer(root)).body()).as_array().size() == 3u);

  // A tenant's admin manages its own tenant's keys only, and cannot make a key outside it.
  const HttpResult a_keys = this->call("GET", "/api/v1/api-keys", "", bearer(a_admin));
  BOOST_TEST(a_keys.status() == 200u);
  BOOST_TEST(krino::json::parse(a_keys.body()).as_array().size() == 2u);
  BOOST_TEST(a_keys.body().find(b_editor_id) == std::string::npos);
  BOOST_TEST(a_keys.body().find(root_id) == std::string::npos);
  BOOST_TEST(this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"ADMIN","tenantId":"tenant-b"})", bearer(a_admin)).status() == 403u);
  const HttpResult own = this->call("POST", "/api/v1/api-keys", R"({"name":"x","role":"VIEWER"})", bearer(a_admin));
  BOOST_TEST(own.status() == 201u);
  BOOST_TEST(krino::json::parse(own.body()).at("tenantId").as_string() == "tenant-a");
  BOOST_TEST(this->call("POST", "/api/v1/api-keys/" + b_viewer_id + "/disable", "", bearer(a_admin)).status() == 404u);
  BOOST_TEST(this->call("DELETE", "/api/v1/api-keys/" + root_id, "", bearer(a_admin)).status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + shared_run, "", bearer(b_viewer)).status() == 200u);  // still enabled
  BOOST_TEST(this->call("GET", "/api/v1/runs/" + b_run, "", bearer(b_viewer)).status() == 404u);      // went with its project
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
