# Warning flags for every krino target (not for third-party code built against the SDK).
add_library(krino_warnings INTERFACE)
target_compile_options(krino_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wunused -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Woverloaded-virtual>
  # GCC 12 at -O2 reports std::optional members as maybe-uninitialized (GCC bug 80635) and
  # Boost.JSON internals as null dereferences; both are false positives, -Wuninitialized stays on.
  -Wno-maybe-uninitialized)
if(KRINO_WERROR)
  target_compile_options(krino_warnings INTERFACE -Werror)
endif()
