#pragma once
// The tools that place points one click at a time: Link (two ends), Ternary link (three corners)
// and Ground slider (where it sits, then its direction). While drawing, the length and angle are
// shown and can be typed ("120" = 120 mm, "120,30" = 120 mm at 30°, Enter).
#include "ui/sketch_tool.hpp"

namespace articula {

class PointsTool : public SketchTool {
 public:
  using SketchTool::SketchTool;
  QString hint() const override;
  void cancel() override;
  void mousePress(const SketchMouse& m) override;
  bool wantsKey(const QKeyEvent& event) const override;
  bool keyPress(QKeyEvent& event) override;
  void paintOverlay(QPainter& p) const override;

 protected:
  virtual std::size_t needed() const { return 2; }
  virtual void finish(const std::vector<SketchSnap>& points) = 0;

 private:
  void commit(const SketchSnap& s);
  std::optional<Vec3> typedPoint() const;

  std::vector<SketchSnap> pending_;  // points placed so far
  QString typed_;                    // length[,angle] being typed
};

class LinkTool : public PointsTool {
 public:
  explicit LinkTool(SketchEditor* editor);
  QIcon icon() const override;

 protected:
  // Link and ternary link: a new body through the points, pinned where they land on others.
  void finish(const std::vector<SketchSnap>& points) override;
  LinkTool(SketchEditor* editor, SketchToolId id, QString name, QString description,
           QKeySequence key)
      : PointsTool(editor, id, std::move(name), std::move(description), std::move(key)) {}
};

class TernaryTool : public LinkTool {
 public:
  explicit TernaryTool(SketchEditor* editor);
  QIcon icon() const override;

 protected:
  std::size_t needed() const override { return 3; }
};

class GroundSliderTool : public PointsTool {
 public:
  explicit GroundSliderTool(SketchEditor* editor);
  QIcon icon() const override;

 protected:
  void finish(const std::vector<SketchSnap>& points) override;
};

}  // namespace articula
