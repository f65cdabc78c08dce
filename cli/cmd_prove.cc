// mmacheck prove FILE... [--json] [--method z3|z3-unrolled|exhaustive] [--timeout-ms N]
//                        [--inst-set tvm|extended] [-j N]
// (also plain `mmacheck FILE...`)
//
// Dispatches the file's gemm and proves the nest (core/prove/prove.h).  Text
// output: the instruction and tiling, one line per check (result, time),
// the counterexamples in words or the dispatch's reasons, and a last line
// `verdict: ...`.  --json prints report_json() (core/prove/report_json.h).  Exit status 0 proved,
// 1 refuted / dispatch_failed / unknown, 2 bad input.
#include <cstdio>
#include <map>
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/file_batch.h"
#include "cli/input_kinds.h"
#include "cli/kernel_batch.h"
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "core/prove/report_json.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

void print_banks(std::ostream& os, const std::vector<BankCount>& banks) {
  if (banks.empty()) return;
  os << "bank conflicts (32 banks of 4 bytes; wavefronts per statement):\n";
  for (const BankCount& b : banks) {
    std::string head = "  " + b.statement + " (" + b.shared + ", line " + std::to_string(b.line) + ")";
    head.resize(std::max<std::size_t>(head.size() + 1, 36), ' ');
    os << head << b.wavefronts << " wavefronts, ideal " << b.ideal << ": "
       << (b.extra() == 0 ? std::string("conflict-free") : std::to_string(b.extra()) + " extra") << "\n";
    std::size_t shown = 0;
    for (const BankPhase& p : b.conflicts) {
      if (++shown > 4) {
        os << "    ... (" << b.conflicts.size() << " conflicting phases in all; --json lists every one)\n";
        break;
      }
      os << "    " << (b.instructions > 1 ? "instruction " + std::to_string(p.instruction) + ", " : "") << "phase "
         << p.phase << ": " << p.wavefronts << "-way in bank " << p.bank << ", lanes";
      for (std::size_t i = 0; i < p.lanes.size(); ++i) os << (i ? ", " : " ") << p.lanes[i];
      os << "\n";
    }
  }
}

std::string ms_str(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

std::string element_text(const std::string& name, const std::optional<Element>& e) {
  if (!e) return "nothing";
  std::string s = name;
  for (std::int64_t v : *e) s += "[" + std::to_string(v) + "]";
  return s;
}

// How many mismatches the text shows after the summary.
constexpr std::size_t kShownMismatches = 4;

void print_diagnosis(std::ostream& os, const std::vector<Diagnosis>& diagnosis) {
  os << "diagnosis:\n";
  std::string instruction = "-";
  for (const Diagnosis& d : diagnosis) {
    if (is_instruction_level(d.property)) {
      os << "  " << d.message << "\n";
      continue;
    }
    if (d.instruction != instruction) {
      instruction = d.instruction;
      os << "  as " << instruction << ":\n";
    }
    if (d.property == DiagnosisProperty::fits) {
      os << "    " << d.message << "\n";
      continue;
    }
    os << "    " << d.operand << ": " << d.message << "  [" << diagnosis_property_name(d.property) << "]\n";
    if (d.fix && d.fix_proves) os << "      fix: " << d.fix_line << "  (" << d.fix_reason << ")\n";
    else if (d.fix)
      os << "      fits " << d.operand << ", but the program still does not prove: " << d.fix_line << "  ("
         << d.fix_reason << ")\n";
    else os << "      no single change fixes it: " << d.fix_reason << "\n";
  }
}

void print_counterexample(std::ostream& os, const Counterexample& cx) {
  os << "  " << cx.check.name() << ": " << cx.message << "\n";
  if (!cx.summary.empty()) {
    os << "    " << cx.summary << "\n";
    for (std::size_t i = 1; i < cx.mismatches.size() && i <= kShownMismatches; ++i) {
      const Mismatch& m = cx.mismatches[i];
      os << "    " << (m.warp ? "warp " + std::to_string(*m.warp) + ", " : "") << "lane " << m.lane << ", slot "
         << m.slot << ": " << element_text(cx.source.empty() ? cx.operand : cx.source, m.actual) << " where "
         << element_text(cx.operand, m.expected) << " belongs\n";
    }
    if (cx.mismatches.size() > kShownMismatches + 1)
      os << "    ... (" << cx.mismatches.size() << " in all; --json lists every one)\n";
  }
  if (cx.fix && is_staging(cx.check.kind))
    os << "    or, if the " << check_kind_name(cx.check.kind) << " is what was meant, fix the layout: " << *cx.fix
       << "  (" << cx.fix_reason << ")\n";
  else if (cx.fix) os << "    fix: " << *cx.fix << "  (" << cx.fix_reason << ")\n";
}

void text(std::ostream& os, const ProofReport& r) {
  if (r.verdict == Verdict::dispatch_failed) {
    os << "dispatch failed:\n";
    for (const std::string& reason : r.reasons) os << "  " << reason << "\n";
    if (!r.diagnosis.empty()) print_diagnosis(os, r.diagnosis);
    for (const std::string& note : r.notes) os << "note: " << note << "\n";
    os << "verdict: dispatch_failed\n";
    return;
  }
  os << "instruction: " << r.inst->ptx() << "\n"
     << "tiling: M " << r.tiles_m << " x N " << r.tiles_n << " x K " << r.tiles_k << " tiles per warp, " << r.mma_count
     << " mma\n";
  int refuted = 0, unknown = 0, superseded = 0;
  os << "checks (" << (r.checks.empty() ? "" : proof_method_name(r.checks.front().method)) << "):\n";
  for (const CheckReport& c : r.checks) {
    std::string name = "  " + c.check.name();
    name.resize(std::max<std::size_t>(name.size() + 1, 18), ' ');
    std::string result(check_result_name(c.result));
    result.resize(std::max<std::size_t>(result.size() + 1, 9), ' ');
    if (!c.solved) os << name << result << "(" << c.note << ")\n";
    else os << name << result << ms_str(c.ms) << (c.note.empty() ? "" : "  (" + c.note + ")") << "\n";
    refuted += c.result == CheckResult::refuted;
    unknown += c.result == CheckResult::unknown;
    superseded += c.result == CheckResult::superseded;
  }
  if (!r.counterexamples.empty()) os << "counterexamples:\n";
  for (const Counterexample& cx : r.counterexamples) print_counterexample(os, cx);
  print_banks(os, r.bank_conflicts);
  for (const std::string& note : r.notes) os << "note: " << note << "\n";
  os << "verdict: " << verdict_name(r.verdict);
  if (refuted) os << " (" << refuted << " of " << r.checks.size() << " checks refuted)";
  else if (unknown) os << " (" << unknown << " of " << r.checks.size() << " checks undecided)";
  else if (superseded)
    os << " (all " << r.checks.size() << " checks, " << superseded << " superseded by the program as executed)";
  else os << " (all " << r.checks.size() << " checks)";
  os << "\n";
}

// One file: its own program, or each kernel its tests build (cli/kernel_batch.h).
FileOutcome prove_file(const ReadProgram& read, const ProveOptions& opts, std::optional<int> max_banks, bool as_json,
                       std::ostream& out) {
  return check_kernels(read, as_json, out, [&](const Program& program, const KernelInstance* kernel, std::ostream& o) {
    ProofReport report = prove(program, opts);
    const bool failed = report.verdict == Verdict::dispatch_failed;
    for (std::string& note : kernel_notes(read, kernel, failed)) report.notes.push_back(std::move(note));
    const bool banks_ok = !max_banks || report.extra_wavefronts() <= *max_banks;
    KernelOutcome k{report.verdict == Verdict::proved && banks_ok, std::string(verdict_name(report.verdict)), failed,
                    Json()};
    if (as_json) {
      k.json = report_json(report);
      if (max_banks) {
        k.json["max_bank_conflicts"] = *max_banks;
        k.json["bank_conflicts_ok"] = banks_ok;
      }
    } else {
      text(o, report);
      if (!banks_ok)
        o << "bank conflicts: " << report.extra_wavefronts() << " extra wavefronts, more than --max-bank-conflicts "
          << *max_banks << "\n";
    }
    return k;
  });
}

}  // namespace

int run_prove(const Args& args) {
  po::options_description options("mmacheck prove");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), "files of any kind mmacheck reads (gemm programs; wgmma, TMA, tcgen05, mma.sp, block-scale, Triton, CuTe files; wgmma PTX) or folders; - is standard input (read as a program)")
      ("json", po::bool_switch(), "print the JSON report (JSON Lines, one object per file, for several)")
      ("method", po::value<std::string>()->default_value("z3"), "z3, z3-unrolled (the per-statement encoding) or exhaustive")
      ("timeout-ms", po::value<unsigned>()->default_value(10000), "Z3 time limit for the whole run")
      ("inst-set", po::value<std::string>()->default_value("tvm"), "tvm or extended")
      ("jobs,j", po::value<int>()->default_value(1), "files proved at once (0: one per hardware thread)")
      ("max-bank-conflicts", po::value<int>(), "fail (exit 1) when the shared-memory statements need more than N extra wavefronts");
  // clang-format on
  options.add(limit_options());
  options.add(input_options());
  options.add(unchecked_option());
  options.add(launch_options());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("prove: missing FILE (usage: " + usage_line("prove") + ")");

  ProveOptions opts;
  opts.method = parse_proof_method(vm["method"].as<std::string>());
  opts.timeout_ms = vm["timeout-ms"].as<unsigned>();
  opts.limits = limits_from(vm);
  opts.inst_set = parse_inst_set(vm["inst-set"].as<std::string>());
  const bool as_json = vm["json"].as<bool>();
  const std::optional<int> max_banks =
      vm.count("max-bank-conflicts") ? std::optional<int>(vm["max-bank-conflicts"].as<int>()) : std::nullopt;
  if (max_banks && *max_banks < 0) throw Error("--max-bank-conflicts must be at least 0");
  const std::vector<std::string> operands = vm["file"].as<std::vector<std::string>>();
  // The front door: a file of an instruction family's kind gets that
  // family's check (cli/input_kinds.h), any other is read as a gemm program.
  const BatchOptions batch{
      .jobs = checked_jobs(vm["jobs"].as<int>()),
      .json = as_json,
      .skip_no_gemm = skip_no_gemm(vm, operands),
      .also_checks = [](std::string_view path, std::string_view text) { return recognise(path, text) != nullptr; }};
  const KindOptions kind_options{.json = as_json,
                                 .allow = vm["allow-unchecked"].as<bool>(),
                                 .limits = opts.limits,
                                 .launch = launch_choice_from(vm)};
  return run_batch(expand_inputs(operands, input_selection(vm), folder_extensions(Job::prove)), batch,
                   [&](const std::string& path, std::ostream& out) {
                     const std::string text = read_text_file(path);  // once: it may be standard input
                     const InputKind* kind = recognise(path, text, kind_options.launch);
                     check_launch_options(kind_options.launch, kind, path);
                     if (kind != nullptr) return kind->check(path, text, kind_options, out);
                     try {
                       return prove_file(read_program(text, input_name(path)), opts, max_banks, as_json, out);
                     } catch (const Error& e) {
                       // A file that names no gemm was only ever tried as a program: say so,
                       // with the program reader's first error, where it stands.
                       if (mentions_gemm(text)) throw;
                       throw Error(e.loc(), "no reader recognises this file (it names no gemm, and it is none of " +
                                                kind_names() + "); read as a gemm program: " + e.message());
                     }
                   });
}

}  // namespace mmacheck::cli
