// The sketch's stamped circles and short links (ui/sketch_stamps) against what QPainter draws
// directly: a 9 px round-capped antialiased stroke of each length up to the stamped limit, at
// several angles and sub-pixel offsets, and an outlined circle. Rendered into images (offscreen
// platform, device pixel ratio 1) and compared pixel by pixel (alpha, 0..255).
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <catch2/catch.hpp>
#include <cmath>

#include "ui/sketch_stamps.hpp"

using namespace articula;

namespace {

void stamps_test_app() {
  static int argc = 1;
  static char name[] = "test_ui_sketch_stamps";
  static char* argv[] = {name, nullptr};
  qputenv("QT_QPA_PLATFORM", "offscreen");
  static QGuiApplication app(argc, argv);
}

QImage stamps_canvas() {
  QImage image(64, 64, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  return image;
}

struct StampsDiff {
  int max_alpha = 0;              // largest per-pixel difference
  double area_a = 0, area_b = 0;  // coverage, in pixels
  int far = 0;  // pixels covered (alpha > 128) by one and untouched (0) by the other
};

StampsDiff stamps_compare(const QImage& a, const QImage& b) {
  StampsDiff d;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const int p = qAlpha(a.pixel(x, y)), q = qAlpha(b.pixel(x, y));
      d.max_alpha = std::max(d.max_alpha, std::abs(p - q));
      d.area_a += p / 255.0, d.area_b += q / 255.0;
      d.far += (p > 128 && q == 0) || (q > 128 && p == 0);
    }
  return d;
}

}  // namespace

TEST_CASE("sketch stamps: short links look like their stroke", "[ui][sketch]") {
  stamps_test_app();
  CircleStamps stamps;
  const QColor c(70, 90, 120);
  for (double length : {0.0, 0.4, 1.0, 1.7, 3.0, 5.5, 8.2, 11.9})
    for (double angle : {0.0, 0.6, 1.5708, 2.3})
      for (double offset : {0.0, 0.25, 0.5}) {
        const QPointF a(32 - 0.5 * length * std::cos(angle) + offset,
                        32 - 0.5 * length * std::sin(angle));
        const QPointF b = a + length * QPointF(std::cos(angle), std::sin(angle));
        QImage stroked = stamps_canvas(), stamped = stamps_canvas();
        {
          QPainter p(&stroked);
          p.setRenderHint(QPainter::Antialiasing);
          p.setPen(QPen(c, 9, Qt::SolidLine, Qt::RoundCap));
          p.drawLine(a, b);
        }
        {
          QPainter p(&stamped);
          p.setRenderHint(QPainter::Antialiasing);
          p.setPen(QPen(c, 9, Qt::SolidLine, Qt::RoundCap));
          stamps.link(p, a, b, 9, c, 1.0);
        }
        const StampsDiff d = stamps_compare(stroked, stamped);
        INFO("length " << length << " angle " << angle << " offset " << offset << ": max "
                       << d.max_alpha << ", area " << d.area_a << " vs " << d.area_b);
        if (length == 0) {  // QPainter draws no zero-length line; neither do the stamps
          CHECK(stroked == stamped);
          continue;
        }
        // The outlines differ by at most 1/8 px (a stamp's centre is put at the nearest quarter
        // device pixel) + 0.11 px (the discs' union sags between centres 2 px apart): the area
        // by at most that band along the perimeter, an edge pixel's alpha by about a third,
        // and no pixel is covered by one and untouched by the other.
        CHECK(d.far == 0);
        CHECK(d.max_alpha <= 85);
        const double perimeter = M_PI * 9 + 2 * length;
        CHECK(std::abs(d.area_a - d.area_b) <= 0.25 * perimeter);
        CHECK(d.area_a > 60);  // something was drawn: pi 4.5^2 = 63.6
      }
}

TEST_CASE("sketch stamps: longer links are stroked, circles match drawEllipse", "[ui][sketch]") {
  stamps_test_app();
  CircleStamps stamps;
  const QColor c(200, 60, 40);
  const QPointF a(10.3, 12.6), b(50.1, 40.2);  // 48.7 px: beyond kMaxStampedLength
  QImage stroked = stamps_canvas(), drawn = stamps_canvas();
  for (QImage* image : {&stroked, &drawn}) {
    QPainter p(image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(c, 9, Qt::SolidLine, Qt::RoundCap));
    if (image == &stroked)
      p.drawLine(a, b);
    else
      stamps.link(p, a, b, 9, c, 1.0);
  }
  CHECK(stroked == drawn);  // the same call: exact

  // A stamped circle on whole pixels is the circle drawn there (same painter, same geometry).
  const QPen pen(QColor(255, 255, 255), 1);
  QImage ellipse = stamps_canvas(), stamped = stamps_canvas();
  {
    QPainter p(&ellipse);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(pen);
    p.drawEllipse(QPointF(20, 30), 2, 2);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawEllipse(QPointF(40, 30), 4.5, 4.5);
  }
  {
    QPainter p(&stamped);
    stamps.circle(p, QPointF(20, 30), 2, pen, Qt::transparent, 1.0);
    stamps.circle(p, QPointF(40, 30), 4.5, QPen(Qt::NoPen), c, 1.0);
  }
  const StampsDiff d = stamps_compare(ellipse, stamped);
  INFO("max " << d.max_alpha << ", area " << d.area_a << " vs " << d.area_b);
  CHECK(d.max_alpha <= 1);  // rounding of the composition only
  CHECK(std::abs(d.area_a - d.area_b) < 0.05);
}
