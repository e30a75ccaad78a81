// Registry entries and documents for Metroid Prime CMDL models and CSKR skin rules.
#include <animkit/formats/metroid_model.hpp>
#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"
#include "metroid_cmdl_encode.hpp"
#include "metroid_cmdl_fields.hpp"
#include "metroid_cmdl_internal.hpp"

#include <cctype>
#include <filesystem>
#include <map>

namespace animkit {

namespace metroid_model {
namespace {

const WordOption kSkinOption{{.name = "metroid-skin",
                              .help = "Metroid CMDL: the CSKR file beside the model that skins it (default: the "
                                      "model's stem + .CSKR when present); skinning needs the CINF as --skeleton"}};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Files beside the model: the archive's members when read from one, else its folder.
SideFileReader SideReader(const ReadContext& context) {
  if (context.neighbour) {
    return [neighbour = context.neighbour](const std::string& name, std::string& why) {
      std::optional<Bytes> bytes = neighbour(name);
      if (!bytes) why = "is not among the archive's members";
      return bytes;
    };
  }
  if (context.path.empty()) return {};
  const std::string folder = TextOf(PathOf(context.path).parent_path());
  return [folder](const std::string& name, std::string& why) -> std::optional<Bytes> {
    namespace fs = std::filesystem;
    if (name.empty() || name.find_first_of("/\\:") != std::string::npos || name == "." || name == "..") {
      why = "is not a file name in the model's folder";
      return std::nullopt;
    }
    std::error_code ec;
    for (fs::directory_iterator it(PathOf(folder.empty() ? "." : folder), ec), end; !ec && it != end; it.increment(ec)) {
      if (Lower(TextOf(it->path().filename())) != Lower(name) || !it->is_regular_file(ec)) continue;
      try {
        return ReadFileBytes(TextOf(it->path()));
      } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
      }
    }
    why = "is not beside the model";
    return std::nullopt;
  };
}

// The side files a decode asks for, read once when the model is read.
SideFileReader Cached(std::map<std::string, std::pair<std::optional<Bytes>, std::string>> files) {
  return [files = std::move(files)](const std::string& name, std::string& why) -> std::optional<Bytes> {
    const auto it = files.find(name);
    if (it == files.end()) {
      why = "was not looked for";
      return std::nullopt;
    }
    why = it->second.second;
    return it->second.first;
  };
}

Value Hex32List(const std::vector<uint32_t>& ids) {
  Value out = Value::array();
  for (uint32_t id : ids) out.push_back(Hex(id));
  return out;
}

Value MaterialInfo(const CmdlMaterial& m) {
  Value uv = Value::array();
  for (const UvAnimation& a : m.uv_animations) {
    Value one = {{"params", a.params}};
    fields::Describe(one, a, kUvAnimationMode);
    uv.push_back(std::move(one));
  }
  Value info = {{"flags", Hex(m.flags)},
                {"texture_slots", m.texture_slots},
                {"vertex_attributes", Hex(m.vertex_attributes)},
                {"konst_colors", Hex32List(m.konst_colors)},
                {"indirect_slot", m.indirect_slot},
                {"color_channels", m.color_channels},
                {"tev_stages", fields::DescribeTable(m.stages, kTevStage)},
                {"tev_textures", fields::DescribeTable(m.stage_textures, kTevTexture)},
                {"texgens", Hex32List(m.texgens)},
                {"uv_animations", std::move(uv)},
                {"trailing_bytes", m.trailing.size()}};
  fields::Describe(info, m, kEchoesMaterial);
  fields::Describe(info, m, kMaterialGroup);
  fields::Describe(info, m, kMaterialBlend);
  fields::Describe(info, m, kUvAnimationSize);
  return info;
}

Value SurfaceInfo(const Surface& s) {
  Value info = {{"offset", s.at}, {"display_list_offset", s.list_at}};
  fields::Describe(info, s.header, kSurfaceHeader);
  fields::Describe(info, s, kEchoesSurface);
  std::map<std::string, size_t> kinds;
  size_t vertices = 0;
  for (const Primitive& p : s.primitives) {
    static const std::map<uint8_t, const char*> kNames = {{kQuads, "quads"},  {kTriangles, "triangles"},
                                                          {kStrip, "strips"}, {kFan, "fans"},
                                                          {kLines, "lines"},  {kLineStrip, "line_strips"},
                                                          {kPoints, "points"}};
    ++kinds[kNames.at(p.opcode & 0xF8)];
    vertices += p.vertex_count;
  }
  Value primitives = Value::object();
  for (const auto& [k, n] : kinds) primitives[k] = n;
  info["primitives"] = std::move(primitives);
  info["display_list_vertices"] = vertices;
  return info;
}

class CmdlDocument final : public FileDocument<CmdlFile, kMetroidCmdlFormat, SerializeCmdl> {
 public:
  CmdlDocument(CmdlFile file, const ReadContext& context) : FileDocument(std::move(file)) {
    const SideFileReader reader = SideReader(context);
    std::map<std::string, std::pair<std::optional<Bytes>, std::string>> files;
    for (const MaterialSet& s : file_.material_sets) {
      for (uint32_t id : s.texture_ids) {
        const std::string file_name = TxtrFileName(id);
        std::string why;
        std::optional<Bytes> bytes = reader ? reader(file_name, why) : std::nullopt;
        if (!reader) why = "has no folder to be looked for in";
        files[file_name] = {std::move(bytes), why};
      }
    }
    textures_ = Cached(std::move(files));
    ReadSkin(context, reader);
    if ((file_.header.flags & kFlagSkinned) && !skin_)
      warnings_.push_back("the model is skinned (flags bit 0) but no CSKR was read: it decodes unskinned");
  }

  Value Info() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kCmdlHeader);
    info["magic"] = Hex(file_.header.magic);
    info["flags"] = Hex(file_.header.flags);
    info["section_sizes"] = file_.section_sizes;
    Value sets = Value::array();
    for (const MaterialSet& s : file_.material_sets) {
      Value materials = Value::array();
      for (const CmdlMaterial& m : s.materials) materials.push_back(MaterialInfo(m));
      sets.push_back({{"texture_ids", Hex32List(s.texture_ids)}, {"materials", std::move(materials)}});
    }
    info["material_sets"] = std::move(sets);
    info["positions"] = file_.positions.values.size();
    info["normals"] = file_.ShortNormals() ? file_.short_normals.values.size() : file_.float_normals.values.size();
    info["short_normals"] = file_.ShortNormals();
    info["colors"] = file_.colors.values.size();
    info["float_uvs"] = file_.float_uvs.values.size();
    info["short_uvs"] = file_.short_uvs.values.size();
    Value surfaces = Value::array();
    for (const Surface& s : file_.surfaces) surfaces.push_back(SurfaceInfo(s));
    info["surfaces"] = std::move(surfaces);
    info["trailing_bytes"] = file_.trailing.size();
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    CmdlDecodeInput input;
    input.reader = textures_;
    if (skin_ && context.reference && !context.reference->skeleton.empty()) {
      input.skin = &*skin_;
      input.rig = context.reference;
    }
    std::vector<std::string> warnings;
    return DecodeCmdl(file_, input, warnings);
  }

  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = warnings_;
    CmdlDecodeInput input;
    input.reader = textures_;
    try {
      std::vector<std::string> decode;
      DecodeCmdl(file_, input, decode);
      out.insert(out.end(), decode.begin(), decode.end());
    } catch (const Error& e) {
      out.push_back(std::string("the model does not decode: ") + e.what());
    }
    return out;
  }
  std::string Version() const override { return std::to_string(file_.header.version); }

 private:
  void ReadSkin(const ReadContext& context, const SideFileReader& reader) {
    if (!reader) return;
    const bool named = context.options.Has(std::string(kSkinOption.spec().name));
    std::string name = named ? kSkinOption.Get(context.options, std::string()) : std::string();
    if (!named) name = TextOf(PathOf(context.path.empty() ? "model" : context.path).stem()) + ".CSKR";
    std::string why;
    const std::optional<Bytes> bytes = reader(name, why);
    if (!bytes) {
      if (named) warnings_.push_back("skin " + name + " " + why + ": the model decodes unskinned");
      return;
    }
    try {
      skin_ = ParseCskr(*bytes);
    } catch (const Error& e) {
      warnings_.push_back("skin " + name + " does not read (" + e.what() + "): the model decodes unskinned");
    }
  }

  SideFileReader textures_;
  std::optional<CskrFile> skin_;
  std::vector<std::string> warnings_;
};

class CskrDocument final : public FileDocument<CskrFile, kMetroidCskrFormat, SerializeCskr> {
 public:
  using FileDocument::FileDocument;
  Value Info() const override {
    Value groups = Value::array();
    for (const WeightGroup& g : file_.groups) {
      Value group = {{"weights", fields::DescribeTable(g.weights, kSkinWeight)}};
      fields::Describe(group, g, kGroupVertexCount);
      groups.push_back(std::move(group));
    }
    Value info = {{"layout", file_.mp2 ? "echoes" : "prime"}, {"groups", std::move(groups)}};
    if (file_.mp2) {
      info["matrix_indices"] = file_.matrix_indices;
      info["mapped_positions"] = file_.position_groups.size();
    } else {
      info["position_count"] = file_.positions.Count();
      info["normal_count"] = file_.normals.Count();
    }
    info["trailing_bytes"] = file_.trailing.size();
    return info;
  }
  Scene Decode(const DecodeContext&) const override {
    Scene scene;
    scene.metadata[kSourceFormatKey] = "metroid-cskr";
    return scene;
  }
};

int ProbeCmdl(ByteView data, std::string_view extension) {
  const bool ext = extension == ".cmdl";
  if (data.size() >= 8 && be::Load32(data.data()) == kCmdlMagic) {
    const uint32_t version = be::Load32(data.data() + 4);
    return version >= 2 && version <= 4 && data.size() >= 0x2C ? kProbeMagic : kProbeDamaged;
  }
  return ext ? kProbeExtension : kProbeNone;
}

int ProbeCskr(ByteView data, std::string_view extension) {
  if (extension != ".cskr") return kProbeNone;
  if (data.size() >= 4 && uint64_t{be::Load32(data.data())} * 12 <= data.size()) return kProbeStructure;
  return kProbeExtension;
}

std::unique_ptr<Document> ReadCmdl(ByteView data, const ReadContext& context) {
  return std::make_unique<CmdlDocument>(ParseCmdl(data), context);
}
// The model and, for its document to decode as the files will, its skin and textures.
std::unique_ptr<Document> EncodeCmdlDocument(const Scene& scene, EncodeContext& context) {
  CmdlEncoded e = EncodeCmdlFor(scene, context);
  std::map<std::string, Bytes> sides;
  for (const ExtraOutput& x : context.extra_outputs) sides[TextOf(PathOf(x.path).filename())] = x.bytes;
  ReadContext rc;
  rc.neighbour = [sides](std::string_view name) -> std::optional<Bytes> {
    const auto it = sides.find(std::string(name));
    return it == sides.end() ? std::nullopt : std::optional<Bytes>(it->second);
  };
  if (e.skin) rc.options.Set(std::string(kSkinOption.spec().name), SkinFileName(e.skin_id));
  return std::make_unique<CmdlDocument>(std::move(e.model), rc);
}

std::unique_ptr<Document> ReadCskr(ByteView data, const ReadContext&) {
  return std::make_unique<CskrDocument>(ParseCskr(data));
}

}  // namespace
}  // namespace metroid_model

const FormatDescriptor kMetroidCmdlFormat{
    .id = "metroid-cmdl", .description = "Metroid Prime CMDL model (meshes, materials, TXTR textures beside it)",
    .extensions = {".cmdl"}, .companions = {}, .probe = metroid_model::ProbeCmdl, .read = metroid_model::ReadCmdl,
    .encode = metroid_model::EncodeCmdlDocument, .options = {metroid_model::kSkinOption.spec()}, .up_axis = "+Z", .forward_axis = "+Y"};

const FormatDescriptor kMetroidCskrFormat{
    .id = "metroid-cskr", .description = "Metroid Prime CSKR skin rules (weight groups)",
    .extensions = {".cskr"}, .companions = {}, .probe = metroid_model::ProbeCskr, .read = metroid_model::ReadCskr,
    .encode = nullptr, .options = {}, .part_of = "skins of the Metroid models (.cmdl) beside them"};

}  // namespace animkit
