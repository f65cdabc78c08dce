#include "cuda/gemm_kernel.h"

#include <algorithm>
#include <sstream>

#include "core/emit/cuda_source.h"
#include "core/base/error.h"
#include "cuda/shared_kernel.h"

namespace mmacheck::cuda {

namespace {

std::string mask_literal(int elem_bits, int word_bits) {
  std::ostringstream os;
  const std::uint64_t mask = elem_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << elem_bits) - 1;
  os << "0x" << std::hex << mask << (word_bits == 64 ? "ull" : "u");
  return os.str();
}

// Loads one buffer's slots (`table` entries at `offset`) into `array`.
void emit_load(std::ostream& os, const std::string& what, const char* array, const char* global,
               const CudaBufferAbi& abi, const SlotTable& table, std::size_t offset) {
  os << "  {  // " << what << ": " << table.slots << " slots, " << abi.per_word() << " per word\n"
     << "    const int* idx = table + " << offset << " + t * " << table.slots << ";\n"
     << "#pragma unroll\n"
     << "    for (int s = 0; s < " << table.slots << "; ++s) {\n"
     << "      const int i = idx[s];\n"
     << "      if (i >= 0) " << array << "[s / " << abi.per_word() << "] |= (" << global << "[i] & "
     << mask_literal(abi.elem_bits, abi.word_bits) << ") << (s % " << abi.per_word() << " * " << abi.elem_bits << ");\n"
     << "    }\n"
     << "  }\n";
}

void check_slots(const SlotTable& table, const NestOperand& operand, const char* role) {
  if (table.slots != operand.slots || table.dtype != operand.dtype)
    throw Error(std::string("staging of ") + role + " '" + table.buffer + "' has " + std::to_string(table.slots) + " " +
                std::string(dtype_info(table.dtype).ptx) + " slots, the nest's buffer '" + operand.buffer + "' " +
                std::to_string(operand.slots) + " " + std::string(dtype_info(operand.dtype).ptx));
}

}  // namespace

GemmKernel gemm_kernel(const Nest& nest, const Staging& st) {
  // The kernel loads, runs the whole nest, then stores; steps (a statement
  // between two mma statements, build_staging) are another order.
  if (!st.steps.empty()) {
    const auto is_mma = [](const StagingStep& s) { return s.kind == StagingStep::Kind::mma; };
    const auto between =
        std::find_if_not(std::find_if(st.steps.begin(), st.steps.end(), is_mma), st.steps.end(), is_mma);
    throw Error(between == st.steps.end() ? SourceLoc{} : between->loc,
                "this statement stands between two mma statements: gpu's kernel loads, runs the mma statements "
                "back to back, then stores, so it would not run this program in its order; `mmacheck prove` and "
                "`mmacheck sim` do");
  }
  check_slots(st.a, nest.a, "A");
  check_slots(st.b, nest.b, "B");
  check_slots(st.c, st.c_in_d ? nest.d : nest.c, "C");
  check_slots(st.d, nest.d, "D");
  const CudaBufferAbi a = cuda_buffer_abi(nest.a), b = cuda_buffer_abi(nest.b), c = cuda_buffer_abi(nest.c),
                      d = cuda_buffer_abi(nest.d);

  GemmKernel k;
  k.threads = st.threads;
  const std::size_t off_a = 0, off_b = off_a + st.a.index.size(), off_c = off_b + st.b.index.size(),
                    off_d = off_c + st.c.index.size();
  for (const SlotTable* t : {&st.a, &st.b, &st.c, &st.d})
    k.table.insert(k.table.end(), t->index.begin(), t->index.end());

  std::ostringstream os;
  os << emit_cuda(nest) << "\n";
  os << "extern \"C\" __global__ void __launch_bounds__(" << st.threads << ") " << k.entry << "(\n"
     << "    const " << a.word_type() << "* __restrict__ a_g, const " << b.word_type() << "* __restrict__ b_g, const "
     << (st.c_in_d ? d : c).word_type() << "* __restrict__ c_g,\n"
     << "    " << d.word_type() << "* __restrict__ d_g, const int* __restrict__ table) {\n"
     << "  const int t = threadIdx.x;\n"
     << "  const long long kase = blockIdx.x;\n"
     << "  a_g += kase * " << st.a.elements() << "ll;\n"
     << "  b_g += kase * " << st.b.elements() << "ll;\n"
     << "  c_g += kase * " << st.c.elements() << "ll;\n"
     << "  d_g += kase * " << st.d.elements() << "ll;\n"
     << "  " << a.word_type() << " a[" << a.words << "] = {};\n"
     << "  " << b.word_type() << " b[" << b.words << "] = {};\n"
     << "  " << d.word_type() << " d[" << d.words << "] = {};\n";
  if (!st.c_in_d) os << "  " << c.word_type() << " c[" << c.words << "] = {};\n";
  // Shared-memory parts (cuda/shared_kernel.h) append their tables after D's.
  const SharedKernelPart sa{"smem_a", "a", "a_g", a}, sb{"smem_b", "b", "b_g", b},
      sc{"smem_c", st.c_in_d ? "d" : "c", "c_g", st.c_in_d ? d : c}, sd{"smem_d", "d", "d_g", d};
  if (st.shared_a) emit_shared_declaration(os, sa, *st.shared_a);
  if (st.shared_b) emit_shared_declaration(os, sb, *st.shared_b);
  if (st.shared_c) emit_shared_declaration(os, sc, *st.shared_c);
  if (st.shared_d) emit_shared_declaration(os, sd, *st.shared_d);
  if (st.shared_a) emit_shared_load(os, sa, *st.shared_a, st.threads, k.table);
  else emit_load(os, "A '" + st.a.buffer + "'", "a", "a_g", a, st.a, off_a);
  if (st.shared_b) emit_shared_load(os, sb, *st.shared_b, st.threads, k.table);
  else emit_load(os, "B '" + st.b.buffer + "'", "b", "b_g", b, st.b, off_b);
  if (st.shared_c) emit_shared_load(os, sc, *st.shared_c, st.threads, k.table);
  else
    emit_load(os, "C '" + st.c.buffer + (st.c_in_d ? "' (D's registers)" : "'"), st.c_in_d ? "d" : "c", "c_g",
              st.c_in_d ? d : c, st.c, off_c);
  os << "  mmacheck_nest(d, a, b, " << (st.c_in_d ? "d" : "c") << ");\n";
  if (st.shared_d) {
    emit_shared_store(os, sd, *st.shared_d, st.threads, k.table);
  } else {
    os << "  {  // D '" << st.d.buffer << "'\n"
       << "    const int* idx = table + " << off_d << " + t * " << st.d.slots << ";\n"
       << "#pragma unroll\n"
       << "    for (int s = 0; s < " << st.d.slots << "; ++s) {\n"
       << "      const int i = idx[s];\n"
       << "      if (i >= 0) d_g[i] = (d[s / " << d.per_word() << "] >> (s % " << d.per_word() << " * " << d.elem_bits
       << ")) & " << mask_literal(d.elem_bits, d.word_bits) << ";\n"
       << "    }\n"
       << "  }\n";
  }
  os << "}\n";
  k.source = os.str();
  return k;
}

}  // namespace mmacheck::cuda
