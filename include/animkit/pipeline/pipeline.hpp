// The jobs every front end runs, as a library: load (detect + read), resolve the skeleton,
// decode, sample to the contract's JSON, info, encode, convert, the export plan, the import
// file. One header a step.
#pragma once

#include <animkit/pipeline/archive.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/export_plan.hpp>
#include <animkit/pipeline/import_data.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/retarget.hpp>
#include <animkit/pipeline/sample_json.hpp>
#include <animkit/pipeline/skeleton.hpp>
