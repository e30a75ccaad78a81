// Metroid Prime CINF skeleton: parse, serialize, decode to a Skeleton, encode from one.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>

#include "metroid_fields.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace animkit::metroid {

namespace {

// data read as one game's layout; Echoes' bones carry two quaternions and ids 0..count-1.
CinfFile ParseCinfAs(ByteView data, Game game) {
  ByteReader r(data, Endian::Big);
  CinfFile f;
  f.game = game;
  const bool echoes = game == Game::Echoes;
  const uint32_t no_parent = NoParentOf(game);
  const size_t count = fields::ReadCount(r, (echoes ? fields::Size(kEchoesCinfBone) : fields::Size(kPrimeCinfBone)) + 4, "bone records");
  f.bones.resize(count);
  std::map<uint32_t, size_t> index;
  std::vector<size_t> parent_at(count);
  for (size_t i = 0; i < count; ++i) {
    CinfBone& b = f.bones[i];
    const size_t at = r.tell();
    const std::string what = "bone " + std::to_string(i);
    parent_at[i] = at + 4;
    if (echoes) fields::ReadAll(r, b, kEchoesCinfBone);
    else fields::ReadAll(r, b, kPrimeCinfBone);
    if (echoes && b.id >= count) {
      r.FailAt(at, what + " has id " + std::to_string(b.id) + "; an Echoes CINF numbers its " + std::to_string(count) +
                       " bones 0.." + std::to_string(count - 1));
    }
    b.linked = fields::ReadCountedValues<uint32_t>(r, what + " linked bone ids");
    if (!index.emplace(b.id, i).second) r.FailAt(at, what + " repeats bone id " + std::to_string(b.id));
  }
  f.bone_ids = fields::ReadCountedValues<uint32_t>(r, "bone id list");
  f.names.resize(fields::ReadCount(r, 1 + fields::Size(kCinfNameId), "bone names"));
  for (CinfName& name : f.names) {
    name.first = r.CString("a bone name");
    fields::ReadAll(r, name, kCinfNameId);
  }
  ByteView rest = r.Take(r.remaining(), "trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
  // Every parent exists, and following parents always reaches a root.
  for (size_t i = 0; i < count; ++i) {
    const uint32_t p = f.bones[i].parent;
    if (p != no_parent && !index.count(p)) {
      r.FailAt(parent_at[i], "bone " + std::to_string(f.bones[i].id) + " names parent " + std::to_string(p) +
                                 ", which is not in the file (" + std::to_string(no_parent) + " means no parent)");
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
      if (p == no_parent) break;
      j = index[p];
      if (state[j] == 1) r.FailAt(parent_at[j], "the parents of bone " + std::to_string(f.bones[j].id) + " form a cycle");
    }
    for (size_t k : path) state[k] = 2;
  }
  return f;
}

size_t TrailingBytes(const std::optional<CinfFile>& f) { return f ? f->trailing.size() : 0; }

}  // namespace

uint32_t NoParentOf(Game game) { return game == Game::Echoes ? kEchoesNoParent : kNoParent; }

CinfFile ParseCinf(ByteView data, std::optional<Game> game, std::vector<std::string>* warnings) {
  if (game) return ParseCinfAs(data, *game);
  std::optional<CinfFile> prime, echoes;
  std::optional<Error> prime_error, echoes_error;
  try {
    prime = ParseCinfAs(data, Game::Prime);
  } catch (const Error& e) {
    prime_error = e;
  }
  try {
    echoes = ParseCinfAs(data, Game::Echoes);
  } catch (const Error& e) {
    echoes_error = e;
  }
  if (prime && echoes) {
    const bool take_echoes = TrailingBytes(echoes) < TrailingBytes(prime);
    if (warnings) {
      warnings->push_back(std::string("the CINF fits both Metroid Prime's and Echoes' layouts; read as ") +
                          (take_echoes ? "Echoes' (fewer trailing bytes)" : "Metroid Prime's") +
                          "; --metroid-game 1 or 2 chooses");
    }
    return take_echoes ? std::move(*echoes) : std::move(*prime);
  }
  if (prime) return std::move(*prime);
  if (echoes) return std::move(*echoes);
  const auto described = [](const Error& e) {
    return e.byte_offset() ? "offset " + Hex(*e.byte_offset()) + ": " + e.message() : e.message();
  };
  const uint64_t at = std::max(prime_error->byte_offset().value_or(0), echoes_error->byte_offset().value_or(0));
  throw Error::AtOffset(at, "the CINF fits neither Metroid Prime's layout (" + described(*prime_error) +
                                ") nor Echoes' (" + described(*echoes_error) + ")");
}

Bytes SerializeCinf(const CinfFile& f) {
  ByteWriter w(Endian::Big);
  fields::WriteCount(w, f.bones.size());
  for (const CinfBone& b : f.bones) {
    if (f.game == Game::Echoes) fields::WriteAll(w, b, kEchoesCinfBone);
    else fields::WriteAll(w, b, kPrimeCinfBone);
    fields::WriteCountedValues(w, b.linked);
  }
  fields::WriteCountedValues(w, f.bone_ids);
  fields::WriteCount(w, f.names.size());
  for (const CinfName& name : f.names) {
    w.CString(name.first);
    fields::WriteAll(w, name, kCinfNameId);
  }
  w.Append(f.trailing);
  return w.Take();
}

Scene DecodeCinf(const CinfFile& f, RestRule rule) {
  const uint32_t no_parent = NoParentOf(f.game);
  std::map<uint32_t, size_t> index;
  for (size_t i = 0; i < f.bones.size(); ++i) index.emplace(f.bones[i].id, i);
  std::vector<std::vector<size_t>> children(f.bones.size());
  std::vector<size_t> roots;
  for (size_t i = 0; i < f.bones.size(); ++i) {
    const auto it = f.bones[i].parent == no_parent ? index.end() : index.find(f.bones[i].parent);
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
    if (b.parent != no_parent && index.count(b.parent)) {
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
  scene.metadata[metadata_keys::kGame] = static_cast<uint32_t>(f.game);
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

CinfFile EncodeCinf(const Skeleton& skeleton, const std::vector<std::pair<std::string, uint32_t>>& named, Game game) {
  std::vector<std::string> names;
  for (const Joint& j : skeleton.joints) names.push_back(j.name);
  const std::vector<uint32_t> ids = AssignBoneIds(names, named, game);
  const uint32_t no_parent = NoParentOf(game);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == no_parent) {
      throw Error::General("joint '" + names[i] + "' maps to bone id " + std::to_string(no_parent) +
                           ", which a CINF of that game reserves for 'no parent'");
    }
  }
  std::vector<Mat4> model(skeleton.joints.size());
  std::vector<TransformTRS> local;
  for (const Joint& j : skeleton.joints) local.push_back(j.rest);
  LocalToModel(skeleton, local, model);
  CinfFile f;
  f.game = game;
  for (size_t i = 0; i < skeleton.joints.size(); ++i) {
    const Joint& j = skeleton.joints[i];
    CinfBone b;
    b.id = ids[i];
    b.parent = j.parent >= 0 ? ids[static_cast<size_t>(j.parent)] : no_parent;
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
