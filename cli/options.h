// The resource limits (core/base/limits.h) as options of the commands that
// dispatch: --max-mma, --max-elements, --max-span, --max-replicas,
// --max-output-bytes, one per row of kLimits, with their defaults.
//
//     options.add(limit_options());
//     ProveOptions opts;
//     opts.limits = limits_from(vm);
//
// They are unsigned, so parse_options (cli/command.h) refuses a minus sign.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "core/base/limits.h"

namespace mmacheck::cli {

boost::program_options::options_description limit_options();
Limits limits_from(const boost::program_options::variables_map& vm);

// Throws the limit's Error when `text` is longer than --max-output-bytes;
// `what` names the output ("the CUDA source").
void check_output_size(const std::string& text, const Limits& limits, const std::string& what);

}  // namespace mmacheck::cli
