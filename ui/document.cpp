#include "ui/document.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QUndoStack>

#include "core/io/project.hpp"
#include "ui/commands.hpp"

#ifdef __linux__
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace articula {

namespace {
// The status details' worker yields to the GUI and simulation threads (it should not slow the
// opening it follows) without starving: ordinary scheduling (not a real-time policy inherited
// from a process run under chrt) at nice 10, about a tenth of a contended core.
void yieldToInteractiveThreads() {
#ifdef __linux__
  const sched_param normal{};
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &normal);
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}
}  // namespace

Document::Document(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
  connect(undo_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { emit modifiedChanged(!clean); });
}

Document::~Document() {
  details_pool_.clear();
  details_pool_.waitForDone();  // before members go: a running task reads the mechanism
}

Analysis Document::analyseFor(const MechanismSpec& spec) {
  Analysis a = analyse(spec, AnalysisDepth::Counts);
  if (a.grounded && a.grounded->model().nv < deferred_from_) complete_status(*a.grounded, a.status);
  return a;
}

// The details are computed from the grounded mechanism (immutable, shared) and a copy of the
// counts; the result is handed back on the GUI thread and kept only if no newer analysis came.
void Document::completeStatusLater() {
  ++generation_;
  if (!status_.details_pending || !simulated_) return;
  const int generation = generation_;
  details_pool_.start([this, generation, mech = simulated_, status = status_]() mutable {
    yieldToInteractiveThreads();
    complete_status(*mech, status);
    QMetaObject::invokeMethod(
        this,
        [this, generation, status = std::move(status)]() mutable {
          if (generation != generation_) return;
          status_ = std::move(status);
          emit statusChanged();
        },
        Qt::QueuedConnection);
  });
}

void Document::waitForStatus() {
  details_pool_.waitForDone();
  QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

bool Document::load(const QString& path) {
  const QString file = QFileInfo(path).fileName();
  try {
    LoadResult loaded = load_project(path.toStdString(), LoadOptions{.restore_floating = true});
    replace(std::move(loaded.spec), QFileInfo(path).absoluteFilePath(), loaded.warnings);
    return true;
  } catch (const ProjectError& e) {
    // what() already starts with the JSON pointer ("/joints/2/type: ...").
    error_ = tr("%1: invalid project at %2").arg(file, QString::fromStdString(e.what()));
  } catch (const std::exception& e) {
    error_ = tr("%1: %2").arg(file, e.what());
  }
  return false;
}

bool Document::save(const QString& path) {
  // Links not connected to ground yet are kept under /sketch/floating (core/io/project.hpp).
  try {
    save_project(doc_.spec(), path.toStdString());
  } catch (const std::exception& e) {
    error_ = tr("Could not save %1: %2").arg(path, e.what());
    return false;
  }
  const QString abs = QFileInfo(path).absoluteFilePath();
  copied_from_.clear();
  if (abs != path_) {
    path_ = abs;
    emit pathChanged(path_);
  }
  undo_->setClean();
  return true;
}

bool Document::recover(const QString& recovery_file, const QString& original_path) {
  LoadResult loaded;
  try {
    loaded = load_project(recovery_file.toStdString(), LoadOptions{.restore_floating = true});
  } catch (const std::exception& e) {
    error_ = tr("Could not recover %1: %2").arg(recovery_file, e.what());
    return false;
  }
  const QString path =
      original_path.isEmpty() ? QString() : QFileInfo(original_path).absoluteFilePath();
  replace(std::move(loaded.spec), path, loaded.warnings);
  undo_->resetClean();  // unsaved work: the saved state is no longer reachable by undo
  return true;
}

void Document::clear() {
  MechanismSpec spec;
  spec.name = tr("Untitled").toStdString();
  replace(std::move(spec), QString(), {});
}

bool Document::push(Edit edit, EditKind kind) {
  if (edit.empty()) return false;
  try {
    EditableMechanism trial = doc_;
    trial.apply(edit);  // refuse here rather than inside the undo stack
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
    return false;
  }
  undo_->push(makeCommand(this, std::move(edit), kind));
  return true;
}

void Document::applyEdit(const Edit& edit) {
  doc_.apply(edit);
  refresh(describe_edit(edit));
}

void Document::revertEdit(const Edit& edit) {
  doc_.revert(edit);
  refresh(describe_edit(edit, true));
}

void Document::refresh(const EditEffect& effect) {
  Analysis a = analyseFor(doc_.spec());
  // A rename keeps a working mechanism working: only its names differ (every index is the same).
  const bool names_only = effect.scope == EditEffect::Scope::Names && simulated_ && a.grounded;
  mechanism_ = std::move(a.mechanism);
  simulated_ = std::move(a.grounded);
  status_ = std::move(a.status);
  completeStatusLater();
  const MechanismSpec& spec = doc_.spec();
  const bool keep = selection_.body < static_cast<int>(spec.bodies.size()) &&
                    selection_.joint < static_cast<int>(spec.joints.size()) &&
                    selection_.coupling < static_cast<int>(spec.couplings.size()) &&
                    selection_.contact < static_cast<int>(spec.contacts.size());
  emit edited(effect);
  if (names_only)
    emit namesChanged();
  else
    emit documentChanged();
  emit statusChanged();
  if (!keep) setSelection({});
}

bool Document::adoptUntitled(MechanismSpec spec) {
  const SketchStatus status =
      analyse(spec, AnalysisDepth::Counts).status;  // ready() needs no details
  if (!status.ready()) {
    error_ = tr("The mechanism cannot be set up: %1")
                 .arg(QString::fromStdString(status.problem.empty() ? status.summary()
                                                                    : status.problem));
    return false;
  }
  replace(std::move(spec), QString(), {});
  undo_->resetClean();  // unsaved: closing asks to save
  return true;
}

QString Document::displayName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  if (!copied_from_.isEmpty()) return tr("%1 (copy of the sample)").arg(copied_from_);
  return tr("Untitled");
}

void Document::detachFromFile() {
  if (path_.isEmpty()) return;
  copied_from_ = QFileInfo(path_).fileName();
  path_.clear();
  emit pathChanged(path_);
}

QString Document::savedName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  if (!copied_from_.isEmpty()) return copied_from_;
  return tr("Untitled") + ".json";
}

bool Document::isModified() const {
  return !undo_->isClean();
}

Selection Document::toSimulated(const Selection& s) const {
  const MechanismSpec& spec = doc_.spec();
  Selection out;
  if (!simulated_) return out;
  const MechanismSpec& sim = simulated_->spec;
  if (s.body >= 0 && s.body < static_cast<int>(spec.bodies.size()))
    out.body = sim.body_index(spec.bodies[s.body].name);
  if (s.joint >= 0 && s.joint < static_cast<int>(spec.joints.size()))
    out.joint = sim.joint_index(spec.joints[s.joint].name);
  if (s.coupling >= 0 && s.coupling < static_cast<int>(spec.couplings.size()))
    for (std::size_t c = 0; c < sim.couplings.size(); ++c)
      if (sim.couplings[c].name == spec.couplings[s.coupling].name) out.coupling = int(c);
  return out;
}

Selection Document::fromSimulated(int body, int joint) const {
  Selection out;
  if (!simulated_) return out;
  const MechanismSpec& sim = simulated_->spec;
  if (body >= 0 && body < static_cast<int>(sim.bodies.size()))
    out.body = doc_.spec().body_index(sim.bodies[body].name);
  if (joint >= 0 && joint < static_cast<int>(sim.joints.size()))
    out.joint = doc_.spec().joint_index(sim.joints[joint].name);
  return out;
}

void Document::setSelection(const Selection& s) {
  if (s == selection_) return;
  selection_ = s;
  emit selectionChanged(selection_);
}

void Document::replace(MechanismSpec spec, const QString& path,
                       const std::vector<std::string>& warnings) {
  Analysis a = analyseFor(spec);
  QStringList notes;
  for (const std::string& w : warnings) notes << QString::fromStdString(w);
  // A valid file whose loops do not close opens for editing: the sketch status says why.
  if (!a.status.problem.empty())
    notes << tr("the mechanism cannot be assembled yet: %1")
                 .arg(QString::fromStdString(a.status.problem));
  doc_ = EditableMechanism(std::move(spec));
  status_ = std::move(a.status);
  mechanism_ = std::move(a.mechanism);
  simulated_ = std::move(a.grounded);
  completeStatusLater();
  warnings_ = std::move(notes);
  error_.clear();
  selection_ = {};
  undo_->clear();
  const bool new_path = path != path_ || !copied_from_.isEmpty();
  path_ = path;
  copied_from_.clear();
  emit documentChanged();
  emit statusChanged();
  emit selectionChanged(selection_);
  emit modifiedChanged(false);
  if (new_path) emit pathChanged(path_);
  emit projectReplaced();
}

}  // namespace articula
