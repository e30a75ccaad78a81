// animkit_make_moveset OUT_DIR [--skeleton MODEL] [--clips N] [--joints N]
// Writes OUT_DIR/moveset.mset, a KH2 moveset of real size (synthetic_moveset.hpp), and,
// without --skeleton, OUT_DIR/moveset.mdlx holding its skeleton. With --skeleton the clips
// animate that model's skeleton (e.g. a real character's MDLX) and no model is written.
#include <animkit/animkit.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  using namespace animkit;
  std::string out, skeleton_file;
  MovesetSpec spec;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--skeleton" && has_value) skeleton_file = argv[++i];
    else if (arg == "--clips" && has_value) spec.clips = std::atoi(argv[++i]);
    else if (arg == "--joints" && has_value) spec.joints = std::atoi(argv[++i]);
    else if (out.empty() && !arg.starts_with("-")) out = arg;
    else {
      std::fprintf(stderr, "usage: animkit_make_moveset OUT_DIR [--skeleton MODEL] [--clips N] [--joints N]\n");
      return 2;
    }
  }
  if (out.empty() || spec.clips < 1 || spec.joints < 1) {
    std::fprintf(stderr, "usage: animkit_make_moveset OUT_DIR [--skeleton MODEL] [--clips N] [--joints N]\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out);
    Skeleton skeleton;
    if (skeleton_file.empty()) {
      skeleton = MovesetSkeleton(spec);
      WriteFileAtomic(out + "/moveset.mdlx", Kh2SkeletonModelBytes(skeleton));
    } else {
      skeleton = LoadReference(skeleton_file, Options{}).skeleton;
      spec.joints = static_cast<int>(skeleton.joints.size());
    }
    WriteFileAtomic(out + "/moveset.mset", Kh2MovesetBytes(skeleton, spec));
    std::printf("%s/moveset.mset: %d clips over %d joints\n", out.c_str(), spec.clips, spec.joints);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "animkit_make_moveset: %s\n", e.what());
    return 1;
  }
  return 0;
}
