// A scene declares each tunable parameter once: name, pointer into its params struct, range,
// default and a one-line tooltip. Sliders, presets (JSON), --set and --list-params all read it.
#pragma once
#include <span>
#include <string>
#include <type_traits>
#include <vector>
#include <nlohmann/json_fwd.hpp>

namespace scenes {

enum class ParamType { Float, Int, Bool, Enum };

struct Param {
  const char* name;      // --set / preset key, e.g. "wSep"
  const char* label;     // shown next to the slider
  ParamType type;
  void* value;           // float*, int*, bool*; Enum: any field readOption/writeOption know
  float min = 0, max = 1;
  float defaultValue = 0;
  const char* tooltip = "";
  const char* options = nullptr;  // Enum: names separated by '|', e.g. "brute|grid"
  bool logarithmic = false;       // slider spacing for wide ranges (N, cell size)
  bool noSlider = false;          // the scene draws its own widget: no generated one (presets, --set still see it)
  // Enum: the field's option index, whatever its type (an int, a bool, an enum class).
  int (*readOption)(const void* field) = nullptr;
  void (*writeOption)(void* field, int index) = nullptr;
  // Where `value` lies: the running model's parameters (true), or the scene's own settings (N, views),
  // declared with .ofScene() in the same line. Tests move each model parameter and expect the agents to change.
  bool ofModel = true;
  const char* unit = "";  // what a value counts ("m", "world units/s"), for axis titles; "" where the label says it

  static Param f(const char* name, const char* label, float* v, float lo, float hi, float def, const char* tip, bool log = false) {
    return {name, label, ParamType::Float, v, lo, hi, def, tip, nullptr, log};
  }
  static Param i(const char* name, const char* label, int* v, int lo, int hi, int def, const char* tip, bool log = false) {
    return {name, label, ParamType::Int, v, float(lo), float(hi), float(def), tip, nullptr, log};
  }
  static Param b(const char* name, const char* label, bool* v, bool def, const char* tip) {
    return {name, label, ParamType::Bool, v, 0, 1, def ? 1.0f : 0.0f, tip, nullptr, false};
  }
  // Options name the field's values in order: option k is E(k).
  template <class E>
  static Param e(const char* name, const char* label, E* v, const char* options, std::type_identity_t<E> def,
                 const char* tip) {
    Param p{name, label, ParamType::Enum, v, 0, float(optionCount(options) - 1), float(int(def)), tip, options, false};
    p.readOption = [](const void* field) { return int(*static_cast<const E*>(field)); };
    p.writeOption = [](void* field, int index) { *static_cast<E*>(field) = E(index); };
    return p;
  }
  static int optionCount(const char* options);
  // The same declaration, left out of the generated widgets (see noSlider).
  Param withoutSlider() const {
    Param p = *this;
    p.noSlider = true;
    return p;
  }
  // The same declaration, its values counted in `u`.
  Param withUnit(const char* u) const {
    Param p = *this;
    p.unit = u;
    return p;
  }
  // The same declaration, of a setting the scene keeps (N, a view), not of the model.
  Param ofScene() const {
    Param p = *this;
    p.ofModel = false;
    return p;
  }

  double get() const;
  void set(double v) const;  // no range check; see setParamValue
  std::string option(int index) const;  // Enum name
  std::string valueText() const;        // as --set would accept it
  std::string rangeText() const;
};

// Writes every parameter's default.
void applyDefaults(std::span<const Param> params);
const Param* findParam(std::span<const Param> params, const std::string& name);

// Parses `text` for one parameter: numbers, true/false/on/off/1/0, or an Enum option name.
// Rejects malformed, NaN/inf and out-of-range values with a message; the value is untouched then.
bool setParamFromText(const Param& p, const std::string& text, std::string& error);
// "name=value" as given to --set.
bool setParamAssignment(std::span<const Param> params, const std::string& assignment, std::string& error);

// Presets: {"scene": "...", "params": {name: value, ...}}. Loading validates every field first and
// applies nothing if any is wrong, so a bad file leaves the scene as it was.
nlohmann::json paramsToJson(std::span<const Param> params, const std::string& sceneName);
bool paramsFromJson(std::span<const Param> params, const nlohmann::json& doc, const std::string& sceneName,
                    std::string& error);
bool loadPresetFile(std::span<const Param> params, const std::string& path, const std::string& sceneName,
                    std::string& error);
// The same from text already in memory; `label` names the source in messages.
bool loadPresetText(std::span<const Param> params, const std::string& text, const std::string& label,
                    const std::string& sceneName, std::string& error);
// Writes to a temporary file, then renames it over the target: never a half-written preset.
bool savePresetFile(std::span<const Param> params, const std::string& path, const std::string& sceneName,
                    std::string& error);

// One line per parameter: name, default, range, tooltip (for --list-params).
std::string describeParams(std::span<const Param> params);

}  // namespace scenes
