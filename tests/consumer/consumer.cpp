// Links the installed library and uses the registry: proves the package works.
#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>

#include <cstdio>

int main() {
  if (animkit::Formats().empty() || !animkit::FindFormat("psx-anm") || !animkit::FindFormat("gltf")) {
    std::fprintf(stderr, "registry incomplete\n");
    return 1;
  }
  animkit::Clip clip;
  clip.frame_rate = 30;
  clip.frame_count = 2;
  animkit::JointTrack t;
  t.joint = "#0";
  t.translation.times = {0.0f, 1.0f / 30};
  t.translation.values = {{0, 0, 0}, {1, 2, 3}};
  clip.tracks.push_back(t);
  animkit::Scene scene;
  scene.clips.push_back(clip);
  animkit::EncodeContext ctx;
  auto doc = animkit::FindFormat("psx-anm")->encode(scene, ctx);
  const animkit::Bytes bytes = doc->Write();
  auto back = animkit::FindFormat("psx-anm")->read(bytes, {});
  std::printf("consumer: %zu formats, psx-anm round trip %s\n", animkit::Formats().size(),
              back->Write() == bytes ? "ok" : "differs");
  return back->Write() == bytes ? 0 : 1;
}
