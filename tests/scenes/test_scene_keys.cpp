// Each scene declares its keys and mouse actions once (Scene::keys); F1 shows them, and the
// README's table must list every one, so the two cannot drift apart.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include "scenes/scene.hpp"

TEST(SceneKeys, EveryDeclaredKeyIsInTheReadmeTable) {
  std::ifstream in(CROWDLAB_SOURCE_DIR "/README.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  ASSERT_FALSE(readme.empty());
  size_t declared = 0;
  for (const scenes::SceneEntry& e : scenes::registeredScenes()) {
    auto scene = scenes::declarationsOf(e);
    for (const scenes::KeyAction& k : scene->keys) {
      ++declared;
      const std::string row = std::string("| ") + e.name + " | " + k.input + " | " + k.action + " |";
      EXPECT_NE(readme.find(row), std::string::npos) << "README.md lacks the row\n" << row;
    }
  }
  EXPECT_GE(declared, 5u) << "the murmuration's alarm, the steering obstacle key, the clicks...";
}
