// The files the preview pages are made of, embedded into the library at build time
// (cmake/EmbedTextFiles.cmake): the viewer's own sources (viewer/) and Debian's three.js
// (ANIMKIT_THREE_JS_DIR), so that the binary needs neither at run time.
#pragma once

#include <string_view>

namespace animkit::preview_assets {

extern const std::string_view kPageHtml;        // viewer/page.html: the page, with @@NAME@@ slots
// The viewer's parts (viewer/preview_*.js), joined in this order by ViewerScript.
extern const std::string_view kPreviewStateJs;    // viewer/preview_state.js
extern const std::string_view kPreviewSceneJs;    // viewer/preview_scene.js
extern const std::string_view kPreviewPlaybackJs; // viewer/preview_playback.js
extern const std::string_view kPreviewBesideJs;   // viewer/preview_beside.js
extern const std::string_view kPreviewPanelJs;    // viewer/preview_panel.js
extern const std::string_view kPreviewCss;      // viewer/preview.css
extern const std::string_view kGalleryHtml;     // viewer/gallery.html: index.html, with @@NAME@@ slots
extern const std::string_view kGalleryJs;       // viewer/gallery.js: the filter box
extern const std::string_view kThreeJs;         // three.js: build/three.min.js
extern const std::string_view kGltfLoaderJs;    // three.js: examples/js/loaders/GLTFLoader.js
extern const std::string_view kOrbitControlsJs; // three.js: examples/js/controls/OrbitControls.js

}  // namespace animkit::preview_assets
