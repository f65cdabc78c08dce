#include "cli/file_batch.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include "cli/command.h"
#include "cli/error_report.h"
#include "cli/json_shape.h"
#include "cli/progress.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/program/read/read_program.h"

namespace mmacheck::cli {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 1 && name[0] == '.';
}

struct Report {
  FileOutcome outcome;
  std::string text;   // stdout
  std::string error;  // stderr
};

constexpr std::string_view kNoGemm =
    "no gemm: the file names no gemm, prim_func, T.function, tile.apply or ptx.mma (not checked)\n";

// A file whose text names no gemm, under --skip-no-gemm: not checked.
std::optional<FileOutcome> no_gemm(const std::string& path, const BatchOptions& options) {
  if (!options.skip_no_gemm || path == "-") return std::nullopt;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  const std::string text = read_text_file(path);
  if (mentions_gemm(text) || (options.also_checks && options.also_checks(path, text))) return std::nullopt;
  return FileOutcome{kHolds, "no gemm", {{"file", path}, {"verdict", "no_gemm"}}};
}

// The input's JSON Lines: one object, or one per element of an array (a
// test file's kernels).
std::string json_lines(const std::string& path, const Json& json) {
  if (!json.is_array()) return json_line(file_json(path, json)) + "\n";
  std::string out;
  for (const Json& one : json) out += json_line(file_json(path, one)) + "\n";
  return out;
}

// One input, bad input included: an Error becomes the file's report.
Report check_one(const std::string& path, const FileCheck& check, const BatchOptions& options) {
  const bool json = options.json;
  Report r;
  std::ostringstream text, err;
  try {
    if (auto skipped = no_gemm(path, options)) {
      r.outcome = std::move(*skipped);
      text << kNoGemm;
    } else {
      r.outcome = check(path, text);
    }
    r.text = text.str();
  } catch (const Error& e) {
    r.outcome.status = kBadInput;
    r.outcome.label = "bad input";
    std::ostringstream ignored;
    report_error(err, ignored, e, false);
    r.text = text.str();
    r.error = err.str();
    r.outcome.json = bad_input_json(path, e);
  } catch (const std::exception& e) {
    // Not bad input but our failure (e.g. out of memory): still this file's report only.
    r.outcome.status = kBadInput;
    r.outcome.label = "bad input";
    const Error as_error(SourceLoc{path, 0, 0}, e.what());
    r.outcome.json = bad_input_json(path, as_error);
    r.text = text.str();
    r.error = std::string(as_error.what()) + "\n";
  }
  if (json) r.text = json_lines(path, r.outcome.json);
  return r;
}

}  // namespace

int checked_jobs(int jobs) {
  if (jobs == 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs < 1 || jobs > 256) throw Error("-j/--jobs must be between 0 and 256, got " + std::to_string(jobs));
  return jobs;
}

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.empty()) return path.empty();
  if (pattern.substr(0, 3) == "**/") {  // any folders, none included
    for (std::size_t i = 0;; ++i) {
      if (glob_match(pattern.substr(3), path.substr(i))) return true;
      i = path.find('/', i);
      if (i == std::string_view::npos) return false;
    }
  }
  if (pattern.substr(0, 2) == "**") {
    for (std::size_t i = 0; i <= path.size(); ++i)
      if (glob_match(pattern.substr(2), path.substr(i))) return true;
    return false;
  }
  if (pattern[0] == '*') {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (glob_match(pattern.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '/') return false;
    }
    return false;
  }
  if (path.empty()) return false;
  if (pattern[0] == '?' ? path[0] == '/' : pattern[0] != path[0]) return false;
  return glob_match(pattern.substr(1), path.substr(1));
}

namespace {

bool selected(const InputSelection& s, const std::string& relative) {
  const auto any = [&](const std::vector<std::string>& patterns) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return glob_match(p, relative); });
  };
  return (s.include.empty() || any(s.include)) && !any(s.exclude);
}

}  // namespace

namespace po = boost::program_options;

po::options_description input_options() {
  po::options_description options("folders");
  options.add_options()("include", po::value<std::vector<std::string>>(),
                        "in a folder, only files matching this glob (relative path; * ? ** ; repeatable)")(
      "exclude", po::value<std::vector<std::string>>(), "in a folder, not the files matching this glob (repeatable)")(
      "skip-no-gemm", po::bool_switch(),
      "report a file that names no gemm as \"no gemm\" (exit 0); the default for folders")(
      "no-skip-no-gemm", po::bool_switch(), "check every file, a folder's too (one with no gemm is bad input)");
  return options;
}

InputSelection input_selection(const po::variables_map& vm) {
  InputSelection s;
  if (vm.count("include")) s.include = vm["include"].as<std::vector<std::string>>();
  if (vm.count("exclude")) s.exclude = vm["exclude"].as<std::vector<std::string>>();
  return s;
}

bool skip_no_gemm(const po::variables_map& vm, const std::vector<std::string>& operands) {
  if (vm["skip-no-gemm"].as<bool>() && vm["no-skip-no-gemm"].as<bool>())
    throw Error("--skip-no-gemm and --no-skip-no-gemm contradict each other");
  if (vm["skip-no-gemm"].as<bool>()) return true;
  if (vm["no-skip-no-gemm"].as<bool>()) return false;
  std::error_code ec;
  return std::any_of(operands.begin(), operands.end(), [&](const std::string& o) { return fs::is_directory(o, ec); });
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& operands, const InputSelection& selection,
                                       const std::vector<std::string>& extensions) {
  const auto is_input_file = [&](const fs::path& p) {
    return std::find(extensions.begin(), extensions.end(), p.extension().string()) != extensions.end();
  };
  std::vector<std::string> inputs;
  bool stdin_taken = false;
  for (const std::string& operand : operands) {
    if (operand == "-") {
      if (stdin_taken) throw Error("'-' (standard input) given twice");
      stdin_taken = true;
      inputs.push_back(operand);
      continue;
    }
    std::error_code ec;
    if (!fs::is_directory(operand, ec)) {
      inputs.push_back(operand);  // reading it reports a missing file at its name
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(operand, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw Error(SourceLoc{operand, 0, 0}, "cannot read the folder: " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) throw Error(SourceLoc{operand, 0, 0}, "cannot read the folder: " + ec.message());
      if (hidden(it->path())) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec) && is_input_file(it->path()) &&
          selected(selection, it->path().lexically_relative(operand).generic_string()))
        found.push_back(it->path().string());
    }
    if (found.empty()) {
      std::string names;
      for (std::size_t i = 0; i < extensions.size(); ++i)
        names += (i == 0 ? "" : i + 1 == extensions.size() ? " or " : ", ") + extensions[i];
      throw Error(SourceLoc{operand, 0, 0}, selection.include.empty() && selection.exclude.empty()
                                                ? "the folder holds no " + names + " file"
                                                : "no " + names + " file of the folder passes --include/--exclude");
    }
    std::sort(found.begin(), found.end());
    inputs.insert(inputs.end(), found.begin(), found.end());
  }
  return inputs;
}

int run_batch(const std::vector<std::string>& inputs, const BatchOptions& options, const FileCheck& check) {
  if (inputs.size() == 1) {
    // As a direct run: reports stream, bad input goes through main().
    std::ostringstream ignored;
    std::optional<FileOutcome> skipped = no_gemm(inputs.front(), options);
    if (skipped && !options.json) std::cout << kNoGemm;
    const FileOutcome outcome = skipped ? *skipped : check(inputs.front(), options.json ? ignored : std::cout);
    if (options.json) std::cout << json_lines(inputs.front(), outcome.json);
    return outcome.status;
  }

  std::vector<std::optional<Report>> reports(inputs.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next++) < inputs.size();) {
      Report r = check_one(inputs[i], check, options);
      const std::lock_guard lock(mutex);
      reports[i] = std::move(r);
      ready.notify_one();
    }
  };
  std::vector<std::thread> workers;
  const std::size_t wanted = std::min<std::size_t>(static_cast<std::size_t>(options.jobs), inputs.size());
  for (std::size_t t = 0; wanted > 1 && t < wanted; ++t) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // fewer threads than asked: the others do the work
    }
  }
  if (workers.empty()) work();

  int worst = kHolds;
  std::map<std::string, int> counts;
  std::vector<std::string> order;
  {
    Progress progress(static_cast<std::int64_t>(inputs.size()), "files");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return reports[i].has_value(); });
      const Report r = std::move(*reports[i]);
      lock.unlock();
      if (!options.json) std::cout << (i ? "\n" : "") << "== " << inputs[i] << " ==\n";
      std::cout << r.text << std::flush;
      std::cerr << r.error << std::flush;
      worst = std::max(worst, r.outcome.status);
      if (!counts.count(r.outcome.label)) order.push_back(r.outcome.label);
      ++counts[r.outcome.label];
      progress.update(static_cast<std::int64_t>(i + 1));
    }
  }
  for (std::thread& t : workers) t.join();
  if (!options.json) {
    std::cout << "\n" << inputs.size() << " files:";
    for (std::size_t i = 0; i < order.size(); ++i) std::cout << (i ? ", " : " ") << counts[order[i]] << " " << order[i];
    std::cout << std::endl;
  }
  return worst;
}

}  // namespace mmacheck::cli
