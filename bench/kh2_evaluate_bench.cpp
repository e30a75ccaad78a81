// KH2 pose evaluation (PoseJob) with constraints against forward kinematics alone (the
// same composition, constraints off): the real M_EX660.mset (../shared/fixtures/kh2-baked
// beside the checkout; skipped when absent), every frame of every interpolated motion,
// and a synthetic motion of 64 bones with a constraint on every other bone.
#include <animkit/formats/kh2.hpp>
#include <animkit/io/io.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

using namespace animkit;

// A motion with its plan's inputs: identity bones, IK helpers from their records.
struct Prepared {
  kh2::InterpolatedMotion motion;
  std::vector<kh2::ChannelValues> base;
  std::vector<int> parents;
};

Prepared Prepare(const kh2::InterpolatedMotion& im) {
  Prepared p{im, std::vector<kh2::ChannelValues>(size_t(im.bone_count), {1, 1, 1, 0, 0, 0, 0, 0, 0}),
             std::vector<int>(size_t(im.bone_count), -1)};
  for (const kh2::BoneRecord& h : im.ik_helpers) {
    p.base.push_back(kh2::ChannelsFromBone(h));
    p.parents.push_back(h.parent);
  }
  return p;
}

void Collect(const kh2::Bar& bar, std::vector<Prepared>& out) {
  for (const kh2::BarEntry& e : bar.entries) {
    if (e.bar) Collect(*e.bar, out);
    if (e.motion && !e.motion->raw && !e.motion->placeholder) out.push_back(Prepare(e.motion->interpolated));
  }
}

const std::vector<Prepared>* RealSet(benchmark::State& state) {
  static const std::vector<Prepared> set = [] {
    std::vector<Prepared> out;
    // Beside the checkout: found from the source's path, or from a run in the checkout.
    const std::filesystem::path file = std::filesystem::path("shared") / "fixtures" / "kh2-baked" / "M_EX660.mset";
    for (const std::filesystem::path& p : {std::filesystem::path(__FILE__).parent_path() / ".." / ".." / file,
                                           std::filesystem::path("..") / file}) {
      if (!std::filesystem::exists(p)) continue;
      Collect(kh2::ParseBar(ReadFileBytes(p.string())), out);
      break;
    }
    return out;
  }();
  if (set.empty()) state.SkipWithError("fixture kh2-baked/M_EX660.mset not found beside the checkout");
  return set.empty() ? nullptr : &set;
}

// Every frame (frame start to end) of every motion; range(0): constraints on (1) or off (0).
void Run(benchmark::State& state, const std::vector<Prepared>& set) {
  const kh2::EvaluationSettings settings{state.range(0) != 0, state.range(0) != 0};  // every rule applied
  std::vector<kh2::EvaluationPlan> plans;
  size_t joints = 0, poses = 0;
  for (const Prepared& p : set) {
    plans.push_back(kh2::PlanEvaluation(p.motion, p.base, p.parents, settings));
    joints = std::max(joints, plans.back().joint_count());
  }
  std::vector<kh2::ChannelValues> channels(joints);
  std::vector<TransformTRS> model(joints);
  size_t joint_poses = 0;
  for (auto _ : state) {
    poses = 0;
    joint_poses = 0;
    for (size_t i = 0; i < set.size(); ++i) {
      const kh2::InterpolatedMotion& im = set[i].motion;
      for (float f = im.frame_loop; f <= im.frame_end; f += 1) {
        const float key_time = float(double(f) * kh2::kEngineRate / im.fps);
        kh2::PoseJob{&im, &plans[i], key_time, channels, model}.Run();
        benchmark::DoNotOptimize(model.data());
        ++poses;
        joint_poses += plans[i].joint_count();
      }
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(joint_poses));  // joints posed
  state.counters["poses"] = double(poses);
}

void BM_Kh2EvaluateRealSet(benchmark::State& state) {
  if (const std::vector<Prepared>* set = RealSet(state)) Run(state, *set);
}
BENCHMARK(BM_Kh2EvaluateRealSet)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// 64 bones encoded from a synthetic clip of 120 frames; every odd bone gets a Position or
// Orientation constraint from the bone before it, every fourth also a Direction one.
void BM_Kh2EvaluateSynthetic(benchmark::State& state) {
  static const std::vector<Prepared> set = [] {
    const Scene scene = SyntheticScene({.joints = 64, .frames = 120, .seed = 7});
    kh2::Motion m = kh2::EncodeMotion(scene.clips.front(), scene.skeleton, {});
    kh2::InterpolatedMotion& im = m.interpolated;
    for (int16_t j = 1; j < im.bone_count; j += 2) {
      im.constraints.push_back({uint8_t(j % 4 == 1 ? 0 : 2), 1, j, int16_t(j - 1), -1, 0, 0});
      if (j % 4 == 3) im.constraints.push_back({3, 1, j, int16_t(j - 1), -1, 0, 0});
    }
    Prepared p = Prepare(im);
    for (size_t j = 0; j < scene.skeleton.joints.size() && j < p.parents.size(); ++j)
      p.parents[j] = scene.skeleton.joints[j].parent;
    return std::vector<Prepared>{p};
  }();
  Run(state, set);
}
BENCHMARK(BM_Kh2EvaluateSynthetic)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
