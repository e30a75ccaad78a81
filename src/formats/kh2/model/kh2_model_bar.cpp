// A scene's meshes written as an MDLX archive: over the template's (its model entry replaced,
// every other entry kept byte for byte) or new (model entry and texture entry).
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <animkit/formats/kh2/texture.hpp>
#include <animkit/formats/registry.hpp>

#include <map>

namespace animkit::kh2::detail {

namespace {

// The top-level model entry of an archive (-1: none).
int ModelEntryIndex(const Bar& bar) {
  for (size_t i = 0; i < bar.entries.size(); ++i)
    if (bar.entries[i].type == kEntryModel && bar.entries[i].model && bar.entries[i].size > 0) return int(i);
  return -1;
}

// The object meshes with their joints renumbered to target's joints (matched by name), a
// rigid mesh's vertices on its joint. Errors name the mesh and the joint.
std::vector<Mesh> MapJoints(const Scene& scene, const Skeleton& target, std::vector<std::string>& warnings) {
  std::map<std::string, uint16_t> by_name;
  for (size_t i = 0; i < target.joints.size(); ++i) by_name.emplace(target.joints[i].name, uint16_t(i));
  const Skeleton& from = scene.skeleton;
  std::vector<Mesh> out;
  for (const Mesh& source : scene.meshes) {
    Mesh m = source;
    if (!m.lines.empty()) {
      warnings.push_back("mesh '" + m.name + "': " + std::to_string(m.lines.size() / 2) +
                         " lines left out (a KH2 model draws triangles only)");
      m.lines.clear();
    }
    if (!m.Skinned() && m.joint >= 0) {
      m.joints.assign(m.positions.size(), {uint16_t(m.joint), 0, 0, 0});
      m.weights.assign(m.positions.size(), {1, 0, 0, 0});
    }
    if (!m.Skinned()) throw Error::General("mesh '" + m.name + "' is not skinned: a KH2 model's vertices are on bones");
    if (!from.joints.empty())
      for (size_t v = 0; v < m.joints.size(); ++v)
        for (size_t k = 0; k < 4; ++k) {
          if (m.weights[v][k] <= 0) continue;
          const uint16_t j = m.joints[v][k];
          if (j >= from.joints.size())
            throw Error::General("mesh '" + m.name + "' names joint " + std::to_string(j) + "; the skeleton has " +
                                 std::to_string(from.joints.size()));
          const auto it = by_name.find(from.joints[j].name);
          if (it == by_name.end())
            throw Error::General("mesh '" + m.name + "' is weighted to joint '" + from.joints[j].name +
                                 "', which the model's skeleton does not have");
          m.joints[v][k] = it->second;
        }
    // The influences past 4 name the scene's joints too: renamed the same way (a joint the
    // model lacks drops that record: the vertex keeps its 4).
    const auto over = m.metadata.find(kMeshInfluencesKey);
    if (!from.joints.empty() && over != m.metadata.end() && over->is_array()) {
      Value mapped = Value::array();
      for (const Value& e : *over) {
        if (!e.is_object() || !e.contains("joints") || !e["joints"].is_array()) continue;
        Value copy = e;
        bool known = true;
        for (Value& j : copy["joints"]) {
          const int64_t index = j.is_number_integer() ? j.get<int64_t>() : -1;
          const auto it = index >= 0 && size_t(index) < from.joints.size() ? by_name.find(from.joints[size_t(index)].name)
                                                                          : by_name.end();
          known = known && it != by_name.end();
          if (known) j = Value(int64_t(it->second));
        }
        if (known) mapped.push_back(std::move(copy));
      }
      m.metadata[kMeshInfluencesKey] = std::move(mapped);
    }
    out.push_back(std::move(m));
  }
  return out;
}

bool SameImages(const std::vector<animkit::Image>& a, const std::vector<animkit::Image>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].width != b[i].width || a[i].height != b[i].height || a[i].rgba != b[i].rgba) return false;
  return true;
}

// The texture entry written over the template's: nullopt when the scene's images are its
// decoded ones (or it cannot be read: kept as it is), else WriteTextureEntry's (changed images
// re-encoded in the template's form, new ones added) and the entry's index.
std::optional<std::pair<size_t, Bytes>> TextureEntryFor(const Scene& scene, const Bar& templ, const Limits& limits,
                                                        std::vector<std::string>& warnings) {
  for (size_t i = 0; i < templ.entries.size(); ++i) {
    const BarEntry& e = templ.entries[i];
    if (e.type != kEntryTexture || e.Damaged() || e.raw.empty()) continue;
    TextureSet set;
    try {
      set = DecodeTextures(e.raw, e.offset);
    } catch (const Error&) {
      return std::nullopt;
    }
    std::vector<animkit::Image> images = set.images;
    images.insert(images.end(), set.other_sets.begin(), set.other_sets.end());
    if (scene.textures.empty() || SameImages(scene.textures, images) || SameImages(scene.textures, set.images))
      return std::nullopt;
    TextureWrite written = WriteTextureEntry(e.raw, scene.textures, limits);
    for (size_t k = images.size(); k < written.index.size(); ++k)
      if (written.index[k] != int(k))
        warnings.push_back("texture '" + scene.textures[k].name + "' is texture " + std::to_string(written.index[k]) +
                           " of the entry's first set: a new mesh names it by that number");
    warnings.insert(warnings.end(), written.warnings.begin(), written.warnings.end());
    return std::make_pair(i, std::move(written.entry));
  }
  return std::nullopt;
}

void ReportCounts(EncodeContext& context, const ModelWriteReport& r) {
  context.report["groups_kept"] = r.kept;
  context.report["groups_rebuilt"] = r.rebuilt;
  context.report["groups_added"] = r.added;
  context.report["groups_deleted"] = r.deleted;
  context.report["packets_written"] = r.packets;
  context.warnings.insert(context.warnings.end(), r.warnings.begin(), r.warnings.end());
}

std::array<char, 4> EntryName(std::string base) {
  std::array<char, 4> name{};
  for (size_t i = 0; i < 4 && i < base.size(); ++i) name[i] = char(std::tolower(static_cast<unsigned char>(base[i])));
  return name;
}

}  // namespace

bool WritesModel(const Scene& scene, const EncodeContext& context, const Bar* templ) {
  if (!scene.clips.empty() || scene.meshes.empty()) return false;
  return ExtensionOf(context.output_path) == ".mdlx" || (templ && ModelEntryIndex(*templ) >= 0);
}

Bytes EncodeModelBar(const Scene& scene, EncodeContext& context, const Bar* templ, const ModelBarSettings& settings) {
  ModelWriteReport report;
  if (templ) {
    const int index = ModelEntryIndex(*templ);
    if (index < 0) throw Error::General("the template " + context.templ->path + " has no model entry (BAR type 4)");
    const Model& model = *templ->entries[size_t(index)].model;
    const std::vector<Mesh> meshes = MapJoints(scene, SkeletonFromModel(model), context.warnings);
    const Bytes entry = WriteModelEntry(model, meshes, settings.write, &report);
    const auto textures = TextureEntryFor(scene, *templ, context.options.limits(), context.warnings);
    ReportCounts(context, report);
    context.report["textures_written"] = textures.has_value();
    Bytes out = context.templ->bytes;
    if (textures) out = ReplaceEntry(out, *templ, textures->first, textures->second);
    if (entry == model.bytes) return out;
    return ReplaceEntry(out, textures ? ParseBar(out) : *templ, size_t(index), entry);
  }
  const Skeleton* target = nullptr;
  if (settings.skeleton == SkeletonSource::Scene) target = &scene.skeleton;
  else if (context.reference && !context.reference->skeleton.empty()) target = &context.reference->skeleton;
  if (!target || target->empty())
    throw Error::General("a new KH2 model needs bones: give --template, --skeleton (a model whose bones the glTF's joints "
                         "are matched to by name) or --kh2-skeleton gltf (the glTF's own skeleton)");
  const std::vector<Mesh> meshes = MapJoints(scene, *target, context.warnings);
  const Bytes entry = WriteNewModelEntry(BonesFromSkeleton(*target), meshes, settings.write, &report);
  ReportCounts(context, report);
  Bar bar;
  BarEntry m;
  m.type = kEntryModel;
  std::string base = context.output_path.substr(context.output_path.find_last_of("/\\") + 1);
  m.name = EntryName(base);
  m.model = std::make_shared<Model>(ParseModel(entry));
  bar.entries.push_back(std::move(m));
  if (!scene.textures.empty()) {  // the template path's writer: quantised, checked against the same limits
    TextureWrite written = WriteTextureEntry({}, scene.textures, context.options.limits());
    context.warnings.insert(context.warnings.end(), written.warnings.begin(), written.warnings.end());
    BarEntry t;
    t.type = kEntryTexture;
    t.name = EntryName("tim_");
    t.raw = std::move(written.entry);
    bar.entries.push_back(std::move(t));
  }
  LayoutBar(bar);
  return SerializeBar(bar);
}

}  // namespace animkit::kh2::detail
