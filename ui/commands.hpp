#pragma once
// The undo commands (Tiled style): one QUndoCommand class per kind of edit. Each holds the core
// Edit (core/doc/editable_mechanism.hpp), built against the document when the user acted, and
// applies or reverts it on the Document, which recompiles and notifies the views.
#include <QUndoCommand>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

class Document;

// QUndoCommand ids (kinds of edit).
enum class EditKind {
  GroundPivot = 1,
  DrawLink,
  Pin,
  Slider,
  MovePoint,
  Drag,
  Delete,
  Drive,
  BodyProperties,
  JointProperties,
  ForceProperties,
  MechanismProperties,
  AddBody,
  AddJoint,
  AddForce,
  Coupling,  // add a gear, belt, rack and pinion
  CouplingProperties,
  Contact,  // add a ground line contact or a cam
  ContactProperties,
};

class EditCommand : public QUndoCommand {
 public:
  EditCommand(Document* document, Edit edit, int kind);
  void redo() override;
  void undo() override;
  int id() const override { return kind_; }
  const Edit& edit() const { return edit_; }

 private:
  Document* document_;
  Edit edit_;
  int kind_;
};

// Builds the command of the right class for a kind of edit.
QUndoCommand* makeCommand(Document* document, Edit edit, EditKind kind);

#define ARTICULA_EDIT_COMMAND(Name, Kind)                                               \
  class Name : public EditCommand {                                                     \
   public:                                                                              \
    Name(Document* d, Edit e) : EditCommand(d, std::move(e), static_cast<int>(Kind)) {} \
  };
ARTICULA_EDIT_COMMAND(AddGroundPivotCommand, EditKind::GroundPivot)
ARTICULA_EDIT_COMMAND(DrawLinkCommand, EditKind::DrawLink)
ARTICULA_EDIT_COMMAND(PinCommand, EditKind::Pin)
ARTICULA_EDIT_COMMAND(AddSliderCommand, EditKind::Slider)
ARTICULA_EDIT_COMMAND(MovePointCommand, EditKind::MovePoint)
ARTICULA_EDIT_COMMAND(DragCommand, EditKind::Drag)
ARTICULA_EDIT_COMMAND(DeleteCommand, EditKind::Delete)
ARTICULA_EDIT_COMMAND(SetDriveCommand, EditKind::Drive)
ARTICULA_EDIT_COMMAND(SetBodyCommand, EditKind::BodyProperties)
ARTICULA_EDIT_COMMAND(SetJointCommand, EditKind::JointProperties)
ARTICULA_EDIT_COMMAND(SetForceCommand, EditKind::ForceProperties)
ARTICULA_EDIT_COMMAND(SetMechanismCommand, EditKind::MechanismProperties)
ARTICULA_EDIT_COMMAND(AddBodyCommand, EditKind::AddBody)
ARTICULA_EDIT_COMMAND(AddJointCommand, EditKind::AddJoint)
ARTICULA_EDIT_COMMAND(AddForceCommand, EditKind::AddForce)
#undef ARTICULA_EDIT_COMMAND

}  // namespace articula
