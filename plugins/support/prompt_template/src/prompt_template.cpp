#include <krino/support/prompt_template.hpp>

#include <krino/plugin.hpp>

namespace krino {

PromptTemplate::PromptTemplate(std::string_view text, const std::set<std::string, std::less<>>& known,
                               std::string_view where) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      pieces_.push_back({false, std::string(text.substr(pos))});
      break;
    }
    if (open > pos) pieces_.push_back({false, std::string(text.substr(pos, open - pos))});
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos)
      throw invalid_argument(std::string(where) + ": '{{' at offset " + std::to_string(open) + " is never closed by '}}'");
    std::string_view name = text.substr(open + 2, close - open - 2);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (name.empty()) throw invalid_argument(std::string(where) + ": empty placeholder '{{}}'");
    if (known.count(name) == 0) {
      std::string listed;
      for (const std::string& k : known) listed += (listed.empty() ? "" : ", ") + ("{{" + k + "}}");
      throw invalid_argument(std::string(where) + ": unknown placeholder '{{" + std::string(name) +
                             "}}' (known: " + listed + ")");
    }
    pieces_.push_back({true, std::string(name)});
    variables_.emplace(name);
    pos = close + 2;
  }
}

std::string PromptTemplate::render(const Values& values) const {
  std::string out;
  for (const Piece& piece : pieces_) {
    if (!piece.variable) {
      out += piece.text;
      continue;
    }
    const auto it = values.find(piece.text);
    if (it != values.end()) out += it->second;
  }
  return out;
}


}  // namespace krino
