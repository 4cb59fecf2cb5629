#pragma once
// The 3D view's build bar: the tools (Orbit, i.e. none, Link, Plate, Joint, Move, Measure),
// the joint kind and axis a click places, the build plane (floor or a world plane, its offset,
// snapping to its grid and the grid's step) and a new link's diameter, and a line with what the
// next click does. It edits the Build3DController's settings. Its controls wrap onto further
// rows when the view is narrow (ui/flow_layout): none hides in an overflow menu.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace articula {

class Build3DController;

class Build3DBar : public QWidget {
  Q_OBJECT

 public:
  Build3DBar(Build3DController* controller, QWidget* parent = nullptr);
  QLabel* promptLabel() const { return prompt_; }  // placed by the panel under the bar

 private:
  void addTools();
  void readSettings();

  Build3DController* controller_;
  QComboBox* joint_;
  QComboBox* axis_;
  QComboBox* plane_;
  QLabel* planeLabel_;  // which plane, and which coordinate the offset is: "floor, y ="
  QDoubleSpinBox* offset_;
  QCheckBox* snap_;
  QCheckBox* local_;  // the Move gizmo along the frame's own axes
  QDoubleSpinBox* grid_;
  QDoubleSpinBox* diameter_;
  QLabel* prompt_;
};

}  // namespace articula
