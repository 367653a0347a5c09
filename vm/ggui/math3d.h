// The little linear algebra GGUI's scenes need: 3-vectors and 4x4
// matrices (row-major, applied to column vectors: p' = M p), and the
// camera's view and projection matrices as Vulkan uses them (right-handed
// view space looking down -z; depth 0 at the near plane, 1 at the far one).
#pragma once

#include <cmath>

namespace kiln::ggui {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
  Vec3 operator-() const { return {-x, -y, -z}; }
};

inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline Vec3 normalized(Vec3 v) {
  float n = std::sqrt(dot(v, v));
  return n > 0 ? v * (1.0f / n) : v;
}

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
};

struct Mat4 {
  float m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

  Vec4 operator*(Vec4 v) const {
    Vec4 r;
    r.x = m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z + m[0][3] * v.w;
    r.y = m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z + m[1][3] * v.w;
    r.z = m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z + m[2][3] * v.w;
    r.w = m[3][0] * v.x + m[3][1] * v.y + m[3][2] * v.z + m[3][3] * v.w;
    return r;
  }
  Vec3 point(Vec3 p) const {
    Vec4 r = *this * Vec4{p.x, p.y, p.z, 1};
    return {r.x, r.y, r.z};
  }
  Vec3 direction(Vec3 d) const {
    Vec4 r = *this * Vec4{d.x, d.y, d.z, 0};
    return {r.x, r.y, r.z};
  }
  Mat4 operator*(const Mat4& o) const {
    Mat4 r;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        float s = 0;
        for (int k = 0; k < 4; k++) s += m[i][k] * o.m[k][j];
        r.m[i][j] = s;
      }
    return r;
  }
};

struct Camera {
  Vec3 position{0, 0, 0}, lookat{0, 0, 1}, up{0, 1, 0};
  float fov = 45;  // vertical, degrees
  float z_near = 0.1f, z_far = 1000.0f;
  bool orthogonal = false;
  // The orthogonal view's extent in view space (x from left to right, y
  // between top and bottom, whichever way round they are given).
  float left = -1, right = 1, top = -1, bottom = 1;

  Mat4 view() const {
    Vec3 f = normalized(lookat - position);
    Vec3 s = normalized(cross(f, up));
    Vec3 u = cross(s, f);
    Mat4 v;
    float rows[3][3] = {{s.x, s.y, s.z}, {u.x, u.y, u.z}, {-f.x, -f.y, -f.z}};
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) v.m[i][j] = rows[i][j];
    }
    v.m[0][3] = -dot(s, position), v.m[1][3] = -dot(u, position), v.m[2][3] = dot(f, position);
    return v;
  }

  Mat4 projection(float aspect) const {
    Mat4 p;
    float n = z_near, f = z_far;
    if (orthogonal) {
      float lo = std::fmin(top, bottom), hi = std::fmax(top, bottom);
      p.m[0][0] = 2 / (right - left), p.m[0][3] = -(right + left) / (right - left);
      p.m[1][1] = 2 / (hi - lo), p.m[1][3] = -(hi + lo) / (hi - lo);
      p.m[2][2] = -1 / (f - n), p.m[2][3] = -n / (f - n);
      return p;
    }
    float t = std::tan(fov * 3.14159265358979f / 360.0f);
    p.m[0][0] = 1 / (aspect * t), p.m[1][1] = 1 / t;
    p.m[2][2] = f / (n - f), p.m[2][3] = -f * n / (f - n);
    p.m[3][2] = -1, p.m[3][3] = 0;
    return p;
  }
};

}  // namespace kiln::ggui
