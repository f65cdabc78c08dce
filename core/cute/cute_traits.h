// CuteAtomTraits — the MMA atoms of a CUTLASS trait header or of an atom
// list, each with its layouts as written.
//
// A trait header (include/cute/atom/mma_traits_sm80.hpp) is read, not
// compiled: `using NAME = Layout<...>;` anywhere defines an alias, and every
//
//     template <> struct MMA_Traits<ATOM> [: MMA_Traits<BASE>] { using X = ...; ... };
//
// is an atom whose ValTypeD/A/B/C, Shape_MNK, ThrID, ALayout, BLayout and
// CLayout are read from its body, the ones it does not write coming from
// BASE (as C++ inheritance gives them; BASE must be specialized earlier in
// the file, as C++ needs it complete).  An alias the file does not define is
// looked up in a small table of aliases from the headers it #includes.
//
// The reader is strict: whatever it does not understand is a located Error,
// never a verdict — a member it does not know, a member or specialization
// given twice, an atom inheriting from itself or from an atom the file does
// not specialize, an atom missing a member after inheritance, a malformed
// layout or Shape_MNK, an unknown ValType, a bracket never closed (a
// truncated header).  A partial specialization is read when its template
// parameters cannot change a layout — GMMA::Major (transpose) and
// GMMA::ScaleIn (negate), as every wgmma atom of mma_traits_sm90_gmma.hpp
// has — and the atom is named without them (`resolved` lists them):
//
//     template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn sA, GMMA::ScaleIn sB>
//     struct MMA_Traits<SM90_64x8x16_F16F16F16_SS<tnspA, tnspB, sA, sB>> { ... };
//       -> atom SM90_64x8x16_F16F16F16_SS, resolved {"GMMA::Major tnspA", ...}
//
// Any other partial specialization (`template <class T> struct
// MMA_Traits<X<T>>`, UMMA's element types and M, N) is listed with
// `templated` set and its body skipped: the checker calls it unchecked.
// Alias templates of integer parameters (`template <int N> using
// CLayout_64xN = Layout<...Int<N/8>...>;`) are instantiated where a layout
// names them (`GMMA::CLayout_64xN<64>`, namespace qualifiers dropped), their
// Int<...> arguments evaluated (+ - * / on integers, as C++ does).  A wgmma
// body's `GMMA::ScaleOut accumulate_ = ...;` (a run-time flag) is skipped.
// Nesting is bounded by Resource::depth and reading is one pass over the
// tokens.
//
// An atom list is the same data typed by hand, one atom per entry:
//
//     SM80_16x8x16_F32F16F16F32_TN: A = ((4,8),(2,2,2)):((32,1),(16,8,128)),
//                                   B = ((4,8),(2,2)):((16,1),(8,64)), C = SM80_16x8_Row
//
// keys A, B, C, ThrID (default Layout<_32>), Shape_MNK (a Shape<...>) and
// ValTypeD/A/B/C (C++ type names), each at most once;
// `using NAME = LAYOUT;` lines define aliases for later entries.  A TiledMMA
// is written as CuTe (or the CuTe DSL's print) shows it:
//
//     tiled SM80_16x8x16_F32F16F16F32_TN: ThrLayoutVMNK = (32,2,2,1):(1,32,64,0),
//         Tile = (32,32,16), A = <tv_layout_A_tiled>, B = ..., C = ...
//
// or in CuTe notation, after the atom's own entry:
//
//     tiled SM80_16x8x16_F32F16F16F32_TN: AtomLayout = (2,2,1), Permutation = (32, (8,4):(4,1), _)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/limits.h"
#include "core/cute/cute_layout.h"

namespace mmacheck {

// One layout member (ALayout, ...) as the file gives it.
struct CuteLayoutSource {
  std::optional<CuteLayout> layout;  // set when the member is given (the readers refuse a bad one)
  std::string written;               // "SM80_16x8_Row", or "" for a layout written out
  SourceLoc loc;
  bool present() const { return layout.has_value(); }
};

// A ValTypeD/A/B/C as written, and the atom-name token it stands for
// (half_t -> "F16", cute::uint1b_t -> "U1", complex<double> -> "C64").
struct CuteValType {
  std::string token;
  std::string written;
  SourceLoc loc;
};

// A FrgTypeX member: which, and the type as written ("GMMA::smem_desc<tnspA>").
struct CuteFrgType {
  std::string member;
  std::string written;
};

struct CuteAtomTraits {
  std::string name;  // "SM80_16x8x32_S32S4S4S32_TN"
  SourceLoc loc;
  std::string base;        // "" or the atom it inherits from
  bool templated = false;  // a partial specialization: body not read
  std::optional<IntTuple> shape_mnk;
  CuteLayoutSource thr_id, a, b, c;
  std::array<std::optional<CuteValType>, 4> val_types;  // D, A, B, C
  std::vector<CuteFrgType> frg_types;                   // FrgTypeA/B/C members given
  std::vector<std::string> resolved;                    // layout-neutral template parameters, as written
  // A TiledMMA of the atom (atom lists only, `tiled NAME: ...`): a, b, c are
  // then the TiledMMA's TV layouts over the tile (M, N, K), thr_vmnk its
  // thread layout (lane, warp M, warp N, warp K) -> thread index.
  bool tiled = false;
  CuteLayoutSource thr_vmnk;
  std::optional<IntTuple> tile;
  // Or the TiledMMA in CuTe notation, to be built: make_tiled_mma(atom,
  // atom_layout, permutation) with a, b, c, thr_id the atom's own (from the
  // file's entry of the same name); a permutation mode absent is CuTe's `_`.
  std::optional<CuteLayout> atom_layout;
  std::array<std::optional<CuteLayout>, 3> permutation;
};

// Every MMA_Traits specialization of a header, in file order, with
// inheritance resolved.  Throws Error (located) for anything not understood.
std::vector<CuteAtomTraits> read_cute_header(const std::string& text, const std::string& file,
                                             const Limits& limits = Limits());
// Every entry of an atom list.  Throws Error (located) for any malformed
// entry, and for an atom (not a tiled entry) listed twice.
std::vector<CuteAtomTraits> read_cute_atom_list(const std::string& text, const std::string& file,
                                                const Limits& limits = Limits());
// A header (it mentions MMA_Traits), the CuTe DSL's print output
// (core/cute/cute_dsl_print.h) or an atom list, by content.
std::vector<CuteAtomTraits> read_cute_file(const std::string& text, const std::string& file,
                                           const Limits& limits = Limits());

}  // namespace mmacheck
