// Inputs shared by the hardening tests (docs/reliability.md): gemms of any
// size written inline, and a scratch folder removed when the test ends.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_sim_support.h"

namespace mmacheck::test {

// An M x N x K gemm of m16n8k16 tiles in one warp, the seed's fragments
// tiled over the whole operands (no staging statements).
inline std::string gemm_text(std::int64_t m, std::int64_t n, std::int64_t k) {
  const auto s = [](std::int64_t v) { return std::to_string(v); };
  return kFragments + "A = buffer((" + s(m) + ", " + s(k) + "), \"float16\", \"local\", A_FRAG.tile_to([" + s(m) +
         ", " + s(k) + "], [16, 16]))\n" + "B = buffer((" + s(k) + ", " + s(n) +
         "), \"float16\", \"local\", B_FRAG.tile_to([" + s(k) + ", " + s(n) + "], [16, 8]))\n" + "D = buffer((" + s(m) +
         ", " + s(n) + "), \"float32\", \"local\", D_FRAG.tile_to([" + s(m) + ", " + s(n) +
         "], [16, 8]))\nscope warp\ngemm(D, A, B, D)\n";
}

class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "mmacheck-hardening-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data()) ? tmpl : "";
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return file(name);
  }
  // Names in the folder, hidden ones included.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
    return out;
  }

 private:
  std::filesystem::path path_;
};

// True in the sanitizer build, where ulimit -v cannot be used (ASan reserves
// terabytes of address space).
constexpr bool kAddressSanitizer =
#if defined(__SANITIZE_ADDRESS__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace mmacheck::test
