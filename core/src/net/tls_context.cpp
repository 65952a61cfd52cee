#include "client_state.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/system/system_error.hpp>

#include <openssl/ssl.h>

#include <stdexcept>

namespace krino::core::http_detail {

boost::asio::ssl::context make_tls_context(const std::string& extra_ca_pem) {
  namespace ssl = boost::asio::ssl;
  ssl::context context(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  boost::system::error_code error;
  // A system without a CA bundle still works for plain HTTP and for extra_ca_pem; HTTPS to public
  // providers then fails verification with a clear message rather than here.
  context.set_default_verify_paths(error);
  if (!extra_ca_pem.empty()) {
    context.add_certificate_authority(boost::asio::buffer(extra_ca_pem), error);
    if (error) throw std::invalid_argument("extra_ca_pem: no PEM certificate could be read (" + error.message() + ")");
  }
  context.set_verify_mode(ssl::verify_peer);
  return context;
}

}  // namespace krino::core::http_detail
