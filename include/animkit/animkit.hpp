// The whole public API; include/animkit/<layer>/ holds each layer's headers (docs/architecture.md).
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>
#include <animkit/core/format.hpp>
#include <animkit/core/math.hpp>
#include <animkit/core/model.hpp>
#include <animkit/core/version.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/offline/bone_map.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/retarget.hpp>
#include <animkit/offline/root_motion.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/offline/skinning.hpp>
#include <animkit/pipeline/batch.hpp>
#include <animkit/pipeline/pipeline.hpp>
#include <animkit/preview/preview.hpp>
