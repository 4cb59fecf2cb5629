#pragma once
// Colours the sketch's painters and tools share, defined once (the ui library is a unity build).
#include <QColor>

namespace articula {

inline const QColor kSketchSelected(230, 120, 0);  // a selected joint, link, contact or bar
inline const QColor kSketchRubber(0, 120, 200);    // the rubber band of a tool being drawn

}  // namespace articula
