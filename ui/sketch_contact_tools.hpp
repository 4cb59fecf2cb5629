#pragma once
// The Ground line and Cam tools (contract-additions-2 §2 contacts). Ground line: click two points
// of a line on the ground, then press on a point of a moving body (a link's end, a slider block)
// that is to touch it: a point contact, or drag out a radius for a sphere (a ball); more body
// points may follow for the same line, Esc starts a new line. Cam: click the cam's pivot (the
// cam is the link turning about it), then press on the follower's roller centre and drag out
// the roller's radius (a fifth of the distance when not dragged); the cam's profile is an
// eccentric disc touching the roller. Each contact is one undoable edit, selected afterwards so
// that Properties shows its radius, restitution and friction.
#include <optional>

#include "ui/sketch_tool.hpp"

namespace articula {

struct ContactSpec;

// A press on a body's point, held until release gives the radius.
struct ContactPress {
  int body = -1;                         // file index
  Vec3 centre;                           // world, where the press snapped
  Vec3 pointer;                          // world, where the pointer snaps now
  QPointF screen, now;                   // widget pixels at the press and now
  double radius(double fallback) const;  // the drag's length, or `fallback` for a click
};

class ContactTool : public SketchTool {
 public:
  using SketchTool::SketchTool;
  void mouseMove(const SketchMouse& m) override;
  void mouseRelease(const SketchMouse& m) override;

 protected:
  // A press on a point of a moving body (not `except`), else says why and returns false.
  bool pressBody(const SketchMouse& m, int except);
  void addContact(const ContactSpec& c);  // one edit, selected, or the refusal said
  Vec3 toLocal(int body, const Vec3& world) const;
  void paintPress(QPainter& p, double fallback) const;
  virtual void release(const ContactPress& press) = 0;
  std::optional<ContactPress> press_;
};

class GroundLineTool : public ContactTool {
 public:
  explicit GroundLineTool(SketchEditor* editor);
  QIcon icon() const override;
  QString hint() const override;
  void cancel() override;
  void mousePress(const SketchMouse& m) override;
  void paintOverlay(QPainter& p) const override;
  bool hasLine() const { return b_.has_value(); }

 private:
  void release(const ContactPress& press) override;
  std::optional<Vec3> a_, b_;  // the line's points (world), b_ once both are clicked
};

class CamTool : public ContactTool {
 public:
  explicit CamTool(SketchEditor* editor);
  QIcon icon() const override;
  QString hint() const override;
  void cancel() override;
  void documentChanged() override;
  void mousePress(const SketchMouse& m) override;
  void paintOverlay(QPainter& p) const override;

 private:
  void release(const ContactPress& press) override;
  int pivot_ = -1;  // the joint clicked as the cam's pivot
  int cam_ = -1;    // its moving body (file index)
};

}  // namespace articula
