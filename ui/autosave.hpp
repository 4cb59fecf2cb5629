#pragma once
// Autosave and crash recovery of the open document. After the first unsaved change a timer runs
// (one minute; ARTICULA_AUTOSAVE_MS overrides it, e.g. for tests); when it fires and there were
// edits since the last autosave, the project is written to a recovery file in the application's
// data location (QStandardPaths::AppDataLocation/recovery). Saving, closing cleanly or discarding
// removes it. Each session holds an advisory lock (flock) on its recovery files; the kernel drops
// it when the process dies however it dies, so on the next start a recovery file whose lock can
// be taken belongs to a crashed session and is offered back.
#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <vector>

class QTimer;
class QWidget;

namespace articula {

class Document;

class Autosave : public QObject {
  Q_OBJECT

 public:
  // A recovery file left by a session that did not end cleanly.
  struct Orphan {
    QString project;        // the autosaved project
    QString original_path;  // where the document came from; empty if untitled
    QString name;           // its display name
    QDateTime saved;        // when it was autosaved
  };
  enum class Choice { Recover, Discard, Later };

  explicit Autosave(Document* document, QObject* parent = nullptr);
  ~Autosave() override;  // a clean end: the recovery file goes

  static QString recoveryDirectory();
  static int defaultIntervalMs();  // 60 000, or ARTICULA_AUTOSAVE_MS
  void setInterval(int ms);
  int interval() const { return interval_ms_; }

  QString recoveryFile() const { return project_; }  // empty until the first autosave
  bool saveNow();  // writes the recovery file if the document has unsaved changes
  void discard();  // removes this session's recovery file

  // Recovery files of crashed sessions (their locks are free), newest first.
  static std::vector<Orphan> orphans();
  // Asks about each orphan (newest first; `ask` defaults to a message box over `parent`). Recover
  // loads it into the document as modified, under its original path (or untitled) and removes
  // it; Discard removes it; Later keeps it for the next start. Returns whether one was recovered.
  bool offerRecovery(QWidget* parent, std::function<Choice(const Orphan&)> ask = {});

 signals:
  void autosaved(const QString& path);

 private:
  void onEdited();
  void onCleanChanged(bool modified);
  bool lock();
  static void remove(const QString& project);

  QPointer<Document> document_;  // null once the document is being destroyed (its stack clears)
  QTimer* timer_;
  int interval_ms_;
  bool edited_ = false;  // edits since the last autosave
  QString project_, meta_, lock_path_;
  int lock_fd_ = -1;
};

}  // namespace articula
