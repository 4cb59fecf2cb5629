#pragma once
// Colours and sizes of the mechanism scene. Sizes scale with the mechanism's characteristic length
// so that a 0.1 m four-bar and a 6 m excavator boom read alike on screen.
#include <osg/Vec4>

namespace articula::style {

// A muted categorical palette (Tableau 10 order): distinct, readable under lighting.
inline osg::Vec4 body_color(int user_body) {
  static const osg::Vec4 kPalette[] = {
      {0.306f, 0.475f, 0.655f, 1.f}, {0.949f, 0.557f, 0.169f, 1.f}, {0.349f, 0.631f, 0.310f, 1.f},
      {0.882f, 0.341f, 0.349f, 1.f}, {0.463f, 0.718f, 0.698f, 1.f}, {0.929f, 0.788f, 0.282f, 1.f},
      {0.690f, 0.478f, 0.631f, 1.f}, {1.000f, 0.616f, 0.655f, 1.f}, {0.612f, 0.459f, 0.373f, 1.f},
      {0.729f, 0.690f, 0.675f, 1.f}};
  constexpr int kCount = sizeof(kPalette) / sizeof(kPalette[0]);
  return kPalette[(user_body % kCount + kCount) % kCount];
}
inline osg::Vec4 lighter(const osg::Vec4& c, float t) {  // blend toward white by t
  return {c.r() + (1 - c.r()) * t, c.g() + (1 - c.g()) * t, c.b() + (1 - c.b()) * t, c.a()};
}

const osg::Vec4 kGround{0.36f, 0.39f, 0.44f, 1.f};
const osg::Vec4 kGroundHatch{0.30f, 0.33f, 0.38f, 1.f};
const osg::Vec4 kPin{0.80f, 0.82f, 0.85f, 1.f};
const osg::Vec4 kPinDark{0.25f, 0.27f, 0.30f, 1.f};
const osg::Vec4 kJointAxis{1.00f, 0.72f, 0.10f, 1.f};
const osg::Vec4 kForce{0.85f, 0.15f, 0.55f, 1.f};
const osg::Vec4 kContactForce{0.10f, 0.55f, 0.20f, 1.f};  // contact forces: not joint forces
const osg::Vec4 kContactClosed{0.15f, 0.75f, 0.30f, 1.f};
const osg::Vec4 kContactOpen{0.55f, 0.57f, 0.60f, 1.f};
const osg::Vec4 kSurface{0.50f, 0.53f, 0.58f, 0.55f};  // planes a contact meets (translucent)
const osg::Vec4 kTrace{0.05f, 0.65f, 0.85f, 1.f};
const osg::Vec4 kGridMinor{0.62f, 0.66f, 0.71f, 0.35f};
const osg::Vec4 kGridMajor{0.55f, 0.59f, 0.65f, 0.65f};
const osg::Vec4 kAxisX{0.85f, 0.25f, 0.25f, 1.f};
const osg::Vec4 kAxisY{0.30f, 0.70f, 0.30f, 1.f};
const osg::Vec4 kAxisZ{0.25f, 0.45f, 0.90f, 1.f};

// Every size in the scene, from the characteristic length L.
struct Sizes {
  explicit Sizes(double L)
      : length(L),
        bar(0.018 * L),
        pin(0.026 * L),
        pin_half_length(0.022 * L),
        plate(0.014 * L),
        symbol(0.07 * L),
        axis(0.14 * L),
        frame(0.12 * L),
        force(0.4 * L),
        line_width(2.0f) {}
  double length;           // characteristic length L
  double bar;              // bar (capsule) radius
  double pin;              // revolute pin radius
  double pin_half_length;  // pins stick out of the bars along their axis
  double plate;            // plate thickness
  double symbol;           // ground symbol height
  double axis;             // joint axis arrow length
  double frame;            // body frame axis length
  double force;            // longest force arrow
  float line_width;
};

}  // namespace articula::style
