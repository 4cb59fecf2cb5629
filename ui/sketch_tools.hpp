#pragma once
// The sketch tools in one list, in tool-bar order: the editor owns them, the tool bar builds one
// action per entry (name, icon, shortcut, description). A new tool is a SketchTool subclass and
// its line in makeSketchTools.
#include <memory>
#include <vector>

#include "ui/sketch_tool.hpp"

namespace articula {

std::vector<std::unique_ptr<SketchTool>> makeSketchTools(SketchEditor* editor);

}  // namespace articula
