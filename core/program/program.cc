#include "core/program/program.h"

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

}  // namespace mmacheck
