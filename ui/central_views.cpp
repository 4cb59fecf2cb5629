#include "ui/central_views.hpp"

#include <QSplitter>
#include <QTabBar>
#include <QVBoxLayout>
#include <algorithm>

namespace articula {

CentralViews::CentralViews(QWidget* sketch, QWidget* view3d, QWidget* parent)
    : QWidget(parent),
      sketch_(sketch),
      view3d_(view3d),
      split_(new QSplitter(Qt::Horizontal, this)),
      tabs_(new QTabBar(this)) {
  setObjectName("CentralViews");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  tabs_->addTab(tr("Sketch"));
  tabs_->addTab(tr("3D view"));
  tabs_->setDocumentMode(true);
  tabs_->setExpanding(false);
  layout->addWidget(tabs_);
  split_->addWidget(sketch_);
  split_->addWidget(view3d_);
  split_->setChildrenCollapsible(false);
  layout->addWidget(split_, 1);
  connect(tabs_, &QTabBar::currentChanged, this, [this](int i) {
    if (mode_ == Mode::Tabs) bringToFront(i == 0 ? View::Sketch : View::ThreeD);
  });
  apply();
}

void CentralViews::setMode(Mode mode) {
  mode_ = mode;
  apply();
}

void CentralViews::bringToFront(View v) {
  const bool changed = v != front_;
  front_ = v;
  apply();
  if (changed) emit frontChanged(v);
}

bool CentralViews::isShown(View v) const {
  return (v == View::Sketch ? sketch_ : view3d_)->isVisibleTo(this);
}

void CentralViews::apply() {
  const bool tabs = mode_ == Mode::Tabs;
  tabs_->setVisible(tabs);
  {
    const QSignalBlocker block(tabs_);
    tabs_->setCurrentIndex(front_ == View::Sketch ? 0 : 1);
  }
  sketch_->setVisible(!tabs || front_ == View::Sketch);
  view3d_->setVisible(!tabs || front_ == View::ThreeD);
  if (tabs) return;
  // Side by side: the view in front takes about two thirds of the width.
  const int w = std::max(split_->width(), 600);
  const int big = w * 2 / 3, small = w - big;
  split_->setSizes(front_ == View::Sketch ? QList<int>{big, small} : QList<int>{small, big});
}

}  // namespace articula
