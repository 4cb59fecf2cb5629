#include "ui/properties_dock.hpp"

#include <QDateTime>
#include <QHeaderView>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/sim/mechanism.hpp"
#include "ui/channel.hpp"
#include "ui/display_units.hpp"
#include "ui/document.hpp"
#include "ui/edit_panel.hpp"
#include "ui/simulation_controller.hpp"

namespace articula {

namespace {

QString num(double x) {
  return QString::number(x, 'g', 6);
}

template <class V>
QString vec(const V& v, double factor = 1.0) {
  QStringList parts;
  for (int i = 0; i < v.size(); ++i) parts << num(v[i] * factor);
  return "[" + parts.join(", ") + "]";
}

// A position in the display length unit: "[50, 0, 0] mm".
QString position(const Vec3& p) {
  const DisplayScale s = displayScale("m");
  return vec(p, s.factor) + " " + s.unit;
}

QString pose(const PoseSpec& p) {
  const Quat& q = p.orientation;
  return QStringLiteral("p %1  q [%2, %3, %4, %5]")
      .arg(position(p.position), num(q.w()), num(q.x()), num(q.y()), num(q.z()));
}

// A joint coordinate's value in the display units ("30°", "12.5 mm"); its SI unit from the
// joint's q channel (rad, or m for a slider's), none when there is no mechanism to ask.
QString coordinate(double v, const Mechanism* mech, int joint, int index) {
  if (!mech) return num(v);
  const DisplayScale s = displayScale(channelUnit({Channel::Quantity::Q, joint, index}, *mech));
  return with_unit(num(v * s.factor), s.unit);
}

}  // namespace

PropertiesDock::PropertiesDock(Document* document, SimulationController* controller,
                               QWidget* parent)
    : QDockWidget(tr("Properties"), parent),
      document_(document),
      controller_(controller),
      tree_(new QTreeWidget(this)) {
  setObjectName("PropertiesDock");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  tree_->setSelectionMode(QAbstractItemView::NoSelection);
  tree_->setRootIsDecorated(false);
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  editor_ = new EditPanel(document_, box);
  layout->addWidget(editor_);
  layout->addWidget(tree_, 1);
  // Scrolls rather than forcing a tall window when the form is long (a joint with its drive).
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(box);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setMinimumWidth(300);  // the editor's fields stay readable
  setWidget(scroll);
  connect(document_, &Document::documentChanged, this, &PropertiesDock::rebuild);
  connect(document_, &Document::namesChanged, this, &PropertiesDock::rebuild);
  connect(document_, &Document::selectionChanged, this, &PropertiesDock::rebuild);
  connect(document_, &Document::pathChanged, this, &PropertiesDock::rebuild);  // Save As
  connect(controller_, &SimulationController::frameChanged, this, &PropertiesDock::updateLive);
  connect(&displayUnitsNotifier(), &DisplayUnitsNotifier::changed, this, &PropertiesDock::rebuild);
  rebuild();
}

QTreeWidgetItem* PropertiesDock::section(const QString& title) {
  auto* item = new QTreeWidgetItem(tree_, {title});
  QFont f = item->font(0);
  f.setBold(true);
  item->setFont(0, f);
  item->setFirstColumnSpanned(true);
  item->setExpanded(true);
  return item;
}

QTreeWidgetItem* PropertiesDock::row(QTreeWidgetItem* parent, const QString& name,
                                     const QString& value) {
  auto* item = new QTreeWidgetItem(parent, {name, value});
  item->setToolTip(1, value);
  return item;
}

void PropertiesDock::rebuild() {
  tree_->clear();
  live_ = nullptr;
  const Selection s = document_->selection();
  if (s.joint >= 0 && s.joint < static_cast<int>(document_->spec().joints.size()))
    showJoint(s.joint);
  else if (s.body >= 0 && s.body < static_cast<int>(document_->spec().bodies.size()))
    showBody(s.body);
  else
    showMechanism();
  tree_->expandAll();
  if (controller_->hasCurrent()) {
    last_live_ms_ = 0;
    updateLive(controller_->current());
  }
}

void PropertiesDock::showMechanism() {
  const MechanismSpec& spec = document_->spec();
  QTreeWidgetItem* m = section(tr("Mechanism"));
  row(m, tr("Name"), QString::fromStdString(spec.name));
  if (spec.extra.contains("description") && spec.extra["description"].is_string()) {
    QTreeWidgetItem* d = row(m, tr("Description"),
                             QString::fromStdString(spec.extra["description"].get<std::string>()));
    d->setToolTip(1, "<p>" + d->text(1).toHtmlEscaped() + "</p>");  // rich text wraps
  }
  // The file name; its folder in the tooltip (screenshots show no machine paths).
  QTreeWidgetItem* file = row(
      m, tr("File"), document_->path().isEmpty() ? tr("(not saved)") : document_->displayName());
  if (!document_->path().isEmpty()) file->setToolTip(1, document_->path());
  row(m, tr("Gravity"), vec(spec.gravity) + " m/s²");
  row(m, tr("Bodies"), QString::number(spec.bodies.size()));
  row(m, tr("Joints"), QString::number(spec.joints.size()));
  const SimulationSpec sim_spec = spec.simulation.value_or(SimulationSpec{});
  QTreeWidgetItem* sim = section(tr("Simulation"));
  row(sim, tr("Step"), num(sim_spec.step) + " s");
  row(sim, tr("Integrator"), QString::fromStdString(sim_spec.integrator).toUpper());
  row(sim, tr("Duration (file)"), num(sim_spec.duration) + " s");
}

void PropertiesDock::showBody(int b) {
  const BodySpec& body = document_->spec().bodies[b];
  QTreeWidgetItem* s = section(tr("Body %1").arg(QString::fromStdString(body.name)));
  row(s, tr("Mass"), num(body.mass) + " kg");
  row(s, tr("Centre of mass"), position(body.com));
  const auto& I = body.inertia;
  row(s, tr("Inertia (Ixx Iyy Izz)"),
      QStringLiteral("%1, %2, %3 kg·m²").arg(num(I[0]), num(I[1]), num(I[2])));
  row(s, tr("Inertia (Ixy Ixz Iyz)"),
      QStringLiteral("%1, %2, %3 kg·m²").arg(num(I[3]), num(I[4]), num(I[5])));
  if (body.pose) row(s, tr("Sketched pose"), pose(*body.pose));
  QTreeWidgetItem* joints = section(tr("Joints"));
  for (const JointSpec& j : document_->spec().joints)
    if (j.parent == body.name || j.child == body.name)
      row(joints, QString::fromStdString(j.name),
          QString::fromStdString(j.parent + " → " + j.child));
}

void PropertiesDock::showJoint(int j) {
  const JointSpec& js = document_->spec().joints[j];
  const Mechanism* mech = document_->mechanism().get();
  QTreeWidgetItem* s = section(tr("Joint %1").arg(QString::fromStdString(js.name)));
  const std::string_view type = joint_type_name(js.joint.type);
  row(s, tr("Type"), QString::fromUtf8(type.data(), static_cast<int>(type.size())));
  row(s, tr("Parent → child"), QString::fromStdString(js.parent + " → " + js.child));
  if (mech)
    row(s, tr("Role"),
        mech->compiled.joint_map[j].loop ? tr("loop joint (closes a loop)")
                                         : tr("spanning-tree joint"));
  row(s, tr("Parent frame"), pose(js.parent_frame));
  row(s, tr("Child frame"), pose(js.child_frame));
  if (js.q0) {
    QStringList q0;
    for (int i = 0; i < static_cast<int>(js.q0->size()); ++i)
      q0 << coordinate((*js.q0)[i], mech, j, i);
    row(s, tr("q0"), q0.join(", "));
  }
  if (js.drive)
    row(s, js.drive->kind == DriveSpec::Kind::Motion ? tr("Motion drive") : tr("Force drive"),
        (js.drive->kind == DriveSpec::Kind::Motion ? "q(t) = " : "τ(t) = ") +
            QString::fromStdString(js.drive->expression));
  if (js.spring)
    row(s, tr("Spring"),
        QStringLiteral("k %1, rest %2, c %3")
            .arg(num(js.spring->stiffness), coordinate(js.spring->rest, mech, j, 0),
                 num(js.spring->damping)));
  if (js.limits) {
    const auto bound = [&](const std::optional<double>& b) {
      return b ? coordinate(*b, mech, j, 0) : tr("none");
    };
    row(s, tr("Limits"),
        tr("%1 … %2, restitution %3")
            .arg(bound(js.limits->lower), bound(js.limits->upper), num(js.limits->restitution)));
  }
  if (js.friction)
    row(s, tr("Friction"),
        tr("Coulomb %1, viscous %2").arg(num(js.friction->coulomb), num(js.friction->viscous)));
  if (mech) live_ = section(tr("At t = 0 s"));
}

void PropertiesDock::updateLive(const Snapshot& snap) {
  const Mechanism* mech = document_->mechanism().get();
  const int j = document_->selection().joint;
  if (!live_ || !mech || j < 0) return;
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (now - last_live_ms_ < 100 && controller_->state() == SimulationController::State::Playing)
    return;  // 10 updates a second are plenty for reading numbers
  last_live_ms_ = now;
  live_->setText(0, tr("At t = %1 s").arg(snap.t, 0, 'f', 3));
  const std::vector<Channel> channels = jointChannels(*mech, j);
  const qsizetype prefix = QString::fromStdString(mech->spec.joints[j].name).size() + 1;
  while (live_->childCount() < static_cast<int>(channels.size())) row(live_, QString(), QString());
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    QTreeWidgetItem* item = live_->child(static_cast<int>(i));
    item->setText(0, channelName(c, *mech).mid(prefix));  // "q", "τ", "|F|"
    const DisplayScale unit = displayScale(channelUnit(c, *mech));
    item->setText(1, with_unit(num(channelValue(c, snap, *mech) * unit.factor), unit.unit));
  }
}

}  // namespace articula
