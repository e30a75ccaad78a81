// Kingdom Hearts II motions' curves as stored curves (core/stored_curves.hpp), and a file
// written back with some of them replaced. See docs/formats/kh2.md, "Curves as stored".
#pragma once

#include <animkit/core/stored_curves.hpp>
#include <animkit/formats/kh2/archive.hpp>
#include <animkit/formats/kh2/evaluation.hpp>

namespace animkit::kh2 {

// An interpolated motion's forward curves (the last of each joint's channel: the one the game
// applies) as the clip DecodeMotion makes: frame = key time * fps / 60 - frame start, slopes
// per frame, Zero keys as constant keys of value 0 (the last key, whose segment is never
// played, keeps its value). constants: the other axes of a property (location, rotation, scale) that
// has a curve on one axis (the initial pose, else rest). driven: joints a constraint (with its limiter), IK, an
// expression or an inverse curve sets in the game, whether or not animkit's evaluation applies it
// (an unverified constraint type is kept as forward kinematics: EvaluationSettings). rest and skeleton as for DecodeMotion (names; missing: numbered).
StoredCurves StoredCurvesOf(const Motion& motion, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                            const EvaluationSettings& settings = {});

// A motion of an archive as DecodeBar names its clip: path = entry indices from the top.
struct MotionClip {
  std::string name;
  std::vector<size_t> path;
  const Motion* motion = nullptr;
  std::string shares_data_with;  // a link: the earlier clip whose motion it is
};
std::vector<MotionClip> MotionClips(const Bar& bar);

// One edited channel of a clip: the joint by index (joint >= 0) or by name.
struct CurveEdit {
  std::string clip;
  StoredChannel channel;
};
using ReplaceCurvesReport = CurvesReplaceReport;
// file: a BAR (an MSET moveset or an ANB) or a bare motion entry. The file with exactly the
// edited channels' curves replaced: their keys found in or appended to the motion's key, key
// time, value and tangent tables (which grow in place, by multiples of 16 bytes; later tables
// and entries move as the format requires), every other byte kept. Equal channels change
// nothing: an unedited submission gives file's bytes. Errors name the clip and joint.
Bytes ReplaceCurves(ByteView file, const std::vector<CurveEdit>& edits, ReplaceCurvesReport* report = nullptr,
                    const Limits& limits = {});

}  // namespace animkit::kh2
