// KH2 encoding of archives: events -> triggers, a clip -> an ANB, a template's slot replaced.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <string>

namespace animkit::kh2 {

Triggers EncodeTriggers(const std::vector<Event>& events, double rate, size_t* skipped) {
  Triggers t;
  size_t dropped = 0;
  auto frame = [&](double seconds) {
    const double f = std::round(seconds * rate);
    return static_cast<int16_t>(std::clamp(f, -32768.0, 32767.0));
  };
  auto whole = [](double v, double lo, double hi) { return std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi; };
  for (const Event& e : events) {
    // A trigger event: named as DecodeTriggers names it, params = id, (range end), parameters.
    const bool range = e.end_time.has_value();
    const size_t fixed = range ? 2 : 1;
    bool ok = e.params.size() >= fixed && e.params.size() - fixed <= 255 && whole(e.params[0], 0, 255) &&
              e.name == TriggerEventName(range, int(e.params[0]));
    for (size_t k = 1; ok && k < e.params.size(); ++k) ok = whole(e.params[k], -32768, 32767);
    if (!ok) {
      ++dropped;
      continue;
    }
    const uint8_t id = static_cast<uint8_t>(e.params[0]);
    std::vector<int16_t> params;
    for (size_t k = fixed; k < e.params.size(); ++k) params.push_back(static_cast<int16_t>(e.params[k]));
    if (range) {
      RangeTrigger r;
      r.start = frame(e.time);
      r.end = e.params[1] == -1 ? int16_t(-1) : frame(*e.end_time);
      r.id = id;
      r.params = std::move(params);
      t.ranges.push_back(std::move(r));
    } else {
      FrameTrigger f;
      f.frame = frame(e.time);
      f.id = id;
      f.params = std::move(params);
      t.frames.push_back(std::move(f));
    }
  }
  if (t.ranges.size() > 255 || t.frames.size() > 255)
    throw Error::General("a triggers entry holds at most 255 triggers of each kind");
  LayoutTriggers(t);
  if (skipped) *skipped = dropped;
  return t;
}

Bar EncodeAnb(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, EncodeReport* report) {
  Bar bar;
  BarEntry motion;
  motion.type = kEntryMotion;
  std::string name = "A000";
  if (auto it = clip.metadata.find(metadata_keys::kEntry); it != clip.metadata.end() && it->is_string() && !it->get<std::string>().empty())
    name = it->get<std::string>();
  name.resize(4, '\0');
  std::memcpy(motion.name.data(), name.data(), 4);
  motion.motion = std::make_shared<Motion>(EncodeMotion(clip, skeleton, settings, report));
  BarEntry triggers;
  triggers.type = kEntryTriggers;
  triggers.name = motion.name;
  const double rate = motion.motion->raw ? motion.motion->raw_motion.fps : motion.motion->interpolated.fps;
  triggers.triggers = std::make_shared<Triggers>(EncodeTriggers(clip.events, rate));
  bar.entries.push_back(std::move(motion));
  bar.entries.push_back(std::move(triggers));
  LayoutBar(bar);
  return bar;
}

namespace {

bool SameTrigger(const RangeTrigger& x, const RangeTrigger& y) {
  return x.start == y.start && x.end == y.end && x.id == y.id && x.params == y.params;
}
bool SameTrigger(const FrameTrigger& x, const FrameTrigger& y) {
  return x.frame == y.frame && x.id == y.id && x.params == y.params;
}

// Puts the triggers of `encoded` in the template's stored order: those the template has
// (matched one to one) where it stores them, new ones after them in the order given.
// True when the two hold the same triggers (in any order).
template <class Trigger>
bool OrderAsStored(std::vector<Trigger>& encoded, const std::vector<Trigger>& stored) {
  std::vector<bool> taken(encoded.size(), false);
  std::vector<Trigger> ordered;
  for (const Trigger& t : stored) {
    for (size_t i = 0; i < encoded.size(); ++i) {
      if (taken[i] || !SameTrigger(encoded[i], t)) continue;
      taken[i] = true;
      ordered.push_back(encoded[i]);
      break;
    }
  }
  const bool same = ordered.size() == stored.size() && ordered.size() == encoded.size();
  for (size_t i = 0; i < encoded.size(); ++i)
    if (!taken[i]) ordered.push_back(std::move(encoded[i]));
  encoded = std::move(ordered);
  return same;
}

// Orders events' triggers as the template stores them; true when they are the same set.
bool SameTriggersInStoredOrder(Triggers& events, const Triggers& stored) {
  const bool same_ranges = OrderAsStored(events.ranges, stored.ranges);
  const bool same_frames = OrderAsStored(events.frames, stored.frames);
  return same_ranges && same_frames;
}

}  // namespace

Bar EncodeAnbFromTemplate(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, const Bar& templ,
                          EncodeReport* report, bool* unchanged, const Clip* template_as_input) {
  Bar bar = templ;
  BarEntry* motion = nullptr;
  BarEntry* triggers = nullptr;
  for (BarEntry& e : bar.entries) {
    if (e.motion && !e.motion->placeholder && !motion) motion = &e;
    if (e.triggers && !triggers) triggers = &e;
  }
  if (!motion) throw Error::General("the template archive has no motion to replace");
  EncodeReport rep;
  Motion encoded = EncodeMotion(clip, skeleton, settings, &rep, motion->motion.get(), template_as_input);
  bool same = rep.unchanged;
  if (!rep.unchanged) motion->motion = std::make_shared<Motion>(std::move(encoded));
  const double rate = motion->motion->raw ? motion->motion->raw_motion.fps : motion->motion->interpolated.fps;
  size_t skipped = 0;
  Triggers events = EncodeTriggers(clip.events, rate, &skipped);
  const bool has_trigger_events = clip.events.size() > skipped;
  if (triggers && has_trigger_events && !SameTriggersInStoredOrder(events, *triggers->triggers)) {
    LayoutTriggers(events);
    triggers->triggers = std::make_shared<Triggers>(std::move(events));
    same = false;
  } else if (!triggers && has_trigger_events) {
    BarEntry e;
    e.type = kEntryTriggers;
    e.name = motion->name;
    e.triggers = std::make_shared<Triggers>(std::move(events));
    bar.entries.push_back(std::move(e));
    same = false;
  }
  if (!same) LayoutBar(bar);
  if (unchanged) *unchanged = same;
  if (report) *report = rep;
  return same ? templ : bar;
}

Bytes ReplaceEntry(ByteView archive, const Bar& bar, size_t index, const Bytes& payload) {
  if (index >= bar.entries.size()) throw Error::General("no entry " + std::to_string(index) + " to replace");
  const BarEntry& slot = bar.entries[index];
  if (archive.size() < 16 + bar.entries.size() * 16)
    throw Error::General("the archive is shorter than its entry table");
  const uint64_t off = slot.offset;
  // The slot's region: up to the next entry's data (or the end), so padding after it goes with it.
  uint64_t region_end = archive.size();
  for (const BarEntry& e : bar.entries)
    if (e.size > 0 && e.offset > off && e.offset < region_end) region_end = e.offset;
  if (slot.size == 0 || off + slot.size > archive.size() || region_end < off + std::min<uint64_t>(slot.size, region_end - off))
    throw Error::General("entry " + std::to_string(index) + " (" + slot.Name() + ") has no data to replace");
  const int64_t old_len = int64_t(region_end - off);
  int64_t delta = int64_t(payload.size()) - old_len;
  if (region_end < archive.size()) delta = (delta >= 0 ? (delta + 15) / 16 : -((-delta) / 16)) * 16;
  const int64_t new_len = old_len + delta;
  if (new_len < int64_t(payload.size())) throw Error::General("internal: the replaced region is too small");
  Bytes out(archive.begin(), archive.begin() + std::ptrdiff_t(off));
  out.insert(out.end(), payload.begin(), payload.end());
  out.resize(out.size() + size_t(new_len - int64_t(payload.size())), 0);
  out.insert(out.end(), archive.begin() + std::ptrdiff_t(region_end), archive.end());
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    BarEntry record;  // the entry's stored fields, as the table holds them
    record.type = e.type, record.duplicate = e.duplicate, record.name = e.name, record.offset = e.offset;
    record.size = e.size;
    if (e.size > 0 && e.offset == off) {
      record.size = static_cast<uint32_t>(payload.size());  // the slot and its links
    } else if (e.offset >= region_end) {
      const int64_t moved = int64_t(e.offset) + delta;
      if (moved < 0 || moved > 0xFFFFFFFF) throw Error::General("the replaced archive is too large");
      record.offset = static_cast<uint32_t>(moved);
    } else {
      continue;
    }
    fields::WriteAt(out, 16 + i * fields::Size(detail::kBarEntry), Endian::Little, record, detail::kBarEntry);
  }
  return out;
}

}  // namespace animkit::kh2
