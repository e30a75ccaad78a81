// Metroid Prime CINF skeleton: parse, serialize, decode to a Skeleton, encode from one.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace animkit::metroid {

CinfFile ParseCinf(ByteView data) {
  ByteReader r(data, Endian::Big);
  CinfFile f;
  const uint32_t count = r.U32("the bone count");
  r.Count(count, 24, "bone records");
  f.bones.resize(count);
  std::map<uint32_t, size_t> index;
  std::vector<size_t> parent_at(count);
  for (size_t i = 0; i < count; ++i) {
    CinfBone& b = f.bones[i];
    const size_t at = r.tell();
    const std::string what = "bone " + std::to_string(i);
    b.id = r.U32("the id of " + what);
    parent_at[i] = r.tell();
    b.parent = r.U32("the parent id of " + what);
    for (float& c : b.origin) c = r.F32("the origin of " + what);
    const uint32_t n = r.U32("the linked bone count of " + what);
    r.Count(n, 4, what + " linked bone ids");
    b.linked.resize(n);
    for (uint32_t& l : b.linked) l = r.U32("a linked bone id");
    if (!index.emplace(b.id, i).second) r.FailAt(at, what + " repeats bone id " + std::to_string(b.id));
  }
  const uint32_t n = r.U32("the bone id list count");
  r.Count(n, 4, "bone id list");
  f.bone_ids.resize(n);
  for (uint32_t& id : f.bone_ids) id = r.U32("a bone id");
  const uint32_t names = r.U32("the name count");
  r.Count(names, 5, "bone names");
  for (size_t i = 0; i < names; ++i) {
    std::string name = r.CString("a bone name");
    const uint32_t id = r.U32("the bone id of name '" + name + "'");
    f.names.emplace_back(std::move(name), id);
  }
  ByteView rest = r.Take(r.remaining(), "trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
  // Every parent exists, and following parents always reaches a root.
  for (size_t i = 0; i < count; ++i) {
    const uint32_t p = f.bones[i].parent;
    if (p != kNoParent && !index.count(p)) {
      r.FailAt(parent_at[i], "bone " + std::to_string(f.bones[i].id) + " names parent " + std::to_string(p) +
                                 ", which is not in the file (2 means no parent)");
    }
  }
  std::vector<int> state(count, 0);  // 0 unknown, 1 on the current path, 2 reaches a root
  for (size_t i = 0; i < count; ++i) {
    std::vector<size_t> path;
    size_t j = i;
    while (state[j] == 0) {
      state[j] = 1;
      path.push_back(j);
      const uint32_t p = f.bones[j].parent;
      if (p == kNoParent) break;
      j = index[p];
      if (state[j] == 1) r.FailAt(parent_at[j], "the parents of bone " + std::to_string(f.bones[j].id) + " form a cycle");
    }
    for (size_t k : path) state[k] = 2;
  }
  return f;
}

Bytes SerializeCinf(const CinfFile& f) {
  ByteWriter w(Endian::Big);
  w.U32(static_cast<uint32_t>(f.bones.size()));
  for (const CinfBone& b : f.bones) {
    w.U32(b.id);
    w.U32(b.parent);
    for (float c : b.origin) w.F32(c);
    w.U32(static_cast<uint32_t>(b.linked.size()));
    for (uint32_t l : b.linked) w.U32(l);
  }
  w.U32(static_cast<uint32_t>(f.bone_ids.size()));
  for (uint32_t id : f.bone_ids) w.U32(id);
  w.U32(static_cast<uint32_t>(f.names.size()));
  for (const auto& [name, id] : f.names) {
    w.Append(ByteView(reinterpret_cast<const uint8_t*>(name.data()), name.size()));
    w.U8(0);
    w.U32(id);
  }
  w.Append(f.trailing);
  return w.Take();
}

Scene DecodeCinf(const CinfFile& f, RestRule rule) {
  std::map<uint32_t, size_t> index;
  for (size_t i = 0; i < f.bones.size(); ++i) index.emplace(f.bones[i].id, i);
  std::vector<std::vector<size_t>> children(f.bones.size());
  std::vector<size_t> roots;
  for (size_t i = 0; i < f.bones.size(); ++i) {
    const auto it = f.bones[i].parent == kNoParent ? index.end() : index.find(f.bones[i].parent);
    if (it == index.end()) roots.push_back(i);
    else children[it->second].push_back(i);
  }
  Scene scene;
  std::set<std::string> used;
  Value ids = Value::array();
  std::vector<int> joint_of(f.bones.size(), -1);
  std::vector<size_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const size_t i = stack.back();
    stack.pop_back();
    if (joint_of[i] >= 0) continue;
    const CinfBone& b = f.bones[i];
    Joint j;
    for (const auto& [name, id] : f.names)
      if (id == b.id && !name.empty() && !used.count(name)) {
        j.name = name;
        break;
      }
    if (j.name.empty()) j.name = NumberedJointName(b.id);
    used.insert(j.name);
    Vec3 origin{b.origin[0], b.origin[1], b.origin[2]};
    if (b.parent != kNoParent && index.count(b.parent)) {
      const size_t p = index[b.parent];
      j.parent = joint_of[p];
      if (rule == RestRule::Relative) {
        origin = origin - Vec3{f.bones[p].origin[0], f.bones[p].origin[1], f.bones[p].origin[2]};
      }
    }
    j.rest.translation = origin;
    joint_of[i] = static_cast<int>(scene.skeleton.joints.size());
    scene.skeleton.joints.push_back(std::move(j));
    ids.push_back(b.id);
    for (auto it = children[i].rbegin(); it != children[i].rend(); ++it) stack.push_back(*it);
  }
  scene.metadata[kSourceFormatKey] = "metroid-cinf";
  scene.metadata[metadata_keys::kBoneIds] = std::move(ids);
  scene.metadata[metadata_keys::kRestRule] = rule == RestRule::Relative ? "relative" : "absolute";
  return scene;
}

std::vector<std::pair<std::string, uint32_t>> BoneIdsOf(const Scene& scene) {
  std::vector<std::pair<std::string, uint32_t>> out;
  if (!scene.metadata.contains(metadata_keys::kBoneIds)) return out;
  const auto& ids = scene.metadata[metadata_keys::kBoneIds];
  if (!ids.is_array() || ids.size() != scene.skeleton.joints.size()) return out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!ids[i].is_number_unsigned()) return {};
    out.emplace_back(scene.skeleton.joints[i].name, ids[i].get<uint32_t>());
  }
  return out;
}

CinfFile EncodeCinf(const Skeleton& skeleton, const std::vector<std::pair<std::string, uint32_t>>& named) {
  std::vector<std::string> names;
  for (const Joint& j : skeleton.joints) names.push_back(j.name);
  const std::vector<uint32_t> ids = AssignBoneIds(names, named);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == kNoParent) {
      throw Error::General("joint '" + names[i] + "' maps to bone id 2, which a CINF reserves for 'no parent'");
    }
  }
  std::vector<Mat4> model(skeleton.joints.size());
  std::vector<TransformTRS> local;
  for (const Joint& j : skeleton.joints) local.push_back(j.rest);
  LocalToModel(skeleton, local, model);
  CinfFile f;
  for (size_t i = 0; i < skeleton.joints.size(); ++i) {
    const Joint& j = skeleton.joints[i];
    CinfBone b;
    b.id = ids[i];
    b.parent = j.parent >= 0 ? ids[static_cast<size_t>(j.parent)] : kNoParent;
    const Vec3 o = TransformPoint(model[i], {0, 0, 0});
    b.origin = {o.x, o.y, o.z};
    // Linked bones: the parent first, then the children.
    if (j.parent >= 0) b.linked.push_back(b.parent);
    for (size_t k = 0; k < skeleton.joints.size(); ++k)
      if (skeleton.joints[k].parent == static_cast<int>(i)) b.linked.push_back(ids[k]);
    f.bones.push_back(std::move(b));
    f.bone_ids.push_back(ids[i]);
    if (!ParseNumberedJointName(j.name)) f.names.emplace_back(j.name, ids[i]);
  }
  return f;
}

}  // namespace animkit::metroid
