# Warning flags for every krino target (not for third-party code built against the SDK).
add_library(krino_warnings INTERFACE)
target_compile_options(krino_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wunused -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Woverloaded-virtual>)
if(KRINO_WERROR)
  target_compile_options(krino_warnings INTERFACE -Werror)
endif()
