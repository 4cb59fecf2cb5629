#include "ui/build3d_bar.hpp"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "ui/build3d_controller.hpp"
#include "ui/flow_layout.hpp"

namespace articula {

namespace {
QDoubleSpinBox* spin(QWidget* parent, const char* name, double lo, double hi, double value,
                     int decimals, const QString& suffix, const QString& tip) {
  auto* s = new QDoubleSpinBox(parent);
  s->setObjectName(name);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setToolTip(tip);
  return s;
}

QCheckBox* check(QWidget* parent, const char* name, const QString& text, const QString& tip) {
  auto* c = new QCheckBox(text, parent);
  c->setObjectName(name);
  c->setToolTip(tip);
  return c;
}

// A label and its field, kept together on one row when the bar wraps.
QWidget* labelled(QWidget* parent, QLabel* label, QWidget* field) {
  auto* box = new QWidget(parent);
  auto* row = new QHBoxLayout(box);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(3);
  row->addWidget(label);
  row->addWidget(field);
  label->setParent(box);
  field->setParent(box);
  return box;
}
}  // namespace

Build3DBar::Build3DBar(Build3DController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  setObjectName("build3d.bar");
  auto* flow = new FlowLayout(this);
  flow->setContentsMargins(4, 2, 4, 2);
  addTools();
  joint_ = new QComboBox(this);
  joint_->setObjectName("build3d.jointType");
  joint_->addItems({tr("Revolute"), tr("Spherical"), tr("Universal"), tr("Prismatic")});
  joint_->setToolTip(tr("The joint a click places (the Link tool's ends too)"));
  flow->addWidget(joint_);
  axis_ = new QComboBox(this);
  axis_->setObjectName("build3d.axis");
  axis_->addItems(
      {tr("Face normal"), tr("Axis x"), tr("Axis y"), tr("Axis z"), tr("Along the link")});
  axis_->setCurrentIndex(3);
  axis_->setToolTip(tr("The joint's axis: the clicked face's normal or a world axis"));
  flow->addWidget(axis_);
  plane_ = new QComboBox(this);
  plane_->setObjectName("build3d.plane");
  plane_->addItems({tr("Floor ⊥ g"), tr("Plane xy"), tr("Plane yz"), tr("Plane zx")});
  plane_->setToolTip(
      tr("Where clicks in empty space land: the floor (perpendicular to gravity, "
         "through the origin) or a world plane"));
  flow->addWidget(plane_);
  planeLabel_ = new QLabel(controller_->plane().label, this);
  planeLabel_->setObjectName("build3d.planeLabel");
  offset_ = spin(this, "build3d.planeOffset", -100, 100, 0, 4, tr(" m"),
                 tr("The plane's offset along its normal (the floor's: its height)"));
  flow->addWidget(labelled(this, planeLabel_, offset_));
  snap_ = check(this, "build3d.snap", tr("Snap"),
                tr("Clicks in empty space land on the grid's crossings; the Move gizmo slides "
                   "by grid steps and turns by 15°"));
  local_ = check(this, "build3d.localAxes", tr("Local axes"),
                 tr("The Move gizmo along the selected joint's or body's own axes, not the "
                    "world's"));
  grid_ = spin(this, "build3d.grid", 0.1, 10000, 10, 1, tr(" mm"), tr("The grid's step"));
  flow->addWidget(labelled(this, new QLabel(tr("grid"), this), grid_));
  flow->addWidget(snap_);
  flow->addWidget(local_);
  diameter_ = spin(this, "build3d.diameter", 0.1, 1000, 10, 1, tr(" mm"),
                   tr("Diameter of a new link (its mass follows: aluminium)"));
  flow->addWidget(labelled(this, new QLabel(tr("Ø"), this), diameter_));
  prompt_ = new QLabel(parent);
  prompt_->setObjectName("build3d.prompt");
  prompt_->setWordWrap(true);
  prompt_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  prompt_->setContentsMargins(6, 0, 6, 2);
  prompt_->hide();
  connect(controller_, &Build3DController::promptChanged, prompt_, [this](const QString& text) {
    prompt_->setText(text);
    prompt_->setVisible(!text.isEmpty());
  });
  connect(controller_, &Build3DController::planeChanged, planeLabel_, &QLabel::setText);
  for (QComboBox* c : {joint_, axis_, plane_})
    connect(c, &QComboBox::currentIndexChanged, this, &Build3DBar::readSettings);
  for (QDoubleSpinBox* s : {offset_, grid_, diameter_})
    connect(s, &QDoubleSpinBox::valueChanged, this, &Build3DBar::readSettings);
  for (QCheckBox* c : {snap_, local_})
    connect(c, &QCheckBox::toggled, this, &Build3DBar::readSettings);
}

void Build3DBar::addTools() {
  auto* group = new QActionGroup(this);
  using Tool = Build3DController::Tool;
  for (auto [tool, name, tip] :
       {std::tuple{Tool::None, tr("Orbit"), tr("Drag to orbit, click to select")},
        std::tuple{Tool::Link, tr("Link"), tr("Add a link between two clicked points")},
        std::tuple{Tool::Plate, tr("Plate"),
                   tr("Add a plate through clicked corners; click the first again to finish")},
        std::tuple{Tool::Joint, tr("Joint"), tr("Join two bodies at a clicked point")},
        std::tuple{Tool::Move, tr("Move"),
                   tr("Click a joint or a body, then drag the gizmo's arrows to slide it and "
                      "its rings to turn it (Snap: by grid steps and 15°; Local axes: along "
                      "its own axes)")},
        std::tuple{Tool::Measure, tr("Measure"),
                   tr("Click two points for their distance, a third for the angle at the "
                      "second")}}) {
    auto* a = new QAction(name, this);
    constexpr const char* kNames[] = {"build3d.orbit", "build3d.link", "build3d.joint",
                                      "build3d.plate", "build3d.move", "build3d.measure"};
    a->setObjectName(kNames[static_cast<int>(tool)]);
    a->setToolTip(tip);
    a->setCheckable(true);
    a->setChecked(tool == Tool::None);
    group->addAction(a);
    connect(a, &QAction::triggered, this, [this, tool = tool] { controller_->setTool(tool); });
    auto* button = new QToolButton(this);
    button->setObjectName(QString(kNames[static_cast<int>(tool)]) + ".button");
    button->setDefaultAction(a);
    button->setAutoRaise(true);
    layout()->addWidget(button);
  }
}

void Build3DBar::readSettings() {
  constexpr JointType kJoints[] = {JointType::Revolute, JointType::Spherical, JointType::Universal,
                                   JointType::Prismatic};
  BuildSettings& s = controller_->settings();
  s.joint = kJoints[std::max(0, joint_->currentIndex())];
  s.axis = static_cast<BuildSettings::Axis>(std::max(0, axis_->currentIndex()));
  s.plane = static_cast<BuildSettings::Plane>(std::max(0, plane_->currentIndex()));
  s.plane_offset = offset_->value();
  s.snap = snap_->isChecked();
  s.local_axes = local_->isChecked();
  s.grid = grid_->value() * 1e-3;
  s.diameter = diameter_->value() * 1e-3;
  controller_->settingsChanged();
}

}  // namespace articula
