#include "core/prove/frame_verdict.h"

namespace mmacheck {

std::string_view verdict_name(FrameVerdict v) {
  switch (v) {
    case FrameVerdict::proved: return "proved";
    case FrameVerdict::unchecked: return "unchecked";
    case FrameVerdict::refuted: return "refuted";
    case FrameVerdict::ill_formed: return "ill_formed";
  }
  return "?";
}

}  // namespace mmacheck
