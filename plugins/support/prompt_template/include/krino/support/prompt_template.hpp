// A prompt template: text with {{variable}} placeholders, for plugins that ask an LLM judge.
// Variables are checked when the template is built (an evaluator's constructor), so a misspelt
// variable in a user's `prompt` option is a configuration error rather than a prompt that silently
// lacks what it was meant to show.
#ifndef KRINO_SUPPORT_PROMPT_TEMPLATE_HPP
#define KRINO_SUPPORT_PROMPT_TEMPLATE_HPP

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

}  // namespace krino

#endif  // KRINO_SUPPORT_PROMPT_TEMPLATE_HPP
