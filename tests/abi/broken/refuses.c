/*
 * Refuses to load: the entry returns NULL with a reason in the error sink, as a plugin does when
 * the host lacks something it needs. The host must name the plugin and show the reason verbatim:
 *   "this host lacks the extension test.never/1"
 */
#include "broken_common.h"

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  broken_write(error, "this host lacks the extension test.never/1");
  return NULL;
}
