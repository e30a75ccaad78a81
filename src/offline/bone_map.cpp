// The bone map of a retarget: automatic matching, and the JSON and CSV files a user edits.
#include <animkit/offline/bone_map.hpp>

#include <animkit/core/error.hpp>
#include <animkit/core/value.hpp>

#include "core/value_json.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace animkit {

std::string_view ToString(BoneMatch match) {
  switch (match) {
    case BoneMatch::Given: return "given";
    case BoneMatch::Exact: return "exact";
    case BoneMatch::Normalised: return "normalised";
    case BoneMatch::Hierarchy: return "hierarchy";
    case BoneMatch::None: break;
  }
  return "none";
}

size_t BoneMap::Mapped() const {
  return static_cast<size_t>(std::count_if(source_of.begin(), source_of.end(), [](int s) { return s >= 0; }));
}

std::vector<std::string> BoneMap::Unmapped(const Skeleton& target) const {
  std::vector<std::string> out;
  for (size_t k = 0; k < source_of.size() && k < target.joints.size(); ++k)
    if (source_of[k] < 0) out.push_back(target.joints[k].name);
  return out;
}

bool BoneMap::IsIdentity(size_t source_joints) const {
  if (source_of.size() != source_joints) return false;
  for (size_t k = 0; k < source_of.size(); ++k)
    if (source_of[k] != static_cast<int>(k)) return false;
  return true;
}

namespace {

bool IsSeparator(char c) { return c == ' ' || c == '_' || c == '-' || c == '.' || c == ':' || c == '|'; }

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Words of a name: split at separators and at a lower-to-upper case change ("LeftUpLeg").
std::vector<std::string> Words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (IsSeparator(c)) {
      if (!word.empty()) words.push_back(word), word.clear();
      continue;
    }
    const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) && !word.empty())
      words.push_back(word), word.clear();
    word += Lower(c);
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

// The part of a name after a namespace ("mixamorig:Hips", "Armature|Hips").
std::string_view WithoutNamespace(std::string_view name) {
  const size_t cut = name.find_last_of(":|");
  return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

bool IsRigPrefix(const std::string& word) {
  return word == "mixamorig" || word == "bip01" || word == "bip001" || word == "bip" || word == "def" ||
         word == "armature" || word == "valvebiped";
}

}  // namespace

std::string NormalisedJointName(std::string_view name) {
  std::vector<std::string> words = Words(WithoutNamespace(name));
  while (words.size() > 1 && IsRigPrefix(words.front())) words.erase(words.begin());
  std::string side;
  auto side_of = [](const std::string& w) -> std::string {
    if (w == "l" || w == "left") return "left";
    if (w == "r" || w == "right") return "right";
    return "";
  };
  if (words.size() > 1) {
    if (std::string s = side_of(words.front()); !s.empty()) side = s, words.erase(words.begin());
    else if (std::string e = side_of(words.back()); !e.empty()) side = e, words.pop_back();
  }
  std::string out = side;
  for (const std::string& w : words) {
    if (!out.empty() && !side.empty() && out == side) out += ' ';
    out += w;
  }
  return out;
}

bool JointNameSaysNothing(std::string_view name) {
  if (ParseNumberedJointName(name)) return true;
  std::string letters;
  bool digits = false;
  for (char c : name) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits = true;
    else if (!IsSeparator(c)) letters += Lower(c);
  }
  if (letters.empty()) return true;
  return digits && (letters == "joint" || letters == "bone" || letters == "node" || letters == "j" || letters == "b");
}

namespace {

// Index within the prefix of joints whose parents agree in both skeletons.
size_t SharedHierarchyPrefix(const Skeleton& a, const Skeleton& b) {
  size_t n = 0;
  while (n < a.joints.size() && n < b.joints.size() && a.joints[n].parent == b.joints[n].parent) ++n;
  return n;
}

// Names that one joint alone has in a skeleton, among the free joints: name -> joint.
std::map<std::string, int> UniqueNames(const Skeleton& skeleton, const std::vector<bool>& taken) {
  std::map<std::string, int> seen;
  std::map<std::string, int> count;
  for (size_t i = 0; i < skeleton.joints.size(); ++i) {
    if (taken[i] || JointNameSaysNothing(skeleton.joints[i].name)) continue;
    const std::string key = NormalisedJointName(skeleton.joints[i].name);
    if (key.empty()) continue;
    seen[key] = static_cast<int>(i);
    ++count[key];
  }
  std::erase_if(seen, [&](const auto& kv) { return count[kv.first] != 1; });
  return seen;
}

}  // namespace

BoneMap AutoBoneMap(const Skeleton& target, const Skeleton& source) {
  BoneMap map;
  map.source_of.assign(target.joints.size(), -1);
  map.match.assign(target.joints.size(), BoneMatch::None);
  std::vector<bool> source_taken(source.joints.size(), false);
  auto take = [&](size_t k, int j, BoneMatch how) {
    map.source_of[k] = j;
    map.match[k] = how;
    source_taken[static_cast<size_t>(j)] = true;
  };
  for (size_t k = 0; k < target.joints.size(); ++k) {
    const std::string& name = target.joints[k].name;
    if (JointNameSaysNothing(name)) continue;
    const int j = source.Find(name);
    if (j >= 0 && !source_taken[static_cast<size_t>(j)]) take(k, j, BoneMatch::Exact);
  }
  std::vector<bool> target_taken(target.joints.size());
  for (size_t k = 0; k < target.joints.size(); ++k) target_taken[k] = map.source_of[k] >= 0;
  const std::map<std::string, int> sources = UniqueNames(source, source_taken);
  for (const auto& [key, k] : UniqueNames(target, target_taken)) {
    const auto it = sources.find(key);
    if (it != sources.end()) take(static_cast<size_t>(k), it->second, BoneMatch::Normalised);
  }
  const size_t prefix = SharedHierarchyPrefix(target, source);
  for (size_t k = 0; k < prefix; ++k)
    if (map.source_of[k] < 0 && !source_taken[k] && JointNameSaysNothing(target.joints[k].name) &&
        JointNameSaysNothing(source.joints[k].name))
      take(k, static_cast<int>(k), BoneMatch::Hierarchy);
  return map;
}

namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// The fields of a CSV line: a field may be double-quoted ("" inside it a quote); spaces
// around a field are dropped, those inside its quotes kept (BoneMapText quotes such names).
std::vector<std::string> CsvFields(std::string_view line) {
  struct Field {
    std::string text;
    bool quoted = false;
  };
  std::vector<Field> fields(1);
  bool in_quotes = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    Field& field = fields.back();
    if (in_quotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') field.text += '"', ++i;
      else if (c == '"') in_quotes = false;
      else field.text += c;
    } else if (c == '"') {
      if (!field.quoted && Trim(field.text).empty()) field.text.clear();
      field.quoted = in_quotes = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (!field.quoted || !std::isspace(static_cast<unsigned char>(c))) {
      field.text += c;
    }
  }
  std::vector<std::string> out;
  for (const Field& f : fields) out.push_back(f.quoted ? f.text : Trim(f.text));
  return out;
}

struct NamedPair {
  std::string target, source;  // source "" = unmapped
  std::string where;           // "line 3", "key \"Hips\""
};

std::vector<NamedPair> PairsOf(std::string_view text, const std::string& file) {
  std::vector<NamedPair> pairs;
  // A UTF-8 byte order mark, as spreadsheets write CSV, is not part of the first joint's name.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::string body = Trim(text);
  if (!body.empty() && body.front() == '{') {
    Value v;
    try {
      v = ParseJson(body);
    } catch (const std::exception& e) {
      throw Error::General(file + ": not a JSON bone map: " + e.what());
    }
    if (!v.is_object()) throw Error::General(file + ": a JSON bone map is an object {\"target joint\": \"source joint\"}");
    // A parsed object keeps one value of a repeated key: the keys as written catch a target named twice.
    std::vector<std::string> keys;
    [[maybe_unused]] const nlohmann::json again =
        nlohmann::json::parse(body, [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          if (depth == 1 && event == nlohmann::json::parse_event_t::key) keys.push_back(parsed.get<std::string>());
          return false;  // keep nothing: only the keys are wanted
        });
    std::sort(keys.begin(), keys.end());
    if (const auto twice = std::adjacent_find(keys.begin(), keys.end()); twice != keys.end())
      throw Error::General(file + ": key \"" + *twice + "\": target joint \"" + *twice + "\" is named twice");
    for (const auto& item : v.items()) {
      const Value& s = item.value();
      if (!s.is_string() && !s.is_null())
        throw Error::General(file + ": joint \"" + item.key() + "\": expected a source joint's name or null");
      pairs.push_back({item.key(), s.is_string() ? s.as_string() : "", "key \"" + item.key() + "\""});
    }
    return pairs;
  }
  size_t start = 0, line_number = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line = Trim(text.substr(start, end - start));
    ++line_number;
    start = end + 1;
    if (line.empty()) continue;
    const std::vector<std::string> fields = CsvFields(line);
    if (fields.size() != 2)
      throw Error::General(file + ": line " + std::to_string(line_number) +
                           ": expected two fields, target,source (or a JSON object)");
    if (pairs.empty() && line_number == 1 && fields[0] == "target" && fields[1] == "source") continue;
    pairs.push_back({fields[0], fields[1], "line " + std::to_string(line_number)});
  }
  return pairs;
}

}  // namespace

BoneMap ReadBoneMap(std::string_view text, const std::string& file, const Skeleton& target, const Skeleton& source) {
  BoneMap map;
  map.source_of.assign(target.joints.size(), -1);
  map.match.assign(target.joints.size(), BoneMatch::None);
  std::vector<bool> named(target.joints.size(), false);
  for (const NamedPair& p : PairsOf(text, file)) {
    const int k = target.Find(p.target);
    if (k < 0) throw Error::General(file + ": " + p.where + ": no target joint named \"" + p.target + "\"");
    if (named[static_cast<size_t>(k)])
      throw Error::General(file + ": " + p.where + ": target joint \"" + p.target + "\" is named twice");
    named[static_cast<size_t>(k)] = true;
    if (p.source.empty()) continue;
    const int j = source.Find(p.source);
    if (j < 0) throw Error::General(file + ": " + p.where + ": no source joint named \"" + p.source + "\"");
    map.source_of[static_cast<size_t>(k)] = j;
    map.match[static_cast<size_t>(k)] = BoneMatch::Given;
  }
  return map;
}

namespace {

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos && Trim(s) == s) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + '"';
}

}  // namespace

std::string BoneMapText(const BoneMap& map, const Skeleton& target, const Skeleton& source, bool csv) {
  std::string out = csv ? "target,source\n" : "{\n";
  for (size_t k = 0; k < target.joints.size(); ++k) {
    const int j = k < map.source_of.size() ? map.source_of[k] : -1;
    const bool mapped = j >= 0 && static_cast<size_t>(j) < source.joints.size();
    const std::string& name = target.joints[k].name;
    if (csv) {
      out += CsvField(name) + "," + (mapped ? CsvField(source.joints[static_cast<size_t>(j)].name) : "") + "\n";
    } else {
      out += "  " + DumpJson(Value(name)) + ": " + (mapped ? DumpJson(Value(source.joints[static_cast<size_t>(j)].name)) : "null");
      out += k + 1 < target.joints.size() ? ",\n" : "\n";
    }
  }
  if (!csv) out += "}\n";
  return out;
}

}  // namespace animkit
