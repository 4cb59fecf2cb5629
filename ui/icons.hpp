#pragma once
// Icons from the resources (resources/icons/*.svg), with the style's standard icons as a fallback
// when Qt's SVG plugin is not installed.
#include <QIcon>
#include <QString>

namespace articula {

// name: the SVG's base name, e.g. "play", "pause", "step", "reset", "fit".
QIcon themedIcon(const QString& name);

}  // namespace articula
