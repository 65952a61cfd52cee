#include "commands.hpp"
#include "exit_codes.hpp"
#include "signal_watcher.hpp"

#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_http.hpp"
#include "krino/core/runner/file_upload.hpp"

#include <cstdio>

namespace krino::cli {

int upload_command(const UploadArguments& args) {
  core::Cancellation cancellation;
  SignalWatcher watcher(cancellation);
  core::HostServices host(cancellation, stderr, args.plugins.verbosity > 0 ? KRINO_LOG_INFO : KRINO_LOG_WARNING);
  // Declared before the registry: the reporter's requests must end before the client goes.
  core::IoService io;
  core::HostHttp http(io.context());
  host.set_http(&http);
  core::PluginRegistry registry;
  args.plugins.load(registry, host);

  core::UploadRequest request;
  request.path = args.file;
  request.server = args.server;
  request.project = args.project;
  request.experiment = args.experiment;
  request.api_key = args.api_key;
  request.allow_loss = args.allow_loss;
  // When items do not reach the server the reporter's error says where they are kept (exit 3).
  const core::UploadResult result = core::upload_file(registry, host, request);
  if (result.spool) {
    std::fprintf(stderr, "krino upload: every record was sent; '%s' is now '%s'\n", args.file.c_str(),
                 result.renamed_to.c_str());
  }
  return kSuccess;
}

}  // namespace krino::cli
