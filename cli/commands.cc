#include "cli/command.h"

#include "core/error.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {
// Add a row when a command lands.
constexpr Command kCommands[] = {
    {"help", "help", "this list", nullptr},
};
}  // namespace

std::span<const Command> commands() { return kCommands; }

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

po::variables_map parse_options(const Args& args, const po::options_description& options,
                                const po::positional_options_description& positional) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  return vm;
}

}  // namespace mmacheck::cli
