// TVMScript's execution scope: the thread ids of a @T.prim_func
// (T.device_entry, T.cta_id, T.warp_id, T.lane_id, T.thread_id), `with
// T.warp():` / `with T.cta():` and the scoped gemm (Tx.warp.gemm,
// Tx.cta.gemm, Tx.gemm under a `with`), which set the Program's ExecScope.
#include <algorithm>

#include "core/program/python_values.h"
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

using namespace program_detail;
using namespace python;

namespace {

// The thread ids of a @T.prim_func: what each binds a name to.
enum class ThreadId { device_entry, cta, warp, lane, thread };

std::optional<ThreadId> thread_id_kind(std::string_view name) {
  if (name == "device_entry") return ThreadId::device_entry;
  if (name == "cta_id") return ThreadId::cta;
  if (name == "warp_id") return ThreadId::warp;
  if (name == "lane_id") return ThreadId::lane;
  if (name == "thread_id") return ThreadId::thread;
  return std::nullopt;
}

// The ids TVM has that mmacheck does not model (warpgroup and cluster levels).
constexpr std::string_view kOtherIds[] = {"warpgroup_id",      "warp_id_in_wg",  "thread_id_in_wg", "cluster_id",
                                          "cta_id_in_cluster", "cta_id_in_pair", "scope_id"};

}  // namespace

bool program_detail::is_thread_id_name(std::string_view name) {
  return thread_id_kind(name) || std::find(std::begin(kOtherIds), std::end(kOtherIds), name) != std::end(kOtherIds);
}

void ProgramParser::with_statement() {
  const Token& with = in_.next();
  if (!(is_tirx_prefix(in_.peek()) && in_.peek(1).is_op(".") && in_.peek(3).is_op("(") && in_.peek(4).is_op(")")))
    in_.fail(in_.peek(), "expected with T.warp(): or with T.cta():, got " + describe(in_.peek()));
  in_.next();
  in_.next();
  const Token& kind = in_.next();
  std::optional<ExecScope::Kind> scope;
  if (kind.text == "warp") scope = ExecScope::Kind::warp;
  if (kind.text == "cta") scope = ExecScope::Kind::cta;
  if (!scope) in_.fail(kind, "with T." + kind.text + "(): mmacheck checks gemm at warp or cta scope");
  in_.next();
  in_.next();
  const std::optional<ExecScope::Kind> outer = with_scope_;
  with_scope_ = scope;
  suite(with);
  with_scope_ = outer;
}

// [NAME =] T.device_entry() | T.cta_id([..]) | T.warp_id([W]) | T.lane_id([32]) | T.thread_id([N])
void ProgramParser::thread_ids(const Token* name) {
  in_.next();  // T
  in_.next();  // .
  const Token& fn = in_.next();
  const std::optional<ThreadId> kind = thread_id_kind(fn.text);
  if (!kind)
    in_.fail(fn, "T." + fn.text +
                     ": mmacheck reads warp- and CTA-level programs "
                     "(T.cta_id, T.warp_id, T.lane_id, T.thread_id)");
  const Token& open = in_.expect("(", "after T." + fn.text);
  std::vector<std::int64_t> extents;
  bool deferred = true;
  while (!in_.peek().is_op(")")) {
    if (in_.peek().is_name("dtype") && in_.peek(1).is_op("=")) {
      in_.next();
      in_.next();
      word(in_, "a dtype");
    } else if (in_.peek().is_name("None")) {
      in_.next();
    } else {
      const Token& list = in_.expect("[", "(the extents, T." + fn.text + "([32]))");
      deferred = false;
      while (!in_.peek().is_op("]")) {
        const Token& e = in_.peek();
        if (e.kind != TokenKind::integer || e.int_value <= 0 || e.int_value > 1 << 20)
          in_.fail(e, "expected a positive integer extent, got " + describe(e));
        extents.push_back(in_.next().int_value);
        if (!in_.accept(",")) break;
      }
      in_.expect_close("]", "[", list);
    }
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", "T." + fn.text + "(", open);
  if (*kind == ThreadId::device_entry) {
    if (name) in_.fail(*name, "T.device_entry() has no value");
    return;
  }
  if (!deferred && extents.empty()) in_.fail(open, "T." + fn.text + "([]) has no extent");
  if (*kind != ThreadId::cta && extents.size() > 1)
    in_.fail(open, "T." + fn.text + " with several extents is not supported (one extent)");
  const std::int64_t extent = extents.empty() ? 0 : extents.front();
  std::optional<IndexExpr> value;
  switch (*kind) {
    case ThreadId::lane:
      if (!deferred && extent != 32) in_.fail(open, "T.lane_id([" + std::to_string(extent) + "]): a warp has 32 lanes");
      value = IndexExpr::variable(IndexExpr::Kind::lane, fn.loc);
      break;
    case ThreadId::warp:
      if (!deferred) warps_ = extent;
      value = IndexExpr::variable(IndexExpr::Kind::warp, fn.loc);
      break;
    case ThreadId::thread:
      if (!deferred) threads_ = extent;
      value = IndexExpr::variable(IndexExpr::Kind::tid, fn.loc);
      break;
    default: break;  // the CTA index: the program is one CTA's
  }
  if (!name) return;
  declare(*name);
  if (value) index_names_.emplace(name->text, *value);
  else names_.others.emplace(name->text, "CTA index");
}

bool ProgramParser::scoped_gemm() {
  if (!is_tirx_prefix(in_.peek()) || !in_.peek(1).is_op(".")) return false;
  const Token* scope_name = nullptr;
  std::size_t k = 2;
  if (in_.peek(2).kind == TokenKind::identifier && in_.peek(3).is_op(".") && in_.peek(4).is_name("gemm") &&
      in_.peek(5).is_op("(")) {
    scope_name = &in_.peek(2);
    k = 4;
  } else if (!(in_.peek(2).is_name("gemm") && in_.peek(3).is_op("("))) {
    return false;
  }
  std::optional<ExecScope::Kind> kind = with_scope_;
  if (scope_name) {
    kind = scope_name->text == "warp"  ? std::optional(ExecScope::Kind::warp)
           : scope_name->text == "cta" ? std::optional(ExecScope::Kind::cta)
                                       : std::nullopt;
    if (!kind) in_.fail(*scope_name, "Tx." + scope_name->text + ".gemm: mmacheck checks gemm at warp or cta scope");
  }
  while (k-- > 0) in_.next();
  const Token& callee = in_.next();
  if (kind && !program_.scope.loc.known()) {
    ExecScope scope;
    scope.kind = *kind;
    scope.loc = callee.loc;
    if (*kind == ExecScope::Kind::cta) {
      if (!threads_ && !warps_)
        in_.fail(callee, "a CTA-scope gemm needs the CTA's size: T.thread_id([N]) or T.warp_id([W]) before it");
      const std::int64_t n = threads_ ? *threads_ : 32 * *warps_;
      if (n <= 0 || n % 32 != 0 || n > 1024)
        in_.fail(callee,
                 "a CTA-scope gemm needs a positive multiple of 32 threads (at most 1024), got " + std::to_string(n));
      scope.threads = static_cast<int>(n);
    }
    program_.scope = scope;
  }
  gemm_call(callee);
  return true;
}

}  // namespace mmacheck
