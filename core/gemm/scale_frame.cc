#include "core/gemm/scale_frame.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck {

namespace {
// Transcribes PTX ISA §9.7.14.3's scale-factor layouts (its figures for
// scale_A and scale_B; CUTLASS's SM120 SFALayout and Triton's
// getSM120DotScaledScaleLayout state the same lanes for thread-id 0).
// Columns: operand, count, thread-ids, index lane-bit coefficients,
// thread-id lane-bit coefficients.
constexpr ScaleFrame kScaleFrames[] = {
    // A: row = 8 * bit0 + bit2 + 2 bit3 + 4 bit4 (g, +8 for odd lanes); thread-id = bit1.
    {Operand::A, 16, 2, {8, 0, 1, 2, 4}, {0, 1, 0, 0, 0}},
    // B: column = g; thread-id = lane % 4.
    {Operand::B, 8, 4, {0, 0, 1, 2, 4}, {1, 2, 0, 0, 0}},
};

constexpr int kBytes1x[] = {0, 1, 2, 3};
constexpr int kBytes2x[] = {0, 2};
constexpr int kBytes4x[] = {0};

int lane_form(const std::array<int, 5>& coeff, int lane) {
  int v = 0;
  for (std::size_t b = 0; b < coeff.size(); ++b) v += coeff[b] * ((lane >> b) & 1);
  return v;
}
}  // namespace

int ScaleFrame::index_of(int lane) const { return lane_form(index_bit, lane); }
int ScaleFrame::thread_id_of(int lane) const { return lane_form(tid_bit, lane); }

const ScaleFrame& scale_frame(Operand op) {
  for (const ScaleFrame& f : kScaleFrames)
    if (f.operand == op) return f;
  throw Error("block-scaled mma has no scale factors for operand " + std::string(operand_name(op)));
}

std::span<const int> valid_byte_ids(int scale_vec) {
  switch (scale_vec) {
    case 1: return kBytes1x;
    case 2: return kBytes2x;
    case 4: return kBytes4x;
    default: break;
  }
  throw Error("no scale_vec::" + std::to_string(scale_vec) + "X (1X, 2X or 4X)");
}

void check_selector(const MmaInst& inst, Operand op, ScaleSelector sel) {
  if (!inst.block_scaled()) throw Error(inst.ptx() + " is not block-scaled: it has no scale selectors");
  const ScaleFrame& f = scale_frame(op);
  const std::string side = op == Operand::A ? "a" : "b";
  if (sel.thread_id < 0 || sel.thread_id >= f.thread_ids)
    throw Error("thread-id-" + side + " " + std::to_string(sel.thread_id) + " is not 0.." +
                std::to_string(f.thread_ids - 1));
  bool ok = false;
  std::string valid;
  for (const int b : valid_byte_ids(inst.scale_vec)) {
    ok = ok || b == sel.byte_id;
    valid += (valid.empty() ? "" : ", ") + std::to_string(b);
  }
  if (!ok)
    throw Error("byte-id-" + side + " " + std::to_string(sel.byte_id) +
                " is not valid for scale_vec::" + std::to_string(inst.scale_vec) + "X (" + valid + ")");
}

std::optional<ScaleRead> scale_read(const MmaInst& inst, Operand op, ScaleSelector sel, int lane, int byte) {
  const ScaleFrame& f = scale_frame(op);
  if (lane < 0 || lane >= 32 || f.thread_id_of(lane) != sel.thread_id) return std::nullopt;
  const int block = byte - sel.byte_id;
  if (block < 0 || block >= inst.scale_vec) return std::nullopt;
  return ScaleRead{f.index_of(lane), block};
}

ScalePlace scale_place(const MmaInst& inst, Operand op, ScaleSelector sel, int index, int block) {
  const ScaleFrame& f = scale_frame(op);
  if (index < 0 || index >= f.count || block < 0 || block >= inst.scale_vec)
    throw Error("operand " + std::string(operand_name(op)) + " has no scale factor (" + std::to_string(index) + ", " +
                std::to_string(block) + ")");
  for (int lane = 0; lane < 32; ++lane)
    if (f.thread_id_of(lane) == sel.thread_id && f.index_of(lane) == index) return {lane, sel.byte_id + block};
  throw Error("no lane holds operand " + std::string(operand_name(op)) + "'s scale factor " + std::to_string(index));
}

}  // namespace mmacheck
