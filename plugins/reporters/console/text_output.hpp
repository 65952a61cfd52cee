// Where the console reporter writes: an interface, so tests capture the text and the reporter
// can ask whether it talks to a terminal.
#ifndef KRINO_CONSOLE_TEXT_OUTPUT_HPP
#define KRINO_CONSOLE_TEXT_OUTPUT_HPP

#include <cstdio>
#include <string_view>

namespace krino::console {

class TextOutput {
 public:
  virtual ~TextOutput() = default;
  virtual void write(std::string_view text) = 0;
  virtual void flush() = 0;
  // Whether the text goes to an interactive terminal (colour and progress bar decisions).
  virtual bool is_terminal() const = 0;
  // The terminal's width in columns; 0 when unknown or not a terminal.
  virtual unsigned columns() const = 0;
};

// A stdio stream. Does not own `file`.
class FileOutput final : public TextOutput {
 public:
  explicit FileOutput(std::FILE* file);
  void write(std::string_view text) override;
  void flush() override;
  bool is_terminal() const override { return is_terminal_; }
  unsigned columns() const override;

 private:
  std::FILE* file_;
  bool is_terminal_;
};

}  // namespace krino::console

#endif  // KRINO_CONSOLE_TEXT_OUTPUT_HPP
