#include "ui/sketch_tools.hpp"

#include "ui/sketch_contact_tools.hpp"
#include "ui/sketch_coupling_tools.hpp"
#include "ui/sketch_draw_tools.hpp"
#include "ui/sketch_joint_tools.hpp"
#include "ui/sketch_measure_tool.hpp"
#include "ui/sketch_select_tool.hpp"

namespace articula {

std::vector<std::unique_ptr<SketchTool>> makeSketchTools(SketchEditor* editor) {
  std::vector<std::unique_ptr<SketchTool>> tools;
  tools.push_back(std::make_unique<SelectTool>(editor));
  tools.push_back(std::make_unique<GroundPivotTool>(editor));
  tools.push_back(std::make_unique<LinkTool>(editor));
  tools.push_back(std::make_unique<TernaryTool>(editor));
  tools.push_back(std::make_unique<PinTool>(editor));
  tools.push_back(std::make_unique<SliderTool>(editor));
  tools.push_back(std::make_unique<GroundSliderTool>(editor));
  tools.push_back(std::make_unique<MotorTool>(editor));
  tools.push_back(std::make_unique<GearTool>(editor));
  tools.push_back(std::make_unique<BeltTool>(editor));
  tools.push_back(std::make_unique<RackTool>(editor));
  tools.push_back(std::make_unique<GroundLineTool>(editor));
  tools.push_back(std::make_unique<CamTool>(editor));
  tools.push_back(std::make_unique<DeleteTool>(editor));
  tools.push_back(std::make_unique<MeasureTool>(editor));
  return tools;
}

}  // namespace articula
