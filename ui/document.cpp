#include "ui/document.hpp"

#include <QFileInfo>
#include <QUndoStack>

#include "core/io/project.hpp"

namespace articula {

Document::Document(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
  connect(undo_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { emit modifiedChanged(!clean); });
}

Document::~Document() = default;

bool Document::load(const QString& path) {
  const QString file = QFileInfo(path).fileName();
  try {
    LoadResult loaded = load_project(path.toStdString());
    auto mech = std::make_shared<const Mechanism>(prepare(loaded.spec));
    QStringList warnings;
    for (const std::string& w : loaded.warnings) warnings << QString::fromStdString(w);
    replace(std::move(loaded.spec), std::move(mech), QFileInfo(path).absoluteFilePath(), warnings);
    return true;
  } catch (const ProjectError& e) {
    // what() already starts with the JSON pointer ("/joints/2/type: ...").
    error_ = tr("%1: invalid project at %2").arg(file, QString::fromStdString(e.what()));
  } catch (const SetupError& e) {
    error_ = tr("%1: the mechanism cannot be assembled: %2").arg(file, e.what());
  } catch (const std::exception& e) {
    error_ = tr("%1: %2").arg(file, e.what());
  }
  return false;
}

bool Document::save(const QString& path) {
  try {
    save_project(spec_, path.toStdString());
  } catch (const std::exception& e) {
    error_ = tr("Could not save %1: %2").arg(path, e.what());
    return false;
  }
  const QString abs = QFileInfo(path).absoluteFilePath();
  if (abs != path_) {
    path_ = abs;
    emit pathChanged(path_);
  }
  undo_->setClean();
  return true;
}

void Document::setSpec(MechanismSpec spec) {
  std::shared_ptr<const Mechanism> mech;
  try {
    mech = std::make_shared<const Mechanism>(prepare(spec));
  } catch (const std::exception&) {
    // An intermediate edit may not assemble; the spec is kept, the views show no mechanism.
  }
  spec_ = std::move(spec);
  mechanism_ = std::move(mech);
  emit documentChanged();
}

bool Document::recover(const QString& recovery_file, const QString& original_path) {
  LoadResult loaded;
  try {
    loaded = load_project(recovery_file.toStdString());
  } catch (const std::exception& e) {
    error_ = tr("Could not recover %1: %2").arg(recovery_file, e.what());
    return false;
  }
  QStringList warnings;
  for (const std::string& w : loaded.warnings) warnings << QString::fromStdString(w);
  std::shared_ptr<const Mechanism> mech;
  try {
    mech = std::make_shared<const Mechanism>(prepare(loaded.spec));
  } catch (const std::exception& e) {
    warnings << tr("the recovered mechanism cannot be simulated: %1").arg(e.what());
  }
  const QString path =
      original_path.isEmpty() ? QString() : QFileInfo(original_path).absoluteFilePath();
  replace(std::move(loaded.spec), std::move(mech), path, warnings);
  undo_->resetClean();  // unsaved work: the saved state is no longer reachable by undo
  return true;
}

void Document::clear() {
  MechanismSpec spec;
  spec.name = tr("Untitled").toStdString();
  replace(std::move(spec), nullptr, QString(), {});
}

QString Document::displayName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  return tr("Untitled");
}

bool Document::isModified() const {
  return !undo_->isClean();
}

void Document::setSelection(const Selection& s) {
  if (s == selection_) return;
  selection_ = s;
  emit selectionChanged(selection_);
}

void Document::replace(MechanismSpec spec, std::shared_ptr<const Mechanism> mech,
                       const QString& path, QStringList warnings) {
  spec_ = std::move(spec);
  mechanism_ = std::move(mech);
  warnings_ = std::move(warnings);
  error_.clear();
  selection_ = {};
  undo_->clear();
  const bool new_path = path != path_;
  path_ = path;
  emit documentChanged();
  emit selectionChanged(selection_);
  emit modifiedChanged(false);
  if (new_path) emit pathChanged(path_);
}

}  // namespace articula
