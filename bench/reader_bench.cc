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
// last ones).  The reader alone is timed, not the check.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/scales/scale_reader.h"
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
