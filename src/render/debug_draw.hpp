// Push-style debug drawing: calls only append to arrays; the renderer flushes each primitive kind
// with one draw call per frame (lines, filled triangles, circle outlines, filled disks) plus text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <glm/glm.hpp>

namespace render {

class DebugDraw {
 public:
  struct Vertex { glm::vec3 position; uint32_t color; };
  struct CircleInstance { glm::vec3 center; float radius; uint32_t color; };
  // A label in the world, in the UI's font (so it follows the UI scale); `above`: its bottom-left
  // corner at the point, so a larger font grows away from what it labels; otherwise its top-left.
  // `clearOfPanels`: a line about the whole view, not a point of it, moved sideways (and made smaller
  // if need be) to stay clear of the panels laid over the world.
  struct Text {
    glm::vec3 position;
    uint32_t color;
    std::string text;
    bool above = false;
    float scale = 1.0f;
    bool clearOfPanels = false;
  };

  void line(glm::vec2 a, glm::vec2 b, uint32_t color) { line(glm::vec3(a, 0), glm::vec3(b, 0), color); }
  void line(glm::vec3 a, glm::vec3 b, uint32_t color) { lines_.push_back({a, color}); lines_.push_back({b, color}); }
  void circle(glm::vec2 c, float r, uint32_t color) { circles_.push_back({glm::vec3(c, 0), r, color}); }
  void circle(glm::vec3 c, float r, uint32_t color) { circles_.push_back({c, r, color}); }
  void disk(glm::vec2 c, float r, uint32_t color) { disks_.push_back({glm::vec3(c, 0), r, color}); }
  void disk(glm::vec3 c, float r, uint32_t color) { disks_.push_back({c, r, color}); }
  void triangle(glm::vec2 a, glm::vec2 b, glm::vec2 c, uint32_t color);
  void rect(glm::vec2 lo, glm::vec2 hi, uint32_t color);        // outline
  void filledRect(glm::vec2 lo, glm::vec2 hi, uint32_t color);  // two triangles
  // A shaft plus a head `head` world units long (head 0: a quarter of the length, at most 8).
  void arrow(glm::vec2 from, glm::vec2 to, uint32_t color, float head = 0.0f);
  void arrow(glm::vec3 from, glm::vec3 to, uint32_t color);
  void text(glm::vec2 p, std::string s, uint32_t color = 0xFFFFFFFFu) { texts_.push_back({glm::vec3(p, 0), color, std::move(s)}); }
  void text(glm::vec3 p, std::string s, uint32_t color = 0xFFFFFFFFu) { texts_.push_back({p, color, std::move(s)}); }
  void textAbove(glm::vec2 p, std::string s, uint32_t color) { texts_.push_back({glm::vec3(p, 0), color, std::move(s), true}); }
  // Large type (this many times the labels' size), its top-left corner at p: a figure the room reads on the world.
  void bigText(glm::vec2 p, std::string s, uint32_t color, float scale) {
    texts_.push_back({glm::vec3(p, 0), color, std::move(s), false, scale, true});
  }
  // A scene's status line, its bottom-left corner at p as far as the panels allow.
  void statusLine(glm::vec2 p, std::string s, uint32_t color) {
    texts_.push_back({glm::vec3(p, 0), color, std::move(s), true, 1.0f, true});
  }

  void clear() { lines_.clear(); triangles_.clear(); circles_.clear(); disks_.clear(); texts_.clear(); }

  const std::vector<Vertex>& lines() const { return lines_; }
  const std::vector<Vertex>& triangles() const { return triangles_; }
  const std::vector<CircleInstance>& circles() const { return circles_; }
  const std::vector<CircleInstance>& disks() const { return disks_; }
  const std::vector<Text>& texts() const { return texts_; }

 private:
  std::vector<Vertex> lines_, triangles_;
  std::vector<CircleInstance> circles_, disks_;
  std::vector<Text> texts_;
};

}  // namespace render
