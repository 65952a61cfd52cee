// HTTPS in the judge's HTTP client against a real TLS server in this process, with a self-signed
// certificate made at test time: an untrusted certificate and a certificate for another host name
// must both be refused; trusting it through extra_ca_pem must make the same call succeed.
#include "krino/core/net/http_client.hpp"

#include "llm_test_support.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/test/unit_test.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <memory>
#include <thread>

using namespace krino::core;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

struct Credentials {
  std::string certificate_pem;
  std::string private_key_pem;
};

std::string to_pem(const std::function<int(BIO*)>& write) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  BOOST_REQUIRE(write(bio.get()) == 1);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// A self-signed P-256 certificate valid for the DNS name "localhost" only.
Credentials make_self_signed_localhost() {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  BOOST_REQUIRE(key);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, cert.get(), cert.get(), nullptr, nullptr, 0);
  for (auto [nid, value] : {std::pair{NID_subject_alt_name, "DNS:localhost"}, std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
    BOOST_REQUIRE(extension != nullptr);
    X509_add_ext(cert.get(), extension, -1);
    X509_EXTENSION_free(extension);
  }
  BOOST_REQUIRE(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0);
  return {to_pem([&](BIO* bio) { return PEM_write_bio_X509(bio, cert.get()); }),
          to_pem([&](BIO* bio) { return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr); })};
}

// Serves HTTPS on 127.0.0.1 from a thread of its own, one connection at a time, keep-alive.
class TlsServer {
 public:
  explicit TlsServer(const Credentials& credentials) : tls_(asio::ssl::context::tls_server) {
    tls_.use_certificate_chain(asio::buffer(credentials.certificate_pem));
    tls_.use_private_key(asio::buffer(credentials.private_key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { serve(); });
  }
  ~TlsServer() {
    stopping_ = true;
    asio::io_context io;
    asio::ip::tcp::socket wake(io);
    boost::system::error_code ignored;
    wake.connect({asio::ip::make_address("127.0.0.1"), port_}, ignored);
    thread_.join();
  }
  std::uint16_t port() const { return port_; }
  int served() const { return served_; }

 private:
  void serve() {
    while (!stopping_) {
      asio::ip::tcp::socket socket(io_);
      boost::system::error_code error;
      acceptor_.accept(socket, error);
      if (error || stopping_) continue;
      beast::ssl_stream<asio::ip::tcp::socket> stream(std::move(socket), tls_);
      stream.handshake(asio::ssl::stream_base::server, error);
      if (error) continue;  // the client refused our certificate
      beast::flat_buffer buffer;
      for (;;) {
        http::request<http::string_body> request;
        http::read(stream, buffer, request, error);
        if (error) break;
        http::response<http::string_body> response(http::status::ok, 11);
        response.set(http::field::content_type, "application/json");
        response.body() = R"({"echo":)" + std::to_string(request.body().size()) + "}";
        response.keep_alive(true);
        response.prepare_payload();
        ++served_;  // before the write: the client may check the count as soon as it has read the answer
        http::write(stream, response, error);
        if (error) break;
      }
    }
  }

  asio::io_context io_;
  asio::ssl::context tls_;
  asio::ip::tcp::acceptor acceptor_{io_};
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> served_{0};
  std::thread thread_;
};

Url tls_url(const std::string& host, std::uint16_t port) {
  return parse_url("https://" + host + ":" + std::to_string(port) + "/v1/chat/completions");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_tls)

BOOST_AUTO_TEST_CASE(an_untrusted_certificate_is_refused) {
  TlsServer server(make_self_signed_localhost());
  asio::io_context io;
  HttpClient client(io);
  BOOST_TEST(!client.tls_ready());  // made at the first https:// connection
  auto result = test::post_and_wait(io, client, tls_url("localhost", server.port()), "{}");
  BOOST_TEST((result.outcome == HttpOutcome::connection_error));
  BOOST_TEST(result.error.find("TLS handshake with https://localhost:") != std::string::npos, result.error);
  BOOST_TEST(result.error.find("certificate verify failed") != std::string::npos, result.error);
  BOOST_TEST(server.served() == 0);
  BOOST_TEST(client.tls_ready());
}

BOOST_AUTO_TEST_CASE(a_trusted_certificate_works_and_the_connection_is_kept) {
  auto credentials = make_self_signed_localhost();
  TlsServer server(credentials);
  asio::io_context io;
  HttpClient client(io, {.extra_ca_pem = credentials.certificate_pem});
  for (int i = 0; i < 3; ++i) {
    auto result = test::post_and_wait(io, client, tls_url("localhost", server.port()), "{\"x\":1}");
    BOOST_TEST_REQUIRE((result.outcome == HttpOutcome::response), result.error);
    BOOST_TEST(result.response.status == 200u);
    BOOST_TEST(result.response.body == R"({"echo":7})");
    BOOST_TEST(*result.response.header("content-type") == "application/json");
  }
  BOOST_TEST(client.connections_opened() == 1u);
  BOOST_TEST(server.served() == 3);
}

BOOST_AUTO_TEST_CASE(a_trusted_certificate_for_another_host_name_is_refused) {
  auto credentials = make_self_signed_localhost();
  TlsServer server(credentials);
  asio::io_context io;
  HttpClient client(io, {.extra_ca_pem = credentials.certificate_pem});
  auto result = test::post_and_wait(io, client, tls_url("127.0.0.1", server.port()), "{}");  // the certificate names localhost only
  BOOST_TEST((result.outcome == HttpOutcome::connection_error));
  BOOST_TEST(result.error.find("certificate verify failed") != std::string::npos, result.error);
}

BOOST_AUTO_TEST_CASE(unreadable_extra_ca_pem_is_refused) {
  asio::io_context io;
  BOOST_CHECK_THROW(HttpClient(io, {.extra_ca_pem = "not a certificate"}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_readable_extra_ca_pem_makes_the_context_at_once) {
  asio::io_context io;
  HttpClient client(io, {.extra_ca_pem = make_self_signed_localhost().certificate_pem});
  BOOST_TEST(client.tls_ready());
}

BOOST_AUTO_TEST_SUITE_END()
