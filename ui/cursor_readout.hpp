#pragma once
// The status bar's readout of the point under the cursor, in the display units
// (ui/display_units.hpp): in the sketch the world x, y a click would take (snapped), in the 3D
// view the point of the mechanism hit (x, y, z and the body). Empty when the cursor is elsewhere;
// redrawn when the units change.
#include <QLabel>
#include <optional>

#include "core/spatial/types.hpp"

namespace articula {

class Document;
class SketchEditor;
class ViewportPanel;

class CursorReadout : public QLabel {
  Q_OBJECT

 public:
  CursorReadout(Document* document, QWidget* parent = nullptr);
  void follow(SketchEditor* sketch);
  void follow(ViewportPanel* viewport);  // nothing without the renderer

  // A sketch point (z not shown), a point on `body` of the 3D view, or nothing.
  void showSketchPoint(const Vec3& world);
  void showPointOn(const Vec3& world, const QString& body);
  void clearPoint();

 private:
  void redraw();

  Document* document_;
  std::optional<Vec3> point_;  // metres, world
  bool spatial_ = false;       // from the 3D view: x, y and z
  QString body_;
};

}  // namespace articula
