#include "core/program/program.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>

namespace mmacheck {

std::string_view mem_scope_name(MemScope scope) {
  switch (scope) {
    case MemScope::local: return "local";
    case MemScope::shared: return "shared";
    case MemScope::global: return "global";
  }
  return "?";
}

const BufferDecl* Program::find_buffer(std::string_view name) const {
  for (const BufferDecl& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

const BufferDecl& Program::buffer(std::string_view name, const SourceLoc& loc) const {
  if (const BufferDecl* b = find_buffer(name)) return *b;
  std::string known;
  for (const BufferDecl& b : buffers) known += (known.empty() ? "" : ", ") + b.name;
  throw Error(loc, "unknown buffer '" + std::string(name) + "' (" +
                       (known.empty() ? std::string("no buffers are declared") : "buffers: " + known) + ")");
}

const GemmCall& Program::gemm_call() const {
  if (!gemm) throw Error(SourceLoc{file, 1, 1}, "the program has no gemm call");
  return *gemm;
}

std::string SharedCopyStmt::label() const {
  switch (op) {
    case SharedOp::ld_shared: return "ld.shared " + reg + "[s]";
    case SharedOp::st_shared: return "st.shared " + reg + "[s]";
    default: break;
  }
  return std::string(op == SharedOp::ldmatrix ? "ldmatrix" : "stmatrix") + ".x" + std::to_string(num) +
         (trans ? ".trans " : " ") + reg + "[" + std::to_string(first_slot) + "]";
}

std::string TileCopyStmt::label() const {
  const std::string s = shared + (transposed ? ".T" : "");
  return "copy " + (store ? s + " = " + reg : reg + " = " + s);
}

std::string SlotLoop::str() const {
  const std::string range = std::to_string(first) + ".." + std::to_string(end - 1);
  if (index.kind() == IndexExpr::Kind::slot) return "s in " + range;
  return index.str() + " for s in " + range;
}

std::vector<std::pair<std::int64_t, std::int64_t>> moved_slots(const std::optional<SlotLoop>& loop,
                                                               std::int64_t slots) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  if (!loop) {
    for (std::int64_t s = 0; s < slots; ++s) out.emplace_back(s, s);
    return out;
  }
  for (std::int64_t s = loop->first; s < loop->end; ++s) out.emplace_back(s, loop->slot(s));
  return out;
}

std::vector<ProgramStep> program_order(const Program& program) {
  using Kind = ProgramStep::Kind;
  std::vector<ProgramStep> steps;
  // The declared order: what moves data into registers, the gemm, what moves it out.
  for (std::size_t i = 0; i < program.stages.size(); ++i) steps.push_back({Kind::stage, i, program.stages[i].loc});
  const auto shared = [&](bool out) {
    if (!out)
      for (std::size_t i = 0; i < program.fills.size(); ++i)
        if (!program.fills[i].drain)
          steps.push_back({Kind::fill, i, program.fills[i].visible.value_or(program.fills[i].loc)});
    for (std::size_t i = 0; i < program.copies.size(); ++i)
      if (program.copies[i].store() == out) steps.push_back({Kind::copy, i, program.copies[i].loc});
    for (std::size_t i = 0; i < program.tile_copies.size(); ++i)
      if (program.tile_copies[i].store == out) steps.push_back({Kind::tile_copy, i, program.tile_copies[i].loc});
    if (out)
      for (std::size_t i = 0; i < program.fills.size(); ++i)
        if (program.fills[i].drain) steps.push_back({Kind::fill, i, program.fills[i].loc});
  };
  shared(false);
  if (program.release && program.release->statements.size() > 1) {
    for (std::size_t i = 0; i < program.release->statements.size(); ++i)
      steps.push_back({Kind::gemm, i, program.release->statements[i].loc});
  } else if (program.gemm) {
    steps.push_back({Kind::gemm, 0, program.release ? program.release->loc : program.gemm->loc});
  }
  shared(true);
  for (std::size_t i = 0; i < program.stores.size(); ++i) steps.push_back({Kind::store, i, program.stores[i].loc});
  // Statements the reader could not place (no location) keep the declared order among themselves.
  if (program.written_order)
    std::stable_sort(steps.begin(), steps.end(), [](const ProgramStep& x, const ProgramStep& y) {
      return std::pair{x.loc.line, x.loc.col} < std::pair{y.loc.line, y.loc.col};
    });
  return steps;
}

std::uint64_t scalar_bits(float value, DType dtype) {
  if (dtype == DType::f32) return std::bit_cast<std::uint32_t>(value);
  if (std::bit_cast<std::uint32_t>(value) == 0) return 0;
  throw Error("the constant " + scalar_text(value) + " is set into " + std::string(dtype_info(dtype).tvm) +
              " registers; mmacheck sets float32 accumulators to constants, other registers to 0");
}

std::string scalar_text(float value) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::string("?");
}

std::string step_label(const Program& program, const ProgramStep& step) {
  const std::string at = step.loc.known() ? " (line " + std::to_string(step.loc.line) + ")" : "";
  switch (step.kind) {
    case ProgramStep::Kind::stage: {
      const StageStmt& s = program.stages[step.index];
      return "stage " + s.buffer + (s.slots ? "[" + s.slots->str() + "]" : "") + " = " +
             (s.constant ? scalar_text(*s.constant) : s.source) + at;
    }
    case ProgramStep::Kind::store: {
      const StoreStmt& s = program.stores[step.index];
      return "store " + s.buffer + (s.slots ? "[" + s.slots->str() + "]" : "") + " -> " + s.target + at;
    }
    case ProgramStep::Kind::fill: {
      const SharedFillStmt& f = program.fills[step.index];
      const std::string what =
          f.drain ? "drain " + f.shared + " -> " + f.matrix : "fill " + f.shared + " = " + f.matrix;
      if (!f.visible) return what + at;
      // A copy loop of the released TIRx: where it stands, and where the other threads see it.
      return what + " (line " + std::to_string(f.loc.line) +
             (f.synced ? ", seen after the barrier at line " + std::to_string(f.visible->line) + ")"
                       : ", no barrier after it)");
    }
    case ProgramStep::Kind::copy: return program.copies[step.index].label() + at;
    case ProgramStep::Kind::tile_copy: return program.tile_copies[step.index].label() + at;
    case ProgramStep::Kind::gemm:
      return (program.release ? std::string(program.release->lowered ? "the T.ptx.mma calls" : "T.cuda.tile.apply")
                              : std::string("the gemm")) +
             at;
  }
  return "?";
}

}  // namespace mmacheck
