// Boost.JSON compiled into the plugin itself, so a plugin needs no Boost runtime library and its
// copy stays private (-fvisibility=hidden, --exclude-libs,ALL).
#include <boost/json/src.hpp>
