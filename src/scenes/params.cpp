#include "scenes/params.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include "io/atomic_file.hpp"
#include "io/user_files.hpp"

namespace scenes {

int Param::optionCount(const char* options) {
  if (!options || !*options) return 0;
  int n = 1;
  for (const char* c = options; *c; ++c) n += (*c == '|');
  return n;
}

std::string Param::option(int index) const {
  std::string all = options ? options : "";
  size_t start = 0;
  for (int k = 0; k < index; ++k) {
    start = all.find('|', start);
    if (start == std::string::npos) return {};
    ++start;
  }
  size_t end = all.find('|', start);
  return all.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

double Param::get() const {
  switch (type) {
    case ParamType::Float: return *static_cast<float*>(value);
    case ParamType::Int: return *static_cast<int*>(value);
    case ParamType::Enum: return readOption(value);
    case ParamType::Bool: return *static_cast<bool*>(value) ? 1.0 : 0.0;
  }
  return 0;
}

void Param::set(double v) const {
  switch (type) {
    case ParamType::Float: *static_cast<float*>(value) = static_cast<float>(v); break;
    case ParamType::Int: *static_cast<int*>(value) = static_cast<int>(std::lround(v)); break;
    case ParamType::Enum: writeOption(value, static_cast<int>(std::lround(v))); break;
    case ParamType::Bool: *static_cast<bool*>(value) = v != 0.0; break;
  }
}

namespace {
std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}
}  // namespace

std::string Param::valueText() const {
  switch (type) {
    case ParamType::Float: return number(get());
    case ParamType::Int: return std::to_string(int(get()));
    case ParamType::Bool: return get() != 0 ? "true" : "false";
    case ParamType::Enum: return option(int(get()));
  }
  return {};
}

std::string Param::rangeText() const {
  switch (type) {
    case ParamType::Float: return number(min) + ".." + number(max);
    case ParamType::Int: return std::to_string(int(min)) + ".." + std::to_string(int(max));
    case ParamType::Bool: return "true|false";
    case ParamType::Enum: return options ? options : "";
  }
  return {};
}

void applyDefaults(std::span<const Param> params) {
  for (const Param& p : params) p.set(p.defaultValue);
}

const Param* findParam(std::span<const Param> params, const std::string& name) {
  for (const Param& p : params)
    if (name == p.name) return &p;
  return nullptr;
}

namespace {
// A number for p, checked as p will store it. A Float limit is a float: "0.2" must be compared as
// the float 0.2 it becomes, or the documented minimum 0.2 would lie "outside 0.2..5".
bool checkNumber(const Param& p, double v, const std::string& shown, double& out, std::string& why) {
  auto outside = [&] {
    why = shown + " is outside " + p.rangeText();
    return false;
  };
  if (!std::isfinite(v)) { why = shown + " is not a finite number"; return false; }
  if (p.type == ParamType::Int && v != std::floor(v)) { why = shown + " is not a whole number"; return false; }
  if (p.type != ParamType::Float) {
    if (v < p.min || v > p.max) return outside();
    out = v;
    return true;
  }
  if (std::fabs(v) > double(std::numeric_limits<float>::max())) return outside();
  if (v != 0.0 && std::fabs(v) < double(std::numeric_limits<float>::min())) {
    why = shown + " is too close to zero to store (denormal; use 0)";
    return false;
  }
  const float stored = static_cast<float>(v);
  if (stored < p.min || stored > p.max) return outside();
  out = stored;
  return true;
}

// Parses a value for p into `out` without writing it.
bool parseValue(const Param& p, const std::string& text, double& out, std::string& error) {
  auto bad = [&](const std::string& why) {
    error = "parameter '" + std::string(p.name) + "': " + why;
    return false;
  };
  const std::string shown = io::quoteText(text);
  if (p.type == ParamType::Bool) {
    if (text == "true" || text == "on" || text == "1" || text == "yes") { out = 1; return true; }
    if (text == "false" || text == "off" || text == "0" || text == "no") { out = 0; return true; }
    return bad(shown + " is not true or false");
  }
  if (p.type == ParamType::Enum) {
    for (int k = 0; k < Param::optionCount(p.options); ++k)
      if (text == p.option(k)) { out = k; return true; }
    return bad(shown + " is not one of " + p.rangeText());
  }
  if (text.empty()) return bad("empty value");
  // strtod skips leading blanks but stops at trailing ones: refuse both, so " 5" and "5 " agree.
  if (std::isspace(static_cast<unsigned char>(text.front())) || std::isspace(static_cast<unsigned char>(text.back())))
    return bad(shown + " has spaces around the number");
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || size_t(end - text.c_str()) != text.size()) return bad(shown + " is not a number");
  if (errno == ERANGE) {
    // Overflow gives +-HUGE_VAL, underflow a denormal or zero: both are numbers, just out of reach.
    return bad(std::fabs(v) > 1.0 ? shown + " is out of range (too large)"
                                  : shown + " is too close to zero to store (denormal; use 0)");
  }
  std::string why;
  if (!checkNumber(p, v, shown, out, why)) return bad(why);
  return true;
}

bool parseJsonValue(const Param& p, const nlohmann::json& j, double& out, std::string& error) {
  auto bad = [&](const std::string& why) {
    error = why;
    return false;
  };
  switch (p.type) {
    case ParamType::Bool:
      if (!j.is_boolean()) return bad("expected true or false, got " + io::jsonExcerpt(j));
      out = j.get<bool>() ? 1 : 0;
      return true;
    case ParamType::Enum:
      if (!j.is_string()) return bad("expected one of " + p.rangeText() + ", got " + io::jsonExcerpt(j));
      {
        std::string ignored;
        if (parseValue(p, j.get<std::string>(), out, ignored)) return true;
      }
      return bad(io::jsonExcerpt(j) + " is not one of " + p.rangeText());
    case ParamType::Int:
    case ParamType::Float:
      if (!j.is_number()) return bad("expected a number, got " + io::jsonExcerpt(j));
      return checkNumber(p, j.get<double>(), io::jsonExcerpt(j), out, error);
  }
  return false;
}
}  // namespace

bool setParamFromText(const Param& p, const std::string& text, std::string& error) {
  double v = 0;
  if (!parseValue(p, text, v, error)) return false;
  p.set(v);
  return true;
}

bool setParamAssignment(std::span<const Param> params, const std::string& assignment, std::string& error) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--set expects name=value, got " + io::quoteText(assignment);
    return false;
  }
  std::string name = assignment.substr(0, eq);
  const Param* p = findParam(params, name);
  if (!p) {
    error = "unknown parameter " + io::quoteText(name) + " (see --list-params)";
    return false;
  }
  return setParamFromText(*p, assignment.substr(eq + 1), error);
}

nlohmann::json paramsToJson(std::span<const Param> params, const std::string& sceneName) {
  nlohmann::json values = nlohmann::json::object();
  for (const Param& p : params) {
    switch (p.type) {
      case ParamType::Float: values[p.name] = static_cast<float>(p.get()); break;
      case ParamType::Int: values[p.name] = static_cast<int>(p.get()); break;
      case ParamType::Bool: values[p.name] = p.get() != 0; break;
      case ParamType::Enum: values[p.name] = p.valueText(); break;
    }
  }
  return {{"scene", sceneName}, {"params", values}};
}

bool paramsFromJson(std::span<const Param> params, const nlohmann::json& doc, const std::string& sceneName,
                    std::string& error) {
  if (!doc.is_object()) { error = "expected a JSON object"; return false; }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    // "tuned": where a tuned preset came from (objective, scores, seeds; crowdlab tune): read, not applied.
    if (it.key() == "tuned" && !it.value().is_object()) {
      error = "field 'tuned': expected an object";
      return false;
    }
    if (it.key() != "scene" && it.key() != "params" && it.key() != "name" && it.key() != "description" &&
        it.key() != "tuned") {
      error = "unknown field " + io::quoteText(it.key());
      return false;
    }
  }
  if (doc.contains("scene")) {
    if (!doc["scene"].is_string()) { error = "field 'scene': expected a string"; return false; }
    if (doc["scene"].get<std::string>() != sceneName) {
      error = "field 'scene': this preset is for " + io::quoteText(doc["scene"].get<std::string>()) + ", not '" + sceneName + "'";
      return false;
    }
  }
  if (!doc.contains("params") || !doc["params"].is_object()) { error = "field 'params': expected an object"; return false; }
  const nlohmann::json& values = doc["params"];
  std::vector<std::pair<const Param*, double>> staged;
  for (auto it = values.begin(); it != values.end(); ++it) {
    const Param* p = findParam(params, it.key());
    if (!p) { error = "unknown field " + io::quoteText("params." + it.key()); return false; }
    double v = 0;
    std::string why;
    if (!parseJsonValue(*p, it.value(), v, why)) {
      error = "field 'params." + it.key() + "': " + why;
      return false;
    }
    staged.emplace_back(p, v);
  }
  for (auto& [p, v] : staged) p->set(v);  // all valid: apply together
  return true;
}

bool loadPresetFile(std::span<const Param> params, const std::string& path, const std::string& sceneName,
                    std::string& error) {
  std::string text;
  if (io::readUserFile(path, text, error) != io::ReadStatus::Ok) return false;
  return loadPresetText(params, text, path, sceneName, error);
}

bool loadPresetText(std::span<const Param> params, const std::string& text, const std::string& label,
                    const std::string& sceneName, std::string& error) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) { error = label + ": the file is empty"; return false; }
  nlohmann::json doc;
  std::string why;
  if (!io::parseUserJson(text, doc, why)) { error = label + ": " + why; return false; }
  if (!paramsFromJson(params, doc, sceneName, why)) { error = label + ": " + why; return false; }
  return true;
}

bool savePresetFile(std::span<const Param> params, const std::string& path, const std::string& sceneName,
                    std::string& error) {
  return io::writeFileAtomically(path, paramsToJson(params, sceneName).dump(2) + "\n", error);
}

std::string describeParams(std::span<const Param> params) {
  std::string out;
  for (const Param& p : params) {
    double current = p.get();  // valueText formats the live value: show the default through it
    p.set(p.defaultValue);
    std::string def = p.valueText();
    p.set(current);
    char line[512];
    std::snprintf(line, sizeof(line), "%-22s default=%-10s range=%-18s %s\n", p.name, def.c_str(), p.rangeText().c_str(), p.tooltip);
    out += line;
  }
  return out;
}

}  // namespace scenes
