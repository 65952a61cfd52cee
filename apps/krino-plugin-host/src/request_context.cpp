#include "request_context.hpp"

#include "krino/core/common/json_whole_number.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>

namespace krino::plugin_host {
namespace {

namespace json = boost::json;

void set_sections(krino_call_context& ctx, const std::array<uint64_t, 8>& flat, std::size_t document_size) {
  krino_span spans[4] = {};
  for (std::size_t k = 0; k < 4; ++k) {
    const uint64_t at = flat[2 * k];
    const uint64_t length = flat[2 * k + 1];
    if (at > document_size || length > document_size - at) return;
    spans[k] = krino_span{at, length};
  }
  for (std::size_t k = 0; k < 4; ++k) ctx.testcase_sections[k] = spans[k];
}

// {"seed":N,"runIndex":N,"itemIndex":N,"deadlineUnixMs":N[,"testCaseSections":[N,N,N,N,N,N,N,N]]}
// exactly as krino writes it, or nullopt.
struct QuickContext {
  uint64_t seed = 0, run_index = 0, item_index = 0, deadline = 0;
  std::optional<std::array<uint64_t, 8>> sections;
};
std::optional<QuickContext> quick_context(std::string_view text) {
  std::size_t at = 0;
  auto literal = [&](std::string_view expected) {
    if (text.substr(at, expected.size()) != expected) return false;
    at += expected.size();
    return true;
  };
  // Digits only: a sign, a fraction or an exponent is for the parser to judge.
  auto number = [&](uint64_t& out) {
    const char* begin = text.data() + at;
    const char* end = text.data() + text.size();
    if (begin == end || *begin < '0' || *begin > '9' || (*begin == '0' && begin + 1 != end && begin[1] >= '0' && begin[1] <= '9'))
      return false;
    const auto [stop, error] = std::from_chars(begin, end, out);
    if (error != std::errc() || (stop != end && (*stop == '.' || *stop == 'e' || *stop == 'E'))) return false;
    at += static_cast<std::size_t>(stop - begin);
    return true;
  };
  QuickContext context;
  if (!literal("{\"seed\":") || !number(context.seed) || !literal(",\"runIndex\":") || !number(context.run_index) ||
      !literal(",\"itemIndex\":") || !number(context.item_index) || !literal(",\"deadlineUnixMs\":") ||
      !number(context.deadline))
    return std::nullopt;
  if (literal(",\"testCaseSections\":[")) {
    std::array<uint64_t, 8> flat{};
    for (std::size_t k = 0; k < flat.size(); ++k)
      if ((k > 0 && !literal(",")) || !number(flat[k])) return std::nullopt;
    if (!literal("]")) return std::nullopt;
    context.sections = flat;
  }
  if (!literal("}") || at != text.size()) return std::nullopt;
  return context;
}

}  // namespace

void apply_request_context(const json::value& context, std::size_t document_size, krino_call_context& ctx) {
  if (!context.is_object()) return;
  const json::object& members = context.get_object();
  ctx.seed = core::json_whole_number(members.if_contains("seed")).value_or(0);
  ctx.run_index = static_cast<uint32_t>(core::json_whole_number(members.if_contains("runIndex")).value_or(0));
  ctx.item_index = core::json_whole_number(members.if_contains("itemIndex")).value_or(0);
  ctx.deadline_unix_ms = static_cast<int64_t>(core::json_whole_number(members.if_contains("deadlineUnixMs")).value_or(0));
  const json::value* sections = members.if_contains("testCaseSections");
  if (sections == nullptr || !sections->is_array() || sections->get_array().size() != 8) return;
  std::array<uint64_t, 8> flat{};
  for (std::size_t k = 0; k < flat.size(); ++k) {
    const std::optional<uint64_t> number = core::json_whole_number(&sections->get_array()[k]);
    if (!number) return;
    flat[k] = *number;
  }
  set_sections(ctx, flat, document_size);
}

void read_request_context(std::string_view text, std::size_t document_size, krino_call_context& ctx) {
  if (const std::optional<QuickContext> quick = quick_context(text)) {
    ctx.seed = quick->seed;
    ctx.run_index = static_cast<uint32_t>(quick->run_index);
    ctx.item_index = quick->item_index;
    ctx.deadline_unix_ms = static_cast<int64_t>(quick->deadline);
    if (quick->sections) set_sections(ctx, *quick->sections, document_size);
    return;
  }
  json::error_code ec;
  const json::value context = krino::json::parse(text, ec);
  if (!ec) apply_request_context(context, document_size, ctx);
}

}  // namespace krino::plugin_host
