// Retargeting (docs/performance.md, "Retargeting"): RetargetScenes::Run, what `animkit
// retarget` and Python call, on the sources decoded once outside the timed loop. The issue's
// bar: the 101-clip KH2 moveset P_EX100.mset onto P_EX100.mdlx in under 2 s.
#include <animkit/animkit.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/retarget.hpp>
#include <animkit/pipeline/skeleton.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <optional>

namespace {

using namespace animkit;
namespace fs = std::filesystem;

// ../shared/<relative> beside the checkout (from this file), else beside the working folder; "" when absent.
std::string SharedPath(const char* relative) {
  const fs::path file = fs::path("shared") / relative;
  for (const fs::path& p : {fs::path(__FILE__).parent_path() / ".." / ".." / file, fs::path("..") / file})
    if (fs::exists(p)) return p.string();
  return "";
}

// Everything Run takes, decoded as `animkit retarget SOURCE --to TARGET -o out.glb` decodes it.
struct Inputs {
  Scene source, target;
  Skeleton source_skeleton;
  const FormatDescriptor* source_format = nullptr;
  const FormatDescriptor* target_format = nullptr;
  BoneMap map;
  size_t frames = 0;
};

void Count(benchmark::State& state, const Inputs& in, const Scene& out) {
  state.counters["clips"] = double(out.clips.size());
  state.counters["frames"] = double(in.frames);
  state.counters["source_joints"] = double(in.source_skeleton.joints.size());
  state.counters["target_joints"] = double(in.target.skeleton.joints.size());
  state.counters["mapped"] = double(in.map.Mapped());
}

void Time(benchmark::State& state, const Inputs& in) {
  const RetargetScenes job{&in.source, &in.source_skeleton, in.source_format, &in.target, in.target_format, &in.map,
                           {}, {}, {}, std::nullopt, {}};
  Scene out;
  for (auto _ : state) {
    out = job.Run();
    benchmark::DoNotOptimize(out.clips.data());
  }
  Count(state, in, out);
}

// Sora's airslide moveset (101 clips, decoded as the CLI decodes it: its companion when there
// is one, else the target's joints) onto the P_EX100 model: 228 of 229 joints mapped.
const std::optional<Inputs>& Moveset() {
  static const std::optional<Inputs> inputs = []() -> std::optional<Inputs> {
    const std::string mset = SharedPath("real/kh2/airslide/P_EX100.mset"), mdlx = SharedPath("fixtures/kh2/P_EX100.mdlx");
    if (mset.empty() || mdlx.empty()) return std::nullopt;
    Inputs in;
    const Options options;
    const LoadedFile source = LoadFile(mset, "", options);
    in.source_format = source.format;
    const DecodedScene decoded = DecodeWithSkeleton(source, SkeletonSource::Auto(), DecodeOptionsFor(OutputFormatFor("out.glb", ""), options));
    const LoadedFile target = LoadFile(mdlx, "", options);
    in.target_format = target.format;
    DecodedScene model = DecodeWithSkeleton(target, SkeletonSource::Auto(), options);
    in.target = std::move(model.scene);
    in.target.skeleton = RestSkeleton(in.target, model.reference_used());
    in.target.clips.clear();
    in.source_skeleton = SourceSkeletonFor(decoded.scene, decoded.reference_used(), in.target).skeleton;
    in.source = decoded.scene;
    in.map = BoneMapFor("auto", in.target.skeleton, in.source_skeleton);
    for (const Clip& c : in.source.clips) in.frames += c.frame_count;
    return in;
  }();
  return inputs;
}

void BM_RetargetMoveset(benchmark::State& state) {
  const std::optional<Inputs>& in = Moveset();
  if (!in) return state.SkipWithError("../shared/real/kh2/airslide/P_EX100.mset or ../shared/fixtures/kh2/P_EX100.mdlx is absent");
  Time(state, *in);
}
BENCHMARK(BM_RetargetMoveset)->Unit(benchmark::kMillisecond)->UseRealTime();

// 100 clips of 60 frames on SyntheticSkeleton's 60 joints onto the same joints renamed
// ("root" -> "Root" by normalised name, "joint_N" -> "Joint.N" by hierarchy) with five more,
// offsets 1.5x.
const Inputs& Synthetic() {
  static const Inputs inputs = [] {
    Inputs in;
    const SyntheticSpec spec{.joints = 60, .frames = 60, .translation_scale = 0.2f, .animate_scale = false};
    in.source_skeleton = SyntheticSkeleton(spec);
    for (uint32_t i = 0; i < 100; ++i) {
      SyntheticSpec clip_spec = spec;
      clip_spec.seed = 1000 + i;
      Clip clip = SyntheticClip(in.source_skeleton, clip_spec);
      clip.name = "clip_" + std::to_string(i);
      in.frames += clip.frame_count;
      in.source.clips.push_back(std::move(clip));
    }
    in.source.skeleton = in.source_skeleton;
    in.target.skeleton = in.source_skeleton;
    for (size_t k = 0; k < in.target.skeleton.joints.size(); ++k) {
      Joint& j = in.target.skeleton.joints[k];
      j.name = k == 0 ? "Root" : "Joint." + std::to_string(k);
      j.rest.translation = j.rest.translation * 1.5f;
    }
    for (int extra = 0; extra < 5; ++extra)
      in.target.skeleton.joints.push_back({"extra_" + std::to_string(extra), extra * 10, {{0, 0.1f, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
    in.map = AutoBoneMap(in.target.skeleton, in.source_skeleton);
    return in;
  }();
  return inputs;
}

void BM_RetargetSynthetic(benchmark::State& state) {
  const Inputs& in = Synthetic();
  if (in.map.Mapped() != 60) return state.SkipWithError("the renamed skeleton did not map its 60 joints");
  Time(state, in);
}
BENCHMARK(BM_RetargetSynthetic)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
