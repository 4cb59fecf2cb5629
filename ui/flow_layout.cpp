#include "ui/flow_layout.hpp"

#include <QWidget>
#include <algorithm>

namespace articula {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), spacing_(spacing) {}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) {
  items_.append(item);
}

QLayoutItem* FlowLayout::itemAt(int index) const {
  return index >= 0 && index < items_.size() ? items_[index] : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
  return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

QSize FlowLayout::minimumSize() const {
  // As wide as the widest item: narrower and that item would be cut.
  QSize size;
  for (const QLayoutItem* item : items_) size = size.expandedTo(item->minimumSize());
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
  const QRect r = rect.marginsRemoved(contentsMargins());
  int x = r.x(), y = r.y(), row = 0;
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;  // hidden widgets take no room
    const QSize hint = item->sizeHint();
    if (x > r.x() && x + hint.width() > r.right() + 1) {  // wrap: the row is full
      x = r.x();
      y += row + spacing_;
      row = 0;
    }
    if (apply) item->setGeometry(QRect(QPoint(x, y), hint));
    x += hint.width() + spacing_;
    row = std::max(row, hint.height());
  }
  const QMargins m = contentsMargins();
  return y + row - rect.y() + m.bottom();
}

}  // namespace articula
