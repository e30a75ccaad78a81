// What the page and the gallery writers share: filling a template's @@NAME@@ slots and
// escaping text for HTML, for an inline <script> and for a JSON block.
#pragma once

#include <animkit/core/value.hpp>

#include <map>
#include <string>
#include <string_view>

namespace animkit::preview_html {

// template with each @@NAME@@ replaced by slots.at(NAME), in one pass (what is put in
// is never searched for slots). A slot the template names but slots lacks is an
// internal error (std::logic_error): the viewer's sources and this code disagree.
std::string Fill(std::string_view page_template, const std::map<std::string, std::string_view>& slots);

// Text as HTML element content or attribute value: & < > " ' escaped.
std::string Escape(std::string_view text);

// A script's source as the content of an inline <script>: "</script" (any case)
// cannot end the element early.
std::string InlineScript(std::string_view source);

// value as JSON for a <script type="application/json"> block: every '<' written as
// \u003c, so no "</script" or "<!--" can appear in it.
std::string JsonBlock(const Value& value);

}  // namespace animkit::preview_html
