#!/usr/bin/env python3
"""The Python module's cost against the C++ library's (docs/performance.md, "Python module").

For each format, makes a file of about --size bytes with animkit itself (a synthetic clip
built with Clip.from_arrays, written by the format's encoder), then times

  - decode: animkit.load(data, name=...).decode() in Python, against the same library
    calls (LoadBytes + DecodeWithSkeleton) timed in C++ inside the module
    (animkit._animkit._time_decode: no Python object is made there);
  - sample: clip.sample() (a float32 (frames, joints, 10) array and the visibility mask)
    against the same sampling loop into C++ vectors (animkit._animkit._time_sample).

Figures are medians of --repeats runs in CPU time of the calling thread
(time.thread_time() and CLOCK_THREAD_CPUTIME_ID, as `animkit bench` measures), so that other
processes on the machine do not inflate them. Run with the module on PYTHONPATH:

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_decode.py
"""

import argparse
import os
import platform
import statistics
import time

import numpy as np

import animkit
from animkit import _animkit

# (format id, file name, joints): formats whose encoders write a file this large quickly.
FORMATS = [
    ("edf-canm", "big.canm", 64),
    ("gltf", "big.glb", 64),
    ("metroid-anim", "big.anim", 64),
]


def synthetic_clip(frames, joints, rate=30.0, seed=1):
    """Smooth motion on every joint: translation, rotation about a fixed axis, scale near 1."""
    rng = np.random.default_rng(seed)
    t = np.arange(frames, dtype=np.float64) / rate
    trs = np.zeros((frames, joints, 10), np.float32)
    for j in range(joints):
        freq, phase = rng.uniform(0.2, 2.0, 3), rng.uniform(0, 2 * np.pi, 3)
        trs[:, j, 0:3] = np.sin(2 * np.pi * freq * t[:, None] + phase) * rng.uniform(0.1, 10)
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        angle = 1.5 * np.sin(2 * np.pi * freq[0] * t + phase[1])
        trs[:, j, 3:6] = axis * np.sin(angle / 2)[:, None]
        trs[:, j, 6] = np.cos(angle / 2)
        trs[:, j, 7:10] = 1 + 0.1 * np.sin(2 * np.pi * freq[2] * t + phase[2])[:, None]
    names = [f"joint_{j}" for j in range(joints)]
    parents = [-1] + [(j - 1) // 2 for j in range(1, joints)]
    return animkit.Clip.from_arrays("bench", rate, names, trs), animkit.Skeleton(names, parents)


def make_file(fmt, name, joints, size):
    """Encodes a synthetic clip, its frame count scaled so that the file is about size bytes."""
    frames = 60
    for _ in range(3):
        clip, skeleton = synthetic_clip(frames, joints)
        data = animkit.encode(animkit.Scene([clip], skeleton), fmt, path=name)
        if abs(len(data) - size) < 0.05 * size:
            break
        frames = max(2, int(frames * size / len(data)))
    return data, frames


def median_seconds(fn, repeats):
    fn()  # warm up
    runs = []
    for _ in range(repeats):
        start = time.thread_time()
        fn()
        runs.append(time.thread_time() - start)
    return statistics.median(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1 << 20, help="bytes of each file (default 1 MiB)")
    parser.add_argument("--repeats", type=int, default=21, help="timed runs of each (median)")
    parser.add_argument("--formats", default=",".join(f for f, _, _ in FORMATS), help="format ids to time")
    args = parser.parse_args()
    wanted = args.formats.split(",")

    print(f"animkit {animkit.__version__}, Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("| format | file | frames x joints | decode: Python | decode: C++ | ratio | sample: Python | "
          "sample: C++ | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fmt, name, joints in FORMATS:
        if fmt not in wanted:
            continue
        data, frames = make_file(fmt, name, joints, args.size)
        py_decode = median_seconds(lambda: animkit.load(data, name=name).decode(), args.repeats)
        _animkit._time_decode(data, name, "", 1)  # warm up
        cpp_decode = statistics.median(_animkit._time_decode(data, name, "", args.repeats))
        clip = animkit.load(data, name=name).decode().clips[0]
        py_sample = median_seconds(clip.sample, args.repeats)
        cpp_sample = statistics.median(_animkit._time_sample(clip, args.repeats))
        trs, _ = clip.sample()
        print(f"| {fmt} | {len(data) / 1e6:.2f} MB | {trs.shape[0]} x {trs.shape[1]} | {py_decode * 1e3:.2f} ms | "
              f"{cpp_decode * 1e3:.2f} ms | {py_decode / cpp_decode:.3f} | {py_sample * 1e3:.2f} ms | "
              f"{cpp_sample * 1e3:.2f} ms | {py_sample / cpp_sample:.3f} |")


if __name__ == "__main__":
    main()
