// The export plan (export_plan.hpp): one rule for the format, template and losses of an
// export, for `convert`, `export-plan` (the Blender add-on) and Python.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/export_plan.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <filesystem>

namespace animkit {

namespace {

bool HasExtension(const std::vector<std::string_view>& list, std::string_view ext) {
  return std::find(list.begin(), list.end(), ext) != list.end();
}

bool SharesAny(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  for (std::string_view x : a)
    if (HasExtension(b, x)) return true;
  return false;
}

std::string Joined(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : std::string(sep)) + s;
  return out;
}

std::string JoinedViews(const std::vector<std::string_view>& items, std::string_view sep) {
  return Joined(std::vector<std::string>(items.begin(), items.end()), sep);
}

// Every extension a format writes an animation to, once, in table order.
std::string ExportExtensionList() {
  std::vector<std::string> out;
  for (const FormatDescriptor* f : Formats())
    for (std::string_view e : f->animation_extensions)
      if (std::find(out.begin(), out.end(), e) == out.end()) out.emplace_back(e);
  return Joined(out, ", ");
}

// The extensions a format writes, for plans of `kind`: its animation extensions, and for
// any output the ones it reads too (glTF's .glb).
std::vector<std::string_view> WrittenExtensions(const FormatDescriptor& f, ExportOutput kind) {
  std::vector<std::string_view> out = f.animation_extensions;
  if (kind == ExportOutput::Any)
    for (std::string_view e : f.extensions)
      if (!HasExtension(out, e)) out.push_back(e);
  return out;
}

// The formats that write `ext` for plans of `kind`, in table order.
std::vector<const FormatDescriptor*> WritersOf(std::string_view ext, ExportOutput kind) {
  std::vector<const FormatDescriptor*> writers = AnimationWriters(ext);
  if (writers.empty() && kind == ExportOutput::Any) writers = FormatsForExtension(ext);
  return writers;
}

std::string WithoutExtension(const std::string& path) {
  return path.substr(0, path.size() - ExtensionOf(path).size());
}

// The format an export to `output` writes (ExportPlanJob::Run's rule).
const FormatDescriptor* ChooseFormat(const ExportPlanJob& job, const std::string& output) {
  const std::string ext = ExtensionOf(output);
  const std::vector<const FormatDescriptor*> writers = WritersOf(ext, job.kind);
  if (writers.empty() && job.kind == ExportOutput::Animation)
    throw Error::General(output + ": the extension names no format animkit writes an animation to (" +
                         ExportExtensionList() + ")");
  if (!job.format.empty()) {
    const FormatDescriptor* asked = OutputFormatFor("", job.format);  // an id, else an extension
    if (writers.empty() || std::find(writers.begin(), writers.end(), asked) != writers.end()) return asked;
    const std::vector<std::string_view> own = WrittenExtensions(*asked, job.kind);
    throw Error::General(std::string(asked->id) + " writes " + (own.empty() ? "no animation" : JoinedViews(own, " ")) +
                         ", not " + ext + ": give the file one of those extensions");
  }
  if (writers.empty())
    throw Error::General("cannot tell the output format from the extension '" + ext + "' (use --to ID)").InFile(output);
  const FormatDescriptor* source = job.source_format.empty() ? nullptr : FindFormat(job.source_format);
  if (!source) return writers.front();
  // The source's own format first, then its family's, in table order.
  if (std::find(writers.begin(), writers.end(), source) != writers.end()) return source;
  for (const FormatDescriptor* w : writers)
    if (SameFamily(*source, *w)) return w;
  std::vector<std::string> names;
  for (const FormatDescriptor* w : writers) names.emplace_back(w->id);
  const std::vector<std::string_view> own = source->animation_extensions;
  const std::string own_text = own.empty() ? "" : " (its own extensions: " + JoinedViews(own, " ") + ")";
  const std::string losses = Joined(ExportLosses(source, *writers.front()), "; ");
  if (job.kind == ExportOutput::Animation)
    throw Error::General(TextOf(PathOf(output).filename()) + ": this rig was imported from a " +
                         std::string(source->id) + " file" + own_text + "; " + ext +
                         " is another family's format. To write it, choose Format " + Joined(names, " or ") +
                         " explicitly (" + losses + ")");
  throw Error::General("the template is a " + std::string(source->id) + " file" + own_text + "; " + ext +
                       " is another family's format. To write it, give --to " + Joined(names, " or ") + " (" +
                       losses + ")")
      .InFile(output);
}

// Whether another format writes one of f's animation extensions (the output then names its
// format: --to).
bool SharesAnExtension(const FormatDescriptor& f) {
  for (const FormatDescriptor* other : Formats())
    if (other != &f && SharesAny(f.animation_extensions, other->animation_extensions)) return true;
  return false;
}

}  // namespace

bool SameFamily(const FormatDescriptor& a, const FormatDescriptor& b) {
  if (&a == &b) return true;
  return SharesAny(a.extensions, b.companions) || SharesAny(b.extensions, a.companions) ||
         SharesAny(a.companions, b.companions);
}

std::vector<const FormatDescriptor*> AnimationWriters(std::string_view extension) {
  std::vector<const FormatDescriptor*> out;
  for (const FormatDescriptor* f : Formats())
    if (HasExtension(f->animation_extensions, extension)) out.push_back(f);
  return out;
}

std::string DefaultExportPath(const std::string& source, std::string_view source_format) {
  const FormatDescriptor* own = FindFormat(source_format);
  if (source.empty() || !own) return "";
  if (HasExtension(own->animation_extensions, ExtensionOf(source))) return source;
  for (const FormatDescriptor* f : Formats())
    if (!f->animation_extensions.empty() && SameFamily(*own, *f))
      return WithoutExtension(source) + std::string(f->animation_extensions.front());
  return "";
}

std::vector<std::string> ExportLosses(const FormatDescriptor* source, const FormatDescriptor& target) {
  if (!source || source == &target) return {};
  const std::string from(source->id), to(target.id);
  std::vector<std::string> out = {"what the " + from +
                                  " file holds beyond its clips (its header, other entries, the format's own fields) "
                                  "is not kept: it cannot serve as template"};
  if (SameFamily(*source, target) || &target == &InterchangeFormat()) return out;  // glTF, the interchange, holds the skeleton
  if (!target.companions.empty())
    out.push_back(to + " files take their skeleton from a companion (" + JoinedViews(target.companions, " ") +
                  ") and this rig's " + from +
                  " skeleton is not one: read back without it, the joints lose their hierarchy and rest pose");
  else
    out.push_back(to + " holds no skeleton: the rig's hierarchy and rest pose are not written");
  return out;
}

std::string_view ToString(NoteLevel level) { return level == NoteLevel::Warning ? "warning" : "info"; }

void ExportPlanJob::Validate() const {
  if (!source_format.empty() && !FindFormat(source_format))
    throw Error::General("unknown format id '" + source_format + "'");
  if (!format.empty()) (void)OutputFormatFor("", format);
  if (output.empty() && DefaultExportPath(source, source_format).empty())
    throw Error::General(source.empty() ? "no output file (and no source to name one after)"
                                        : "no output file, and no format of " + source_format +
                                              "'s family writes an animation to name one after " + source);
}

ExportPlan ExportPlanJob::Run() const {
  Validate();
  ExportPlan plan;
  plan.output = output.empty() ? DefaultExportPath(source, source_format) : output;
  plan.format = ChooseFormat(*this, plan.output);
  plan.needs_to = SharesAnExtension(*plan.format);
  const FormatDescriptor* from = source_format.empty() ? nullptr : FindFormat(source_format);
  std::error_code ec;
  if (use_template && !source.empty() && from == plan.format && ExtensionOf(source) == ExtensionOf(plan.output) &&
      std::filesystem::is_regular_file(PathOf(source), ec))
    plan.template_path = source;
  for (std::string& text : ExportLosses(from, *plan.format))
    plan.notes.push_back({NoteLevel::Warning, "writing " + std::string(plan.format->id) + ": " + text});
  return plan;
}

Value ExportPlanValue(const ExportPlanJob& job, const ExportPlan& plan) {
  Value family = Value::array();
  if (const FormatDescriptor* from = job.source_format.empty() ? nullptr : FindFormat(job.source_format))
    for (const FormatDescriptor* f : Formats())
      if (SameFamily(*from, *f)) family.push_back(std::string(f->id));
  Value notes = Value::array();
  for (const ExportNote& n : plan.notes) notes.push_back({{"level", std::string(ToString(n.level))}, {"text", n.text}});
  return {{"output", plan.output},
          {"format", std::string(plan.format->id)},
          {"to", plan.needs_to},
          {"template", plan.template_path.empty() ? Value() : Value(plan.template_path)},
          {"source", job.source.empty() ? Value() : Value(job.source)},
          {"source_format", job.source_format.empty() ? Value() : Value(job.source_format)},
          {"family", family},
          {"notes", notes}};
}

}  // namespace animkit
