// The whole public API.
#pragma once

#include <animkit/batch.hpp>
#include <animkit/binary.hpp>
#include <animkit/error.hpp>
#include <animkit/format.hpp>
#include <animkit/gltf.hpp>
#include <animkit/io.hpp>
#include <animkit/math.hpp>
#include <animkit/model.hpp>
#include <animkit/sampling.hpp>
#include <animkit/version.hpp>
#include <animkit/pipeline.hpp>
#include <animkit/preview.hpp>
