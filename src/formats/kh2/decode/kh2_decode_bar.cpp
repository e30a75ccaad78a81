// KH2 decoding of archives: every slot's motion and triggers, the model's skeleton.
#include "formats/kh2/kh2_internal.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace animkit::kh2 {

std::string SlotName(size_t i, const BarEntry& e) {
  std::string s = std::to_string(i);
  while (s.size() < 3) s.insert(s.begin(), '0');
  return e.Name().empty() ? s : s + "_" + e.Name();
}

namespace {

// Entries sharing one parsed archive are searched once (kh2::ParseBar shares them).
const Model* FindModel(const Bar& bar) {
  std::set<const Bar*> seen;
  for (const BarEntry& e : bar.entries) {
    if (e.model && !e.model->bones.empty()) return e.model.get();
    if (e.bar && seen.insert(e.bar.get()).second)
      if (const Model* m = FindModel(*e.bar)) return m;
  }
  return nullptr;
}


// Keys decoded so far (entries sharing one payload count each time), and each
// distinct motion payload's clip, decoded once.
struct DecodedMotions {
  uint64_t keys = 0;
  std::map<const Motion*, size_t> clips;  // index of the first clip in the scene
  std::set<const Bar*> entered;           // nested archives already walked
};

bool HoldsMotions(const Bar& bar) {
  return std::any_of(bar.entries.begin(), bar.entries.end(), [](const BarEntry& e) { return e.motion != nullptr; });
}

void AddClips(const Bar& bar, const std::string& prefix, Scene& scene, const Skeleton& skeleton,
              const std::vector<ChannelValues>& rest, const DecodeSettings& settings, DecodedMotions& decoded) {
  size_t motions = 0;
  for (const BarEntry& e : bar.entries) motions += e.motion && !e.motion->placeholder ? 1 : 0;
  const Triggers* triggers = nullptr;
  for (const BarEntry& e : bar.entries)
    if (e.triggers && !triggers) triggers = e.triggers.get();
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    if (e.motion && !e.motion->placeholder) {
      auto known = decoded.clips.find(e.motion.get());
      CheckLimit(scene.clips.size() + 1, &Limits::max_clips, settings.limits, "the clips of the archive's motions");
      Clip clip = known != decoded.clips.end() ? scene.clips[known->second]
                                               : DecodeMotion(*e.motion, skeleton, rest, settings);
      for (const JointTrack& t : clip.tracks) decoded.keys += t.translation.size() + t.rotation.size() + t.scale.size();
      CheckLimit(decoded.keys, &Limits::max_values, settings.limits, "the keys decoded from the archive");
      decoded.clips.emplace(e.motion.get(), scene.clips.size());
      std::string name = prefix;
      if (name.empty()) name = motions == 1 ? (e.Name().empty() ? "motion" : e.Name()) : SlotName(i, e);
      else if (motions > 1) name += "_" + std::to_string(i);
      clip.name = name;
      clip.metadata[metadata_keys::kEntry] = e.Name();
      if (known != decoded.clips.end()) clip.metadata[metadata_keys::kSharesDataWith] = scene.clips[known->second].name;
      clip.events.clear();  // a shared payload's first clip may carry another archive's triggers
      if (triggers) {
        const double rate = settings.trigger_rate == TriggerRate::Engine ? kEngineRate : clip.frame_rate;
        clip.events = DecodeTriggers(*triggers, rate, clip.duration);
      }
      scene.clips.push_back(std::move(clip));
    } else if (e.bar) {
      // A nested archive (an MSET's ANB slot, or a moveset of slots in a slot): its clips
      // are named by their path of slots, "252_AB20/003_0010". An ANB shared by several
      // slots (links) gives each its clip; an archive of archives shared by several entries
      // is walked once (entries sharing payloads would otherwise multiply paths per level).
      if (!decoded.entered.insert(e.bar.get()).second && !HoldsMotions(*e.bar)) continue;
      AddClips(*e.bar, prefix.empty() ? SlotName(i, e) : prefix + "/" + SlotName(i, e), scene, skeleton, rest,
               settings, decoded);
    }
  }
}

const InterpolatedMotion* FirstInterpolated(const Bar& bar) {
  std::set<const Bar*> seen;
  for (const BarEntry& e : bar.entries) {
    if (e.motion && !e.motion->raw && !e.motion->interpolated.ik_helpers.empty()) return &e.motion->interpolated;
    if (e.bar && seen.insert(e.bar.get()).second)
      if (const InterpolatedMotion* m = FirstInterpolated(*e.bar)) return m;
  }
  return nullptr;
}

}  // namespace

void detail::AddModelMeshes(const Bar& bar, Scene& scene, const Limits& limits, std::vector<std::string>* warnings) {
  const BarEntry* model = nullptr;
  const BarEntry* textures = nullptr;
  for (const BarEntry& e : bar.entries) {
    if (!model && e.model && !e.model->bones.empty()) model = &e;
    if (!textures && e.type == kEntryTexture && !e.Damaged() && !e.raw.empty()) textures = &e;
  }
  if (!model) return;
  std::vector<std::string> notes;
  try {
    ModelMeshes meshes = DecodeModelMeshes(*model->model, SkeletonFromModel(*model->model), model->offset, limits);
    notes = std::move(meshes.warnings);
    TextureSet images;
    if (textures) {
      try {
        images = DecodeTextures(textures->raw, textures->offset, limits);
      } catch (const Error& e) {
        notes.push_back(std::string("the texture entry could not be read: ") + e.what());
        images.container = "unreadable";
      }
    }
    AttachMaterials(meshes.meshes, std::move(images), scene, notes);
    for (Mesh& m : meshes.meshes) scene.meshes.push_back(std::move(m));
  } catch (const Error& e) {
    notes.push_back(std::string("the model's meshes could not be read: ") + e.what());
  }
  if (warnings)
    for (const std::string& n : notes) warnings->push_back("meshes: " + n);
}

Scene DecodeBar(const Bar& bar, const Scene* reference, const DecodeSettings& settings) {
  Scene scene;
  Value rest_meta = Value::object();
  if (reference && !reference->skeleton.empty()) {
    scene.skeleton = reference->skeleton;
    rest_meta = reference->metadata;
  } else if (const Model* model = FindModel(bar)) {
    scene.skeleton = SkeletonFromModel(*model);
    Value rows = Value::array();
    for (const BoneRecord& b : model->bones) {
      ChannelValues c = ChannelsFromBone(b);
      rows.push_back(Value(std::vector<float>(c.begin(), c.end())));
    }
    scene.metadata[metadata_keys::kRest] = rows;
    rest_meta = scene.metadata;
  }
  if (!reference || reference->skeleton.empty()) detail::AddModelMeshes(bar, scene, settings.limits, nullptr);
  const std::vector<ChannelValues> rest = RestChannels(scene.skeleton, rest_meta);
  const Skeleton model_skeleton = scene.skeleton;
  DecodedMotions decoded;
  AddClips(bar, "", scene, model_skeleton, rest, settings, decoded);
  // IK helper bones follow the model's bones in a motion: add them to the skeleton.
  if (!scene.skeleton.empty()) {
    if (const InterpolatedMotion* im = FirstInterpolated(bar);
        im && size_t(im->bone_count) == scene.skeleton.joints.size()) {
      for (size_t i = 0; i < im->ik_helpers.size(); ++i) {
        const BoneRecord& h = im->ik_helpers[i];
        Joint j;
        j.name = NumberedJointName(size_t(im->bone_count) + i);
        j.parent = (h.parent >= 0 && size_t(h.parent) < scene.skeleton.joints.size()) ? h.parent : -1;
        j.rest = TransformFromChannels(ChannelsFromBone(h));
        scene.skeleton.joints.push_back(std::move(j));
      }
      if (scene.metadata.contains(metadata_keys::kRest)) scene.metadata.erase(metadata_keys::kRest);
      Value rows = Value::array();
      for (const ChannelValues& c : rest) rows.push_back(Value(std::vector<float>(c.begin(), c.end())));
      for (const BoneRecord& h : im->ik_helpers) {
        ChannelValues c = ChannelsFromBone(h);
        rows.push_back(Value(std::vector<float>(c.begin(), c.end())));
      }
      scene.metadata[metadata_keys::kRest] = rows;
    }
  }
  return scene;
}

}  // namespace animkit::kh2
