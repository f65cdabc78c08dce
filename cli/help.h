// What `mmacheck help`, `mmacheck help COMMAND` and `mmacheck COMMAND --help`
// print.  A command's help is generated from its Command row (operands,
// summary, example) and its Boost.Program_options description (options,
// their defaults and descriptions), never written a second time.
#pragma once

#include <ostream>

#include <boost/program_options.hpp>

#include "cli/command.h"

namespace mmacheck::cli {

// The overview: usage, one line per command (usage line, summary), exit statuses.
void print_overview(std::ostream& os);

// One command: usage line, summary, the options but the positional ones
// (which the usage line names), each with its default, and the example.
void print_command_help(std::ostream& os, const Command& command,
                        const boost::program_options::options_description& options,
                        const boost::program_options::positional_options_description& positional);

}  // namespace mmacheck::cli
