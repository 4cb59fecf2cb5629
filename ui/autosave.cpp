#include "ui/autosave.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>

#include "core/io/project.hpp"
#include "ui/document.hpp"

namespace articula {

namespace {

// An exclusive advisory lock without waiting; the open descriptor, or -1 if another live process
// holds it (or the file cannot be opened).
int try_lock(const QString& path) {
  const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

QString base_of(const QString& project) {
  return project.left(project.size() - int(sizeof(".json")) + 1);
}

bool write_atomically(const QString& path, const QByteArray& bytes) {
  QSaveFile f(path);  // a temporary file renamed over the target on commit
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit();
}

}  // namespace

Autosave::Autosave(Document* document, QObject* parent)
    : QObject(parent),
      document_(document),
      timer_(new QTimer(this)),
      interval_ms_(defaultIntervalMs()) {
  timer_->setSingleShot(true);
  connect(timer_, &QTimer::timeout, this, [this] {
    saveNow();
    if (edited_) timer_->start(interval_ms_);  // edits arrived while writing
  });
  connect(document_->undoStack(), &QUndoStack::indexChanged, this, &Autosave::onEdited);
  connect(document_, &Document::modifiedChanged, this, &Autosave::onCleanChanged);
  // A different project was opened (or a new one started): its predecessor's recovery is moot.
  connect(document_, &Document::documentChanged, this, [this] {
    if (document_ && !document_->isModified()) discard();
  });
}

Autosave::~Autosave() {
  discard();
}

QString Autosave::recoveryDirectory() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("recovery");
}

int Autosave::defaultIntervalMs() {
  bool ok = false;
  const int ms = qEnvironmentVariableIntValue("ARTICULA_AUTOSAVE_MS", &ok);
  return ok && ms > 0 ? ms : 60000;
}

void Autosave::setInterval(int ms) {
  interval_ms_ = std::max(1, ms);
  if (timer_->isActive()) timer_->start(interval_ms_);
}

void Autosave::onEdited() {
  if (!document_ || !document_->isModified()) return;  // undone back to the saved state
  edited_ = true;
  if (!timer_->isActive()) timer_->start(interval_ms_);  // a minute after the first change
}

void Autosave::onCleanChanged(bool modified) {
  if (modified) return onEdited();
  // Saved, or undone to the saved state: nothing left to recover.
  timer_->stop();
  edited_ = false;
  discard();
}

bool Autosave::lock() {
  if (lock_fd_ >= 0) return true;
  const QDir dir(recoveryDirectory());
  if (!dir.mkpath(".")) return false;
  const QString base = dir.filePath(QStringLiteral("session-%1-%2")
                                        .arg(QCoreApplication::applicationPid())
                                        .arg(QDateTime::currentMSecsSinceEpoch()));
  lock_path_ = base + ".lock";
  lock_fd_ = try_lock(lock_path_);
  if (lock_fd_ < 0) return false;
  project_ = base + ".json";
  meta_ = base + ".meta";
  return true;
}

bool Autosave::saveNow() {
  edited_ = false;
  if (!document_ || !document_->isModified() || !lock()) return false;
  QJsonObject meta{{"original_path", document_->path()},
                   {"name", document_->displayName()},
                   {"saved", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
  const QByteArray text = QByteArray::fromStdString(to_text(document_->spec()));
  // The project first: a meta file always names a complete project.
  if (!write_atomically(project_, text) ||
      !write_atomically(meta_, QJsonDocument(meta).toJson(QJsonDocument::Indented)))
    return false;
  emit autosaved(project_);
  return true;
}

void Autosave::remove(const QString& project) {
  const QString base = base_of(project);
  QFile::remove(project);
  QFile::remove(base + ".meta");
  QFile::remove(base + ".lock");
}

void Autosave::discard() {
  if (lock_fd_ < 0) return;
  remove(project_);
  ::close(lock_fd_);  // releases the lock
  lock_fd_ = -1;
  project_.clear();
  meta_.clear();
  lock_path_.clear();
}

std::vector<Autosave::Orphan> Autosave::orphans() {
  std::vector<Orphan> found;
  const QDir dir(recoveryDirectory());
  for (const QFileInfo& f : dir.entryInfoList({"session-*.json"}, QDir::Files)) {
    const QString base = base_of(f.absoluteFilePath());
    const int fd = try_lock(base + ".lock");
    if (fd < 0) continue;  // a running session's
    ::close(fd);
    QFile meta_file(base + ".meta");
    const QJsonObject meta = meta_file.open(QIODevice::ReadOnly)
                                 ? QJsonDocument::fromJson(meta_file.readAll()).object()
                                 : QJsonObject();
    Orphan o;
    o.project = f.absoluteFilePath();
    o.original_path = meta.value("original_path").toString();
    o.name = meta.value("name").toString(QFileInfo(o.original_path).fileName());
    if (o.name.isEmpty()) o.name = QObject::tr("Untitled");
    o.saved = QDateTime::fromString(meta.value("saved").toString(), Qt::ISODateWithMs);
    if (!o.saved.isValid()) o.saved = f.lastModified();
    found.push_back(o);
  }
  std::sort(found.begin(), found.end(),
            [](const Orphan& a, const Orphan& b) { return a.saved > b.saved; });
  return found;
}

bool Autosave::offerRecovery(QWidget* parent, std::function<Choice(const Orphan&)> ask) {
  if (!ask) {
    ask = [parent](const Orphan& o) {
      QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                      tr("Articula did not close properly. Unsaved changes to %1 were "
                         "autosaved at %2.\n\nRecover them?")
                          .arg(o.name, o.saved.toLocalTime().toString("yyyy-MM-dd hh:mm:ss")),
                      QMessageBox::NoButton, parent);
      QPushButton* recover = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
      QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
      box.addButton(tr("Ask &Later"), QMessageBox::RejectRole);
      box.setDefaultButton(recover);
      box.exec();
      return box.clickedButton() == recover   ? Choice::Recover
             : box.clickedButton() == discard ? Choice::Discard
                                              : Choice::Later;
    };
  }
  if (!document_) return false;
  for (const Orphan& o : orphans()) {
    switch (ask(o)) {
      case Choice::Recover:
        if (!document_->recover(o.project, o.original_path)) continue;  // kept for later
        saveNow();  // this session's own recovery file first: the content is never unprotected
        remove(o.project);
        return true;
      case Choice::Discard:
        remove(o.project);
        break;
      case Choice::Later:
        break;
    }
  }
  return false;
}

}  // namespace articula
