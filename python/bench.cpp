// The C++ side of bench/python_decode.py: the library calls load(...).decode() and
// Clip.sample() make, timed in C++ with no Python object made, so that the script can
// compare the module's cost with the library's own (docs/performance.md, "Python module").
#include "bindings.hpp"

#include <ctime>

namespace animkit::python {

namespace {

// CPU time of this thread (as `animkit bench` and Python's time.thread_time() measure):
// the other processes of a shared machine do not inflate it.
double Now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Seconds of each of `repeats` runs of LoadBytes + DecodeWithSkeleton (no skeleton file) on data.
std::vector<double> TimeDecode(const py::bytes& data, const std::string& name, const std::string& format, int repeats) {
  const std::string_view view = data;
  const ByteView bytes(reinterpret_cast<const uint8_t*>(view.data()), view.size());
  std::vector<double> seconds;
  NoGil released;
  const Options options;
  for (int i = 0; i < repeats; ++i) {
    const double start = Now();
    const LoadedFile loaded = LoadBytes(bytes, name, format, options);
    const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource::None(), options);
    seconds.push_back(Now() - start);
    if (decoded.scene.clips.empty() && decoded.scene.skeleton.empty()) throw Error::General("nothing decoded");
  }
  return seconds;
}

// Seconds of each of `repeats` samplings of the clip at its own frames, as Clip.sample()
// walks them (SampleClipJob per frame, visibility per joint), into plain vectors.
std::vector<double> TimeSample(const ClipRef& c, int repeats) {
  const Clip& clip = c.clip();
  std::vector<double> seconds;
  NoGil released;
  const size_t frames = SampleFrameCount(clip, 0, c.owner->limits);
  std::vector<TransformTRS> pose(clip.tracks.size());
  std::vector<TransformTRS> all(frames * clip.tracks.size());
  std::vector<uint8_t> visible(all.size());
  for (int r = 0; r < repeats; ++r) {
    const double start = Now();
    for (size_t f = 0; f < frames; ++f) {
      SampleClipJob{&clip, &c.owner->rest(), FrameTime(f, clip.frame_rate), pose}.Run();
      for (size_t i = 0; i < pose.size(); ++i) {
        all[f * pose.size() + i] = pose[i];
        visible[f * pose.size() + i] = IsVisible(clip.tracks[i], f) ? 1 : 0;
      }
    }
    seconds.push_back(Now() - start);
  }
  return seconds;
}

}  // namespace

void BindBench(py::module_& m) {
  m.def("_time_decode", &TimeDecode, py::arg("data"), py::arg("name"), py::arg("format") = "", py::arg("repeats") = 5,
        "Benchmark hook: seconds of each C++ LoadBytes + DecodeWithSkeleton of data.");
  m.def("_time_sample", &TimeSample, py::arg("clip"), py::arg("repeats") = 5,
        "Benchmark hook: seconds of each C++ sampling of the clip at its own frames.");
}

}  // namespace animkit::python
