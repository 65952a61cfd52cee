// Joins string literals at compile time, so evaluator schemas can share option definitions and
// still be constants that registrations can point at during static initialization.
#ifndef KRINO_AGENT_SCHEMA_JOIN_H
#define KRINO_AGENT_SCHEMA_JOIN_H

#include <array>
#include <cstddef>

namespace krino::agent {

template <std::size_t N1, std::size_t N2, std::size_t N3>
constexpr std::array<char, N1 + N2 + N3 - 2> join(const char (&first)[N1], const char (&second)[N2],
                                                  const char (&third)[N3]) {
  std::array<char, N1 + N2 + N3 - 2> out{};
  std::size_t at = 0;
  for (std::size_t i = 0; i + 1 < N1; ++i) out[at++] = first[i];
  for (std::size_t i = 0; i + 1 < N2; ++i) out[at++] = second[i];
  for (std::size_t i = 0; i < N3; ++i) out[at++] = third[i];
  return out;
}

template <std::size_t N1, std::size_t N2, std::size_t N3, std::size_t N4>
constexpr std::array<char, N1 + N2 + N3 + N4 - 3> join(const char (&first)[N1], const char (&second)[N2],
                                                       const char (&third)[N3], const char (&fourth)[N4]) {
  std::array<char, N1 + N2 + N3 + N4 - 3> out{};
  std::size_t at = 0;
  for (std::size_t i = 0; i + 1 < N1; ++i) out[at++] = first[i];
  for (std::size_t i = 0; i + 1 < N2; ++i) out[at++] = second[i];
  for (std::size_t i = 0; i + 1 < N3; ++i) out[at++] = third[i];
  for (std::size_t i = 0; i < N4; ++i) out[at++] = fourth[i];
  return out;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_SCHEMA_JOIN_H
