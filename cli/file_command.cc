#include "cli/file_command.h"

#include "cli/options.h"
#include "cli/unchecked.h"
#include "core/base/error.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_file_command(const Args& args, const FileCommand& command, const FileChecker& check) {
  po::options_description options("mmacheck " + command.name);
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), command.file_help.c_str())
      ("json", po::bool_switch(), "print the JSON report (JSON Lines, one object per file, for several)")
      ("jobs,j", po::value<int>()->default_value(1), "files checked at once (0: one per hardware thread)");
  // clang-format on
  options.add(unchecked_option());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error(command.name + ": " + command.no_file);
  const bool json = vm["json"].as<bool>();
  const bool allow = vm["allow-unchecked"].as<bool>();
  const BatchOptions batch{.jobs = checked_jobs(vm["jobs"].as<int>()), .json = json};
  return run_batch(expand_inputs(vm["file"].as<std::vector<std::string>>(), {}, command.extensions), batch,
                   [&](const std::string& path, std::ostream& out) { return check(path, json, allow, out); });
}

}  // namespace mmacheck::cli
