// `animkit sample`: the contract's JSON, streamed.
#include <animkit/core/error.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/root_motion.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/offline/skinning.hpp>
#include <animkit/pipeline/sample_json.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>

namespace animkit {

namespace {

class JsonOut {
 public:
  explicit JsonOut(const std::function<void(std::string_view)>* sink = nullptr) : sink_(sink) {}
  // Hands what is buffered to the sink (when there is one) once it is large.
  void Flush(bool all = false) {
    if (sink_ && (all || out_.size() >= (size_t{1} << 16))) {
      (*sink_)(out_);
      out_.clear();
    }
  }
  void Raw(std::string_view s) { out_ += s; }
  void Number(double v) {
    if (!std::isfinite(v)) {
      out_ += "null";
      return;
    }
    // Values are float32 in the model: the shortest text that reads back as the same float.
    char buf[32];
    float f = static_cast<float>(v);
    auto res = (static_cast<double>(f) == v) ? std::to_chars(buf, buf + sizeof buf, f)
                                             : std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, res.ptr);
  }
  void String(std::string_view s) { out_ += DumpJson(Value(std::string(s))); }
  void Vec(std::initializer_list<float> v) {
    out_ += '[';
    bool first = true;
    for (float x : v) {
      if (!first) out_ += ", ";
      first = false;
      Number(x);
    }
    out_ += ']';
  }
  std::string Take() { return std::move(out_); }

 private:
  const std::function<void(std::string_view)>* sink_;
  std::string out_;
};

const char* SkinningKind(const Mesh& mesh) { return mesh.Skinned() ? "skinned" : mesh.joint >= 0 ? "rigid" : "static"; }

// `sample --skin`: the clip's "meshes" and, per frame, each mesh's deformed positions as
// one flat [x, y, z, ...] array (a second pass over the frames, so that the JSON streams).
void WriteMeshFrames(JsonOut& j, const Clip& clip, const SampleRequest& request) {
  const std::vector<Mesh>& meshes = *request.skin_meshes;
  const Skeleton none;
  ClipMeshPose poser(clip, request.rest ? *request.rest : none, meshes);
  j.Raw(",\n      \"meshes\": [");
  for (size_t m = 0; m < meshes.size(); ++m) {
    j.Raw(m ? ", {\"name\": " : "{\"name\": ");
    j.String(meshes[m].name);
    j.Raw(", \"skinning\": \"");
    j.Raw(SkinningKind(meshes[m]));
    j.Raw("\", \"vertices\": ");
    j.Raw(std::to_string(meshes[m].positions.size()));
    j.Raw("}");
  }
  j.Raw("],\n      \"mesh_frames\": [");
  bool any = false;
  ForEachSampleFrame(clip, request, [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool>) {
    any = true;
    poser.Compose(pose);
    j.Raw(f ? ",\n        [" : "\n        [");
    for (size_t m = 0; m < meshes.size(); ++m) {
      j.Raw(m ? ", [" : "[");
      const std::span<const Vec3> positions = poser.positions(m);
      for (size_t v = 0; v < positions.size(); ++v) {
        if (v) j.Raw(", ");
        j.Number(positions[v].x);
        j.Raw(", ");
        j.Number(positions[v].y);
        j.Raw(", ");
        j.Number(positions[v].z);
      }
      j.Raw("]");
    }
    j.Raw("]");
    j.Flush();
  });
  j.Raw(any ? "\n      ]" : "]");
}

// A clip's "additive" entry: the glTF extras' (docs/conventions.md).
void WriteAdditive(JsonOut& j, const Additive& a) {
  j.Raw(",\n      \"additive\": {\"reference\": ");
  j.Raw(a.reference.empty() ? "\"rest\"" : "\"clip\", \"clip\": ");
  if (!a.reference.empty()) j.String(a.reference);
  j.Raw(a.rotation_only ? ", \"rotation_only\": true" : ", \"rotation_only\": false");
  j.Raw(", \"fade_in\": ");
  j.Number(a.fade_in);
  j.Raw(", \"fade_out\": ");
  j.Number(a.fade_out);
  j.Raw("}");
}

// A clip's "root_motion": its joint, up axis and per-frame deltas (RootMotionJob) at the
// frames the JSON samples.
void WriteRootMotion(JsonOut& j, const Clip& clip, const SampleRequest& request, size_t frames) {
  const RootMotion& r = *clip.root_motion;
  j.Raw(",\n      \"root_motion\": {\"joint\": ");
  j.String(r.joint);
  j.Raw(", \"up\": ");
  j.Vec({r.up.x, r.up.y, r.up.z});
  j.Raw(", \"deltas\": [");
  std::vector<RootMotionDelta> deltas(frames);
  if (frames) (void)RootMotionJob{&clip, request.rest, request.rate > 0 ? request.rate : 0, deltas}.Run();
  for (size_t f = 0; f < frames; ++f) {
    j.Raw(f ? ",\n        {\"t\": " : "\n        {\"t\": ");
    const RootMotionDelta& d = deltas[f];
    j.Vec({d.translation.x, d.translation.y, d.translation.z});
    j.Raw(", \"r\": ");
    j.Vec({d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w});
    j.Raw("}");
    j.Flush();
  }
  j.Raw(frames ? "\n      ]}" : "]}");
}

}  // namespace

const Clip* AdditiveBase(const Scene& scene, const Clip& clip, const SampleRequest& request) {
  if (!clip.additive) return nullptr;
  const std::string& name = request.base.empty() ? clip.additive->reference : request.base;
  if (name.empty()) return nullptr;
  for (const Clip& c : scene.clips)
    if (c.name == name && &c != &clip) return &c;
  return nullptr;
}

void ForEachSampleFrame(const Clip& clip, const SampleRequest& request, const SampleFrameFn& fn, const Clip* base) {
  const bool resample = request.rate > 0;
  const double rate = resample ? request.rate : clip.frame_rate;
  const size_t frames = SampleFrameCount(clip, resample ? rate : 0, request.limits);
  const size_t joints = clip.tracks.size();
  std::vector<TransformTRS> pose(joints);
  const auto visible = std::make_unique<bool[]>(joints);
  const Skeleton none;
  const Skeleton& rest = request.rest ? *request.rest : none;
  std::optional<ClipModelPose> model, base_model;
  std::vector<TransformTRS> base_pose;
  if (request.space == Space::Model) model.emplace(clip, rest);
  if (model && base && clip.additive) base_model.emplace(*base, rest), base_pose.resize(base->tracks.size());
  for (size_t f = 0; f < frames; ++f) {
    const Seconds t = FrameTime(f, rate);
    SampleClipJob{&clip, request.rest, t, pose}.Run();
    if (base_model) {  // the base's local pose at the same time
      SampleClipJob{base, request.rest, t, base_pose}.Run();
      base_model->Compose(base_pose);
      model->SetBase(base_model->locals());
    }
    if (model) {
      model->Compose(pose);
      for (size_t i = 0; i < joints; ++i) pose[i] = model->OfTrack(i);
    }
    // The file's own frame index, for visibility.
    const size_t own = resample ? static_cast<size_t>(std::floor(static_cast<double>(t) * clip.frame_rate + 1e-4)) : f;
    for (size_t i = 0; i < joints; ++i) visible[i] = IsVisible(clip.tracks[i], own);
    fn(f, pose, std::span<const bool>(visible.get(), joints));
  }
}

std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request) {
  std::string text;
  WriteSampleJson(scene, format_id, request, [&](std::string_view piece) { text += piece; });
  return text;
}

void WriteSampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request,
                     const std::function<void(std::string_view)>& sink) {
  // Every count checked before the first byte goes out.
  if (!request.base.empty() && std::none_of(scene.clips.begin(), scene.clips.end(),
                                            [&](const Clip& c) { return c.name == request.base; }))
    throw Error::General("--base: no clip '" + request.base + "' in the file");
  for (const Clip& clip : scene.clips)
    if (request.clip.empty() || clip.name == request.clip) {
      (void)SampleFrameCount(clip, request.rate, request.limits);
      const Skeleton none;
      if (request.skin_meshes) ClipMeshPose(clip, request.rest ? *request.rest : none, *request.skin_meshes);
    }
  JsonOut j(&sink);
  j.Raw("{\n  \"format\": ");
  j.String(format_id);
  if (const SourceInfo& source = scene.source; !source.skeleton_use.empty()) {  // decoded by the pipeline
    j.Raw(",\n  \"skeleton\": ");
    j.String(SkeletonLabel(source));
    j.Raw(",\n  \"skeleton_use\": ");
    j.String(source.skeleton_use);
    j.Raw(",\n  \"skeleton_file\": ");
    if (source.skeleton_file.empty()) j.Raw("null");
    else j.String(source.skeleton_file);
  }
  if (request.warnings && !request.warnings->empty()) {
    j.Raw(",\n  \"warnings\": [");
    for (size_t i = 0; i < request.warnings->size(); ++i) {
      j.Raw(i ? ",\n    " : "\n    ");
      j.String((*request.warnings)[i]);
    }
    j.Raw("\n  ]");
  }
  j.Raw(",\n  \"clips\": [");
  bool first_clip = true;
  for (const Clip& clip : scene.clips) {
    if (!request.clip.empty() && clip.name != request.clip) continue;
    j.Raw(first_clip ? "\n    {" : ",\n    {");
    first_clip = false;
    const bool resample = request.rate > 0;
    const double rate = resample ? request.rate : clip.frame_rate;
    const size_t frames = SampleFrameCount(clip, resample ? rate : 0, request.limits);
    j.Raw("\n      \"name\": ");
    j.String(clip.name);
    j.Raw(",\n      \"frame_rate\": ");
    j.Number(rate);
    j.Raw(",\n      \"duration\": ");
    j.Number(clip.duration);
    j.Raw(",\n      \"loop\": ");
    j.Raw(clip.loop ? "true" : "false");
    j.Raw(",\n      \"space\": ");
    j.Raw(clip.space == Space::Model || request.space == Space::Model ? "\"model\"" : "\"local\"");
    const Clip* base = request.space == Space::Model ? AdditiveBase(scene, clip, request) : nullptr;
    if (clip.additive) WriteAdditive(j, *clip.additive);
    if (base) {
      j.Raw(",\n      \"base\": ");
      j.String(base->name);
    }
    j.Raw(",\n      \"joints\": [");
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
      if (i) j.Raw(", ");
      j.String(clip.tracks[i].joint);
    }
    j.Raw("],\n      \"frames\": [");
    ForEachSampleFrame(clip, request, [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool> visible) {
      j.Raw(f ? ",\n        [" : "\n        [");
      for (size_t i = 0; i < pose.size(); ++i) {
        if (i) j.Raw(", ");
        if (!visible[i]) {
          j.Raw("null");
          continue;
        }
        const TransformTRS& p = pose[i];
        j.Raw("{\"t\": ");
        j.Vec({p.translation.x, p.translation.y, p.translation.z});
        j.Raw(", \"r\": ");
        j.Vec({p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w});
        j.Raw(", \"s\": ");
        j.Vec({p.scale.x, p.scale.y, p.scale.z});
        j.Raw("}");
      }
      j.Raw("]");
      j.Flush();
    }, base);
    j.Raw(frames ? "\n      ]" : "]");
    if (clip.root_motion) WriteRootMotion(j, clip, request, frames);
    if (request.skin_meshes) {
      // The skin pass composes local poses: a local-space request whatever --space says.
      SampleRequest local = request;
      local.space = Space::Local;
      WriteMeshFrames(j, clip, local);
    }
    j.Raw(",\n      \"events\": [");
    for (size_t e = 0; e < clip.events.size(); ++e) {
      const Event& ev = clip.events[e];
      j.Raw(e ? ", {\"time\": " : "{\"time\": ");
      j.Number(ev.time);
      if (ev.end_time) {
        j.Raw(", \"end_time\": ");
        j.Number(*ev.end_time);
      }
      j.Raw(", \"name\": ");
      j.String(ev.name);
      j.Raw(", \"params\": [");
      for (size_t p = 0; p < ev.params.size(); ++p) {
        if (p) j.Raw(", ");
        j.Number(ev.params[p]);
      }
      j.Raw("]}");
    }
    j.Raw("]\n    }");
  }
  j.Raw(first_clip ? "]\n}\n" : "\n  ]\n}\n");
  j.Flush(true);
}

}  // namespace animkit
