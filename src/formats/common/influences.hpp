// What template writers share to tell an unedited vertex: its influences as skinning blends
// them. Two slots of a vertex may name one joint (a KH2 vertex in two matrix slots of the
// same bone); glTF names a joint once per vertex, so a mesh that came through it holds one
// influence with the summed weight. Compared slot by slot, that vertex would look edited.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace animkit {

// (joint, weight) pairs: each joint once, its weights summed, by joint; no weight <= 0.
using BlendedInfluences = std::vector<std::pair<uint32_t, float>>;

inline BlendedInfluences Blended(BlendedInfluences all) {
  std::erase_if(all, [](const auto& p) { return !(p.second > 0); });
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  BlendedInfluences out;
  for (const auto& [joint, weight] : all) {
    if (!out.empty() && out.back().first == joint) out.back().second += weight;
    else out.emplace_back(joint, weight);
  }
  return out;
}

inline BlendedInfluences BlendedSlots(const std::array<uint16_t, 4>& joints, const std::array<float, 4>& weights) {
  BlendedInfluences all;
  for (size_t k = 0; k < 4; ++k) all.emplace_back(joints[k], weights[k]);
  return Blended(std::move(all));
}

// Whether every joint's weight in a is its weight in b (0 where absent) within tolerance.
inline bool SameInfluences(const BlendedInfluences& a, const BlendedInfluences& b, float tolerance) {
  size_t i = 0, k = 0;
  while (i < a.size() || k < b.size()) {
    float wa = 0, wb = 0;
    if (k == b.size() || (i < a.size() && a[i].first < b[k].first)) wa = a[i++].second;
    else if (i == a.size() || b[k].first < a[i].first) wb = b[k++].second;
    else wa = a[i++].second, wb = b[k++].second;
    if (!(std::fabs(wa - wb) <= tolerance)) return false;
  }
  return true;
}

}  // namespace animkit
