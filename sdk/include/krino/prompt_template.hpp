// A prompt template: text with {{variable}} placeholders, for plugins that ask an LLM judge.
// Variables are checked when the template is built (an evaluator's constructor), so a misspelt
// variable in a user's `prompt` option is a configuration error rather than a prompt that silently
// lacks what it was meant to show. Header-only, C++17.
#ifndef KRINO_PROMPT_TEMPLATE_HPP
#define KRINO_PROMPT_TEMPLATE_HPP

#include <krino/plugin.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino {

class PromptTemplate {
 public:
  using Values = std::map<std::string, std::string, std::less<>>;

  PromptTemplate() = default;
  // Throws krino::invalid_argument naming `where` for an unclosed "{{", an empty name or a name not
  // in `known`. Whitespace inside the braces is ignored: {{ input }} is {{input}}.
  PromptTemplate(std::string_view text, const std::set<std::string, std::less<>>& known, std::string_view where);

  // The variables the template uses, each once.
  const std::set<std::string, std::less<>>& variables() const { return variables_; }
  bool uses(std::string_view variable) const { return variables_.count(variable) != 0; }

  // The text with every placeholder replaced; a variable missing from `values` renders empty.
  // Values are inserted as they are: a "{{" inside a value is not expanded again.
  std::string render(const Values& values) const;

 private:
  struct Piece {
    bool variable;
    std::string text;  // literal text, or the variable's name
  };
  std::vector<Piece> pieces_;
  std::set<std::string, std::less<>> variables_;
};


inline PromptTemplate::PromptTemplate(std::string_view text, const std::set<std::string, std::less<>>& known,
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

inline std::string PromptTemplate::render(const Values& values) const {
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

#endif  // KRINO_PROMPT_TEMPLATE_HPP
