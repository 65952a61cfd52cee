/*
 * Broken: exports no krino_plugin_entry. The library loads, but its only exported function has
 * another name (a plausible mistake). The host must name the missing symbol.
 */
#include "broken_common.h"

__attribute__((visibility("default"))) const krino_plugin_descriptor *krino_plugin_main(const krino_host_info *host,
                                                                                       krino_sink *error);

const krino_plugin_descriptor *krino_plugin_main(const krino_host_info *host, krino_sink *error) {
  (void)host;
  broken_write(error, "wrong entry name");
  return NULL;
}
