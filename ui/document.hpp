#pragma once
// The open project: its specification, the mechanism prepared from it, the file it came from,
// the selection, and an undo stack whose clean state says whether there are unsaved changes.
// Views observe its signals (Tiled's Document); nothing else owns model data. Every change goes
// through an Edit (core/doc) pushed as one QUndoCommand (ui/commands.hpp); after each change the
// specification is recompiled and the sketch status recomputed.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <memory>

#include "core/doc/edit_effect.hpp"
#include "core/doc/editable_mechanism.hpp"
#include "core/doc/sketch_status.hpp"
#include "core/sim/mechanism.hpp"
#include "ui/commands.hpp"

class QUndoStack;

namespace articula {

// A selected user body and/or user joint, or a coupling (file order); -1 for none.
struct Selection {
  int body = -1;
  int joint = -1;
  int coupling = -1;
  int contact = -1;  // index in spec.contacts
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
  // A new untitled project from a spec made in the program (a template): prepared like a loaded
  // file and marked modified, since it exists nowhere on disk. On failure returns false, sets
  // error() and leaves the document as it was.
  bool adoptUntitled(MechanismSpec spec);
  // Crash recovery: the project autosaved in `recovery_file` becomes the document, modified (it
  // holds unsaved work), under `original_path` (empty: untitled). A spec that cannot be prepared
  // is still restored (no mechanism, the reason in warnings()). False and error() if unreadable.
  bool recover(const QString& recovery_file, const QString& original_path);

  const QString& path() const { return path_; }
  QString displayName() const;
  // A shipped sample opens as a copy: the document forgets its file, so Save asks for a new name
  // (suggested by savedName()) instead of overwriting the sample.
  void detachFromFile();
  QString savedName() const;  // the file name Save As suggests ("fourbar.json", "Untitled.json")
  const MechanismSpec& spec() const { return doc_.spec(); }
  // The editable specification with stable ids; edits are built against it (ids are allocated
  // there) and applied with push().
  EditableMechanism& editable() { return doc_; }
  const SketchStatus& status() const { return status_; }
  // Mechanisms with at least this many coordinates get their sketch status in two parts: the
  // counts at once, the mobility details (unconstrained and locked joints, about 1 s at 1,000
  // bodies) from a worker thread, announced by a second statusChanged (status().details_pending
  // until then). Smaller ones are analysed whole, as before.
  void setDeferredDetailsFrom(int coordinates) { deferred_from_ = coordinates; }
  // Blocks until the status has its details (tests, and before anything that needs them).
  void waitForStatus();
  // One undoable command applying `edit` (kind: the QUndoCommand id, see ui/commands.hpp).
  // Returns false, with error() set, when the edit does not apply.
  bool push(Edit edit, EditKind kind);
  // For the commands only: apply or revert, recompile, notify.
  void applyEdit(const Edit& edit);
  void revertEdit(const Edit& edit);
  // Null when the spec cannot be simulated (e.g. an empty project).
  std::shared_ptr<const Mechanism> mechanism() const { return mechanism_; }
  // What runs and is drawn in 3D: mechanism(), or while links still float, the part connected
  // to ground (its own body and joint indices: map by name with toSimulated() and fromSimulated()).
  std::shared_ptr<const Mechanism> simulated() const { return simulated_; }
  // A selection of the document in the simulated mechanism's indices, and back (by name).
  Selection toSimulated(const Selection& s) const;
  Selection fromSimulated(int body, int joint) const;
  const QStringList& warnings() const { return warnings_; }
  const QString& error() const { return error_; }

  bool isModified() const;
  QUndoStack* undoStack() const { return undo_; }

  Selection selection() const { return selection_; }
  void setSelection(const Selection& s);

 signals:
  // Every applied or reverted edit says what it changed (kinds, ids, scope), then one of:
  void edited(const articula::EditEffect& effect);
  void documentChanged();  // a different project or mechanism: views rebuild, simulation restarts
  void namesChanged();     // only names changed (same dynamics, same indices): labels refresh
  void statusChanged();    // the sketch status after an edit, load or clear
  void projectReplaced();  // opened or cleared (not an edit): views may refit
  void modifiedChanged(bool modified);
  void pathChanged(const QString& path);
  void selectionChanged(const articula::Selection& selection);

 private:
  // Analyses the spec (mechanism, sketch status); warnings are the loader's.
  void replace(MechanismSpec spec, const QString& path, const std::vector<std::string>& warnings);

  void refresh(const EditEffect& effect);  // recompile after an edit, notify by its scope
  // Analysis of spec at the depth its size calls for; the details follow later when deferred.
  Analysis analyseFor(const MechanismSpec& spec);
  void completeStatusLater();  // queues the details of status_ (for the current generation)

  EditableMechanism doc_;
  SketchStatus status_;
  std::shared_ptr<const Mechanism> mechanism_;
  std::shared_ptr<const Mechanism> simulated_;
  QString path_;
  QString copied_from_;  // the sample's file name while the document is its unsaved copy
  QStringList warnings_;
  QString error_;
  Selection selection_;
  QUndoStack* undo_;
  int deferred_from_ = 300;
  int generation_ = 0;  // bumped whenever status_ is replaced: late details of older ones drop
  QThreadPool details_pool_;  // one worker: details run in order, the destructor waits for them
};

}  // namespace articula
