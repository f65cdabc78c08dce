// reader_bench — are the line-based readers linear in their input?  Reads
// files of 10,000 and 100,000 lines of each kind (built here, in memory)
// and prints the CPU time per 1,000 lines of each: a linear reader gives
// the same figure at both sizes (issue 34, docs/reliability.md: "every
// reader linear in its input").
//
//     build/bin/reader_bench [--lines 100000]
//
// The kinds: a wgmma operand file (three lines an operand, an f16 64 x 16
// K-major tile without swizzle, each placement computed), a block-scale
// file (five lines a case: instr, two selects, two places), a tcgen05 file
// whose single case comes after the comment lines (its layout lines the
// last ones), a TMA file and an mma.sp metadata file the same way, and a
// released-TIRx program after as many module-level constants (`C17 = 17`,
// read as Python).  The reader alone is timed, not the check.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "core/scales/scale_reader.h"
#include "core/sparse/sparse_reader.h"
#include "core/tma/tma_reader.h"
#include "core/wgmma/wgmma_reader.h"
#include "core/tcgen05/tcgen05_reader.h"

using namespace mmacheck;

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::string wgmma_file(int lines) {
  std::string text;
  for (int i = 0; i + 3 <= lines; i += 3)
    text +=
        "operand A dtype=f16 tile=64x16 major=K\n"
        "descriptor start=0x0 lbo=1024 sbo=128 swizzle=none\n"
        "smem base=0x0 layout=TileLayout(S[(8, 8, 2, 8) : (64, 8, 512, 1)])\n";
  return text;
}

std::string scale_file(int lines) {
  std::string text;
  for (int i = 0; i + 5 <= lines; i += 5)
    text +=
        "instr mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3\n"
        "select a byte=0 thread=0\n"
        "select b byte=0 thread=2\n"
        "place a row=lane // 4 + 8 * (lane % 2), block=byte\n"
        "place b col=lane // 4, block=byte\n";
  return text;
}

std::string tcgen05_file(int lines) {
  std::string text;
  for (int i = 0; i + 9 < lines; ++i) text += "# a comment line before the case\n";
  text +=
      "instr kind=f16 cta_group=1 m=128 n=64 d=f32 a=f16 b=f16 a_major=K b_major=K\n"
      "idesc 0x08100010\n"
      "operand A\n"
      "descriptor start=0x0 lbo=2048 sbo=128 swizzle=none\n"
      "smem base=0x0 layout=TileLayout(S[(16, 8, 2, 8) : (64, 8, 1024, 1)])\n"
      "operand B\n"
      "descriptor start=0x1000 lbo=1024 sbo=128 swizzle=none\n"
      "smem base=0x1000 layout=TileLayout(S[(8, 8, 2, 8) : (64, 8, 512, 1)])\n"
      "tmem D lane=0 column=0 layout=S[(128, 64) : (1@TLane, 1@TCol)]\n";
  return text;
}

std::string tma_file(int lines) {
  std::string text;
  for (int i = 0; i + 4 < lines; ++i) text += "# a comment line before the case\n";
  return text +
         "tma A dtype=f16 dims=8x256x64 strides=1024x16 box=8x64x2 swizzle=none smem=0x1000 coords=0,64,2\n"
         "operand A dtype=f16 tile=64x16 major=K\n"
         "descriptor start=0x1000 lbo=1024 sbo=128 swizzle=none\n"
         "smem tma=A box=k%8,i,k/8\n";
}

std::string sparse_file(int lines) {
  std::string text;
  for (int i = 0; i + 3 < lines; ++i) text += "# a comment line before the case\n";
  return text +
         "instr mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32\n"
         "selector 0\n"
         "meta holders=0 row=g+8*j2 chunk=j0+2*j1\n";
}

// The seed's corrected kernel (examples/tirx_seed_corrected.py) after lines of module constants.
std::string tirx_file(int lines) {
  std::string text =
      "from tvm_tirx.script import tirx as T\n"
      "import tvm_tirx.backend.cuda\n"
      "from tvm_tirx.tirx.layout import S, Axis, TileLayout\n"
      "laneid = Axis.get(\"laneid\")\n";
  for (int i = 0; i + 30 < lines; ++i) text += "C" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  return text + R"(A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(8):
            a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
        for s in T.unroll(4):
            b_h[s] = B[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2)]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
)";
}

// CPU seconds to read `text` with `read`, which must not throw.
double time_read(const std::string& text, const std::function<void(std::string_view)>& read) {
  const double t = cpu_seconds();
  read(text);
  return cpu_seconds() - t;
}

}  // namespace

int main(int argc, char** argv) {
  int lines = 100000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--lines" && i + 1 < argc) lines = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: reader_bench [--lines N]\n");
      return 2;
    }
  }
  if (lines < 100 || lines > 10000000) {
    std::fprintf(stderr, "reader_bench: --lines must be in [100, 10000000]\n");
    return 2;
  }
  struct Kind {
    const char* name;
    std::string (*make)(int);
    std::function<void(std::string_view)> read;
  };
  const Kind kinds[] = {
      {"wgmma", wgmma_file, [](std::string_view t) { (void)read_wgmma_file(t, "bench.txt"); }},
      {"scales", scale_file, [](std::string_view t) { (void)read_scale_file(t, "bench.txt"); }},
      {"tcgen05", tcgen05_file, [](std::string_view t) { (void)read_tcgen05_file(t, "bench.txt"); }},
      {"tma", tma_file, [](std::string_view t) { (void)read_tma_file(t, "bench.txt"); }},
      {"sparse", sparse_file, [](std::string_view t) { (void)read_sparse_file(t, "bench.txt"); }},
      {"tirx", tirx_file, [](std::string_view t) { (void)parse_program(t, "bench.py"); }},
  };
  std::printf("%-8s %10s %10s %14s %14s\n", "kind", "lines", "seconds", "ms/1000 lines", "vs 1/10 size");
  try {
    for (const Kind& k : kinds) {
      const int small = lines / 10;
      const double ts = time_read(k.make(small), k.read), tl = time_read(k.make(lines), k.read);
      const double per_small = 1e6 * ts / small, per_large = 1e6 * tl / lines;
      std::printf("%-8s %10d %10.3f %14.3f %13.2fx\n", k.name, lines, tl, per_large, per_large / per_small);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "reader_bench: %s: %s\n", e.loc().str().c_str(), e.message().c_str());
    return 2;
  }
  return 0;
}
