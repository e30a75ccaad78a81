// The preview pages as the library builds them (the browser test, preview_pages_test.mjs,
// plays them): everything inline, the embedded glb the exporter's, sizes within the rule,
// the gallery's counts `info`'s, outputs atomic and never over an input.
#include "support/test_support.hpp"

#include <animkit/preview/preview.hpp>

#include "preview/preview_encode.hpp"
#include "preview/preview_html.hpp"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace animkit {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// length bytes from a page's data block, 7 bits per character (preview_encode.hpp, Text7):
// an ASCII character is a group of 7 bits; U+0100 + i x 128 + n (two bytes of UTF-8) the
// escaped group i (NUL, CR, '<') and then n.
Bytes FromText7(const std::string& text, size_t length) {
  Bytes out;
  uint32_t acc = 0;
  int bits = 0;
  auto put = [&](uint32_t group) {
    acc = (acc << 7 | group) & 0x3FFF;
    bits += 7;
    if (bits >= 8) {
      bits -= 8;
      if (out.size() < length) out.push_back(static_cast<uint8_t>(acc >> bits));
    }
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c < 0x80) {
      put(c);
      continue;
    }
    const uint32_t cp = (c & 0x1Fu) << 6 | (static_cast<uint8_t>(text[++i]) & 0x3Fu);
    const uint32_t escaped[3] = {0, '\r', '<'};
    put(escaped[(cp - 0x100) >> 7]);
    put((cp - 0x100) & 0x7F);
  }
  EXPECT_EQ(out.size(), length);
  return out;
}

// A gzip member's content (zlib, as the browser's DecompressionStream('gzip') reads it).
Bytes Gunzip(const Bytes& gz) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  stream.next_in = const_cast<Bytef*>(gz.data());
  stream.avail_in = static_cast<uInt>(gz.size());
  Bytes out;
  int status = Z_OK;
  while (status == Z_OK) {
    uint8_t chunk[1 << 16];
    stream.next_out = chunk;
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    out.insert(out.end(), chunk, chunk + (sizeof chunk - stream.avail_out));
  }
  inflateEnd(&stream);
  EXPECT_EQ(status, Z_STREAM_END) << "not a whole gzip member";
  return out;
}

// The text of the page's <script> element of that id.
std::string Block(const std::string& html, const std::string& open) {
  const size_t start = html.find(open);
  EXPECT_NE(start, std::string::npos) << open;
  if (start == std::string::npos) return "";
  const size_t end = html.find("</script>", start);
  return html.substr(start + open.size(), end - start - open.size());
}

// The page without the contents of its text/plain blocks: 7-bit encoded gzip, in which any
// two characters (a template slot's "@@" too) may occur by chance.
std::string WithoutEncodedBlocks(std::string html) {
  const std::string open = "<script type=\"text/plain\"";
  for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
    const size_t body = html.find('>', at);
    const size_t end = html.find("</script>", body);
    if (body == std::string::npos || end == std::string::npos) break;
    html.erase(body + 1, end - body - 1);
  }
  return html;
}

// The JSON block the page carries (its '<' escaped as \u003c).
nlohmann::json PageData(const std::string& html) {
  return nlohmann::json::parse(Block(html, "<script type=\"application/json\" id=\"animkit-data\">"));
}

// The glb and the info the page carries, gzipped, 7 bits per character.
Bytes PageGlb(const std::string& html) {
  const size_t length = PageData(html)["glb_gzip_bytes"].get<size_t>();
  return Gunzip(FromText7(Block(html, "<script type=\"text/plain\" id=\"animkit-glb\">"), length));
}
nlohmann::json PageInfo(const std::string& html) {
  const size_t length = PageData(html)["info_gzip_bytes"].get<size_t>();
  const Bytes text = Gunzip(FromText7(Block(html, "<script type=\"text/plain\" id=\"animkit-info\">"), length));
  return nlohmann::json::parse(std::string(text.begin(), text.end()));
}

PreviewPage PageOf(const std::string& sample, const PreviewRequest& request = {}) {
  const LoadedFile loaded = LoadFile(test::SourcePath(sample), "", request.options);
  return BuildPreviewPage(loaded, request);
}

TEST(Preview, PageCarriesEverythingInlineAndTheExportersGlb) {
  const std::string path = test::SourcePath("samples/psx_tmd/figure.anm");
  const PreviewPage page = PageOf("samples/psx_tmd/figure.anm");
  // Nothing is loaded from anywhere: no src= or href= attribute, and the CSP forbids it.
  EXPECT_FALSE(std::regex_search(page.html, std::regex(R"(<(script|link|img|iframe)[^>]*\s(src|href)\s*=)")));
  EXPECT_NE(page.html.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(page.html.find("REVISION=\"111\""), std::string::npos) << "three.js is inlined";
  EXPECT_NE(page.html.find("GLTFLoader"), std::string::npos);
  EXPECT_NE(page.html.find("OrbitControls"), std::string::npos);
  EXPECT_NE(page.html.find("window.animkitPreview"), std::string::npos) << "the test hook";
  EXPECT_EQ(WithoutEncodedBlocks(page.html).find("@@"), std::string::npos) << "a template slot was left unfilled";
  EXPECT_LE(page.html.size(), PreviewPageSizeLimit(page.glb_bytes));

  // The glb is what ExportGltf makes of the file decoded against its companion (the TMD).
  EXPECT_EQ(fs::path(page.skeleton.path).filename(), "figure.tmd");
  const LoadedFile loaded = LoadFile(path, "", {});
  const DecodedScene decoded = DecodeWithSkeleton(loaded, std::string(kSkeletonAuto), {});
  const Bytes glb = ExportGltf(decoded.scene, {});
  const nlohmann::json data = PageData(page.html);
  EXPECT_EQ(PageGlb(page.html), glb);
  EXPECT_EQ(page.glb_bytes, glb.size());
  EXPECT_EQ(data["glb_bytes"], glb.size());
  EXPECT_EQ(data["format"], "psx-anm");
  EXPECT_EQ(data["up"], "-Y");
  const nlohmann::json info = PageInfo(page.html);
  EXPECT_EQ(info["clips"].size(), 1u);
  EXPECT_EQ(info["skeleton_file"], page.skeleton.path);
}

TEST(Preview, DataBlocksHoldSevenBitsPerCharacterAndNothingAParserChanges) {
  using preview_encode::Text7;
  auto view = [](const Bytes& b) { return ByteView(b.data(), b.size()); };
  EXPECT_EQ(Text7(view({0xFF})), "\x7F@");          // 1111111, then 1 and six zero bits of padding
  EXPECT_EQ(Text7(view({0x00})), "\xC4\x80");       // NUL (escaped 0), then the padding: U+0100
  // 01111000 00011110: '<' (0111100, escaped 2) and 0000111 make U+0207, then 10 + padding.
  EXPECT_EQ(Text7(view({0x78, 0x1E})), "\xC8\x87@");
  // Every byte value, and runs that make NUL, CR and '<' groups, come back; the text has
  // none of the three.
  Bytes all;
  for (int k = 0; k < 4; ++k) {
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<uint8_t>(b * (k + 1)));
    all.insert(all.end(), 9, 0);
  }
  const std::string text = Text7(view(all));
  EXPECT_EQ(text.find_first_of(std::string("\0\r<", 3)), std::string::npos);
  EXPECT_EQ(FromText7(text, all.size()), all);
  EXPECT_LE(text.size(), all.size() * 8 / 7 + all.size() / 7 + 2);
}

TEST(Preview, UpAxisFollowsTheFormat) {
  EXPECT_EQ(PreviewUpAxis("psx-anm"), "-Y");
  EXPECT_EQ(PreviewUpAxis("psx-tmd"), "-Y");
  EXPECT_EQ(PreviewUpAxis("psx-anc"), "-Y");
  EXPECT_EQ(PreviewUpAxis("metroid-anim"), "+Z");
  EXPECT_EQ(PreviewUpAxis("metroid-pak"), "+Z");
  EXPECT_EQ(PreviewUpAxis("kh2-bar"), "+Y");
  EXPECT_EQ(PreviewUpAxis("gltf"), "+Y");
}

TEST(Preview, ClipOptionKeepsOneClipAndNamesTheFileWhenAbsent) {
  PreviewRequest request;
  request.clip = "idle";
  const PreviewPage page = PageOf("samples/edf_canm/soldier5.canm", request);
  const Scene scene = ImportGltf(PageGlb(page.html), "page.glb");
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_EQ(scene.clips[0].name, "idle");
  request.clip = "nope";
  try {
    PageOf("samples/edf_canm/soldier5.canm", request);
    FAIL() << "no error for a clip that is not there";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("soldier5.canm"), std::string::npos) << e.what();
  }
}

TEST(Preview, TextInThePageCannotEndItsScripts) {
  // A name read from a game file ends up in the JSON block: it cannot close the script.
  const std::string json = preview_html::JsonBlock(Value{{"name", "</script><script>alert(1)</script><!--"}});
  EXPECT_EQ(json.find('<'), std::string::npos) << json;
  EXPECT_EQ(nlohmann::json::parse(json)["name"], "</script><script>alert(1)</script><!--");
  EXPECT_EQ(preview_html::InlineScript("var s = '</SCRIPT>'; // </script"), "var s = '<\\/SCRIPT>'; // <\\/script");
  EXPECT_EQ(preview_html::Escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  EXPECT_EQ(preview_html::Fill("a @@X@@ b", {{"X", "@@Y@@"}}), "a @@Y@@ b");  // what is put in is not searched
  EXPECT_THROW(preview_html::Fill("@@MISSING@@", {}), std::logic_error);
}

TEST(Preview, SiteListsEveryFileWithInfosCountsAndWritesNoInput) {
  const fs::path input = test::TempDir("preview_site_in");
  const fs::path output = input / "site";  // inside the input: left out of the walk
  fs::copy(test::SourcePath("samples/metroid_anim"), input / "metroid");
  fs::copy(test::SourcePath("samples/edf_canm"), input / "edf");
  fs::remove(input / "edf" / "soldier.dds");  // the model's texture: the counts are of the other files
  {
    std::ofstream(input / "notes.txt") << "not an animation\n";
    Bytes damaged = ReadFileBytes(test::SourcePath("samples/edf_canm/soldier5.canm"));
    damaged.resize(40);
    std::ofstream(input / "edf" / "broken.canm", std::ios::binary)
        .write(reinterpret_cast<const char*>(damaged.data()), static_cast<std::streamsize>(damaged.size()));
  }
  PreviewSiteRequest request;
  request.input_dir = input.string();
  request.output_dir = output.string();
  const PreviewSite site = WritePreviewSite(request);
  EXPECT_EQ(site.index, (output / "index.html").string());
  EXPECT_EQ(site.unrecognised, 1u);  // notes.txt
  ASSERT_EQ(site.files.size(), 7u);
  EXPECT_EQ(site.failed(), 1u);
  const std::string index = ReadText(site.index);
  for (const PreviewSiteEntry& e : site.files) {
    SCOPED_TRACE(e.path);
    if (e.path == "edf/broken.canm") {
      EXPECT_TRUE(e.page.empty());
      EXPECT_NE(e.error.find("broken.canm"), std::string::npos) << e.error;
      EXPECT_NE(index.find("class=\"failed\""), std::string::npos);
      continue;
    }
    ASSERT_FALSE(e.page.empty()) << e.error;
    EXPECT_TRUE(fs::is_regular_file(output / e.page));
    EXPECT_NE(index.find("href=\"" + e.page + "\""), std::string::npos);
    EXPECT_LE(e.page_bytes, PreviewPageSizeLimit(e.glb_bytes));
    // The counts are `info --json`'s with the skeleton the site paired the file with.
    InfoRequest info_request;
    info_request.skeleton = e.skeleton.empty() ? "" : (input / e.skeleton).string();
    const Value info = InfoValue(LoadFile((input / e.path).string(), "", {}), info_request);
    size_t frames = 0;
    for (const Value& c : info["clips"]) frames += c["frames"].get<size_t>();
    EXPECT_EQ(e.clips, info["clips"].size());
    EXPECT_EQ(e.frames, frames);
    EXPECT_EQ(e.joints, info["joints"].size());
    EXPECT_EQ(e.events, info["events"].size());
  }
  // three.js and the viewer once, beside index.html; each page refers to them, from its folder.
  for (const PreviewAsset& asset : PreviewSharedAssets()) {
    EXPECT_EQ(ReadText(output / kPreviewAssetsFolder / asset.name), asset.content) << asset.name;
  }
  const std::string run_page = ReadText(output / "metroid" / "run.anim.html");
  EXPECT_NE(run_page.find("<script src=\"../animkit-preview/three.min.js\"></script>"), std::string::npos);
  EXPECT_NE(run_page.find("<script src=\"../animkit-preview/viewer.js\"></script>"), std::string::npos);
  EXPECT_NE(run_page.find("<link rel=\"stylesheet\" href=\"../animkit-preview/preview.css\">"), std::string::npos);
  EXPECT_EQ(run_page.find("REVISION=\"111\""), std::string::npos) << "three.js is inline in a site's page";
  EXPECT_NE(run_page.find("default-src 'none'; script-src 'unsafe-inline' 'self';"), std::string::npos);
  EXPECT_LT(run_page.size(), size_t{64} << 10);
  // Each animation was paired with its companion.
  for (const PreviewSiteEntry& e : site.files) {
    if (e.path == "metroid/run.anim") {
      EXPECT_EQ(e.skeleton, "metroid/skeleton.cinf");
    }
    if (e.path == "edf/soldier5.canm") {
      EXPECT_EQ(e.skeleton, "edf/soldier.mdb");
    }
  }
  // Nothing was written into the input beside the site, and no temporary file is left.
  for (const auto& f : fs::recursive_directory_iterator(input)) {
    EXPECT_FALSE(IsTemporaryName(f.path().filename().string())) << f.path();
    if (f.path().extension() == ".html") {
      EXPECT_EQ(f.path().string().rfind(output.string(), 0), 0u) << f.path();
    }
  }
}

TEST(Preview, SkeletonMapOverridesTheCompanion) {
  const fs::path input = test::TempDir("preview_site_map");
  fs::copy(test::SourcePath("samples/edf_canm"), input / "edf");
  fs::remove(input / "edf" / "soldier.dds");  // the model's texture: the counts are of the other files
  fs::copy(test::SourcePath("samples/edf_mdb/soldier.mdb"), input / "other.mdb");
  PreviewSiteRequest request;
  request.input_dir = input.string();
  request.output_dir = (input.parent_path() / "preview_site_map_out").string();
  request.skeleton_map = ParseSkeletonMap("**/*.canm = other.mdb\n", "map.txt");
  const PreviewSite site = WritePreviewSite(request);
  size_t mapped = 0;
  for (const PreviewSiteEntry& e : site.files) {
    if (e.format != "edf-canm") continue;
    EXPECT_EQ(e.skeleton, "other.mdb") << e.path;
    ++mapped;
  }
  EXPECT_EQ(mapped, 2u);
}

TEST(Preview, SiteRefusesItsInputAsOutput) {
  const fs::path input = test::TempDir("preview_site_same");
  PreviewSiteRequest request;
  request.input_dir = input.string();
  request.output_dir = input.string();
  EXPECT_THROW(WritePreviewSite(request), Error);
  request.input_dir = (input / "missing").string();
  request.output_dir = (input / "out").string();
  EXPECT_THROW(WritePreviewSite(request), Error);
}

TEST(Preview, CliWritesThePageAndNeverOverAnInput) {
  const fs::path dir = test::TempDir("preview_cli");
  const std::string sample = test::SourcePath("samples/metroid_anim/run.anim");
  std::string out, err;
  const std::string page = (dir / "run.html").string();
  ASSERT_EQ(test::RunCli("preview '" + sample + "' -o '" + page + "'", &out, &err), 0) << err;
  EXPECT_NE(out.find("skeleton.cinf"), std::string::npos) << out;
  EXPECT_NE(ReadText(page).find("window.animkitPreview"), std::string::npos);
  // -o naming the input, or its skeleton, is refused and leaves it as it was.
  const fs::path copy = dir / "run.anim";
  fs::copy_file(sample, copy);
  const std::string before = ReadText(copy);
  EXPECT_EQ(test::RunCli("preview '" + copy.string() + "' -o '" + copy.string() + "'", &out, &err), 1);
  EXPECT_NE(err.find("run.anim"), std::string::npos) << err;
  EXPECT_EQ(ReadText(copy), before);
  // A folder needs -o.
  EXPECT_EQ(test::RunCli("preview '" + dir.string() + "'", &out, &err), 2);
}

// A retarget's page (an .html output of Retarget): the source's glb as ExportGltf makes it,
// and beside it the target's glb, which is the retargeted glb `retarget -o x.glb` writes
// without the extras only a file carries (the page's ExportGltf call is the writer's).
TEST(Preview, RetargetPageCarriesTheSourceAndTheTargetBesideIt) {
  const fs::path dir = test::TempDir("preview_retarget_page");
  RetargetRequest request;
  request.source = test::SourcePath("samples/edf_cas/soldier5.cas");
  request.target = test::SourcePath("samples/edf_cas/soldier.rab");
  request.output = (dir / "soldier5.html").string();
  EXPECT_NE(test::ErrorOf([&] { Retarget(request); }).find("preview layer"), std::string::npos)
      << "without a page builder an .html output is an error";
  request.page = RetargetPreviewPage;
  const RetargetResult result = Retarget(request);
  ASSERT_EQ(result.written.size(), 1u);
  const std::string html = ReadText(request.output);
  EXPECT_EQ(WithoutEncodedBlocks(html).find("@@"), std::string::npos);
  const nlohmann::json data = PageData(html);
  EXPECT_EQ(data["file"], "soldier5.cas");
  ASSERT_TRUE(data.contains("beside"));
  EXPECT_EQ(data["beside"]["file"], "soldier.rab");
  EXPECT_EQ(data["beside"]["format"], "edf-rab");

  // The target's glb: the same joints and clips as the glb retarget writes.
  const size_t length = data["beside"]["glb_gzip_bytes"].get<size_t>();
  const Bytes beside = Gunzip(FromText7(Block(html, "<script type=\"text/plain\" id=\"animkit-beside-glb\">"), length));
  EXPECT_EQ(beside.size(), data["beside"]["glb_bytes"].get<size_t>());
  RetargetRequest glb_request = request;
  glb_request.output = (dir / "soldier5.glb").string();
  Retarget(glb_request);
  const Scene want = DecodeDocument(LoadFile(glb_request.output, "", {}), {});
  const Scene got = DecodeDocument(LoadBytes(beside, "beside.glb", "gltf", {}), {});
  ASSERT_EQ(got.clips.size(), want.clips.size());
  EXPECT_EQ(got.clips.size(), result.clips);
  ASSERT_EQ(got.skeleton.joints.size(), want.skeleton.joints.size());
  for (size_t j = 0; j < want.skeleton.joints.size(); ++j) EXPECT_EQ(got.skeleton.joints[j].name, want.skeleton.joints[j].name);
  for (size_t c = 0; c < want.clips.size(); ++c) EXPECT_EQ(got.clips[c].name, want.clips[c].name);
  EXPECT_FALSE(got.meshes.empty()) << "the target is drawn with its meshes";
  // The source's clips on the page are those retargeted, in their order.
  const Scene source = DecodeDocument(LoadBytes(PageGlb(html), "source.glb", "gltf", {}), {});
  ASSERT_EQ(source.clips.size(), got.clips.size());
  for (size_t c = 0; c < got.clips.size(); ++c) EXPECT_EQ(source.clips[c].name, got.clips[c].name);

  // --clip: the page carries the chosen clip on both characters.
  request.clips = {want.clips.back().name};
  Retarget(request);
  const std::string one = ReadText(request.output);
  EXPECT_EQ(DecodeDocument(LoadBytes(PageGlb(one), "source.glb", "gltf", {}), {}).clips.size(), 1u);
  EXPECT_EQ(PageInfo(one)["clips"].size(), 1u);
}

}  // namespace
}  // namespace animkit
