#include "core/program/release_mma.h"

namespace mmacheck {

bool release_pattern_opcode(std::string_view opcode) {
  const auto ends = [&](std::string_view suffix) {
    return opcode.size() >= suffix.size() && opcode.substr(opcode.size() - suffix.size()) == suffix;
  };
  const bool shape =
      opcode.starts_with("mma.sync.aligned.m16n8k16.") || opcode.starts_with("mma.sync.aligned.m16n8k8.");
  return shape && (ends(".f32.f16.f16.f32") || ends(".f32.bf16.bf16.f32"));
}

}  // namespace mmacheck
