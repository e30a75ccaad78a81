// Text ANM: parsing, writing back and the canonical form.
#include <animkit/formats/text_anm.hpp>
#include "text_anm_internal.hpp"

#include <set>
#include <string_view>

namespace animkit::text_anm {
namespace {

struct Token {
  std::string_view text;
  int column = 0;  // 1-based byte column
};

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::vector<Token> Tokenize(std::string_view line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    if (i >= line.size()) break;
    size_t start = i;
    while (i < line.size() && !IsBlank(line[i])) ++i;
    tokens.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return tokens;
}


const char* DirectiveName(LineKind k) {
  switch (k) {
    case LineKind::As: return "as";
    case LineKind::Bl: return "bl";
    case LineKind::Ev: return "ev";
    case LineKind::An: return "an";
    default: return "";
  }
}

class Parser {
 public:
  explicit Parser(ByteView data) : data_(data) {}

  File Run() {
    size_t pos = 0;
    int number = 0;
    while (pos < data_.size()) {
      ++number;
      size_t end = pos;
      while (end < data_.size() && data_[end] != '\n') ++end;
      Line line;
      size_t text_end = end;
      if (end < data_.size()) {
        line.eol = "\n";
        if (text_end > pos && data_[text_end - 1] == '\r') {
          --text_end;
          line.eol = "\r\n";
        }
      }
      line.text.assign(reinterpret_cast<const char*>(data_.data()) + pos, text_end - pos);
      CheckCharacters(line.text, number);
      ParseLine(line, number);
      file_.lines.push_back(std::move(line));
      pos = end < data_.size() ? end + 1 : end;
    }
    Finish(number);
    return std::move(file_);
  }

 private:
  enum class State { Start, AfterAs, Bones, Events, Anims };

  static void CheckCharacters(const std::string& text, int line) {
    for (size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        throw Error::AtLine(line, static_cast<int>(i) + 1,
                            "unexpected control character " + Hex(c) + ": a text ANM is plain text");
      }
    }
  }

  void ParseLine(Line& line, int number) {
    const std::vector<Token> tokens = Tokenize(line.text);
    if (tokens.empty()) {
      line.kind = LineKind::Blank;
      return;
    }
    if (tokens[0].text.front() == '#') {
      line.kind = LineKind::Comment;
      return;
    }
    const Token& d = tokens[0];
    const int end_column = static_cast<int>(line.text.size()) + 1;
    if (d.text == "as") {
      line.kind = LineKind::As;
      ParseAs(tokens, number, end_column, line);
    } else if (d.text == "bl") {
      line.kind = LineKind::Bl;
      Expect(LineKind::Bl, d, number);
      ParseBl(tokens, number, end_column, line);
    } else if (d.text == "ev") {
      line.kind = LineKind::Ev;
      Expect(LineKind::Ev, d, number);
      ParseEv(tokens, number, end_column, line);
    } else if (d.text == "an") {
      line.kind = LineKind::An;
      Expect(LineKind::An, d, number);
      ParseAn(tokens, number, end_column, line);
    } else {
      throw Error::AtLine(number, d.column,
                          "unknown directive " + Quote(d.text) +
                              ": expected 'as', 'bl', 'ev' or 'an' (directives are lower case), or '#' for a comment");
    }
  }

  // The per-set order: as, bl+, ev*, an+.
  void Expect(LineKind kind, const Token& d, int number) {
    const std::string found = Quote(DirectiveName(kind));
    if (state_ == State::Start) {
      throw Error::AtLine(number, d.column, "expected 'as SET' to start an animation set before the first " + found);
    }
    const AnimSet& set = file_.sets.back();
    if (state_ == State::AfterAs && kind != LineKind::Bl) {
      throw Error::AtLine(number, d.column, "expected a 'bl' line after 'as " + set.name + "', found " + found);
    }
    // A directive after one it must come before.
    struct Misorder {
      LineKind kind;
      State state;
      std::string_view previous, expected, why;
    };
    static constexpr Misorder kMisorders[] = {
        {LineKind::Bl, State::Events, "ev", "'ev' or 'an'", "bone lists come before events"},
        {LineKind::Bl, State::Anims, "an", "'an' or 'as'", "bone lists come before animations"},
        {LineKind::Ev, State::Anims, "an", "'an' or 'as'", "events come before animations"},
    };
    for (const Misorder& m : kMisorders) {
      if (m.kind == kind && m.state == state_) {
        throw Error::AtLine(number, d.column,
                            found + " after " + Quote(m.previous) + " in set " + Quote(set.name) + ": expected " +
                                std::string(m.expected) + " (" + std::string(m.why) + ")");
      }
    }
    state_ = kind == LineKind::Bl ? State::Bones : kind == LineKind::Ev ? State::Events : State::Anims;
  }

  static void Missing(const std::vector<Token>& tokens, size_t needed, int number, int end_column,
                      std::string_view directive, std::string_view fields, std::string_view missing) {
    if (tokens.size() < needed) {
      throw Error::AtLine(number, end_column,
                          Quote(directive) + " needs " + std::string(fields) + ": missing " + std::string(missing));
    }
  }

  static void NoMore(const std::vector<Token>& tokens, size_t count, int number, std::string_view after) {
    if (tokens.size() > count) {
      throw Error::AtLine(number, tokens[count].column,
                          "unexpected " + Quote(tokens[count].text) + " after " + std::string(after) +
                              " (names cannot contain spaces; comments need a line of their own)");
    }
  }

  static uint32_t Frame(const Token& t, int number, std::string_view what) {
    uint64_t v = 0;
    bool ok = !t.text.empty();
    for (char c : t.text) {
      if (c < '0' || c > '9') {
        ok = false;
        break;
      }
      v = v * 10 + static_cast<uint64_t>(c - '0');
      if (v > kMaxFrame) {
        throw Error::AtLine(number, t.column,
                            std::string(what) + " " + Quote(t.text) + " is too large (at most " +
                                std::to_string(kMaxFrame) + ")");
      }
    }
    if (!ok) {
      throw Error::AtLine(number, t.column,
                          "expected " + std::string(what) + " as a whole number of frames (0 or more), found " +
                              Quote(t.text));
    }
    return static_cast<uint32_t>(v);
  }

  void ParseAs(const std::vector<Token>& t, int number, int end_column, Line& line) {
    if (state_ == State::AfterAs || state_ == State::Bones || state_ == State::Events) {
      const AnimSet& set = file_.sets.back();
      throw Error::AtLine(number, t[0].column,
                          "set " + Quote(set.name) + " (line " + std::to_string(set.at.line) +
                              ") has no 'an' line: expected " + (state_ == State::AfterAs ? "'bl'" : "'ev' or 'an'") +
                              " before the next 'as'");
    }
    Missing(t, 2, number, end_column, "as", "a set name", "the set name");
    NoMore(t, 2, number, "the set name");
    AnimSet set;
    set.name = std::string(t[1].text);
    set.at = {number, t[0].column};
    file_.sets.push_back(std::move(set));
    line.set = static_cast<int>(file_.sets.size()) - 1;
    state_ = State::AfterAs;
  }

  void ParseBl(const std::vector<Token>& t, int number, int end_column, Line& line) {
    Missing(t, 2, number, end_column, "bl", "a bone name", "the bone name");
    BoneLine bl;
    bl.bone = std::string(t[1].text);
    bl.at = {number, t[1].column};
    for (size_t i = 2; i < t.size(); ++i) {
      bool* flag = nullptr;
      if (t[i].text == "+children") flag = &bl.children;
      else if (t[i].text == "+parent") flag = &bl.parent;
      else {
        throw Error::AtLine(number, t[i].column,
                            "expected '+children' or '+parent' after the bone name, found " + Quote(t[i].text));
      }
      if (*flag) throw Error::AtLine(number, t[i].column, Quote(t[i].text) + " is given twice");
      *flag = true;
      if (flag == &bl.parent && !bl.children) bl.parent_first = true;
    }
    if (!bl.children) bl.parent_first = false;
    AnimSet& set = file_.sets.back();
    set.bones.push_back(std::move(bl));
    line.set = static_cast<int>(file_.sets.size()) - 1;
    line.item = static_cast<int>(set.bones.size()) - 1;
  }

  void ParseEv(const std::vector<Token>& t, int number, int end_column, Line& line) {
    Missing(t, 2, number, end_column, "ev", "a frame and an event name", "the frame");
    EventLine ev;
    ev.frame = Frame(t[1], number, "the event frame");
    Missing(t, 3, number, end_column, "ev", "a frame and an event name", "the event name");
    NoMore(t, 3, number, "the event name");
    ev.name = std::string(t[2].text);
    ev.at = {number, t[1].column};
    AnimSet& set = file_.sets.back();
    set.events.push_back(std::move(ev));
    line.set = static_cast<int>(file_.sets.size()) - 1;
    line.item = static_cast<int>(set.events.size()) - 1;
  }

  void ParseAn(const std::vector<Token>& t, int number, int end_column, Line& line) {
    const char* fields = "a start frame, an end frame and an animation name";
    Missing(t, 2, number, end_column, "an", fields, "the start frame");
    AnimLine an;
    an.start = Frame(t[1], number, "the start frame");
    Missing(t, 3, number, end_column, "an", fields, "the end frame");
    an.end = Frame(t[2], number, "the end frame");
    if (an.end < an.start) {
      throw Error::AtLine(number, t[2].column,
                          "end frame " + std::to_string(an.end) + " is before start frame " +
                              std::to_string(an.start) + ": expected an end frame of at least " +
                              std::to_string(an.start));
    }
    Missing(t, 4, number, end_column, "an", fields, "the animation name");
    NoMore(t, 4, number, "the animation name");
    an.name = std::string(t[3].text);
    an.at = {number, t[3].column};
    AnimSet& set = file_.sets.back();
    const std::string clip = set.name + "/" + an.name;
    if (!clip_names_.insert(clip).second) {
      throw Error::AtLine(number, t[3].column,
                          "animation " + Quote(an.name) + " is declared twice in set " + Quote(set.name) +
                              ": clip names SET/ANIM must be unique");
    }
    set.anims.push_back(std::move(an));
    line.set = static_cast<int>(file_.sets.size()) - 1;
    line.item = static_cast<int>(set.anims.size()) - 1;
  }

  void Finish(int lines) {
    if (file_.sets.empty()) {
      throw Error::AtLine(lines == 0 ? 1 : lines, 1, "expected at least one animation set ('as SET'), found none");
    }
    if (state_ != State::Anims) {
      const AnimSet& set = file_.sets.back();
      throw Error::AtLine(set.at.line, set.at.column,
                          "set " + Quote(set.name) + " has no 'an' line: the file ends before one (expected " +
                              (state_ == State::AfterAs ? "'bl', then 'an')" : "'an')"));
    }
  }

  ByteView data_;
  File file_;
  State state_ = State::Start;
  std::set<std::string> clip_names_;
};

std::string RightTrimmed(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && IsBlank(s[n - 1])) --n;
  return std::string(s.substr(0, n));
}

}  // namespace

File Parse(ByteView data) { return Parser(data).Run(); }

Bytes Serialize(const File& file) {
  Bytes out;
  for (const Line& l : file.lines) {
    out.insert(out.end(), l.text.begin(), l.text.end());
    out.insert(out.end(), l.eol.begin(), l.eol.end());
  }
  return out;
}

std::string Canonical(const File& file) {
  // The items that survive: comments and directives.
  std::vector<const Line*> items;
  for (const Line& l : file.lines)
    if (l.kind != LineKind::Blank) items.push_back(&l);
  // A blank line goes before each 'as' after the first, above the comments right before it.
  std::vector<bool> blank_before(items.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i]->kind != LineKind::As) continue;
    size_t j = i;
    while (j > 0 && items[j - 1]->kind == LineKind::Comment) --j;
    if (j > 0) blank_before[j] = true;
  }
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    const Line& l = *items[i];
    if (blank_before[i]) out += '\n';
    if (l.kind == LineKind::Comment) {
      out += RightTrimmed(l.text.substr(l.text.find('#')));
      out += '\n';
      continue;
    }
    const AnimSet& set = file.sets[static_cast<size_t>(l.set)];
    switch (l.kind) {
      case LineKind::As:
        out += "as " + set.name;
        break;
      case LineKind::Bl: {
        const BoneLine& b = set.bones[static_cast<size_t>(l.item)];
        out += "bl " + b.bone;
        if (b.children) out += " +children";
        if (b.parent) out += " +parent";
        break;
      }
      case LineKind::Ev: {
        const EventLine& e = set.events[static_cast<size_t>(l.item)];
        out += "ev " + std::to_string(e.frame) + " " + e.name;
        break;
      }
      case LineKind::An: {
        const AnimLine& a = set.anims[static_cast<size_t>(l.item)];
        out += "an " + std::to_string(a.start) + " " + std::to_string(a.end) + " " + a.name;
        break;
      }
      default:
        break;
    }
    out += '\n';
  }
  return out;
}

std::vector<std::string> ClipNames(const File& file) {
  std::vector<std::string> names;
  for (const AnimSet& s : file.sets)
    for (const AnimLine& a : s.anims) names.push_back(s.name + "/" + a.name);
  return names;
}

std::string TimelinePathFor(const std::string& output_path) { return output_path + ".timeline.glb"; }

}  // namespace animkit::text_anm
