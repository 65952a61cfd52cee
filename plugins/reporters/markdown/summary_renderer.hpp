// The Markdown summary of an experiment (docs/plugins/markdown.md).
#ifndef KRINO_MARKDOWN_SUMMARY_RENDERER_HPP
#define KRINO_MARKDOWN_SUMMARY_RENDERER_HPP

#include "experiment_record.hpp"

#include <string>

namespace krino::markdown {

// `status`: "completed", "cancelled", or "interrupted" (krino stopped before the experiment
// finished, so there is no experiment summary).
std::string render_summary(const ExperimentRecord& record, const std::string& status);

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_SUMMARY_RENDERER_HPP
