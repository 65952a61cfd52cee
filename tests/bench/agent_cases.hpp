#pragma once
// The agent workload of the benchmarks: realistic travel-agent test cases as JSON Lines.
//
// Each case (about 3.4 KB) is a travel-agent turn: a user request, six tool definitions whose JSON
// Schemas use required fields, types, an enum, a nested object and "additionalProperties": false,
// six recorded tool calls with arguments and results, and a JSON final answer, with the expected
// calls and answer beside them. One case in five deviates (a wrong argument, a swapped call, an
// invalid enum value, or a different answer), so every evaluator does real work on both paths.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace krino::bench {

inline constexpr const char* kTools =
    R"([{"type":"function","function":{"name":"search_flights","description":"Find flights between two airports on a date",)"
    R"("parameters":{"type":"object","properties":{"origin":{"type":"string","description":"IATA code"},"destination":{"type":"string","description":"IATA code"},)"
    R"("date":{"type":"string","description":"YYYY-MM-DD"},"cabin":{"type":"string","enum":["economy","premium","business","first"]},)"
    R"("passengers":{"type":"integer","minimum":1,"maximum":9}},"required":["origin","destination","date"],"additionalProperties":false}}},)"
    R"({"type":"function","function":{"name":"book_flight","description":"Book a flight by its offer id",)"
    R"("parameters":{"type":"object","properties":{"offer_id":{"type":"string"},"passenger":{"type":"object","properties":{"name":{"type":"string"},)"
    R"("email":{"type":"string"}},"required":["name","email"]}},"required":["offer_id","passenger"],"additionalProperties":false}}},)"
    R"({"type":"function","function":{"name":"search_hotels","description":"Find hotels in a city for a stay",)"
    R"("parameters":{"type":"object","properties":{"city":{"type":"string"},"check_in":{"type":"string"},"nights":{"type":"integer","minimum":1},)"
    R"("max_price":{"type":"number"},"amenities":{"type":"array","items":{"type":"string"}}},"required":["city","check_in","nights"],"additionalProperties":false}}},)"
    R"({"type":"function","function":{"name":"book_hotel","description":"Book a hotel room by its offer id",)"
    R"("parameters":{"type":"object","properties":{"offer_id":{"type":"string"},"room":{"type":"string","enum":["single","double","suite"]}},)"
    R"("required":["offer_id","room"],"additionalProperties":false}}},)"
    R"({"type":"function","function":{"name":"get_weather","description":"Daily forecast for a city",)"
    R"("parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14},)"
    R"("units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}}},)"
    R"({"type":"function","function":{"name":"send_itinerary","description":"Email the itinerary to the traveller",)"
    R"("parameters":{"type":"object","properties":{"email":{"type":"string"},"format":{"type":"string","enum":["pdf","html"]}},)"
    R"("required":["email"],"additionalProperties":false}}}])";

struct Trip {
  const char* origin;
  const char* destination;
  const char* city;
};

inline constexpr Trip kTrips[] = {{"LHR", "CDG", "Paris"}, {"JFK", "LAX", "Los Angeles"}, {"FRA", "FCO", "Rome"},
                           {"AMS", "BCN", "Barcelona"}, {"SFO", "NRT", "Tokyo"}, {"MAD", "LIS", "Lisbon"}};

inline std::string calls(const Trip& trip, uint64_t i, int deviation) {
  const std::string day = std::to_string(10 + i % 18);
  const std::string nights = std::to_string(1 + i % 6);
  const std::string offer = std::to_string(100000 + i);
  const std::string cabin = deviation == 3 ? "steerage" : "economy";
  std::string flights = R"({"id":"call_1","name":"search_flights","arguments":{"origin":")" + std::string(trip.origin) +
                        R"(","destination":")" + trip.destination + R"(","date":"2026-06-)" + day + R"(","cabin":")" + cabin +
                        R"(","passengers":2},"result":"{\"offers\":[{\"id\":\"F)" + offer + R"(\",\"price\":412.5}]}"})";
  std::string book_flight = R"({"id":"call_2","name":"book_flight","arguments":{"offer_id":"F)" + offer +
                            R"(","passenger":{"name":"Ada Lovelace","email":"ada@example.com"}},"result":"{\"booking\":\"BK)" +
                            offer + R"(\",\"status\":\"confirmed\"}"})";
  std::string hotels = R"({"id":"call_3","name":"search_hotels","arguments":{"city":")" + std::string(trip.city) +
                       R"(","check_in":"2026-06-)" + day + R"(","nights":)" + (deviation == 1 ? "9" : nights) +
                       R"(,"max_price":180.0,"amenities":["wifi","breakfast"]},"result":"{\"offers\":[{\"id\":\"H)" + offer +
                       R"(\",\"price\":150}]}"})";
  std::string book_hotel = R"({"id":"call_4","name":"book_hotel","arguments":{"offer_id":"H)" + offer +
                           R"(","room":"double"},"result":"{\"booking\":\"HB)" + offer + R"(\"}"})";
  std::string weather = R"({"id":"call_5","name":"get_weather","arguments":{"city":")" + std::string(trip.city) +
                        R"(","days":5,"units":"celsius"},"result":"{\"forecast\":[21,23,22,19,20]}"})";
  std::string itinerary = R"({"id":"call_6","name":"send_itinerary","arguments":{"email":"ada@example.com","format":"pdf"},)"
                          R"("result":"sent"})";
  if (deviation == 2) std::swap(book_hotel, weather);
  return "[" + flights + "," + book_flight + "," + hotels + "," + book_hotel + "," + weather + "," + itinerary + "]";
}

inline std::string answer(const Trip& trip, uint64_t i, bool wrong) {
  return R"({"flight":"BK)" + std::to_string(100000 + i) + R"(","hotel":"HB)" + std::to_string(100000 + i) +
         R"(","city":")" + (wrong ? "Nowhere" : trip.city) + R"(","nights":)" + std::to_string(1 + i % 6) +
         R"(,"total":)" + std::to_string(412.5 + 150.0 * static_cast<double>(1 + i % 6)) + "}";
}

inline void generate_agent_cases(const std::filesystem::path& file, uint64_t items) {
  std::ofstream out(file, std::ios::binary);
  for (uint64_t i = 0; i < items; ++i) {
    const Trip& trip = kTrips[i % 6];
    const int deviation = i % 5 == 4 ? static_cast<int>(1 + (i / 5) % 4) : 0;  // 1..4 on one case in five
    out << R"({"id":"trip-)" << i << R"(","inputs":{"input":"Book me two economy seats from )" << trip.origin << " to "
        << trip.destination << " on June " << 10 + i % 18 << ", a double room in " << trip.city << " for " << 1 + i % 6
        << R"( nights, check the weather, and email me the itinerary as a PDF."},)"
        << R"("expectedOutputs":{"output":)" << answer(trip, i, false) << R"(,"toolCalls":)" << calls(trip, i, 0) << "},"
        << R"("actualOutputs":{"output":)" << answer(trip, i, deviation == 4) << R"(,"toolCalls":)" << calls(trip, i, deviation)
        << "}," << R"("metadata":{"tools":)" << kTools << R"(,"agent":"travel-v3","session":"s-)" << i / 100 << "\"}}\n";
  }
}

// The evaluators the agent benchmark scores each case with, as an experiment file's list.
inline constexpr const char* kAgentEvaluators =
    "evaluators:\n"
    "  - exact_match\n"
    "  - structural_match\n"
    "  - tool_trajectory: {match_mode: in_order}\n"
    "  - tool_call_validity\n";

}  // namespace krino::bench
