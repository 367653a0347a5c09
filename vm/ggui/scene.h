// A GGUI 3-D scene: what one frame declares (meshes, particles, lines,
// lights) and the camera, rendered into a frame with its depth buffer.
//
// Shading is GGUI's Lambertian model: colour * (ambient + sum over point
// lights of max(0, n . l) * light colour), per fragment, clamped to [0, 1].
// Particles are spheres (each pixel of the projected disc gets the
// sphere's own depth and normal); lines are `width` pixels wide.
#pragma once

#include <string>
#include <vector>

#include "vm/ggui/frame.h"
#include "vm/ggui/math3d.h"
#include "vm/ggui/vertices.h"

namespace kiln::ggui {

struct PointLight {
  Vec3 pos;
  RGB color;
};

struct MeshDraw {
  Geometry g;
  std::vector<float> normals;   // per vertex; empty: flat, from each triangle
  bool two_sided = false;       // back faces lit as if they faced the viewer
  bool wireframe = false;       // edges only
  std::vector<Mat4> instances;  // model transforms; empty: the mesh once
};

struct ParticleDraw {
  Geometry g;                // order: the particles to draw
  std::vector<float> radii;  // per particle; empty: radius
  float radius = 0;
};

struct LineDraw {
  Geometry g;
  float width = 1;  // pixels
};

struct Scene {
  Camera camera;
  RGB ambient{0.1f, 0.1f, 0.1f};
  std::vector<PointLight> lights;
  std::vector<MeshDraw> meshes;
  std::vector<ParticleDraw> particles;
  std::vector<LineDraw> lines;

  // The frame's declarations are done: geometry and lights go, camera and
  // ambient light stay (GGUI asks for lights every frame).
  void next_frame() {
    lights.clear(), meshes.clear(), particles.clear(), lines.clear();
  }
};

// Draws the scene over what the frame holds, depth-tested.
void render_scene(Frame& f, const Scene& s);

}  // namespace kiln::ggui
