#pragma once
// The two central views, the sketch editor and the 3D view, side by side in a splitter or as
// tabs (the user's choice; MainWindow remembers it in QSettings). A planar mechanism opens with
// the sketch in front (the larger side, or the current tab), a spatial one with the 3D view,
// where its top projection in the sketch says little. Tabs hide one view instead of moving it:
// the OpenGL widget is never reparented (its context and the scene's GL objects stay).
#include <QWidget>

class QSplitter;
class QTabBar;

namespace articula {

class CentralViews : public QWidget {
  Q_OBJECT

 public:
  enum class Mode { SideBySide, Tabs };
  enum class View { Sketch, ThreeD };

  CentralViews(QWidget* sketch, QWidget* view3d, QWidget* parent = nullptr);

  void setMode(Mode mode);
  Mode mode() const { return mode_; }
  // Puts `v` in front: the current tab, or the larger side of the splitter.
  void bringToFront(View v);
  View front() const { return front_; }
  bool isShown(View v) const;  // visible now (both when side by side)

 signals:
  void frontChanged(articula::CentralViews::View v);

 private:
  void apply();

  QWidget* sketch_;
  QWidget* view3d_;
  QSplitter* split_;
  QTabBar* tabs_;
  Mode mode_ = Mode::SideBySide;
  View front_ = View::Sketch;
};

}  // namespace articula
