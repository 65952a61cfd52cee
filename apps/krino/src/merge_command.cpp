#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/shard/shard_merger.hpp"

#include <cstdio>

namespace krino::cli {

int merge_command(const MergeArguments& args) {
  const core::MergeReport report =
      core::merge_shard_files(core::MergeOptions{args.inputs, args.allow_missing}, args.output);
  // The summary line goes to stderr, so `-o -` leaves standard output to the events.
  std::fprintf(stderr, "krino: merged %u of %u shards, %u run(s), %llu item lines into %s\n",
               report.shard_count - static_cast<unsigned>(report.missing.size()), report.shard_count, report.runs,
               static_cast<unsigned long long>(report.items), args.output.c_str());
  if (!report.missing.empty()) {
    std::string list;
    for (uint32_t k : report.missing) list += (list.empty() ? "" : ", ") + std::to_string(k);
    std::fprintf(stderr, "krino: warning: shards %s of %u are missing; the summaries cover the other shards only\n",
                 list.c_str(), report.shard_count);
  }
  return kSuccess;
}

}  // namespace krino::cli
