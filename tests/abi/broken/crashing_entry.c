/*
 * Plugins whose entry point never returns a descriptor: it segfaults (ENTRY_SEGFAULT), aborts
 * (ENTRY_ABORT) or loops for ever (ENTRY_LOOP). Loaded in krino's process, any of them ends the
 * command that scans its folder; discovery probes libraries in krino-plugin-host first, so each is
 * named with its signal or the time limit and skipped (issue 19). They live apart from the other
 * broken plugins (KRINO_CRASHING_PLUGIN_DIR), whose folders the loader tests load in process.
 */
#include "broken_common.h"

#include <stdlib.h>

#if defined(ENTRY_SEGFAULT)
#define PLUGIN_NAME "entry_segfault"
#elif defined(ENTRY_ABORT)
#define PLUGIN_NAME "entry_abort"
#elif defined(ENTRY_LOOP)
#define PLUGIN_NAME "entry_loop"
#else
#error "say which behaviour"
#endif

KRINO_EXPORT const krino_plugin_descriptor *krino_plugin_entry(const krino_host_info *host, krino_sink *error) {
  (void)host;
  (void)error;
#if defined(ENTRY_SEGFAULT)
  {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#elif defined(ENTRY_ABORT)
  abort();
#elif defined(ENTRY_LOOP)
  {
    volatile unsigned long spin = 0;
    for (;;) ++spin;
  }
#endif
  return NULL;
}
