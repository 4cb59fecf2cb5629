#include "ui/commands.hpp"

#include "ui/document.hpp"

namespace articula {

EditCommand::EditCommand(Document* document, Edit edit, int kind)
    : QUndoCommand(QString::fromStdString(edit.label)),
      document_(document),
      edit_(std::move(edit)),
      kind_(kind) {}

void EditCommand::redo() {
  try {
    document_->applyEdit(edit_);
  } catch (const std::exception&) {
    setObsolete(true);  // cannot happen on a linear history; never leave a half state
  }
}

void EditCommand::undo() {
  try {
    document_->revertEdit(edit_);
  } catch (const std::exception&) {
    setObsolete(true);
  }
}

QUndoCommand* makeCommand(Document* d, Edit e, EditKind kind) {
  switch (kind) {
    case EditKind::GroundPivot:
      return new AddGroundPivotCommand(d, std::move(e));
    case EditKind::DrawLink:
      return new DrawLinkCommand(d, std::move(e));
    case EditKind::Pin:
      return new PinCommand(d, std::move(e));
    case EditKind::Slider:
      return new AddSliderCommand(d, std::move(e));
    case EditKind::MovePoint:
      return new MovePointCommand(d, std::move(e));
    case EditKind::Drag:
      return new DragCommand(d, std::move(e));
    case EditKind::Delete:
      return new DeleteCommand(d, std::move(e));
    case EditKind::Drive:
      return new SetDriveCommand(d, std::move(e));
    case EditKind::BodyProperties:
      return new SetBodyCommand(d, std::move(e));
    case EditKind::JointProperties:
      return new SetJointCommand(d, std::move(e));
    case EditKind::ForceProperties:
      return new SetForceCommand(d, std::move(e));
    case EditKind::MechanismProperties:
      return new SetMechanismCommand(d, std::move(e));
    case EditKind::AddBody:
      return new AddBodyCommand(d, std::move(e));
    case EditKind::AddJoint:
      return new AddJointCommand(d, std::move(e));
    case EditKind::AddForce:
      return new AddForceCommand(d, std::move(e));
    case EditKind::Coupling:  // no merging or text of their own: the edit's label says it
    case EditKind::CouplingProperties:
    case EditKind::Contact:
    case EditKind::ContactProperties:
      break;
  }
  return new EditCommand(d, std::move(e), static_cast<int>(kind));
}

}  // namespace articula
