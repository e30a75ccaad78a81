// Text ANM: animation sets cut from a model's one long timeline.
// Line based, case-sensitive, tokens separated by runs of spaces/tabs:
//   # comment          (a line whose first non-blank character is '#')
//   as SET             starts an animation set
//   bl BONE [+children] [+parent]   adds bones to the set (set union; flags in any order)
//   ev FRAME NAME      an event at a frame of the global timeline (24 frames per second)
//   an START END NAME  an animation: the keys and events in [START, END] (inclusive)
// Per set: one or more bl, then zero or more ev, then one or more an.
// The "Model File" is any skeleton plus timeline animkit reads: its first clip
// is the timeline (see docs/formats/text_anm.md).
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::text_anm {

inline constexpr double kFramesPerSecond = 24;
inline constexpr uint32_t kMaxFrame = 1000000000;  // the largest frame number accepted

// 1-based line and byte column of a token.
struct Location {
  int line = 0;
  int column = 0;
};

struct BoneLine {
  std::string bone;
  bool children = false;     // +children: every descendant
  bool parent = false;       // +parent: the immediate parent
  bool parent_first = false; // "+parent +children" as written (kept for Info)
  Location at;               // of the bone name
};

struct EventLine {
  uint32_t frame = 0;  // on the global timeline
  std::string name;
  Location at;         // of the frame number
};

struct AnimLine {
  uint32_t start = 0, end = 0;  // inclusive frame range on the global timeline
  std::string name;
  Location at;                  // of the animation name
};

struct AnimSet {
  std::string name;
  Location at;  // of the 'as' directive
  std::vector<BoneLine> bones;
  std::vector<EventLine> events;
  std::vector<AnimLine> anims;
};

enum class LineKind { Blank, Comment, As, Bl, Ev, An };

// One physical line as read: its text without the line end, and the line end
// ("\n", "\r\n" or "" for a last line without one), so Serialize(Parse(x)) == x.
struct Line {
  std::string text;
  std::string eol;
  LineKind kind = LineKind::Blank;
  int set = -1;   // index into File::sets for directives
  int item = -1;  // index into that set's bones / events / anims
};

struct File {
  std::vector<Line> lines;
  std::vector<AnimSet> sets;
};

// Parses the text; every violation is an Error with line and column.
File Parse(ByteView data);
// The lines as read (byte for byte).
Bytes Serialize(const File& file);
// The canonical text: directives with single spaces, flags as "+children +parent",
// numbers without leading zeros, comments as "#text" without trailing blanks,
// no blank lines except one before each set (and the comments right above it)
// after the first, "\n" line ends. Canonical(Parse(c)) == c for canonical c.
std::string Canonical(const File& file);

// The clip names, "SET/ANIM", in file order.
std::vector<std::string> ClipNames(const File& file);

// Cuts one clip per 'an' line out of the model's timeline (model.clips[0]).
// Errors: the model has no timeline; a bone is not in the model (line and column
// of the bone name). A model without a skeleton offers its timeline's joints,
// without hierarchy.
Scene DecodeSets(const File& file, const Scene& model, const Limits& limits = {});

struct LayoutSettings {
  uint32_t gap_frames = 10;         // a clip starts this many frames after the previous one's last frame
  std::string default_set = "anim"; // set for clips whose names have no "SET/" part
  std::string timeline_name = "timeline";
};

struct Layout {
  File file;       // the sets, in canonical form
  Scene timeline;  // the skeleton and ONE clip with every clip back to back
  Value report = Value::object();
};

// The inverse of DecodeSets: lays clips out on one timeline (at whole frames, 24
// per second, gap_frames apart) and writes a set per "SET/" prefix (or per
// Clip::metadata "set"/"animation" when present). skeleton may be empty: the
// bones are then the clips' joints without hierarchy. header_comment, when not
// empty, becomes a first "# ..." line.
Layout LayOut(const std::vector<Clip>& clips, const Skeleton& skeleton, const LayoutSettings& settings,
              const std::string& header_comment = {});

// "<output>.timeline.glb": where the CLI writes the timeline beside a text ANM.
std::string TimelinePathFor(const std::string& output_path);

// The metadata keys a decoded text ANM holds, and LayOut's timeline (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kTextAnm[] = "text_anm";          // scene: an object holding kCanonical
inline constexpr char kCanonical[] = "canonical";       // in kTextAnm: the file's canonical text (the declared-sets layout)
inline constexpr char kSet[] = "set";                   // clip: its set's name; LayOut keeps it
inline constexpr char kAnimation[] = "animation";       // clip: its name in the set; LayOut keeps it
inline constexpr char kStartFrame[] = "start_frame";    // clip: the first frame it names on the timeline
inline constexpr char kEndFrame[] = "end_frame";        // clip: the last frame it names
inline constexpr char kTimelineStart[] = "timeline_start";  // clip: the time its first key has on the timeline, seconds
inline constexpr char kEmpty[] = "empty";               // clip: true when the range holds no key
inline constexpr char kTimeline[] = "text_anm_timeline";  // LayOut's timeline clip: true
inline constexpr std::array kScene{kTextAnm};
inline constexpr std::array kClip{kSet, kAnimation, kStartFrame, kEndFrame, kTimelineStart, kEmpty};
inline constexpr std::array kTimelineClip{kTimeline};
}  // namespace metadata_keys

}  // namespace animkit::text_anm
