#include "cli/help.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/input_kinds.h"
#include "core/base/error.h"
#include "mmacheck_version.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

void print_overview(std::ostream& os) {
  os << "mmacheck " << kVersion << " — verify and simulate warp-level tensor-core GEMM\n\n"
     << "usage: mmacheck FILE... [options]          (same as: mmacheck prove FILE...)\n"
     << "       mmacheck COMMAND [arguments]\n"
     << "       mmacheck COMMAND --help             (that command's options, defaults, example)\n\n"
     << "commands:\n";
  for (const Command& c : commands()) {
    if (!c.alias_of.empty()) continue;
    std::string line = "  " + usage_line(c);
    if (line.size() < 56) line.resize(56, ' ');
    else line += "\n" + std::string(56, ' ');
    os << line << "  " << c.summary << "\n";
  }
  os << "\nthe family commands of earlier releases, aliases kept for one release:\n";
  for (const Command& c : commands())
    if (!c.alias_of.empty()) {
      std::string line = "  mmacheck " + std::string(c.name);
      line.resize(std::max<std::size_t>(line.size(), 24), ' ');
      os << line << "  -> mmacheck " << c.alias_of << "\n";
    }
  os << "\nFILE may be a folder (its .txt, .py, .ptx, .ttgir, .mlir, .json, .hpp and .mmav files) or -\n"
     << "(standard input).\n"
     << "exit status: 0 holds, 1 does not hold, 2 bad input or usage, 3 no GPU\n";
  if (built_with_cuda()) return;
  std::string absent;
  for (const Command& c : commands())
    if (c.needs == Needs::cuda) absent += (absent.empty() ? "" : ", ") + std::string(c.name);
  os << "this build has no CUDA support: " << absent << " exit 2 (configure with -DMMACHECK_CUDA=ON)\n";
}

void print_command_help(std::ostream& os, const Command& command, const po::options_description& options,
                        const po::positional_options_description& positional) {
  std::set<std::string> operands;
  for (unsigned i = 0; i < positional.max_total_count() && i < 64; ++i)
    operands.insert(positional.name_for_position(i));
  po::options_description shown("options", 100, 50);
  for (const auto& option : options.options())
    if (!operands.count(option->long_name())) shown.add(option);
  os << "usage: " << usage_line(command) << "\n  " << command.summary << "\n\n" << shown << "\n";
  if (command.reads != Command::Reads::unlisted)
    os << reads_text(command.reads == Command::Reads::prove ? Job::prove
                     : command.reads == Command::Reads::sim ? Job::sim
                                                            : Job::gpu)
       << "\n";
  os << "example:\n  mmacheck " << command.name << " " << command.example << "\n";
}

namespace {
// Boost 1.74 keeps the caption private; it is the first line the description prints ("mmacheck prove:").
std::string caption_of(const po::options_description& options) {
  std::ostringstream os;
  os << options;
  const std::string text = os.str();
  const std::size_t colon = text.find(":\n");
  return colon == std::string::npos ? "" : text.substr(0, colon);
}
}  // namespace

po::variables_map parse_options(const Args& args, const po::options_description& options,
                                const po::positional_options_description& positional) {
  const std::string caption = caption_of(options);
  const std::string prefix = "mmacheck ";
  const Command* command = caption.rfind(prefix, 0) == 0 ? find_command(caption.substr(prefix.size())) : nullptr;
  po::options_description all(caption);
  all.add(options);
  all.add_options()("help,h", "print this command's usage, options and example");
  po::variables_map vm;
  try {
    const po::parsed_options parsed = po::command_line_parser(args).options(all).positional(positional).run();
    for (const po::option& o : parsed.options) {
      if (o.string_key == "help") {
        if (!command) throw Error("no help for '" + caption + "'");
        print_command_help(std::cout, *command, options, positional);
        throw HelpShown{};
      }
    }
    for (const po::option& o : parsed.options) {
      const po::option_description* d = all.find_nothrow(o.string_key, false);
      if (!d) continue;
      const auto* semantic = d->semantic().get();
      const bool is_unsigned = dynamic_cast<const po::typed_value<unsigned>*>(semantic) ||
                               dynamic_cast<const po::typed_value<unsigned long>*>(semantic) ||
                               dynamic_cast<const po::typed_value<unsigned long long>*>(semantic);
      for (const std::string& v : o.value)
        if (is_unsigned && v.find_first_not_of(" \t") != std::string::npos && v[v.find_first_not_of(" \t")] == '-')
          throw Error("the argument ('" + v + "') for option '--" + o.string_key + "' is invalid: it must be >= 0");
    }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(e.what() + (command ? " (usage: " + usage_line(*command) + "; see 'mmacheck " +
                                          std::string(command->name) + " --help')"
                                    : std::string()));
  }
  return vm;
}

int run_help(const Args& args) {
  po::options_description options("mmacheck help");
  options.add_options()("command", po::value<std::string>(), "the command to describe");
  po::positional_options_description positional;
  positional.add("command", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("command")) {
    print_overview(std::cout);
    return kHolds;
  }
  const std::string name = vm["command"].as<std::string>();
  const Command* command = find_command(name);
  if (!command) {
    std::string message = "help: unknown command '" + name + "'";
    if (const Command* near = nearest_command(name)) message += "; did you mean '" + std::string(near->name) + "'?";
    throw Error(message);
  }
  try {
    return run_command(*command, {"--help"});
  } catch (const HelpShown&) {
    return kHolds;
  }
}

}  // namespace mmacheck::cli
