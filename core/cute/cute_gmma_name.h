// decode_gmma_name(), decode_umma_name() — the instruction a CuTe warpgroup
// atom's name names.
//
// GMMA (sm_90 wgmma): SM90_64x<N>x<K>_<D><A><B>_<SS|RS>[_TN][_SATURATE].
// The name gives C = D's type once; SS reads A and B from shared memory
// through descriptors, RS reads A from registers (B is always in shared
// memory).  The 16-bit atoms take GMMA::Major template parameters (transpose
// bits) and have no _TN; tf32, 8-bit float and integer atoms are K-major only
// and end in _TN.  Template parameters GMMA::Major and GMMA::ScaleIn do not
// change a layout (the reader resolves them, core/cute/cute_traits.h).
//
//     decode_gmma_name("SM90_64x128x16_F32F16F16_SS")->ptx
//       == "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"  (a_source "shared memory")
//
// UMMA (sm_100 tcgen05): SM100_MMA_<KIND>[_2x1SM]_<SS|TS>, e.g.
// SM100_MMA_F16BF16_SS -> tcgen05.mma.cta_group::1.kind::f16.  Its M and N
// are template arguments, not in the name: m and n stay 0 and the shape comes
// from the atom's Shape_MNK; k is the kind's (256 bits of A's element).
// Block-scaled, sparse, interleaved-complex and other UMMA forms are not in
// the table: nullopt with the reason.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/cute/cute_atom_name.h"

namespace mmacheck {

std::optional<CuteAtomName> decode_gmma_name(std::string_view name, std::string* problem = nullptr);
std::optional<CuteAtomName> decode_umma_name(std::string_view name, std::string* problem = nullptr);

// True for a name of the GMMA (SM90_..._SS/_RS...) or UMMA (SM100_MMA_...)
// form, whether or not it decodes.
bool is_gmma_name(std::string_view name);
bool is_umma_name(std::string_view name);

}  // namespace mmacheck
