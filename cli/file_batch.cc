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
#include "cli/progress.h"
#include "core/base/error.h"

namespace mmacheck::cli {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 1 && name[0] == '.';
}

struct Report {
  FileOutcome outcome;
  std::string text;
};

// One input, bad input included: an Error becomes the file's report.
Report check_one(const std::string& path, const FileCheck& check, bool json) {
  Report r;
  std::ostringstream text, err;
  try {
    r.outcome = check(path, text);
    r.text = text.str();
  } catch (const Error& e) {
    r.outcome.status = kBadInput;
    r.outcome.label = "bad input";
    std::ostringstream ignored;
    report_error(err, ignored, e, false);
    r.text = text.str() + err.str();
    r.outcome.json = error_json(e);
    if (r.outcome.json["file"].is_null()) r.outcome.json["file"] = path;
  } catch (const std::exception& e) {
    // Not bad input but our failure (e.g. out of memory): still this file's report only.
    r.outcome.status = kBadInput;
    r.outcome.label = "bad input";
    r.outcome.json = {{"file", path}, {"line", nullptr}, {"column", nullptr}, {"message", e.what()}};
    r.text = text.str() + path + ": error: " + e.what() + "\n";
  }
  if (json) {
    Json line = {{"file", path}};
    for (auto& [key, value] : r.outcome.json.items())
      if (key != "file") line[key] = value;
    r.text = json_line(line) + "\n";
  }
  return r;
}

}  // namespace

int checked_jobs(int jobs) {
  if (jobs == 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs < 1 || jobs > 256) throw Error("-j/--jobs must be between 0 and 256, got " + std::to_string(jobs));
  return jobs;
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& operands,
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
      if (it->is_regular_file(ec) && is_input_file(it->path())) found.push_back(it->path().string());
    }
    if (found.empty()) {
      std::string names;
      for (std::size_t i = 0; i < extensions.size(); ++i)
        names += (i == 0 ? "" : i + 1 == extensions.size() ? " or " : ", ") + extensions[i];
      throw Error(SourceLoc{operand, 0, 0}, "the folder holds no " + names + " file");
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
    const FileOutcome outcome = check(inputs.front(), options.json ? ignored : std::cout);
    if (options.json) std::cout << json_line(outcome.json) << "\n";
    return outcome.status;
  }

  std::vector<std::optional<Report>> reports(inputs.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next++) < inputs.size();) {
      Report r = check_one(inputs[i], check, options.json);
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
      worst = std::max(worst, r.outcome.status);
      if (!counts.count(r.outcome.label)) order.push_back(r.outcome.label);
      ++counts[r.outcome.label];
      progress.update(static_cast<std::int64_t>(i + 1));
    }
  }
  for (std::thread& t : workers) t.join();
  if (!options.json) {
    std::cout << "\n" << inputs.size() << " files:";
    for (std::size_t i = 0; i < order.size(); ++i)
      std::cout << (i ? ", " : " ") << counts[order[i]] << " " << order[i];
    std::cout << std::endl;
  }
  return worst;
}

}  // namespace mmacheck::cli
