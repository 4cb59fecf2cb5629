#pragma once
// A sketch tool, as Tiled's AbstractTool: the editor keeps the view (transform, snapping,
// selection, drawing of the mechanism) and forwards presses, moves, releases, keys and an overlay
// paint to the active tool. A tool owns its own state (points placed so far, the pivot clicked
// first, a drag in progress). A new tool is one class plus its line in makeSketchTools
// (ui/sketch_tools.cpp); the tool bar builds its actions from that list.
#include <QColor>
#include <QIcon>
#include <QKeySequence>
#include <QPointF>
#include <QString>
#include <functional>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

class QKeyEvent;
class QPainter;

namespace articula {

class SketchEditor;

// Stable ids: tests and the tool bar select tools by id.
enum class SketchToolId {
  Select,
  GroundPivot,
  Link,
  Ternary,
  Pin,
  Slider,
  GroundSlider,
  Motor,
  Gear,
  Belt,
  Rack,
  GroundLine,
  Cam,
  Delete,
  Measure
};

constexpr double kSketchSameM = 1e-6;  // sketch points this close (m) are one point

// Where the pointer lands after snapping to points, to links or to the grid.
struct SketchSnap {
  enum Kind { Free, Grid, Point, Line } kind = Free;
  Vec3 p = Vec3::Zero();
  std::vector<int> owners;   // bodies with a point here (-1 = ground), or the link (Line)
  Vec3 dir = Vec3::UnitX();  // along the link (Line)
};

// A press, move or release: the pointer (widget pixels), its snap and the modifiers.
struct SketchMouse {
  QPointF screen;
  SketchSnap snap;
  Qt::KeyboardModifiers mods;
};

class SketchTool {
 public:
  SketchTool(SketchEditor* editor, SketchToolId id, QString name, QString description,
             QKeySequence shortcut);
  virtual ~SketchTool() = default;
  SketchTool(const SketchTool&) = delete;
  SketchTool& operator=(const SketchTool&) = delete;

  SketchToolId id() const { return id_; }
  const QString& name() const { return name_; }
  const QString& description() const { return description_; }  // tooltip, status tip
  const QKeySequence& shortcut() const { return shortcut_; }
  virtual QIcon icon() const = 0;
  // What to do next (status bar): the description, or the current step of a multi-click tool.
  virtual QString hint() const { return description_; }
  // Whether a press with these modifiers changes the sketch (the editor then shows it as it is
  // at t = 0, and snaps the press against that drawing).
  virtual bool editsSketch(Qt::KeyboardModifiers) const { return true; }

  virtual void activate() {}
  virtual void deactivate() { cancel(); }
  virtual void cancel() {}  // Esc, right button: drop what is under way
  virtual void documentChanged() {}
  virtual void mousePress(const SketchMouse& m) = 0;
  virtual void mouseMove(const SketchMouse&) {}
  virtual void mouseRelease(const SketchMouse&) {}
  // Keys the tool takes before the window's shortcuts (digits of a typed length).
  virtual bool wantsKey(const QKeyEvent&) const { return false; }
  virtual bool keyPress(QKeyEvent&) { return false; }  // true: handled
  virtual void paintOverlay(QPainter&) const {}

 protected:
  static QString tr(const char* text);  // in the editor's translation context
  SketchEditor* editor_;

 private:
  SketchToolId id_;
  QString name_, description_;
  QKeySequence shortcut_;
};

// Pixel distance from p to the segment a-b; *u (if given) = where along it, 0..1.
double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b, double* u);

// A 32 px tool icon drawn by `paint`, and the pictograms' shared parts.
QIcon paintedIcon(const std::function<void(QPainter&)>& paint);
namespace icon_parts {
void ground(QPainter& p, QPointF at);
void bar(QPainter& p, QPointF a, QPointF b, QColor c = QColor(60, 90, 140));
void pin(QPainter& p, QPointF at, QColor fill = Qt::white);
}  // namespace icon_parts

}  // namespace articula
