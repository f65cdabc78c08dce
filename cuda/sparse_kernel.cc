#include "cuda/sparse_kernel.h"

#include <sstream>

#include "core/base/error.h"

namespace mmacheck::cuda {

std::string sparse_kernel_source(const SparseMmaInst& inst, int selector, bool ordered) {
  if (selector < 0 || selector >= inst.selectors())
    throw Error(std::string(inst.tag) + ": selector " + std::to_string(selector) + " out of range");
  const int na = inst.a_frame().regs, nb = inst.b_frame().regs, nc = inst.c_frame().regs;
  std::ostringstream os;
  os << "// " << inst.ptx(ordered) << ", sparsity selector " << selector << "\n"
     << "extern \"C\" __global__ void __launch_bounds__(32) " << kSparseEntry << "(\n"
     << "    const unsigned* __restrict__ a_g, const unsigned* __restrict__ b_g, const unsigned* __restrict__ c_g,\n"
     << "    const unsigned* __restrict__ e_g, unsigned* __restrict__ d_g) {\n"
     << "  const long long w = blockIdx.x * 32ll + threadIdx.x;\n"
     << "  unsigned a[" << na << "], b[" << nb << "], c[" << nc << "], d[" << nc << "];\n"
     << "#pragma unroll\n  for (int i = 0; i < " << na << "; ++i) a[i] = a_g[w * " << na << " + i];\n"
     << "#pragma unroll\n  for (int i = 0; i < " << nb << "; ++i) b[i] = b_g[w * " << nb << " + i];\n"
     << "#pragma unroll\n  for (int i = 0; i < " << nc << "; ++i) c[i] = c_g[w * " << nc << " + i];\n"
     << "  const unsigned e = e_g[w];\n"
     << "  asm volatile(\"" << inst.ptx(ordered) << " ";
  int n = 0;
  const auto group = [&](int count) {
    os << "{";
    for (int i = 0; i < count; ++i) os << (i ? ", " : "") << "%" << n++;
    os << "}, ";
  };
  group(nc);  // d
  group(na);
  group(nb);
  group(nc);  // c
  os << "%" << n++ << ", " << selector << ";\"\n      : ";
  for (int i = 0; i < nc; ++i) os << (i ? ", " : "") << "\"=r\"(d[" << i << "])";
  os << "\n      : ";
  for (int i = 0; i < na; ++i) os << "\"r\"(a[" << i << "]), ";
  for (int i = 0; i < nb; ++i) os << "\"r\"(b[" << i << "]), ";
  for (int i = 0; i < nc; ++i) os << "\"r\"(c[" << i << "]), ";
  os << "\"r\"(e));\n"
     << "#pragma unroll\n  for (int i = 0; i < " << nc << "; ++i) d_g[w * " << nc << " + i] = d[i];\n"
     << "}\n";
  return os.str();
}

}  // namespace mmacheck::cuda
