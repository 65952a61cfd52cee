#pragma once
// The call context a request carries ("context": seed, run and item index, deadline, and the
// test case's section spans) as the krino_call_context the plugin gets.
#include <krino/plugin.h>

#include <boost/json/value.hpp>

#include <cstddef>
#include <string_view>

namespace krino::plugin_host {

// Fills `ctx`'s seed, run_index, item_index, deadline_unix_ms and testcase_sections from a parsed
// context object. A member that is missing or not a whole number >= 0 stays 0; spans that do not
// all lie within the `document_size` bytes of the test case are left out (all zero: the plugin
// finds the sections itself).
void apply_request_context(const boost::json::value& context, std::size_t document_size, krino_call_context& ctx);

// The same from the context's JSON text. The layout krino writes (worker_evaluate_line) is read
// without a parser, as it comes with every request; any other text is parsed, and text that is not
// JSON leaves `ctx` as it is.
void read_request_context(std::string_view text, std::size_t document_size, krino_call_context& ctx);

}  // namespace krino::plugin_host
