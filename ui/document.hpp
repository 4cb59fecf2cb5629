#pragma once
// The open project: its specification, the mechanism prepared from it, the file it came from,
// the selection, and an undo stack whose clean state says whether there are unsaved changes.
// Views observe its signals (Tiled's Document); nothing else owns model data.
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "core/sim/mechanism.hpp"

class QUndoStack;

namespace articula {

// A selected user body and/or user joint (file order); -1 for none.
struct Selection {
  int body = -1;
  int joint = -1;
  bool operator==(const Selection&) const = default;
};

class Document : public QObject {
  Q_OBJECT

 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  // Loads and prepares `path`. On failure returns false, sets error() (with the JSON pointer of
  // the offending field) and leaves the document exactly as it was.
  bool load(const QString& path);
  // Writes the project atomically; on success the document takes the path and becomes clean.
  bool save(const QString& path);
  // An empty, untitled project.
  void clear();
  // An edit of the whole specification, for undo commands (the commands push; this applies):
  // re-prepares the mechanism (null if it cannot be simulated), keeps the path and undo history.
  void setSpec(MechanismSpec spec);
  // Crash recovery: the project autosaved in `recovery_file` becomes the document, modified (it
  // holds unsaved work), under `original_path` (empty: untitled). A spec that cannot be prepared
  // is still restored (no mechanism, the reason in warnings()). False and error() if unreadable.
  bool recover(const QString& recovery_file, const QString& original_path);

  const QString& path() const { return path_; }
  QString displayName() const;
  const MechanismSpec& spec() const { return spec_; }
  // Null when the spec cannot be simulated (e.g. an empty project).
  std::shared_ptr<const Mechanism> mechanism() const { return mechanism_; }
  const QStringList& warnings() const { return warnings_; }
  const QString& error() const { return error_; }

  bool isModified() const;
  QUndoStack* undoStack() const { return undo_; }

  Selection selection() const { return selection_; }
  void setSelection(const Selection& s);

 signals:
  void documentChanged();  // a different project or mechanism: views rebuild
  void modifiedChanged(bool modified);
  void pathChanged(const QString& path);
  void selectionChanged(const articula::Selection& selection);

 private:
  void replace(MechanismSpec spec, std::shared_ptr<const Mechanism> mech, const QString& path,
               QStringList warnings);

  MechanismSpec spec_;
  std::shared_ptr<const Mechanism> mechanism_;
  QString path_;
  QStringList warnings_;
  QString error_;
  Selection selection_;
  QUndoStack* undo_;
};

}  // namespace articula
