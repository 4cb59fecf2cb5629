#include "ui/cursor_readout.hpp"

#include "ui/display_units.hpp"
#include "ui/document.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/viewport_panel.hpp"
#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"
#endif

namespace articula {

CursorReadout::CursorReadout(Document* document, QWidget* parent)
    : QLabel(parent), document_(document) {
  setObjectName("cursorReadout");
  setToolTip(tr("The point under the cursor (Edit > Preferences sets the units)"));
  connect(&displayUnitsNotifier(), &DisplayUnitsNotifier::changed, this, &CursorReadout::redraw);
}

void CursorReadout::follow(SketchEditor* sketch) {
  connect(sketch, &SketchEditor::cursorMoved, this, &CursorReadout::showSketchPoint);
  connect(sketch, &SketchEditor::cursorLeft, this, &CursorReadout::clearPoint);
}

void CursorReadout::follow(ViewportPanel* viewport) {
#ifdef ARTICULA_HAVE_RENDER
  ViewportWidget* view = viewport->viewportWidget();
  if (!view) return;
  connect(view, &ViewportWidget::hovered, this, [this](const RayHit& hit) {
    if (!hit.hit) return clearPoint();
    // The hit is on the shown (simulated) mechanism: its body names.
    const auto mech = document_->simulated();
    const bool named = mech && hit.body >= 0 && hit.body < int(mech->spec.bodies.size());
    showPointOn(Vec3(hit.world.x(), hit.world.y(), hit.world.z()),
                named ? QString::fromStdString(mech->spec.bodies[hit.body].name) : QString());
  });
#else
  (void)viewport;
#endif
}

void CursorReadout::showSketchPoint(const Vec3& world) {
  point_ = world, spatial_ = false, body_.clear();
  redraw();
}

void CursorReadout::showPointOn(const Vec3& world, const QString& body) {
  point_ = world, spatial_ = true, body_ = body;
  redraw();
}

void CursorReadout::clearPoint() {
  point_.reset();
  redraw();
}

void CursorReadout::redraw() {
  if (!point_) return clear();
  const Vec3& p = *point_;
  QString text = tr("x %1   y %2").arg(format_length(p.x()), format_length(p.y()));
  if (spatial_) text += tr("   z %1").arg(format_length(p.z()));
  if (!body_.isEmpty()) text += tr("  on %1").arg(body_);
  setText(text);
}

}  // namespace articula
