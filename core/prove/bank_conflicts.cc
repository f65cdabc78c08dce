#include "core/prove/bank_conflicts.h"

#include <algorithm>
#include <map>
#include <set>

namespace mmacheck {

namespace {

constexpr int kBanks = 32;

// The wavefronts of one phase: each lane touches `words` consecutive 4-byte
// words from its byte address.
BankPhase phase_count(const std::vector<std::pair<int, std::int64_t>>& lane_bytes, int words) {
  std::map<int, std::map<std::int64_t, int>> bank_words;  // bank -> word -> first lane
  for (const auto& [lane, byte] : lane_bytes)
    for (int w = 0; w < words; ++w) {
      const std::int64_t word = byte / 4 + w;
      bank_words[static_cast<int>(word % kBanks)].emplace(word, lane);
    }
  BankPhase p;
  for (const auto& [bank, ws] : bank_words)
    if (static_cast<int>(ws.size()) > p.wavefronts) {
      p.wavefronts = static_cast<int>(ws.size());
      p.bank = bank;
      p.lanes.clear();
      for (const auto& [word, lane] : ws) p.lanes.push_back(lane);
      std::sort(p.lanes.begin(), p.lanes.end());
    }
  return p;
}

}  // namespace

std::vector<BankCount> count_bank_conflicts(const SharedStage& stage) {
  std::vector<BankCount> out;
  const int width = stage.reader.width;
  for (const SharedAccess& a : stage.accesses) {
    if (out.empty() || out.back().line != a.stmt->loc.line || out.back().statement != a.label) {
      BankCount c;
      c.statement = a.label;
      c.shared = stage.shared;
      c.line = a.stmt->loc.line;
      out.push_back(std::move(c));
    }
    BankCount& c = out.back();
    const int instruction = c.instructions++;
    // Phases: (first lane, lanes, words per lane).
    std::vector<std::tuple<int, int, int>> phases;
    if (a.copy)
      for (int i = 0; i < a.copy->num; ++i) phases.emplace_back(8 * i, 8, 4);
    else if (width > 4) phases = {{0, 16, width / 4}, {16, 16, width / 4}};
    else phases = {{0, 32, 1}};
    for (std::size_t ph = 0; ph < phases.size(); ++ph) {
      const auto [first, lanes, words] = phases[ph];
      std::vector<std::pair<int, std::int64_t>> lane_bytes;
      for (int l = first; l < first + lanes; ++l)
        if (a.lane_offset[l] >= 0) lane_bytes.emplace_back(l, a.lane_offset[l] * width);
      if (lane_bytes.empty()) continue;
      BankPhase p = phase_count(lane_bytes, words);
      p.instruction = instruction;
      p.phase = static_cast<int>(ph);
      c.wavefronts += p.wavefronts;
      c.ideal += 1;
      if (p.wavefronts > 1) c.conflicts.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace mmacheck
