// What a KH2 clip looks like after a glTF round trip: the encoder with a template compares
// the clip with it as well as with the template's exact pose, so that an unedited clip
// that came through glTF is recognised (docs/formats/kh2.md, "Templates").
#pragma once

#include "formats/kh2/kh2_internal.hpp"

#include <vector>

namespace animkit::kh2::detail {

// A per-axis clip as a glTF round trip gives it back: written as its closest matrix-rule
// locals, converted back when read (docs/gltf.md); joints under non-uniformly scaled
// parents move. rig: the skeleton the clip was exported with.
Clip GltfRoundTrip(Clip clip, const Skeleton& rig, const Limits& limits);

// Track b's key f as a transform (false when the track has no such key).
bool KeyAt(const Clip& clip, size_t b, size_t f, TransformTRS& out);

// The interpolated motion's locals, as decoded with skeleton and rest, after a glTF round
// trip over the skeleton the decoded scene had (its bones, then the IK helpers under their
// parents): [frame][joint] for the first `frames` played frames.
std::vector<std::vector<TransformTRS>> RoundTrippedLocals(const InterpolatedMotion& motion, const Skeleton& skeleton,
                                                          const std::vector<ChannelValues>& rest, size_t frames);

// Whether two poses agree within the encoder's tolerances: rotation in radians, translation
// and scale relative to their magnitude, at least size (1, or the model's size).
bool Within(const TransformTRS& a, const TransformTRS& b, const EncodeSettings& s, float size = 1);

}  // namespace animkit::kh2::detail
