// Registry entry and document for the EDF RAB / MRAB archive: members, and the model they hold.
#include <animkit/formats/edf_rab.hpp>
#include <animkit/formats/registry.hpp>

#include "formats/common/document.hpp"
#include "edf_rab_fields.hpp"

#include <algorithm>
#include <cstring>

namespace animkit {

namespace edf_rab {
namespace {

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

bool HasExtension(std::string_view name, std::string_view extension) {
  return name.size() >= extension.size() && LowerAscii(name.substr(name.size() - extension.size())) == extension;
}

// The name a texture member binds as: "x.lod.dds" binds the model's "x.dds" (facts 3.1).
std::string BoundName(std::string_view member) {
  std::string lower = LowerAscii(member);
  const size_t lod = lower.rfind(".lod.");
  if (lod != std::string::npos) lower.erase(lod, 4);
  return lower;
}

// "x.dds" -> "x.lod.dds": the low-detail member of the same texture.
std::string LodVariant(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::string(name) + ".lod";
  return std::string(name.substr(0, dot)) + ".lod" + std::string(name.substr(dot));
}

Value TableSummary(uint64_t offset, uint64_t count, uint64_t record_size) {
  return {{"offset", offset}, {"count", count}, {"size", count * record_size}};
}

class RabDocument final : public FileDocument<File, kEdfRabFormat, Serialize> {
 public:
  RabDocument(File file, const ReadContext& context) : FileDocument(std::move(file)), limits_(context.options.limits()) {
    damaged_ = file_.damaged;
    warnings_ = file_.warnings;
    for (size_t i = 0; i < file_.members.size(); ++i) {
      const MemberRecord& m = file_.members[i];
      if (!m.readable) continue;
      const ByteView stored = StoredBytes(file_, i);
      if (IsCmpl(stored) && stored.size() >= kCmplHeaderSize)
        CheckLimit(CmplRawSize(stored), &Limits::max_member_bytes, limits_,
                   "member " + std::to_string(i) + " '" + m.name + "': the CMPL raw size", Place::At(m.data_offset + 4));
    }
    ReadModel(context);
  }

  std::vector<ArchiveMember> Members() const override {
    std::vector<ArchiveMember> out;
    for (size_t i = 0; i < file_.members.size(); ++i) {
      const MemberRecord& m = file_.members[i];
      ArchiveMember a{m.name, m.folder_name, m.stored_size, RawSize(file_, i), m.readable && IsCmpl(StoredBytes(file_, i)), {}};
      out.push_back(std::move(a));
    }
    return out;
  }

  Bytes MemberBytes(size_t index) const override {
    const ByteView stored = StoredBytes(file_, index);
    if (IsCmpl(stored)) {
      try {
        return Decompress(stored, limits_);
      } catch (const Error& e) {
        // The stream's offsets are the member's: name the archive's.
        const MemberRecord& m = file_.members[index];
        const std::string what = "member " + std::to_string(index) + " '" + m.name + "': " + e.message();
        if (e.byte_offset()) throw Error::AtOffset(m.data_offset + *e.byte_offset(), what);
        throw Error::General(what);
      }
    }
    return Bytes(stored.begin(), stored.end());
  }

  Bytes WithMember(size_t index, ByteView bytes) const override {
    const ByteView stored = StoredBytes(file_, index);
    if (IsCmpl(stored)) return ReplaceStored(file_, index, Compress(bytes));
    return ReplaceStored(file_, index, bytes);
  }

  std::vector<std::string> Warnings() const override { return warnings_; }
  std::vector<std::string> Damaged() const override { return damaged_; }

  Value Info() const override {
    Value info = {{"magic", "SSA"}};
    fields::Describe(info, file_.header, kHeaderFields);
    Value members = Value::array();
    for (size_t i = 0; i < file_.members.size(); ++i) {
      const MemberRecord& m = file_.members[i];
      Value member = {{"offset", m.at}, {"name", m.name}, {"folder_name", m.folder_name}, {"readable", m.readable}};
      fields::Describe(member, m, kMemberFields);
      if (m.readable) {
        member["compressed"] = IsCmpl(StoredBytes(file_, i));
        member["raw_size"] = RawSize(file_, i);
      }
      members.push_back(std::move(member));
    }
    Value index = Value::array();
    for (const IndexRecord& e : file_.index) {
      Value entry = {{"offset", e.at}, {"name", e.name}};
      fields::Describe(entry, e, kIndexFields);
      index.push_back(std::move(entry));
    }
    Value folders = Value::array();
    for (const FolderRecord& e : file_.folders) {
      Value entry = {{"offset", e.at}, {"name", e.name}};
      fields::Describe(entry, e, kFolderFields);
      folders.push_back(std::move(entry));
    }
    info["members"] = std::move(members);
    info["sorted_index"] = std::move(index);
    info["folders"] = std::move(folders);
    info["name_pool_end"] = file_.pool_end;
    info["model_member"] = model_name_;
    return info;
  }

  Value InfoSummary() const override {
    Value info = {{"magic", "SSA"}};
    fields::Describe(info, file_.header, kHeaderFields);
    const Header& h = file_.header;
    info["members"] = TableSummary(h.member_offset, h.member_count, kMemberSize);
    info["sorted_index"] = TableSummary(h.index_offset, h.member_count, kIndexSize);
    Value folders = Value::array();
    for (const FolderRecord& e : file_.folders) folders.push_back(e.name);
    info["folders"] = TableSummary(h.folder_offset, h.folder_count, kFolderSize);
    info["folder_names"] = std::move(folders);
    // Archives hold a few members: each in one line (what `archive list` shows).
    Value listed = Value::array();
    size_t compressed = 0;
    for (const ArchiveMember& m : Members()) {
      compressed += m.compressed ? 1 : 0;
      listed.push_back({{"name", m.name}, {"folder", m.folder}, {"stored_size", m.stored_size}, {"size", m.size},
                        {"compressed", m.compressed}});
    }
    info["compressed_members"] = compressed;
    info["member_list"] = std::move(listed);
    info["model_member"] = model_name_;
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    if (model_) scene = model_->Decode(context);
    if (!scene.metadata.is_object()) scene.metadata = Value::object();
    scene.metadata[kSourceFormatKey] = "edf-rab";
    scene.metadata[metadata_keys::kModelMember] = model_name_;
    return scene;
  }

  std::string Version() const override { return std::to_string(file_.header.version); }

  // The archive with its model written from scene (the edf-mdb writer, the model member as
  // template) and the textures it changed or added as members: replaced in place (CMPL when
  // the member was), new ones before the model (the game binds only those). Every other byte
  // stays when no member is added.
  Bytes WithModel(const Scene& scene, EncodeContext& context) const {
    const FormatDescriptor* mdb = FindFormat("edf-mdb");
    if (!model_ || !mdb || !mdb->encode) throw Error::General("the template archive holds no readable .mdb member to write into");
    const EncodeTemplate member{context.templ->path + ":" + model_name_, MemberBytes(model_index_), model_.get()};
    EncodeContext c;
    c.options = context.options;
    c.templ = &member;
    const Bytes model = mdb->encode(scene, c)->Write();
    for (std::string& w : c.warnings) context.warnings.push_back(std::move(w));
    context.report = c.report;
    File f = file_;
    auto replace = [&](size_t i, const Bytes& raw) {
      f = Parse(ReplaceStored(f, i, IsCmpl(StoredBytes(f, i)) ? Compress(raw) : raw));
    };
    if (model != member.bytes) replace(model_index_, model);
    std::vector<BuildMember> added;
    for (ExtraOutput& x : c.extra_outputs) {  // DDS files named as the model names them
      const std::string name = x.path;
      Bytes& dds = x.bytes;
      if (const std::optional<size_t> i = FindMember(name)) replace(*i, dds);
      else added.push_back({"TEXTURE", name, std::move(dds), false});
    }
    if (added.empty()) return Serialize(f);
    std::vector<BuildMember> all;  // as stored, the new textures before the model
    for (size_t i = 0; i < f.members.size(); ++i) {
      if (i == model_index_)
        for (BuildMember& a : added) all.push_back({a.folder, a.name, std::move(a.bytes), false});
      const ByteView stored = StoredBytes(f, i);
      all.push_back({f.members[i].folder_name, f.members[i].name, Bytes(stored.begin(), stored.end()), false});
    }
    return BuildStored(all);
  }

 private:
  std::string Label(size_t i) const { return "member " + std::to_string(i) + " '" + file_.members[i].name + "'"; }

  // The member a model's texture file name names: the exact name, else the same ignoring
  // ASCII case, else its ".lod." variant (the low-detail copy in TEXTURE).
  std::optional<size_t> FindMember(std::string_view name) const {
    const std::vector<MemberRecord>& ms = file_.members;
    for (size_t i = 0; i < ms.size(); ++i)
      if (ms[i].readable && ms[i].name == name) return i;
    for (const std::string& wanted : {LowerAscii(name), LowerAscii(LodVariant(name))})
      for (size_t i = 0; i < ms.size(); ++i)
        if (ms[i].readable && LowerAscii(ms[i].name) == wanted) return i;
    return std::nullopt;
  }

  std::optional<Bytes> Neighbour(std::string_view name) {
    const std::optional<size_t> i = FindMember(name);
    if (!i) return std::nullopt;
    try {
      return MemberBytes(*i);
    } catch (const Error& e) {
      const std::string line = std::string(e.what());
      if (std::find(damaged_.begin(), damaged_.end(), line) == damaged_.end()) damaged_.push_back(line);
      return std::nullopt;
    }
  }

  void ReadModel(const ReadContext& context) {
    std::vector<size_t> models;
    for (size_t i = 0; i < file_.members.size(); ++i)
      if (HasExtension(file_.members[i].name, ".mdb")) models.push_back(i);
    if (models.empty()) {
      warnings_.push_back("the archive holds no .mdb member: it decodes to an empty scene (its members are listed)");
      return;
    }
    const size_t index = models.front();
    model_name_ = file_.members[index].name;
    if (models.size() > 1) {
      std::string others;
      for (size_t k = 1; k < models.size(); ++k) others += (k > 1 ? ", " : "") + Label(models[k]);
      warnings_.push_back("the archive holds " + std::to_string(models.size()) + " models: " + Label(index) +
                          " is decoded, not " + others);
    }
    const FormatDescriptor* mdb = FindFormat("edf-mdb");
    if (!mdb || !mdb->read) {
      damaged_.push_back(Label(index) + ": no edf-mdb reader");
      return;
    }
    const std::string prefix = Label(index) + ": ";
    try {
      const Bytes bytes = MemberBytes(index);
      ReadContext member_context;
      member_context.options = context.options;
      member_context.path = context.path;
      member_context.neighbour = [this](std::string_view name) { return Neighbour(name); };
      model_ = mdb->read(bytes, member_context);
      model_index_ = index;
    } catch (const Error& e) {
      damaged_.push_back(prefix + e.what());
      return;
    }
    for (const std::string& w : model_->Warnings()) warnings_.push_back(prefix + w);
    for (const std::string& d : model_->Damaged()) damaged_.push_back(prefix + d);
    WarnUnboundTextures();
  }

  // EDF.dll reads the non-HD members in table order and binds a model's texture slots by file
  // name: a texture it names that comes after the model is never bound.
  void WarnUnboundTextures() {
    const Value info = model_->Info();
    std::vector<std::string> named;
    for (const Value& t : info["model"]["textures"])
      if (t["file"].is_string()) named.push_back(LowerAscii(t["file"].as_string()));
    const MemberRecord& model = file_.members[model_index_];
    for (size_t i = model_index_ + 1; i < file_.members.size(); ++i) {
      const MemberRecord& m = file_.members[i];
      if (m.folder_name == kHdTextureFolder || !HasExtension(m.name, ".dds")) continue;
      if (std::find(named.begin(), named.end(), BoundName(m.name)) == named.end()) continue;
      warnings_.push_back("offset " + Hex(m.at) + ": " + Label(i) + " (data at " + Hex(m.data_offset) +
                          ") comes after the model " + Label(model_index_) + " (record at " + Hex(model.at) +
                          ") that names it: the game never binds it: the model renders black");
    }
  }

  Limits limits_;
  std::unique_ptr<Document> model_;
  size_t model_index_ = 0;
  std::string model_name_;
  std::vector<std::string> damaged_;
  std::vector<std::string> warnings_;
};

int Probe(ByteView data, std::string_view extension) {
  const bool named = extension == ".rab" || extension == ".mrab";
  if (data.size() >= 8 && std::memcmp(data.data(), "SSA\0", 4) == 0) {
    const uint32_t v = le::Load32(data.data() + 4);
    if (v == kVersion && data.size() >= kHeaderSize) return kProbeMagic;
    return named ? kProbeDamaged : kProbeStructure;
  }
  return named ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<RabDocument>(Parse(data), context);
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const auto* templ = context.templ ? dynamic_cast<const RabDocument*>(context.templ->document) : nullptr;
  if (!templ) throw Error::General("an EDF RAB is written into its original: give --template original.rab");
  return std::make_unique<RabDocument>(Parse(templ->WithModel(scene, context)), ReadContext{});
}

}  // namespace
}  // namespace edf_rab

const FormatDescriptor kEdfRabFormat{
    .id = "edf-rab", .description = "Earth Defense Force RAB / MRAB archive (a model, its textures; CMPL members)",
    .extensions = {".rab", ".mrab"}, .companions = {}, .probe = edf_rab::Probe, .read = edf_rab::Read, .encode = edf_rab::Encode,
    .options = {}};

}  // namespace animkit
