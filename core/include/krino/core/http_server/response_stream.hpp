#pragma once
// The body of a response written while it is produced (Server-Sent Events, docs/mcp.md). A handler
// that cannot answer at once calls Request::stream_response(), returns the head (status and
// headers) and hands the stream to whoever produces the body; the connection writes what arrives
// in order, with chunked transfer encoding, on its own strand. No handler thread waits meanwhile,
// so a body that takes minutes holds a connection, never a thread of the handler pool.
#include <functional>
#include <mutex>
#include <string>

namespace krino::core::http_server {

class ServerSession;

class ResponseStream {
 public:
  // Thread-safe. Queues `data` for the body; dropped after finish() or once the connection is gone.
  void write(std::string data);
  // Thread-safe; the last call (later ones do nothing). The body ends after what was queued.
  void finish();
  // True once the connection failed or closed: nothing written reaches the client any more.
  bool closed() const;

 private:
  friend class ServerSession;
  // The connection's side, on its strand: `wake` is called (from the producer's thread) whenever
  // data or the end arrives; take() moves everything queued out and says whether the end came.
  void attach(std::function<void()> wake);
  bool take(std::string& data);
  // After the body's end: wakes no more (the wake holds the connection).
  void detach();
  // The connection failed or closed: drops what is queued and all later writes.
  void mark_closed();

  mutable std::mutex mutex_;
  std::string pending_;
  bool finished_ = false;
  bool closed_ = false;
  std::function<void()> wake_;
};

}  // namespace krino::core::http_server
