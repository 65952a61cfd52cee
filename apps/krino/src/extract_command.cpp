// `krino extract`: runs one trace extractor (named, or chosen by detection) over one raw trace and
// prints the canonical trace. What users need to check what krino will score, and how golden files
// of the extractors are made.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/trace/extractor_choice.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace krino::cli {

namespace {

std::string read_input(const std::string& input) {
  std::ostringstream text;
  if (input == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream file(input, std::ios::binary);
    if (!file) throw core::runtime_error("cannot read " + input);
    text << file.rdbuf();
  }
  return text.str();
}

}  // namespace

int extract_command(const ExtractArguments& args) {
  core::Cancellation cancellation;
  core::HostServices host(cancellation, stderr, args.plugins.verbosity > 0 ? KRINO_LOG_INFO : KRINO_LOG_WARNING);
  core::PluginRegistry registry;
  args.plugins.load(registry, host);
  const core::ExtractorChoice choice(registry, args.detect ? std::string_view("auto") : std::string_view(args.extractor));
  const std::string raw = read_input(args.input);

  if (args.detect) {
    std::printf("%-10s %-18s %s\n", "CONFIDENCE", "NAME", "ID");
    for (const core::DetectionScore& score : choice.scores(raw))
      std::printf("%-10d %-18s %s\n", score.confidence, score.extractor->name().c_str(),
                  score.extractor->component().id.c_str());
    return kSuccess;
  }

  auto chosen = choice.choose(raw);
  if (auto* failure = std::get_if<core::ExtractionFailure>(&chosen)) {
    std::fprintf(stderr, "krino: error: %s\n", failure->message.c_str());
    return kEvaluationFailed;
  }
  const core::TraceExtractor& extractor = *std::get<const core::TraceExtractor*>(chosen);
  if (choice.automatic() && args.plugins.verbosity > 0)
    std::fprintf(stderr, "krino: extractor %s (confidence %d)\n", extractor.name().c_str(), extractor.detect(raw));
  auto extracted = extractor.extract(raw);
  if (auto* failure = std::get_if<core::ExtractionFailure>(&extracted)) {
    std::fprintf(stderr, "krino: error: %s: %s\n", extractor.name().c_str(), failure->message.c_str());
    return kEvaluationFailed;
  }
  boost::system::error_code ec;
  const boost::json::value trace = krino::json::parse(std::get<std::string>(extracted), ec);
  if (ec) {
    std::fprintf(stderr, "krino: error: %s wrote a trace that is not JSON: %s\n", extractor.name().c_str(),
                 ec.message().c_str());
    return kRuntimeError;
  }
  const std::string text = args.compact ? ::krino::json::to_compact_json(trace) : ::krino::json::to_pretty_json(trace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
  return kSuccess;
}

}  // namespace krino::cli
