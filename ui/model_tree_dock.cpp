#include "ui/model_tree_dock.hpp"

#include <QHeaderView>
#include <QMenu>
#include <QTreeWidget>

#include "core/sim/mechanism.hpp"
#include "ui/channel_menu.hpp"
#include "ui/document.hpp"

namespace articula {

namespace {

enum Role { KindRole = Qt::UserRole, IndexRole };
enum Kind { Group, MechanismItem, BodyItem, JointItem, DriveItem, CouplingItem, ContactItem };

QString jointType(const JointSpec& j) {
  return QString::fromUtf8(joint_type_name(j.joint.type).data(),
                           static_cast<int>(joint_type_name(j.joint.type).size()));
}

QTreeWidgetItem* makeItem(QTreeWidgetItem* parent, Kind kind, int index, const QString& name,
                          const QString& detail) {
  auto* item = new QTreeWidgetItem(parent, {name, detail});
  item->setData(0, KindRole, kind);
  item->setData(0, IndexRole, index);
  item->setToolTip(0, name + (detail.isEmpty() ? QString() : "  —  " + detail));
  return item;
}

}  // namespace

ModelTreeDock::ModelTreeDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Model"), parent), document_(document), tree_(new QTreeWidget(this)) {
  setObjectName("ModelTreeDock");
  tree_->setColumnCount(2);
  // The second column holds each item's detail: a joint's type, a body's mass, a drive's law, a
  // group's count.
  tree_->setHeaderLabels({tr("Name"), tr("Details")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(true);
  tree_->setTextElideMode(Qt::ElideRight);
  tree_->setUniformRowHeights(true);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  setWidget(tree_);
  connect(document_, &Document::documentChanged, this, &ModelTreeDock::rebuild);
  connect(document_, &Document::namesChanged, this, &ModelTreeDock::rebuild);
  connect(document_, &Document::selectionChanged, this, &ModelTreeDock::showSelection);
  connect(tree_, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem* item) { onCurrentItemChanged(item); });
  connect(tree_, &QTreeWidget::customContextMenuRequested, this, &ModelTreeDock::showContextMenu);
  connect(tree_, &QTreeWidget::itemDoubleClicked, this,
          [this](QTreeWidgetItem* item) { onDoubleClicked(item); });
  rebuild();
}

QTreeWidgetItem* ModelTreeDock::addGroup(const QString& title, int count) {
  auto* root = tree_->topLevelItem(0);
  auto* g = makeItem(root, Group, -1, title, QString::number(count));
  QFont f = g->font(0);
  f.setBold(true);
  g->setFont(0, f);
  g->setFlags(g->flags() & ~Qt::ItemIsSelectable);
  return g;
}

void ModelTreeDock::rebuild() {
  syncing_ = true;
  tree_->clear();
  const MechanismSpec& spec = document_->spec();
  const Mechanism* mech = document_->mechanism().get();
  auto* root = new QTreeWidgetItem(tree_, {QString::fromStdString(spec.name), tr("mechanism")});
  root->setData(0, KindRole, MechanismItem);
  root->setFirstColumnSpanned(true);
  root->setToolTip(0, root->text(0));
  QTreeWidgetItem* bodies = addGroup(tr("Bodies"), static_cast<int>(spec.bodies.size()));
  for (std::size_t b = 0; b < spec.bodies.size(); ++b)
    makeItem(bodies, BodyItem, static_cast<int>(b), QString::fromStdString(spec.bodies[b].name),
             QStringLiteral("%1 kg").arg(spec.bodies[b].mass, 0, 'g', 4));
  int loops = 0, drives = 0;
  for (std::size_t j = 0; j < spec.joints.size(); ++j) {
    loops += mech && mech->compiled.joint_map[j].loop;
    drives += spec.joints[j].drive.has_value();
  }
  const int n = static_cast<int>(spec.joints.size());
  QTreeWidgetItem* joints = addGroup(tr("Joints"), n - loops);
  QTreeWidgetItem* cut = addGroup(tr("Loop joints"), loops);
  QTreeWidgetItem* driven = addGroup(tr("Drives"), drives);
  for (int j = 0; j < n; ++j) {
    const JointSpec& js = spec.joints[j];
    const bool loop = mech && mech->compiled.joint_map[j].loop;
    const QString name = QString::fromStdString(js.name);
    auto* item = makeItem(loop ? cut : joints, JointItem, j, name, jointType(js));
    item->setToolTip(
        0, QStringLiteral("%1: %2 → %3")
               .arg(name, QString::fromStdString(js.parent), QString::fromStdString(js.child)));
    if (js.drive)
      makeItem(driven, DriveItem, j, name,
               (js.drive->kind == DriveSpec::Kind::Motion ? "q = " : "τ = ") +
                   QString::fromStdString(js.drive->expression));
  }
  if (!spec.couplings.empty()) {
    QTreeWidgetItem* coupled = addGroup(tr("Couplings"), static_cast<int>(spec.couplings.size()));
    for (std::size_t c = 0; c < spec.couplings.size(); ++c) {
      const CouplingSpec& cs = spec.couplings[c];
      auto* item = makeItem(
          coupled, CouplingItem, static_cast<int>(c), QString::fromStdString(cs.name),
          QStringLiteral("%1 %2:%3 ×%4")
              .arg(QString::fromUtf8(coupling_type_name(cs.type)),
                   QString::fromStdString(cs.joints[0]), QString::fromStdString(cs.joints[1]))
              .arg(cs.ratio, 0, 'g', 4));
      item->setToolTip(0, tr("q̇_%1 = %2 · q̇_%3")
                              .arg(QString::fromStdString(cs.joints[1]))
                              .arg(cs.ratio, 0, 'g', 6)
                              .arg(QString::fromStdString(cs.joints[0])));
    }
  }
  addContacts(spec);
  tree_->expandAll();
  syncing_ = false;
}

// Contacts: "C1  ball on plane (ground)", the sphere's radius in the tooltip.
void ModelTreeDock::addContacts(const MechanismSpec& spec) {
  if (spec.contacts.empty()) return;
  QTreeWidgetItem* group = addGroup(tr("Contacts"), static_cast<int>(spec.contacts.size()));
  for (std::size_t c = 0; c < spec.contacts.size(); ++c) {
    const ContactSpec& cs = spec.contacts[c];
    auto* item =
        makeItem(group, ContactItem, static_cast<int>(c), QString::fromStdString(cs.name),
                 tr("%1 on %2 (%3)")
                     .arg(QString::fromStdString(cs.body), QString::fromStdString(cs.surface_type),
                          QString::fromStdString(cs.surface_body)));
    item->setToolTip(0, tr("radius %1 m, restitution %2, friction %3")
                            .arg(cs.radius, 0, 'g', 4)
                            .arg(cs.restitution, 0, 'g', 4)
                            .arg(cs.friction, 0, 'g', 4));
  }
}

void ModelTreeDock::showSelection(const Selection& s) {
  syncing_ = true;
  QTreeWidgetItem* found = nullptr;
  for (QTreeWidgetItemIterator it(tree_); *it && !found; ++it) {
    const int kind = (*it)->data(0, KindRole).toInt(), index = (*it)->data(0, IndexRole).toInt();
    if ((kind == BodyItem && index == s.body && s.joint < 0) ||
        (kind == JointItem && index == s.joint) || (kind == CouplingItem && index == s.coupling) ||
        (kind == ContactItem && index == s.contact))
      found = *it;
  }
  tree_->setCurrentItem(found);
  if (!found) tree_->clearSelection();
  if (found) tree_->scrollToItem(found);
  syncing_ = false;
}

void ModelTreeDock::onCurrentItemChanged(QTreeWidgetItem* item) {
  if (syncing_) return;
  Selection s;
  if (item) {
    const int kind = item->data(0, KindRole).toInt(), index = item->data(0, IndexRole).toInt();
    if (kind == BodyItem) s.body = index;
    if (kind == JointItem || kind == DriveItem) s.joint = index;
    if (kind == CouplingItem) s.coupling = index;
    if (kind == ContactItem) s.contact = index;
  }
  document_->setSelection(s);
}

void ModelTreeDock::showContextMenu(const QPoint& pos) {
  QTreeWidgetItem* item = tree_->itemAt(pos);
  const Mechanism* mech = document_->mechanism().get();
  if (!item || !mech) return;
  const int kind = item->data(0, KindRole).toInt(), index = item->data(0, IndexRole).toInt();
  if (kind != JointItem && kind != DriveItem && kind != MechanismItem) return;
  QMenu menu;
  QMenu* here = menu.addMenu(tr("Plot in current plot"));
  QMenu* fresh = menu.addMenu(tr("Plot in a new plot"));
  for (auto [sub, newPlot] : {std::pair{here, false}, std::pair{fresh, true}}) {
    auto cb = [this, newPlot = newPlot](const Channel& c) { emit plotRequested(c, newPlot); };
    if (kind == MechanismItem)
      addMechanismChannels(sub, *mech, cb);
    else
      addJointChannels(sub, *mech, index, cb);
  }
  if (mech->spec.joints[index].drive && kind != MechanismItem) {
    menu.addSeparator();
    menu.addAction(tr("Change drive law…"), this,
                   [this, index] { emit driveChangeRequested(index); });
  }
  menu.exec(tree_->viewport()->mapToGlobal(pos));
}

void ModelTreeDock::onDoubleClicked(QTreeWidgetItem* item) {
  const Mechanism* mech = document_->mechanism().get();
  const int kind = item->data(0, KindRole).toInt(), index = item->data(0, IndexRole).toInt();
  if (mech && kind == CouplingItem)
    return emit plotRequested({Channel::Quantity::CouplingTau, -1, index}, false);
  if (!mech || (kind != JointItem && kind != DriveItem)) return;
  const bool driven = mech->spec.joints[index].drive.has_value();
  emit plotRequested({driven ? Channel::Quantity::Tau : Channel::Quantity::Q, index, 0}, false);
}

}  // namespace articula
