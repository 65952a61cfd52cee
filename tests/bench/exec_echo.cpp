// krino_exec_echo: the trivial system under test of the exec benchmark. It answers each example
// with its own inputs (`{"output": ...}` in, the same object out as the actual outputs), so
// exact_match passes and the figure is krino's cost of running a program, not the program's.
//
//   krino_exec_echo            per example: one krino.example/1 document on stdin, the reply on stdout
//   krino_exec_echo --worker   JSON lines: {"id":N,"example":{...},...} in, {"id":N,"actualOutputs":{...}} out
//
// krino writes the example's members in a fixed order (id, inputs, expectedOutputs, metadata), so
// the inputs are found by position, without a JSON parser.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

namespace {

std::string_view inputs_of(std::string_view example) {
  const std::string_view open = "\"inputs\":";
  const std::string_view close = ",\"expectedOutputs\":";
  const auto begin = example.find(open);
  const auto end = example.find(close);
  if (begin == std::string_view::npos || end == std::string_view::npos || end < begin) return "{}";
  return example.substr(begin + open.size(), end - begin - open.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc > 1 && std::strcmp(argv[1], "--worker") == 0) {
    std::string line, reply;
    while (std::getline(std::cin, line)) {
      const std::string_view request(line);
      const auto id_begin = request.find(':') + 1;
      const auto id_end = request.find(',', id_begin);
      reply.assign("{\"id\":");
      reply.append(request.substr(id_begin, id_end - id_begin));
      reply.append(",\"actualOutputs\":");
      reply.append(inputs_of(request));
      reply.append("}\n");
      std::fwrite(reply.data(), 1, reply.size(), stdout);
      std::fflush(stdout);
    }
    return 0;
  }
  std::string example((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  const std::string_view inputs = inputs_of(example);
  std::fwrite(inputs.data(), 1, inputs.size(), stdout);
  return 0;
}
